/**
 * One sweep per `--out` folder at a time. Two sweeps appending to one `results.jsonl` would
 * interleave their lines, and a fresh one would empty the file under the other, so a sweep
 * takes `<out>/sweep.lock` (created exclusively, holding its process id) before it touches the
 * folder and removes it when done. A lock whose process no longer exists (a sweep that was
 * killed) is taken over, so `--resume` after a SIGKILL just works.
 *
 * The file holds `<pid> <token>`, the token drawn once per process. Process ids repeat across
 * restarts: a container or Kubernetes pod starts its processes in a fresh pid namespace, so a
 * restarted sweep often gets the very pid the killed one wrote. A lock naming this process's own
 * pid with another token (or none, the format before the token) is therefore stale, not ours.
 */
import { randomUUID } from 'node:crypto';
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './errors';

/** The lock file's name inside `--out`. */
export const LOCK_FILE_NAME = 'sweep.lock';

/** This process's lock token: tells its own locks from those of an earlier process, same pid. */
const PROCESS_TOKEN = randomUUID();

/** Whether the lock file's text names a live sweep: another live process, or this very one. */
function holderAlive(text: string): { alive: boolean; pid: number } {
  const [pidText = '', token = ''] = text.trim().split(/\s+/);
  const pid = Number.parseInt(pidText, 10);
  if (!Number.isSafeInteger(pid)) return { alive: false, pid };
  if (pid === process.pid) return { alive: token === PROCESS_TOKEN, pid };
  return { alive: processAlive(pid), pid };
}

/** Whether a process with this id is alive (or exists under another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** Creates the lock file exclusively; false when it exists. */
function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, `${process.pid} ${PROCESS_TOKEN}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Takes the lock of `out` (which must exist) and returns the function that releases it.
 * @throws {@link UsageError} when a live process holds it.
 * @example const release = lockOut('.eos-sim/sweep'); try { … } finally { release(); }
 */
export function lockOut(out: string): () => void {
  const path = join(out, LOCK_FILE_NAME);
  if (!tryCreate(path)) {
    const holder = holderAlive(readFileSync(path, 'utf8'));
    if (holder.alive) {
      throw new UsageError(
        `another sweep (process ${holder.pid}) is writing to ${out}: ` +
          'wait for it or use another --out',
      );
    }
    rmSync(path, { force: true });
    if (!tryCreate(path)) {
      throw new UsageError(`another sweep took the lock of ${out} just now: use another --out`);
    }
  }
  // A sweep ended by process.exit (the SIGINT handler of `eos-sim sweep`) runs no finally
  // blocks, but 'exit' listeners: the lock goes with the process.
  const remove = (): void => rmSync(path, { force: true });
  process.on('exit', remove);
  return () => {
    process.off('exit', remove);
    remove();
  };
}
