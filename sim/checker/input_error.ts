/**
 * The error a checker throws when the history or oracle breaks a shape the checkers rely on
 * (offsets out of order, a marker carrying a value). `checkHistory` catches it like any other
 * checker failure and turns it into `valid: 'unknown'`, never `false`: a malformed input proves
 * nothing about Kafka. Style rules 26 and 33.
 */

/** Thrown when a history or oracle is malformed; its stable code is `CHECKER_INPUT_INVALID`. */
export class CheckerInputError extends Error {
  readonly code = 'CHECKER_INPUT_INVALID';

  constructor(message: string) {
    super(message);
    this.name = 'CheckerInputError';
  }
}

/**
 * Throws {@link CheckerInputError} with `message` when `condition` is false.
 * @example requireInput(next.offset > previous.offset, 'Oracle offsets must increase: t-0')
 */
export function requireInput(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckerInputError(message);
}
