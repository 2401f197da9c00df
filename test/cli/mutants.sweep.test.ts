/**
 * Goal: prove `eos-sim mutants` finds a switch the checkers catch and names its kind, that a
 * catch is only counted when the same seed without the switch passes, and that every base the
 * switches are tried on is clean without any switch. Method: search the test-only mutation
 * `partition.skip.producer.epoch.check` (stale-epoch batches accepted) on
 * transactions-random-faults.yaml's bases over a few seeds with real runs in this thread;
 * require a catch with a kind, and rerun the catching seed without the switch to see it pass.
 * Then run each base (the librdkafka ones included) without any switch over seeds 1..5 in swarm
 * mode: every run must pass, or a catch on that base could be the base's own failure. Last,
 * `bin/eos-sim.js mutants --out` SIGKILLed midway and resumed writes the uninterrupted table.
 * The skip of switch runs whose control never consulted the switch is checked by running them
 * anyway (`runUnreached`, which fails on one that executed other events) over every base.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { RUNS_FILE_NAME, TABLE_FILE_NAMES, runKey } from '../../cli/mutant_runs';
import { inProcessRunner, searchMutants, type MutantTask } from '../../cli/mutant_search';
import { LOCK_FILE_NAME } from '../../cli/out_lock';
import { controlBases, genericBases } from '../../cli/mutants';
import { BUG_IDS, loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';
import { sweepSeeds } from '../seed_range';
import { runCli, scratchDir } from './cli_helpers';

const BASE = 'scenarios/transactions-random-faults.yaml';

describe('eos-sim mutants search', () => {
  const bases = genericBases(loadScenario(BASE));

  it('catches the stale-epoch mutation, and the catching seed passes without it', async () => {
    const output = await searchMutants({
      ids: ['partition.skip.producer.epoch.check'],
      bases,
      seeds: sweepSeeds('1..10'),
      run: inProcessRunner(bases),
      concurrency: 1,
    });
    const [result] = output.results;
    expect(result?.caught).toBe(true);
    expect(result?.kind).not.toBeNull();
    const base = bases.find((candidate) => candidate.label === result?.base);
    expect(base).toBeDefined();
    if (base === undefined || result?.seed == null) return;
    const { scenario, parameters } = drawSwarm(base.scenario, result.seed);
    const control = runScenario(scenario, { seed: result.seed, swarm: parameters });
    expect(control.report.outcome).toBe('pass');
  });

  it("skips only runs that execute their control's events: every base, seeds 1..3", async () => {
    // runUnreached runs the skipped runs too and throws on one with other events.
    const input = { ids: BUG_IDS, bases, seeds: sweepSeeds('1..3'), concurrency: 1 };
    const checked = await searchMutants({
      ...input,
      run: inProcessRunner(bases),
      runUnreached: true,
    });
    const skipping = await searchMutants({ ...input, run: inProcessRunner(bases) });
    // The same catches; only the notes may differ (an unconsulted run that failed on the
    // control's events counts as same-events when it is run).
    const verdicts = (output: typeof checked) =>
      output.results.map(({ id, caught, seed, kind, base, reached }) => ({
        ...{ id, caught, seed, kind, base, reached },
      }));
    expect(verdicts(skipping)).toEqual(verdicts(checked));
    expect(skipping.skipped).toBeGreaterThan(skipping.runs);
  });

  it('tries the switches on bases that are clean without any switch', () => {
    for (const base of controlBases(BUG_IDS, bases)) {
      for (const seed of sweepSeeds('1..5')) {
        const { scenario, parameters } = drawSwarm(base.scenario, seed);
        const { report } = runScenario(scenario, { seed, swarm: parameters, messageLog: false });
        expect({ base: base.label, seed, outcome: report.outcome }).toEqual({
          base: base.label,
          seed,
          outcome: 'pass',
        });
      }
    }
  });
});

/** Counts the complete lines of `path`, 0 while it does not exist. */
function completeLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

/**
 * Spawns `eos-sim mutants` into `out` and SIGKILLs it once `lines` lines (the settings line
 * included) are in `runs.jsonl`; returns the lines it left.
 */
async function mutantsAndKill(argv: readonly string[], out: string, lines: number) {
  const child = spawn(process.execPath, ['bin/eos-sim.js', ...argv, '--out', out], {
    stdio: 'ignore',
  });
  const ended = new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('close', (_code, signal) => resolve(signal));
  });
  const path = join(out, RUNS_FILE_NAME);
  const deadline = Date.now() + 120_000;
  while (completeLines(path) < lines && child.exitCode === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  return { signal: await ended, lines: completeLines(path) };
}

/**
 * Goal: the command end to end, real runs on the worker pool: `mutants --out` killed with
 * SIGKILL midway (its lock left behind, a line cut short appended) and resumed with
 * `--resume` on another number of workers writes the table files of an uninterrupted search,
 * reads recorded runs back and runs none of them again. KAFKA-6119 over seeds 1..2: 12 runs a
 * search, about 85 s on two loaded cores.
 */
describe('eos-sim mutants --out killed and resumed', () => {
  const scratch = scratchDir();
  afterAll(() => scratch.remove());
  const argv = ['mutants', '--switch', 'KAFKA-6119', '--seeds', '1..2'];
  const tables = (out: string): string[] =>
    Object.values(TABLE_FILE_NAMES).map((name) => readFileSync(join(out, name), 'utf8'));

  it('ends with the uninterrupted table', async () => {
    const whole = join(scratch.path, 'whole');
    const first = await runCli(main, [...argv, '--workers', '2', '--out', whole]);
    expect(first.stderr).not.toContain('Usage error');
    const killed = join(scratch.path, 'killed');
    const kill = await mutantsAndKill([...argv, '--workers', '2'], killed, 4);
    expect(kill.signal).toBe('SIGKILL');
    expect(existsSync(join(killed, LOCK_FILE_NAME))).toBe(true);
    appendFileSync(join(killed, RUNS_FILE_NAME), '{"base":"tv2","bug":"KAF');
    const resumed = await runCli(main, [...argv, '--workers', '1', '--out', killed, '--resume']);
    expect(resumed.code).toBe(first.code);
    // Every recorded run the search still needed was read back (a speculative run of a switch
    // settled meanwhile may not be needed), and none was run again.
    const replayed = Number(/\((\d+) of them read from/.exec(resumed.stdout)?.[1] ?? 0);
    expect(replayed).toBeGreaterThan(0);
    expect(replayed).toBeLessThanOrEqual(kill.lines - 1);
    const keys = readFileSync(join(killed, RUNS_FILE_NAME), 'utf8')
      .split('\n')
      .slice(1, -1)
      .map((line) => runKey(JSON.parse(line) as MutantTask));
    expect(new Set(keys).size).toBe(keys.length);
    expect(tables(killed)).toEqual(tables(whole));
    expect(tables(whole)[0]).toMatch(/KAFKA-6119 \| yes/);
    expect(existsSync(join(killed, LOCK_FILE_NAME))).toBe(false);
  });
});
