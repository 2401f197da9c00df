/**
 * Goal: killing the `npx eos-sim` wrapper stops the sweep it launched. npm forwards SIGTERM
 * only to its `sh -c` child, which dies without passing it on, and on SIGHUP npm dies forwarding
 * nothing; before the launcher watched its wrapper (cli/wrapper_watch.ts) the node sweep kept
 * running, writing its results and holding its lock. For SIGTERM and SIGHUP sent to the npx
 * process, and Ctrl-C (SIGINT to the whole foreground process group, as a terminal sends it):
 * the node sweep (the pid its lock names) exits within seconds,
 * with most seeds still to run, the lock is gone (so `--resume` can take it) and every line of
 * results.jsonl is complete (read back without repair), which is all `--resume` needs
 * (kill_resume.test.ts proves resuming from such a file).
 *
 * Method: spawn the real `npx eos-sim sweep` in the checkout (npx runs the local bin, see
 * docs/sweeps.md), wait for the first result line, signal the npx process only, then poll the
 * pid in the lock file. Real processes, so this is in the sweeps tier (npx alone starts in
 * seconds on a loaded machine).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME, RESULTS_FILE_NAME } from '../../cli/index';
import { scratchDir } from '../cli/cli_helpers';
import { ZOMBIE, resultLines } from './sweep_helpers';

/** Far more seeds than the sweep can finish in the seconds it is given to stop. */
const SEEDS = '1..500';
const SEED_COUNT = 500;
const scratch = scratchDir();
afterAll(() => scratch.remove());

/** Waits until `ready()` or `ms` pass; returns whether it became ready. */
async function waitFor(ready: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Whether the process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `npx eos-sim sweep` into `out` as the leader of its own process group (as a shell
 * starts a foreground job); returns the npx process once a result line is in.
 */
async function npxSweep(out: string) {
  const argv = ['eos-sim', 'sweep', ZOMBIE, '--seeds', SEEDS, '--workers', '1', '--out', out];
  const npx = spawn('npx', argv, { stdio: 'ignore', detached: true });
  const results = join(out, RESULTS_FILE_NAME);
  const started = await waitFor(
    () => existsSync(results) && readFileSync(results, 'utf8').includes('\n'),
    120_000,
  );
  expect(started, 'the sweep wrote a result line').toBe(true);
  const sweepPid = Number.parseInt(readFileSync(join(out, LOCK_FILE_NAME), 'utf8'), 10);
  expect(sweepPid).not.toBe(npx.pid);
  return { npx, sweepPid };
}

describe('killing the npx wrapper', () => {
  const kills = [
    { what: 'SIGTERM to npx', signal: 'SIGTERM', group: false },
    { what: 'SIGHUP to npx', signal: 'SIGHUP', group: false },
    { what: "Ctrl-C (SIGINT to npx's process group)", signal: 'SIGINT', group: true },
  ] as const;
  for (const { what, signal, group } of kills) {
    it(`${what} stops the node sweep: no lock left, a resumable file`, async () => {
      const out = join(scratch.path, signal);
      const { npx, sweepPid } = await npxSweep(out);
      process.kill(group ? -(npx.pid as number) : (npx.pid as number), signal);
      const stopped = await waitFor(() => !alive(sweepPid), 10_000);
      if (!stopped) process.kill(sweepPid, 'SIGKILL');
      expect(stopped, `the sweep (pid ${sweepPid}) stopped`).toBe(true);
      expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);
      const recorded = resultLines(out).length;
      expect(recorded).toBeGreaterThan(0);
      expect(recorded).toBeLessThan(SEED_COUNT);
    });
  }
});
