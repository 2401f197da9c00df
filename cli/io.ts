/**
 * What a CLI command writes to and knows about its surroundings. `main` takes the streams as a
 * parameter so tests can call it in-process and capture the output; everything a command needs
 * from the process (colour, a fresh seed) arrives through {@link CliContext}, decided in `cli.ts`.
 */

/** Where text goes: `process.stdout` fits, and so does a test's string collector. */
export interface TextSink {
  write(text: string): unknown;
  /** True when the stream is a terminal; colour is used only then. */
  readonly isTTY?: boolean;
  /**
   * The process stream behind a sink that escapes what is written to it: only the progress bar
   * writes here directly, because it redraws its line with cursor sequences of its own.
   */
  readonly raw?: unknown;
}

/** The two output streams of the CLI. */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
}

/** What every command receives from `cli.ts`. */
export interface CliContext {
  readonly io: CliIo;
  /** Whether to colour stdout: a TTY and `NO_COLOR` not set. */
  readonly colour: boolean;
  /**
   * Invents a root seed for a run without `--seed`. Only `cli.ts` implements it, with
   * `node:crypto`, so no other code can invent a seed (style rule 5).
   */
  readonly inventSeed: () => string;
}
