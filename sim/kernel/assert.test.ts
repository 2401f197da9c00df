/**
 * Goal: `invariant` throws an InvariantError (an AssertionError, exit 70) naming the invariant
 * when it does not hold, builds its detail only then, and is silent when it holds.
 */
import { describe, expect, it } from 'vitest';
import { AssertionError, InvariantError, invariant } from './assert';

describe('invariant', () => {
  it('is silent when the invariant holds and never builds the detail', () => {
    let built = 0;
    invariant(1 <= 2, 'one <= two', () => `${(built += 1)}`);
    expect(built).toBe(0);
  });

  it('throws an InvariantError with the name and the detail', () => {
    let error: unknown;
    try {
      invariant(3 <= 2, 'highWatermark <= logEndOffset', () => 'highWatermark 3, logEndOffset 2');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvariantError);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as InvariantError).invariant).toBe('highWatermark <= logEndOffset');
    expect((error as Error).message).toBe(
      'Invariant broken: highWatermark <= logEndOffset: highWatermark 3, logEndOffset 2',
    );
  });
});
