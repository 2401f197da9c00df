/**
 * Stops eos-sim when the npm process that launched it goes away. Under `npx eos-sim`, `npm exec`
 * and `npm start` the process tree is npm → `sh -c` → node (this process). npm forwards SIGINT
 * and SIGTERM only to its `sh -c` child (@npmcli/run-script's signal manager), which dies
 * without passing them on (dash does not forward signals to a foreground child); on SIGHUP npm
 * itself dies and forwards nothing. Either way node was left running: a sweep kept writing its
 * results file and holding its lock with no one to stop it.
 *
 * So the launcher watches the wrapper: the processes from its parent up to the nearest npm
 * process. When one of them exits (or is a zombie) or this process is re-parented, the launcher
 * sends itself SIGHUP, the conventional "the controlling process went away" signal: a sweep
 * stops as on SIGINT (results flushed, lock removed, `--resume` named, exit 129); other commands
 * end. Without npm in the environment (`node bin/eos-sim.js`, a shell script) nothing is
 * watched: signals reach this process directly, and `nohup` keeps working.
 */
import { readFileSync } from 'node:fs';

/** How often the wrapper is looked at. */
const POLL_MS = 250;
/** The most ancestors walked looking for npm (npm, `sh -c`, and room for one more shell). */
const ANCESTORS_MAX = 4;

/** What /proc says about a process: its parent, whether it is a zombie, its command line. */
interface ProcessFacts {
  readonly ppid: number;
  readonly zombie: boolean;
  readonly argv: readonly string[];
}

/** Reads /proc/<pid>; undefined when the process is gone or there is no /proc (not Linux). */
function processFacts(pid: number): ProcessFacts | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: read after the last ')'.
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return { ppid: Number.parseInt(ppid, 10), zombie: state === 'Z', argv };
  } catch {
    return undefined;
  }
}

/** Whether a command line is npm's: its title (`npm exec`, `npm start`) or npm's own scripts. */
function isNpm(argv: readonly string[]): boolean {
  const [title = ''] = argv;
  if (title === 'npm' || title.startsWith('npm ')) return true;
  return argv.some((word) => /(?:^|\/)np[mx]-cli\.js$/.test(word));
}

/** The wrapper's process ids, parent first, up to the nearest npm process; [] when none. */
export function npmWrapperChain(startPid: number = process.ppid): number[] {
  const chain: number[] = [];
  let pid = startPid;
  for (let depth = 0; depth < ANCESTORS_MAX && pid > 1; depth++) {
    const facts = processFacts(pid);
    if (facts === undefined) return [];
    chain.push(pid);
    if (isNpm(facts.argv)) return chain;
    pid = facts.ppid;
  }
  return [];
}

/** Whether `pid` is still running (a zombie has exited: it only waits to be reaped). */
function running(pid: number): boolean {
  const facts = processFacts(pid);
  if (facts !== undefined) return !facts.zombie;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Starts watching the npm wrapper, when `env` says npm launched this process; the timer does not
 * keep the process alive. Returns the function that stops watching.
 * @example const stop = stopWhenWrapperDies(); // in bin/eos-sim.js, before main()
 */
export function stopWhenWrapperDies(env: NodeJS.ProcessEnv = process.env): () => void {
  if (env['npm_command'] === undefined && env['npm_lifecycle_event'] === undefined) {
    return () => undefined;
  }
  const parent = process.ppid;
  // Without /proc (macOS) the chain is unknown: the re-parenting alone is watched.
  const chain = npmWrapperChain(parent);
  const timer = setInterval(() => {
    if (process.ppid === parent && chain.every(running)) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGHUP');
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
