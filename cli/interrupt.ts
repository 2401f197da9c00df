/**
 * Stopping a long command (`eos-sim sweep`, `eos-sim mutants --out`) by a signal without losing
 * what it finished: the results stream is already on disk line by line, so the handler only
 * says where it is and how to carry on, and exits with the shell's code for the signal.
 */
import type { CliContext } from './io';

/** The exit codes of a command stopped by a signal: 128 + the signal's number, as a shell's. */
const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** What the line printed on a signal names. */
export interface InterruptNotice {
  /** The results file, e.g. `<out>/results.jsonl`. */
  readonly results: string;
  /** What the file holds, plural: `seeds`, `runs`. */
  readonly what: string;
  readonly stderr: CliContext['io']['stderr'];
  /** Stops the progress display before the line is printed. */
  readonly stop: () => void;
}

/**
 * While `run` is pending, SIGINT (Ctrl-C), SIGTERM (a CI cancel, a pod eviction) and SIGHUP (the
 * terminal closed, or the npm wrapper gone: cli/wrapper_watch.ts) stop the command with one
 * line saying where the results are and how to carry on, and the shell's exit code; the lock of
 * the output folder is removed on exit (see `lockOut`). Without this Node died silently.
 * @example await interruptible(() => runSweep(options), { results, what: 'seeds', stderr, stop })
 */
export async function interruptible<T>(run: () => Promise<T>, notice: InterruptNotice): Promise<T> {
  const handlers = Object.entries(SIGNAL_EXIT_CODES).map(([signal, code]) => {
    const handler = (): void => {
      notice.stop();
      notice.stderr.write(
        `Interrupted by ${signal}: the ${notice.what} finished so far are in ${notice.results}; ` +
          'run the same command with --resume to carry on\n',
      );
      process.exit(code);
    };
    process.once(signal, handler);
    return { signal, handler };
  });
  try {
    return await run();
  } finally {
    for (const { signal, handler } of handlers) process.off(signal, handler);
  }
}
