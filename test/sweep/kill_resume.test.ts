/**
 * Goal: a sweep killed at any moment and resumed loses nothing and redoes nothing: after a
 * SIGKILL midway (and a line cut short, as a kill during a write leaves it), `--resume` ends with
 * exactly the result lines of an uninterrupted sweep (ignoring `wallMs`), one per seed, and runs
 * only the seeds that were missing.
 *
 * Method: spawn `bin/eos-sim.js sweep` as a child process, watch its `results.jsonl` and SIGKILL
 * it once a few lines are in; append half a line; resume in-process with `--resume`; compare the
 * sorted canonical lines with those of an uninterrupted in-process sweep of the same seeds.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESULTS_FILE_NAME } from '../../cli/index';
import { main } from '../../cli';
import { runCli, scratchDir, type CliCall } from '../cli/cli_helpers';
import { ZOMBIE, resultLines, resultSet } from './sweep_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);

const SEEDS = '1..12';
const SEED_COUNT = 12;
const LINES_BEFORE_KILL = 4;
const scratch = scratchDir();
afterAll(() => scratch.remove());

/** Counts the complete lines of `path`, 0 while it does not exist. */
function completeLines(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

/** Spawns a sweep into `out` and SIGKILLs it once `lines` result lines are written. */
async function sweepAndKill(out: string, lines: number): Promise<number> {
  const argv = ['bin/eos-sim.js', 'sweep', ZOMBIE, '--seeds', SEEDS, '--workers', '2'];
  const child = spawn(process.execPath, [...argv, '--out', out], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    child.once('exit', (_code, signal) => resolve(signal));
  });
  const path = join(out, RESULTS_FILE_NAME);
  const deadline = Date.now() + 60_000;
  while (completeLines(path) < lines && child.exitCode === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return completeLines(path);
}

describe('kill and resume', () => {
  it('ends with the same result lines as an uninterrupted sweep', async () => {
    const whole = join(scratch.path, 'whole');
    const wholeCall = await cli([
      'sweep',
      ZOMBIE,
      '--seeds',
      SEEDS,
      '--workers',
      '1',
      '--out',
      whole,
    ]);
    expect(wholeCall.code).toBe(0);

    const killed = join(scratch.path, 'killed');
    const recorded = await sweepAndKill(killed, LINES_BEFORE_KILL);
    expect(recorded).toBeGreaterThanOrEqual(LINES_BEFORE_KILL);
    expect(recorded).toBeLessThan(SEED_COUNT);
    // A kill in the middle of a write leaves part of a line: resume must cut it off.
    appendFileSync(join(killed, RESULTS_FILE_NAME), '{"anomalies":{},"coverage":{"err');

    const resume = ['sweep', ZOMBIE, '--seeds', SEEDS, '--workers', '1', '--out', killed];
    const resumed = await cli([...resume, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`sweep: ${SEED_COUNT} seeds (${recorded} already recorded)`);
    expect(resumed.stdout).toContain(`${SEED_COUNT - recorded} seeds run, ${recorded} resumed`);
    expect(resultLines(killed)).toHaveLength(SEED_COUNT);
    expect(resultSet(killed)).toEqual(resultSet(whole));
    expect(resumed.stdout).toContain(`outcomes: pass ${SEED_COUNT}`);
  });
});
