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

/**
 * Thrown by {@link invariant}: a named invariant of the Kafka model that the code relies on is
 * broken (a model bug, like any failed assertion: exit 70 with the seed).
 */
export class InvariantError extends AssertionError {
  constructor(
    readonly invariant: string,
    detail: string,
  ) {
    super(`Invariant broken: ${invariant}: ${detail}`);
    this.name = 'InvariantError';
  }
}

/**
 * Checks the invariant `name` where the code relies on it; `detail` says what was seen and is
 * only built when the check fails.
 * @example invariant(hw <= leo, 'highWatermark <= logEndOffset', () => `${hw} > ${leo}`)
 */
export function invariant(condition: boolean, name: string, detail: () => string): void {
  if (!condition) throw new InvariantError(name, detail());
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
