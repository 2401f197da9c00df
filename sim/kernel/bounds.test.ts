/**
 * Goal: a bounded collection raises its bound's named error at the first entry past the bound,
 * and not before. Method: fill a BoundedMap, a BoundedSet and an array through pushWithin up to
 * a small bound, overwrite a key at the bound, then add one more.
 */
import { describe, expect, it } from 'vitest';
import { BoundedMap, BoundedSet, CollectionBoundExceededError, pushWithin } from './bounds';
import { BudgetExceededError } from './budget';

const BOUND = { name: 'TEST_ENTRIES_MAX', collection: 'test entries', max: 3 };
const MESSAGE = 'Collection bound exceeded: test entries past 3 (TEST_ENTRIES_MAX)';

describe('bounded collections', () => {
  it('a BoundedMap holds max entries, replaces at the bound, and fails one more', () => {
    const map = new BoundedMap<number, string>(BOUND, [[1, 'a']]);
    map.set(2, 'b').set(3, 'c').set(3, 'd');
    expect([...map]).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'd'],
    ]);
    expect(() => map.set(4, 'e')).toThrow(CollectionBoundExceededError);
    expect(() => map.set(5, 'e')).toThrow(MESSAGE);
  });

  it('a BoundedSet and pushWithin fail one past the bound with a budget error', () => {
    const set = new BoundedSet<string>(BOUND, ['a', 'b', 'c', 'a']);
    expect(set.size).toBe(3);
    expect(() => set.add('d')).toThrow(BudgetExceededError);
    const array: number[] = [];
    for (let n = 0; n < 3; n++) expect(pushWithin(BOUND, array, n)).toBe(n + 1);
    let error: unknown;
    try {
      pushWithin(BOUND, array, 3);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CollectionBoundExceededError);
    expect((error as CollectionBoundExceededError).bound).toBe(BOUND);
    expect((error as Error).message).toBe(MESSAGE);
  });

  it('an entry given to the constructor counts', () => {
    expect(
      () =>
        new BoundedMap(
          BOUND,
          [1, 2, 3, 4].map((n) => [n, n] as const),
        ),
    ).toThrow(MESSAGE);
  });
});
