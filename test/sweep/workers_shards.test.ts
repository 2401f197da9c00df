/**
 * Goal: a seed's result does not depend on the number of workers or on the shard (DESIGN.md,
 * determinism contract): zombie-fencing seeds 1..12 give the same result lines (ignoring
 * `wallMs`) and the same summary with `--workers 1`, with `--workers 2`, and as four shards
 * merged by `eos-sim report merge`. Merging also deduplicates repeated lines, reports conflicting
 * ones (exit 3), warns about seeds missing inside the merged range (a shard left out), and
 * applies `--require-coverage`.
 *
 * Method: run the CLI in-process with captured streams, each sweep into its own temporary
 * `--out`; compare the sorted sets of canonical lines and the `--json` summaries without their
 * wall-clock part. The conflict case edits one line's event hash by hand.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_FILE_NAME, canonicalJson } from '../../cli/index';
import { main } from '../../cli';
import { runCli, scratchDir, type CliCall } from '../cli/cli_helpers';
import { ZOMBIE, deterministicSummary, resultLines, resultSet, resultsText } from './sweep_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);

const SEEDS = '1..12';
const scratch = scratchDir();
const out = (name: string): string => join(scratch.path, name);
const results = (name: string): string => join(out(name), RESULTS_FILE_NAME);
const summaries = new Map<string, unknown>();

beforeAll(async () => {
  const sweep = async (name: string, extra: readonly string[]): Promise<void> => {
    const argv = ['sweep', ZOMBIE, '--seeds', SEEDS, '--out', out(name), '--json', ...extra];
    const { code, stdout } = await cli(argv);
    expect(code, name).toBe(0);
    summaries.set(name, deterministicSummary(stdout));
  };
  await sweep('workers-1', ['--workers', '1']);
  await sweep('workers-2', ['--workers', '2']);
  // The four shards run at once, as CI jobs would.
  await Promise.all(
    [1, 2, 3, 4].map((shard) =>
      sweep(`shard-${shard}`, ['--workers', '1', '--shard', `${shard}/4`]),
    ),
  );
}, 120_000);
afterAll(() => scratch.remove());

describe('per-seed results are independent of workers and shards', () => {
  it('gives every seed once, in canonical form, with 1 and 2 workers', () => {
    const lines = resultLines(out('workers-1'));
    expect(lines.map((line) => line.seed).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 12 }, (_, index) => String(index + 1)),
    );
    for (const text of resultsText(out('workers-2')).trimEnd().split('\n')) {
      expect(text).toBe(canonicalJson(JSON.parse(text)));
    }
    expect(resultSet(out('workers-2'))).toEqual(resultSet(out('workers-1')));
    expect(summaries.get('workers-2')).toEqual(summaries.get('workers-1'));
  });

  it('runs each seed in exactly one shard, and the shards together equal the whole', () => {
    const shards = [1, 2, 3, 4].map((shard) => resultLines(out(`shard-${shard}`)));
    expect(shards.map((lines) => lines.map((line) => line.seed).sort())).toEqual([
      ['1', '5', '9'],
      ['10', '2', '6'],
      ['11', '3', '7'],
      ['12', '4', '8'],
    ]);
    const union = [1, 2, 3, 4].flatMap((shard) => resultSet(out(`shard-${shard}`))).sort();
    expect(union).toEqual(resultSet(out('workers-1')));
  });

  it('merges the shards into the same summary as the unsharded sweep', async () => {
    const files = [1, 2, 3, 4].map((shard) => results(`shard-${shard}`));
    // Shard 1 twice: identical duplicates are merged silently.
    const { code, stdout, stderr } = await cli([
      'report',
      'merge',
      ...files,
      files[0] ?? '',
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(deterministicSummary(stdout)).toEqual(summaries.get('workers-1'));
  });
});

describe('eos-sim report merge', () => {
  it('reports conflicting results for one seed and exits 3', async () => {
    const [first] = resultLines(out('shard-1'));
    const edited = join(scratch.path, 'edited.jsonl');
    writeFileSync(edited, `${canonicalJson({ ...first, eventHash: 'ffffffffffffffff' })}\n`);
    const { code, stderr } = await cli(['report', 'merge', results('workers-1'), edited]);
    expect(code).toBe(3);
    expect(stderr).toBe(
      `Conflicting results for ${ZOMBIE} seed ${first?.seed}: ` +
        `eventHash ${first?.eventHash} vs ffffffffffffffff\n`,
    );
  });

  it('fails naming the seeds missing inside the merged range, unless --allow-gaps', async () => {
    const files = [1, 2, 4].map((shard) => results(`shard-${shard}`));
    const gap =
      `${ZOMBIE}: 9 of the 12 seeds 1..12 are recorded; missing 3, 7, 11 ` +
      '(a shard not merged, or one that did not finish?)\n';
    const { code, stdout, stderr } = await cli(['report', 'merge', ...files]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Error: ${gap}Merge incomplete: exit 1; pass --allow-gaps to accept the missing seeds\n`,
    );
    expect(stdout).toContain('total: 1 scenario, 9 runs');
    const allowed = await cli(['report', 'merge', ...files, '--allow-gaps']);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toBe(`Warning: ${gap}`);
    const empty = join(scratch.path, 'empty.jsonl');
    writeFileSync(empty, '');
    const none = await cli(['report', 'merge', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr.split('\n')[0]).toBe('Error: the results files hold no result lines');
    const noneAllowed = await cli(['report', 'merge', empty, '--allow-gaps']);
    expect(noneAllowed.code).toBe(0);
    expect(noneAllowed.stderr).toBe('Warning: the results files hold no result lines\n');
  });

  it('fails when a --require-coverage item was never reached, and names it', async () => {
    const file = results('workers-1');
    const reached = await cli([
      'report',
      'merge',
      file,
      '--require-coverage',
      'fault:pause,grant:timeout',
    ]);
    expect(reached.code).toBe(0);
    expect(reached.stdout).toContain('required coverage: fault:pause reached');
    expect(reached.stdout).toMatch(/^error +\| PRODUCER_FENCED +\| +12 \| +12$/m);
    const missed = await cli([
      'report',
      'merge',
      file,
      '--require-coverage',
      'PRODUCER_FENCED,fault:crash',
    ]);
    expect(missed.code).toBe(1);
    expect(missed.stdout).toContain('required coverage: PRODUCER_FENCED reached');
    expect(missed.stdout).toContain('required coverage: fault:crash NEVER reached');
    const bad = await cli(['report', 'merge', file, '--require-coverage', 'state:Ongoing']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/^Usage error: --require-coverage items are category:name/);
  });
});

describe('report merge keeps expect.allowed', () => {
  const PERMITTED_FATAL = new RegExp(
    'fatal-txn-error in \\d+ seeds?, \\d+ anomal(y|ies)\\n\\s+' +
      'permitted by Kafka \\(transaction-version-1\\)',
  );

  it('a kind Kafka permits stays permitted in the merge of its own results', async () => {
    const file = 'scenarios/delayed-endtxn.yaml';
    const dir = out('allowed');
    const argv = ['sweep', file, '--seeds', '1..2', '--workers', '1', '--out', dir];
    const sweep = await cli(argv);
    expect(sweep.stdout).toMatch(PERMITTED_FATAL);
    const merged = await cli(['report', 'merge', join(dir, RESULTS_FILE_NAME)]);
    expect(merged.code).toBe(sweep.code);
    expect(merged.stdout).not.toContain('NOT allowed');
    expect(merged.stdout).toMatch(PERMITTED_FATAL);
    expect(merged.stdout).toContain('every expectation met');
  });
});
