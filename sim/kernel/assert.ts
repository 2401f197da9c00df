/**
 * Always-on assertions for the simulator. A failed assertion is a simulator bug (or a broken
 * invariant of the Kafka model), never a user error: it ends the run, and the runner prints the
 * seed so the failure can be replayed. Style rule 31.
 */

/** Thrown by {@link assert}; the CLI maps it to exit code 70 and prints the seed. */
export class AssertionError extends Error {
  readonly code = 'SIM_ASSERTION';
  constructor(message: string) {
    super(message);
    this.name = 'AssertionError';
  }
}

/**
 * Checks `condition` and throws {@link AssertionError} with `message` when it is false.
 * @example assert(highWatermark <= logEndOffset, 'highWatermark must not pass logEndOffset')
 */
export function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

/** Marks a `switch` as exhaustive: the type checker rejects a missing case. */
export function assertNever(value: never, what: string): never {
  throw new AssertionError(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/** Asserts that `value` is a safe integer (time, offsets, epochs and sequences all are). */
export function assertSafeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new AssertionError(`${what} must be a safe integer: got ${String(value)}`);
  }
}
