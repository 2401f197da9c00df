/**
 * JUnit XML of a sweep, for CI pages (GitHub Actions test reporters, GitLab, Jenkins): one
 * `<testsuite>` per scenario and one `<testcase>` per seed. A seed that did not pass carries a
 * `<failure>` (anomaly, unmet expectation, liveness, budget) or an `<error>` (internal error)
 * whose message names what went wrong and whose text holds the paste-ready reproduce command.
 *
 * The shape follows the strictest common schema, Windy Road's XSD of Apache Ant's JUnit output
 * (`JUnit.xsd`): every `<testsuite>` inside `<testsuites>` has `name`, `package`,
 * `id`, `timestamp`, `hostname`, `tests`, `failures`, `errors` and `time`, and the children
 * `<properties>`, the test cases, `<system-out>` and `<system-err>`, in that order; every
 * `<testcase>` has `name`, `classname` and `time`; `<failure>` and `<error>` have `message` and
 * `type`. That schema declares no attributes on `<testsuites>` and no `skipped`, so there are
 * none (CI pages add the suites up themselves). It also wants a suite `name` and `hostname` of
 * at least one character after whitespace collapsing: a blank scenario name falls back to the
 * file name, a blank host name to `localhost` (the schema's own advice). Jenkins' JUnit schema
 * (dtkit's `junit-4.xsd`) accepts the same file. Text is escaped, and characters XML 1.0 forbids
 * (terminal escapes) are dropped. Pure: wall-clock values (timestamp, hostname, times) come in
 * as data.
 */
import type { SweepResultLine } from './sweep_types';

/** One scenario's lines, as one test suite. */
export interface JunitSuite {
  readonly scenario: string;
  readonly file: string;
  readonly hash: string;
  /** The scenario's lines in seed order. */
  readonly lines: readonly SweepResultLine[];
}

/** Options of {@link renderJunit}. */
export interface JunitOptions {
  /** The sweep's start, ISO 8601 without zone, e.g. `2026-11-30T10:00:00`. */
  readonly timestamp: string;
  readonly hostname: string;
  /** The artifact folder of a failing seed, named in its failure text; none when absent. */
  readonly artifactDirOf?: (line: SweepResultLine) => string;
}

/** Characters XML 1.0 does not allow, even escaped. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
/** ANSI colour codes, removed whole before the escape character itself would be. */
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/**
 * `text` escaped for an XML attribute or element, forbidden characters (and ANSI colour codes)
 * removed.
 * @example escapeXml('a < "b" & \u001b[31mc') // 'a &lt; &quot;b&quot; &amp; c'
 */
export function escapeXml(text: string): string {
  return text
    .replace(ANSI_COLOUR, '')
    .replace(FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** `text`, or `fallback` when `text` has nothing visible once escaped (an empty `xs:token`). */
function nonBlank(text: string, fallback: string): string {
  return escapeXml(text).trim() === '' ? fallback : text;
}

function attributes(values: ReadonlyArray<readonly [string, string | number]>): string {
  return values.map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`).join('');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** A kind's cover as a JUnit body says it. */
function coverText(cover: string | undefined): string {
  if (cover === undefined) return 'verdict not recorded';
  if (cover.startsWith('kafka:')) return `permitted by Kafka: ${cover.slice('kafka:'.length)}`;
  return cover === '' ? "violates Kafka's guarantee" : `violates Kafka's guarantee, ${cover}`;
}

/** The failure message: outcome and what the seed found, one line. */
function failureMessage(line: SweepResultLine): string {
  const parts: string[] = [line.outcome];
  const unexpected = new Set(line.unexpected);
  const kinds = Object.keys(line.anomalies).map((kind) =>
    unexpected.has(kind) ? `${kind} (violates Kafka's guarantee, not allowed here)` : kind,
  );
  if (kinds.length > 0) parts.push(kinds.join(', '));
  if (line.error !== undefined) parts.push(line.error);
  else if (kinds.length === 0) parts.push(...line.unmet.map((name) => `not met: ${name}`));
  return parts.join(': ');
}

function failureBody(line: SweepResultLine, options: JunitOptions): string {
  const text = [
    `scenario: ${line.scenario} (${line.file}, sha256 ${line.hash})`,
    `seed: ${line.seed}`,
    `outcome: ${line.outcome}`,
    ...Object.entries(line.anomalies).map(
      ([kind, count]) => `anomaly: ${kind} x${count} (${coverText(line.covered?.[kind])})`,
    ),
    ...line.unmet.map((name) => `not met: ${name}`),
    ...(line.error === undefined ? [] : [`error: ${line.error}`]),
    ...(line.stack === undefined ? [] : [line.stack]),
    ...(options.artifactDirOf === undefined ? [] : [`artifacts: ${options.artifactDirOf(line)}`]),
    `reproduce: ${line.reproduce}`,
  ];
  return escapeXml(text.join('\n'));
}

function renderTestcase(line: SweepResultLine, options: JunitOptions): string {
  const head = `    <testcase${attributes([
    ['name', `seed ${line.seed}`],
    ['classname', line.scenario],
    ['time', seconds(line.wallMs)],
  ])}`;
  if (line.outcome === 'pass') return `${head}/>`;
  const element = line.outcome === 'internal-error' ? 'error' : 'failure';
  const open = `<${element}${attributes([
    ['message', failureMessage(line)],
    ['type', line.outcome],
  ])}>`;
  return `${head}>\n      ${open}${failureBody(line, options)}</${element}>\n    </testcase>`;
}

function countOf(lines: readonly SweepResultLine[], errors: boolean): number {
  return lines.filter(
    (line) => line.outcome !== 'pass' && (line.outcome === 'internal-error') === errors,
  ).length;
}

function renderSuite(suite: JunitSuite, id: number, options: JunitOptions): string {
  const { lines } = suite;
  const time = lines.reduce((sum, line) => sum + line.wallMs, 0);
  const open = `  <testsuite${attributes([
    ['name', nonBlank(suite.scenario, nonBlank(suite.file, 'scenario'))],
    ['package', suite.file],
    ['id', id],
    ['timestamp', options.timestamp],
    ['hostname', nonBlank(options.hostname, 'localhost')],
    ['tests', lines.length],
    ['failures', countOf(lines, false)],
    ['errors', countOf(lines, true)],
    ['time', seconds(time)],
  ])}>`;
  const properties = [
    ['scenario.file', suite.file],
    ['scenario.sha256', suite.hash],
    ['eos-sim.version', lines[0]?.version ?? ''],
  ].map(
    ([name, value]) =>
      `      <property${attributes([
        ['name', name ?? ''],
        ['value', value ?? ''],
      ])}/>`,
  );
  return [
    open,
    '    <properties>',
    ...properties,
    '    </properties>',
    ...lines.map((line) => renderTestcase(line, options)),
    '    <system-out/>',
    '    <system-err/>',
    '  </testsuite>',
  ].join('\n');
}

/**
 * The JUnit XML document of a sweep. Ends with a newline.
 * @example
 * writeFileSync('junit.xml', renderJunit(suites, { timestamp: '2026-11-30T10:00:00',
 *   hostname: 'ci-runner-3' }));
 */
export function renderJunit(suites: readonly JunitSuite[], options: JunitOptions): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    ...suites.map((suite, index) => renderSuite(suite, index, options)),
    '</testsuites>',
    '',
  ].join('\n');
}
