/**
 * Checks the files and folders a command will write before it does any work, so a wrong path
 * (a folder that does not exist, one without write permission, a file where a folder must be)
 * costs no run and reads as a usage error (exit 64) naming the flag, not as an internal error
 * (exit 70) after the run.
 */
import { accessSync, constants, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors';

/** Kernel pseudo file systems: writing results there hangs or fails in odd ways. */
const PSEUDO_FILE_SYSTEMS = ['/proc', '/sys', '/dev'];

/** `statSync` that answers undefined for a path that does not exist (or runs through a file). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether this process may write to `path` (an existing file or folder). */
function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that `path`, given as `flag`, can be written as a file: an existing file this process
 * may write, or a new file in an existing folder it may write.
 * @throws {@link UsageError} naming the flag, the path and what is wrong.
 * @example checkOutputFile('--report', 'missing/run.md')
 * // throws 'Usage error: --report missing/run.md: folder missing does not exist'
 */
export function checkOutputFile(flag: string, path: string): void {
  const stats = statOf(path);
  if (stats !== undefined) {
    if (stats.isDirectory()) throw new UsageError(`${flag} ${path}: is a folder, not a file`);
    if (!writable(path)) throw new UsageError(`${flag} ${path}: not writable`);
    return;
  }
  const folder = dirname(resolve(path));
  const shown = dirname(path);
  const folderStats = statOf(folder);
  if (folderStats === undefined) {
    throw new UsageError(`${flag} ${path}: folder ${shown} does not exist`);
  }
  if (!folderStats.isDirectory()) {
    throw new UsageError(`${flag} ${path}: ${shown} is not a folder`);
  }
  if (!writable(folder)) throw new UsageError(`${flag} ${path}: folder ${shown} is not writable`);
}

/**
 * Creates the folder `path`, given as `flag`, with its parents, and checks it can be written.
 * @throws {@link UsageError} when a file is in the way, a parent cannot be created, or the
 * folder is not writable.
 * @example makeOutputFolder('--out', '.eos-sim/sweep')
 */
export function makeOutputFolder(flag: string, path: string): void {
  const absolute = resolve(path);
  if (PSEUDO_FILE_SYSTEMS.some((root) => absolute === root || absolute.startsWith(`${root}/`))) {
    throw new UsageError(`${flag} ${path}: is under a kernel pseudo file system, not a folder`);
  }
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : String(code);
    throw new UsageError(`${flag} ${path}: cannot create the folder: ${why}`);
  }
  if (statOf(path)?.isDirectory() !== true) {
    throw new UsageError(`${flag} ${path}: is a file, not a folder`);
  }
  if (!writable(path)) throw new UsageError(`${flag} ${path}: folder is not writable`);
}

/** Where `path` leads: its real path when it exists (symlinks followed), else its absolute one. */
function whereTo(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Checks that no output overwrites the scenario file the command reads, and that no two outputs
 * name one file (the second would silently replace the first).
 * @throws {@link UsageError} naming the flags and the path.
 * @example checkOutputsApart('a.yaml', [['--history', 'a.yaml']])
 * // throws 'Usage error: --history a.yaml: is the scenario file this command reads; …'
 */
export function checkOutputsApart(
  scenarioFile: string,
  outputs: ReadonlyArray<readonly [flag: string, path: string]>,
): void {
  const input = whereTo(scenarioFile);
  const seen = new Map<string, string>();
  for (const [flag, path] of outputs) {
    const target = whereTo(path);
    if (target === input) {
      throw new UsageError(
        `${flag} ${path}: is the scenario file this command reads; choose another file`,
      );
    }
    const other = seen.get(target);
    if (other !== undefined) {
      throw new UsageError(`${flag} ${path}: ${other} writes the same file; choose another file`);
    }
    seen.set(target, flag);
  }
}
