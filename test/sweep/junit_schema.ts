/**
 * A structural validator for JUnit XML, written from the required elements and attributes of
 * the common JUnit schema: Apache Ant's `JUnit.xsd` (the strictest of the family; Jenkins'
 * `junit-10.xsd` accepts everything it accepts). It checks well-formedness (fast-xml-parser's
 * validator), then: `<testsuites>` holds only `<testsuite>` elements and declares no attributes;
 * each `<testsuite>` has exactly the attributes `name`, `package`, `id`, `timestamp`,
 * `hostname`, `tests`, `failures`, `errors`, `time` with the schema's types, and the children
 * `<properties>`, `<testcase>`*, `<system-out>`, `<system-err>` in that order; `<property>` has
 * `name` and `value`; `<testcase>` has `name`, `classname`, `time` and at most one `<failure>` or
 * `<error>`, each with a `type` (and optional `message`) and text only; the counts add up.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A node of fast-xml-parser's `preserveOrder` output. */
type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const TOKEN = /^\S(.*\S)?$/;
const INT = /^-?[0-9]+$/;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/;

const SUITE_ATTRIBUTES: Readonly<Record<string, RegExp>> = {
  name: TOKEN,
  package: TOKEN,
  id: INT,
  timestamp: TIMESTAMP,
  hostname: TOKEN,
  tests: INT,
  failures: INT,
  errors: INT,
  time: DECIMAL,
};
const CASE_ATTRIBUTES: Readonly<Record<string, RegExp>> = {
  name: TOKEN,
  classname: TOKEN,
  time: DECIMAL,
};

function tagOf(node: OrderedNode): string {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (tag === undefined) throw new Error('Empty node');
  return tag;
}

function childrenOf(node: OrderedNode): OrderedNode[] {
  return (node[tagOf(node)] as OrderedNode[]).filter((child) => tagOf(child) !== '#text');
}

function attributesOf(node: OrderedNode): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, value] of Object.entries(node[':@'] ?? {})) attributes[key.slice(2)] = value;
  return attributes;
}

function checkAttributes(
  where: string,
  node: OrderedNode,
  rules: {
    required: Readonly<Record<string, RegExp>>;
    optional?: Readonly<Record<string, RegExp>>;
  },
  problems: string[],
): void {
  const attributes = attributesOf(node);
  for (const [name, pattern] of Object.entries(rules.required)) {
    const value = attributes[name];
    if (value === undefined) problems.push(`${where}: missing attribute ${name}`);
    else if (!pattern.test(value)) problems.push(`${where}: attribute ${name}="${value}"`);
  }
  for (const name of Object.keys(attributes)) {
    if (rules.required[name] === undefined && rules.optional?.[name] === undefined) {
      problems.push(`${where}: undeclared attribute ${name}`);
    }
  }
}

function checkTestcase(
  where: string,
  node: OrderedNode,
  problems: string[],
): 'pass' | 'failure' | 'error' {
  checkAttributes(where, node, { required: CASE_ATTRIBUTES }, problems);
  const children = childrenOf(node);
  if (children.length > 1) problems.push(`${where}: more than one failure or error`);
  const [child] = children;
  if (child === undefined) return 'pass';
  const tag = tagOf(child);
  if (tag !== 'failure' && tag !== 'error') {
    problems.push(`${where}: unexpected <${tag}>`);
    return 'pass';
  }
  checkAttributes(
    `${where} <${tag}>`,
    child,
    { required: { type: TOKEN }, optional: { message: /^/ } },
    problems,
  );
  if (childrenOf(child).length > 0) problems.push(`${where} <${tag}>: elements inside`);
  return tag;
}

function checkSuite(where: string, suite: OrderedNode, problems: string[]): void {
  checkAttributes(where, suite, { required: SUITE_ATTRIBUTES }, problems);
  const tags = childrenOf(suite).map(tagOf);
  const shape = tags.join(' ').replace(/(testcase ?)+/, 'testcase* ');
  if (!/^properties (testcase\* )?system-out system-err$/.test(shape)) {
    problems.push(`${where}: children out of order: ${tags.join(', ')}`);
  }
  const counts = { pass: 0, failure: 0, error: 0 };
  for (const child of childrenOf(suite)) {
    const tag = tagOf(child);
    if (tag === 'properties') {
      for (const property of childrenOf(child)) {
        if (tagOf(property) !== 'property')
          problems.push(`${where}: <${tagOf(property)}> in properties`);
        checkAttributes(
          `${where} property`,
          property,
          { required: { name: TOKEN, value: /^/ } },
          problems,
        );
      }
    } else if (tag === 'testcase') {
      counts[checkTestcase(`${where} testcase ${attributesOf(child)['name']}`, child, problems)] +=
        1;
    }
  }
  const attributes = attributesOf(suite);
  const total = counts.pass + counts.failure + counts.error;
  if (Number(attributes['tests']) !== total) problems.push(`${where}: tests is not ${total}`);
  if (Number(attributes['failures']) !== counts.failure) problems.push(`${where}: failures count`);
  if (Number(attributes['errors']) !== counts.error) problems.push(`${where}: errors count`);
}

/**
 * The ways `xml` breaks the schema's required structure; empty when it conforms.
 * @example expect(junitProblems(readFileSync('junit.xml', 'utf8'))).toEqual([])
 */
export function junitProblems(xml: string): string[] {
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) return [`not well-formed: ${wellFormed.err.msg}`];
  const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, trimValues: false });
  const document = (parser.parse(xml) as OrderedNode[]).filter(
    (node) => !['?xml', '#text'].includes(tagOf(node)),
  );
  const problems: string[] = [];
  const [root] = document;
  if (document.length !== 1 || root === undefined || tagOf(root) !== 'testsuites') {
    return ['the document element is not <testsuites>'];
  }
  checkAttributes('testsuites', root, { required: {} }, problems);
  childrenOf(root).forEach((suite, index) => {
    if (tagOf(suite) !== 'testsuite') problems.push(`testsuites: <${tagOf(suite)}> inside`);
    else checkSuite(`testsuite ${index}`, suite, problems);
  });
  return problems;
}
