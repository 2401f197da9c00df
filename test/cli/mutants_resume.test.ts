/**
 * Goal: `eos-sim mutants --out DIR` loses nothing a user ran and `--resume` redoes nothing: a
 * search stopped after some runs (any number of times, a line cut short by the kill each time)
 * and resumed ends with the very table files (`table.md`, `table.json`) an uninterrupted search
 * writes, whatever the number of runs under way; a resumed session never runs a recorded run
 * again; a resume under other settings (seeds, switches, base file) is refused with a usage
 * error, before any run. Method: the search of cli/mutant_search.ts with the `--out` folder of
 * cli/mutant_runs.ts, on the real bases of transactions-random-faults.yaml and made-up runs
 * (2 switches x seeds 1..3, scrambled finish order), stopped by a runner that rejects after a
 * few runs; the CLI in-process for the refusals.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { mutantSettingsOf } from '../../cli/commands/mutants';
import { LOCK_FILE_NAME } from '../../cli/out_lock';
import {
  RUNS_FILE_NAME,
  TABLE_FILE_NAMES,
  openMutantOut,
  runKey,
  type MutantRunner,
  type MutantSettings,
} from '../../cli/mutant_runs';
import { searchMutants, type MutantTask } from '../../cli/mutant_search';
import { genericBases, type MutantRun } from '../../cli/mutants';
import { loadScenario, type BugId } from '../../scenarios';
import { runCli, scratchDir } from './cli_helpers';

const FILE = 'scenarios/transactions-random-faults.yaml';
const IDS: BugId[] = ['KAFKA-6119', 'KAFKA-9144'];
const SEEDS = ['1', '2', '3'];
const RANGE = { first: '1', last: '3' };
const bases = genericBases(loadScenario(FILE));
const settings: MutantSettings = mutantSettingsOf(FILE, IDS, RANGE);
const scratch = scratchDir();
afterAll(() => scratch.remove());

const pass = (eventHash: string): MutantRun => ({ outcome: 'pass', eventHash, kind: 'pass' });
const fail = (eventHash: string, kind: string): MutantRun => ({ outcome: 'fail', eventHash, kind });

/**
 * Made-up runs: the tv0 control fails at seed 3; KAFKA-6119 fails on tv2 at seed 1 with the
 * control's events (rejected) and on tv0 at seed 2 (the catch); KAFKA-9144 fails on tv0 at
 * seed 3, where the control fails too (rejected), and on idempotent at seed 2 with a kind that
 * control found, permitted (rejected: a record that lost `found` would make it a catch).
 */
function madeUp(task: MutantTask): MutantRun {
  const where = `${task.bug ?? 'control'}@${task.base}#${task.seed}`;
  const control = `control-${task.base}-${task.seed}`;
  if (where === 'control@tv0#3') return fail('c', 'liveness');
  if (where === 'KAFKA-6119@tv2#1') return fail(control, 'duplicate');
  if (where === 'KAFKA-6119@tv0#2') return { ...fail(where, 'lost-write'), found: ['lost-write'] };
  if (where === 'KAFKA-9144@tv0#3') return fail(where, 'duplicate');
  if (where === 'KAFKA-9144@idempotent#2') return fail(where, 'epoch-bump-duplicate');
  if (where === 'control@idempotent#2')
    return { ...pass(control), found: ['epoch-bump-duplicate'] };
  return pass(control);
}

/** `madeUp` after a delay that scrambles the order runs finish in. */
const scrambled: MutantRunner = (task) => {
  const delay = (Number(task.seed) * 7 + task.base.length * 13 + (task.bug?.length ?? 0)) % 5;
  return new Promise((resolve) => setTimeout(() => resolve(madeUp(task)), delay));
};

/** Searches into `out` with `run` and closes the folder; returns the table files' text. */
async function searchInto(input: {
  out: string;
  resume: boolean;
  run: MutantRunner;
  concurrency: number;
}): Promise<{ markdown: string; json: string }> {
  const out = openMutantOut({ out: input.out, resume: input.resume, settings });
  try {
    const output = await searchMutants({
      ids: IDS,
      bases,
      seeds: SEEDS,
      run: out.record(input.run),
      concurrency: input.concurrency,
    });
    out.writeTables(output, SEEDS);
  } finally {
    out.close();
  }
  return {
    markdown: readFileSync(join(input.out, TABLE_FILE_NAMES.markdown), 'utf8'),
    json: readFileSync(join(input.out, TABLE_FILE_NAMES.json), 'utf8'),
  };
}

/** The keys of the runs `runs.jsonl` of `out` records (its complete lines after the first). */
function recordedKeys(out: string): string[] {
  const lines = readFileSync(join(out, RUNS_FILE_NAME), 'utf8').split('\n').slice(1, -1);
  return lines.map((line) => {
    const run = JSON.parse(line) as MutantTask;
    return runKey(run);
  });
}

/**
 * A runner that runs `scrambled`, refuses any recorded run (a resume must not redo one), and
 * rejects on its `stopAfter + 1`-th call, as a kill would end the session.
 */
function session(recorded: ReadonlySet<string>, stopAfter: number): MutantRunner {
  let calls = 0;
  return async (task) => {
    if (recorded.has(runKey(task))) throw new Error(`ran ${runKey(task)} again`);
    calls += 1;
    if (calls > stopAfter) throw new Error('stopped');
    return scrambled(task);
  };
}

describe('eos-sim mutants --out and --resume', () => {
  it('writes the same table at any number of runs under way', async () => {
    const whole = await searchInto({
      out: join(scratch.path, 'whole-1'),
      resume: false,
      run: scrambled,
      concurrency: 1,
    });
    expect(whole.markdown).toMatch(
      /KAFKA-6119 \| yes\s+\| 2\s+\| lost-write \| tv0.*same-events 1/,
    );
    expect(whole.markdown).toMatch(
      /KAFKA-9144 \| no\s+\| none in 3 .*control-has-kind 1, control-failed 1/,
    );
    expect(whole.markdown).toContain('- base tv0: FAILED without any switch');
    for (const concurrency of [2, 7]) {
      const out = join(scratch.path, `whole-${concurrency}`);
      const many = await searchInto({ out, resume: false, run: scrambled, concurrency });
      expect(many).toEqual(whole);
    }
  });

  it('ends with the uninterrupted table after stops, cut lines and resumes', async () => {
    const whole = await searchInto({
      out: join(scratch.path, 'reference'),
      resume: false,
      run: scrambled,
      concurrency: 3,
    });
    const out = join(scratch.path, 'interrupted');
    const path = join(out, RUNS_FILE_NAME);
    let resume = false;
    let stops = 0;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const recorded = resume ? new Set(recordedKeys(out)) : new Set<string>();
      const stopping = searchInto({ out, resume, run: session(recorded, 4), concurrency: 3 });
      const ended = await stopping.then(
        (tables) => ({ tables }),
        (error: unknown) => ({ error }),
      );
      if ('tables' in ended) {
        expect(ended.tables).toEqual(whole);
        break;
      }
      expect(String(ended.error)).toContain('stopped');
      stops += 1;
      // Runs finished before the stop are on disk, one line each; the lock is gone.
      expect(recordedKeys(out).length).toBeGreaterThanOrEqual(recorded.size + 4);
      expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);
      appendFileSync(path, '{"base":"tv2","bug":null,"eventHa');
      resume = true;
    }
    expect(stops).toBeGreaterThan(1);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    const keys = recordedKeys(out);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('stops on a runner that throws, once the runs under way have ended', async () => {
    const throwing = (): MutantRunner => {
      let calls = 0;
      return (task) => {
        calls += 1;
        if (calls === 3) throw new Error('thrown');
        return scrambled(task);
      };
    };
    const direct = { ids: IDS, bases, seeds: SEEDS, concurrency: 4 };
    await expect(searchMutants({ ...direct, run: throwing() })).rejects.toThrow('thrown');
    const out = join(scratch.path, 'thrown');
    const recorded = searchInto({ out, resume: false, run: throwing(), concurrency: 4 });
    await expect(recorded).rejects.toThrow('thrown');
    // Calls 1, 2 and 4 (started before the throw settled) ran to the end and are on disk.
    expect(recordedKeys(out).length).toBeGreaterThanOrEqual(2);
  }, 10_000);

  it('starts afresh without --resume, and refuses a damaged line in the middle', async () => {
    const out = join(scratch.path, 'fresh');
    // One runner at a time, finishing in order: the number of runs is then fixed (with more
    // runners, how many runs were under way when a switch settled depends on timing).
    const inOrder: MutantRunner = (task) => Promise.resolve(madeUp(task));
    await searchInto({ out, resume: false, run: inOrder, concurrency: 1 });
    const first = recordedKeys(out);
    await searchInto({ out, resume: false, run: inOrder, concurrency: 1 });
    expect(recordedKeys(out)).toEqual(first);
    const path = join(out, RUNS_FILE_NAME);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = '{"type":"run"';
    writeFileSync(path, lines.join('\n'));
    expect(() => openMutantOut({ out, resume: true, settings })).toThrow(
      `${path}:3 is not a mutants run line: not JSON`,
    );
  });
});

describe('eos-sim mutants --resume refusals', () => {
  const out = join(scratch.path, 'other');
  openMutantOut({ out, resume: false, settings }).close();

  it.each([
    [['--seeds', '1..4', '--switch', IDS.join(',')], 'seeds 1..3 there, 1..4 here'],
    [['--seeds', '1..3', '--switch', 'KAFKA-6119'], 'switches KAFKA-6119,KAFKA-9144 there'],
    [
      ['--seeds', '1..3', '--switch', IDS.join(','), '--base', 'scenarios/zombie-fencing.yaml'],
      'base file scenarios/transactions-random-faults.yaml (another file or version) there',
    ],
  ])('refuses another search in the folder (%j) before any run', async (flags, why) => {
    const before = readFileSync(join(out, RUNS_FILE_NAME), 'utf8');
    const { code, stderr } = await runCli(main, ['mutants', ...flags, '--out', out, '--resume']);
    expect(code).toBe(64);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('records another mutants search');
    expect(stderr).toContain(why);
    expect(readFileSync(join(out, RUNS_FILE_NAME), 'utf8')).toBe(before);
    expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);
  });

  it('refuses --resume without --out', async () => {
    const { code, stderr } = await runCli(main, ['mutants', '--seeds', '1..2', '--resume']);
    expect(code).toBe(64);
    expect(stderr).toContain('--resume needs --out');
  });
});
