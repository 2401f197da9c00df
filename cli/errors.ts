/**
 * The CLI's own error class, and the text printed when the simulator itself fails. Messages
 * follow the house rules: capital first, no trailing period, a colon before details (rule 33).
 */
import { reproduceCommand } from '../sim/runner';

/**
 * A command line the CLI cannot act on: a bad `--seed` or `--seeds`, an unknown command, no
 * scenario files. The CLI prints its message as one line and exits 64.
 * @example throw new UsageError('--seeds must not run backwards: got "5..2"')
 * // message: 'Usage error: --seeds must not run backwards: got "5..2"'
 */
export class UsageError extends Error {
  /** Stable code for programs and exit-code mapping. */
  readonly code = 'SIM_USAGE';

  /** @param detail - What is wrong, lower case first. */
  constructor(detail: string) {
    super(`Usage error: ${detail}`);
    this.name = 'UsageError';
  }
}

/** Where an internal error happened, so the user can replay it. */
export interface InternalErrorContext {
  readonly seed: string;
  readonly file: string;
  /** Print the stack too (`--verbose`). @default false */
  readonly verbose?: boolean;
}

/**
 * The stderr text for an internal error (an `AssertionError` or anything unexpected): the
 * message, the seed and the reproduce command, and the stack only with `--verbose`.
 * @example
 * describeInternalError(new Error('boom'), { seed: '7', file: 'scenarios/a.yaml' })
 * // 'Internal error: boom\nseed=7\n' +
 * //   'reproduce: npx --offline --no-install eos-sim run scenarios/a.yaml --seed 7\n'
 */
export function describeInternalError(error: unknown, context: InternalErrorContext): string {
  const lines = [
    `Internal error: ${errorMessage(error)}`,
    `seed=${context.seed}`,
    `reproduce: ${reproduceCommand(context.file, context.seed)}`,
  ];
  if (context.verbose === true && error instanceof Error && error.stack !== undefined) {
    lines.push(error.stack);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The message of anything thrown, on one line.
 * @example errorMessage(new Error('a\nb')) // 'a b'
 */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' ');
}
