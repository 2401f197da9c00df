/**
 * Goal: a sweep killed at any moment and resumed loses nothing and redoes nothing: after a
 * SIGKILL midway (and a line cut short, as a kill during a write leaves it), `--resume` ends with
 * exactly the result lines of an uninterrupted sweep (ignoring `wallMs`), one per seed, and runs
 * only the seeds that were missing. Ctrl-C (SIGINT) stops a sweep with exit 130, a line naming
 * the results file and `--resume`, and no lock left behind.
 *
 * Method: spawn `bin/eos-sim.js sweep` as a child process, watch its `results.jsonl` and SIGKILL
 * it once a few lines are in; append half a line; resume in-process with `--resume`; compare the
 * sorted canonical lines with those of an uninterrupted in-process sweep of the same seeds.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME, RESULTS_FILE_NAME } from '../../cli/index';
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

/** How a signalled sweep ended: its exit code or signal, and what it wrote to stderr. */
interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Spawns a sweep into `out` and sends it `signal` once `lines` result lines are written. */
async function sweepAndSignal(out: string, lines: number, signal: NodeJS.Signals) {
  const argv = ['bin/eos-sim.js', 'sweep', ZOMBIE, '--seeds', SEEDS, '--workers', '2'];
  const child = spawn(process.execPath, [...argv, '--out', out], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<Ended>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  const path = join(out, RESULTS_FILE_NAME);
  const deadline = Date.now() + 60_000;
  while (completeLines(path) < lines && child.exitCode === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill(signal);
  return { ended: await ended, recorded: completeLines(path) };
}

/** Spawns a sweep into `out` and SIGKILLs it once `lines` result lines are written. */
async function sweepAndKill(out: string, lines: number): Promise<number> {
  const { ended, recorded } = await sweepAndSignal(out, lines, 'SIGKILL');
  expect(ended.signal).toBe('SIGKILL');
  return recorded;
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

  it('stops on Ctrl-C (SIGINT) with exit 130, the way to resume, and no lock left', async () => {
    const out = join(scratch.path, 'interrupted');
    const { ended, recorded } = await sweepAndSignal(out, 1, 'SIGINT');
    expect(recorded).toBeLessThan(SEED_COUNT);
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain(
      `Interrupted by SIGINT: the seeds finished so far are in ${join(out, RESULTS_FILE_NAME)}; ` +
        'run the same command with --resume to carry on\n',
    );
    expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);
  });
});
