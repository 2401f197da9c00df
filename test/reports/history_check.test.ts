/**
 * Goal: `eos-sim check` on a history file written by `eos-sim run --history` finds the same
 * anomalies as the run did (issue 8's acceptance), rejects an invalid file with exit 64 and a
 * located message, and the Jepsen export has the shape of `jepsen.tests.kafka` histories.
 *
 * Method: through the CLI's `main` in-process, run failing seeds of both known-bug scenarios and
 * of unclean-election.yaml (whose lost writes need the oracle's truncations and elections) with
 * `--json --history F --jepsen-history G`; then `check F --json` must print a CheckResult equal
 * to the run report's `check`, with exit 1. Broken copies of the file (a bad op, no oracle, a
 * bad header) must exit 64 naming the line. The EDN export is read line by line: each op's
 * `:time` is its history time in nanoseconds, sends and polls carry the micro-op shapes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import type { Oracle } from '../../sim/history';
import { oracleBatchesOf, oracleRecordsOf } from '../../sim/history';
import type { RunReport } from '../../sim/runner';
import { runCli, scratchDir } from '../cli/cli_helpers';
import { HANGING_FILE, HANGING_SEED, ZOMBIE_BUG_SEED, zombieBugText } from './report_fixtures';

const scratch = scratchDir();
afterAll(() => scratch.remove());

/** The zombie-fencing bug variant in its pre-KIP-890 configuration (see report_fixtures.ts). */
const zombieBugFile = scratch.write('zombie-fencing-no-epoch-check.yaml', zombieBugText());

const FAILING_SEEDS = [
  { file: zombieBugFile, seed: ZOMBIE_BUG_SEED },
  { file: 'scenarios/known-bugs/retry-without-idempotence.yaml', seed: '1' },
  { file: 'scenarios/unclean-election.yaml', seed: '1' },
  { file: HANGING_FILE, seed: HANGING_SEED },
];

/** Runs a seed with --history and --jepsen-history; returns the report and the file paths. */
async function recordRun(file: string, seed: string) {
  const name = file.replace(/^.*\//, '').replace(/\W+/g, '_');
  const history = `${scratch.path}/${name}-${seed}.jsonl`;
  const jepsen = `${scratch.path}/${name}-${seed}.edn`;
  const argv = ['run', file, '--seed', seed, '--json', '--history', history];
  const call = await runCli(main, [...argv, '--jepsen-history', jepsen]);
  const report = JSON.parse(call.stdout) as RunReport;
  expect(call.stderr).toContain(`wrote history ${history}`);
  return { report, history, jepsen };
}

describe('eos-sim check on histories written by eos-sim run', () => {
  for (const { file, seed } of FAILING_SEEDS) {
    it(`finds what the run found: ${file} seed ${seed}`, async () => {
      const { report, history } = await recordRun(file, seed);
      expect(report.check.anomalyTypes.length).toBeGreaterThan(0);
      const call = await runCli(main, ['check', history, '--json']);
      expect(call.code).toBe(1);
      // The run's own anomalies: same kinds, counts, examples and explanations.
      expect(JSON.parse(call.stdout)).toEqual(report.check);
      const text = await runCli(main, ['check', history]);
      expect(text.stdout).toContain('verdict: INVALID');
      for (const { kind, count } of report.check.anomalyCounts) {
        expect(text.stdout).toContain(`${count} ${kind}`);
      }
    });
  }

  it('exits 0 on the history of a valid run', async () => {
    const { report, history } = await recordRun('scenarios/zombie-fencing.yaml', '1');
    expect(report.check.valid).toBe(true);
    const call = await runCli(main, ['check', history]);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('verdict: valid');
  });
});

describe('eos-sim check on an oracle given one record per offset', () => {
  it('finds what it finds in the batches eos-sim writes', async () => {
    const { report, history } = await recordRun(zombieBugFile, ZOMBIE_BUG_SEED);
    const lines = readFileSync(history, 'utf8').trimEnd().split('\n');
    const { oracle } = JSON.parse(lines.at(-1) ?? '') as { oracle: Oracle };
    const perRecord: Oracle = {
      ...oracle,
      partitions: oracle.partitions.map(({ batches, replicas, ...partition }) => ({
        ...partition,
        records: oracleRecordsOf(batches ?? []),
        ...(replicas === undefined
          ? {}
          : {
              replicas: replicas.map(({ batches: held, ...replica }) => ({
                ...replica,
                records: oracleRecordsOf(oracleBatchesOf({ batches: held ?? [] })),
              })),
            }),
      })),
    };
    const file = [...lines.slice(0, -1), JSON.stringify({ oracle: perRecord })].join('\n');
    const call = await runCli(main, ['check', scratch.write('per-record.jsonl', file), '--json']);
    const result = JSON.parse(call.stdout) as RunReport['check'];
    expect(report.check.anomalyCounts.length).toBeGreaterThan(0);
    expect(result.anomalyCounts).toEqual(report.check.anomalyCounts);
    expect(result.valid).toBe(report.check.valid);
  });
});

describe('eos-sim check on invalid files', () => {
  const source = `${scratch.path}/source.jsonl`;

  it('names the line and the field, and exits 64', async () => {
    const { history } = await recordRun(zombieBugFile, ZOMBIE_BUG_SEED);
    writeFileSync(source, readFileSync(history, 'utf8'));
    const lines = readFileSync(source, 'utf8').trimEnd().split('\n');
    const op = JSON.parse(lines[3] ?? '') as Record<string, unknown>;
    const cases: Array<{ text: string; message: string }> = [
      {
        text: [
          ...lines.slice(0, 3),
          JSON.stringify({ ...op, type: 'done' }),
          ...lines.slice(4),
        ].join('\n'),
        message: 'line 4: `type` must be one of invoke, ok, fail, info',
      },
      { text: lines.slice(0, -1).join('\n'), message: 'no {"oracle": …} line' },
      {
        text: [...lines.slice(0, -1), oracleWithBothLogForms(lines.at(-1) ?? '')].join('\n'),
        message: 'must have exactly one of `batches` and `records` as an array',
      },
      { text: ['{"format":"other"}', ...lines.slice(1)].join('\n'), message: 'line 1: the header' },
      { text: [lines[0], 'not json'].join('\n'), message: 'line 2: not JSON' },
    ];
    for (const { text, message } of cases) {
      const broken = scratch.write('broken.jsonl', text);
      const call = await runCli(main, ['check', broken]);
      expect(call.code, message).toBe(64);
      expect(call.stderr).toContain(message);
    }
    const missing = await runCli(main, ['check', `${scratch.path}/missing.jsonl`]);
    expect(missing.code).toBe(64);
  });
});

/** One exported op: index, time in ns, type, process, f and value, in Jepsen's key order. */
const OP_LINE = new RegExp(
  '^\\{:index \\d+, :time \\d+, :type :(invoke|ok|fail|info), :process (\\d+|:nemesis), ' +
    ':f :(send|poll|txn|start|stop), :value .*\\}$',
);

describe('the Jepsen export', () => {
  it('has one EDN op per line in the shape of jepsen.tests.kafka', async () => {
    const { jepsen, history } = await recordRun(zombieBugFile, ZOMBIE_BUG_SEED);
    const lines = readFileSync(jepsen, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^;; eos-sim history in the shape of jepsen\.tests\.kafka/);
    expect(lines).toContain(';;   0 = orders-0');
    const ops = lines.filter((line) => !line.startsWith(';;'));
    const ours = readFileSync(history, 'utf8').trimEnd().split('\n').slice(1, -1);
    const kept = ours.map((line) => JSON.parse(line) as { f: string; timeUs: number });
    const exported = kept.filter((op) => op.f !== 'init');
    expect(ops).toHaveLength(exported.length);
    ops.forEach((line, index) => {
      expect(line).toMatch(OP_LINE);
      expect(line).toContain(`:index ${index}, :time ${(exported[index]?.timeUs ?? -1) * 1000},`);
    });
    expect(ops.some((line) => /:f :txn, :value \[\[:send \d+ \d+\]/.test(line))).toBe(true);
    expect(
      ops.some((line) => /:type :ok, .*:f :txn, :value \[\[:send \d+ \[\d+ \d+\]\]/.test(line)),
    ).toBe(true);
    expect(ops.some((line) => /:f :poll, :value \[\[:poll \{\d+ \[\[\d+ \d+\]/.test(line))).toBe(
      true,
    );
    expect(ops.some((line) => /:process :nemesis, :f :start, :value "GC pause/.test(line))).toBe(
      true,
    );
  });
});

/** The oracle line with its first partition's log given both as batches and as records. */
function oracleWithBothLogForms(line: string): string {
  const { oracle } = JSON.parse(line) as { oracle: Oracle };
  const [first, ...rest] = oracle.partitions;
  if (first === undefined) throw new Error('Expected an oracle partition');
  const both = { ...first, records: oracleRecordsOf(oracleBatchesOf(first)) };
  return JSON.stringify({ oracle: { ...oracle, partitions: [both, ...rest] } });
}
