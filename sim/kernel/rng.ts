/**
 * Seeded random streams. Every draw in the simulator comes from an {@link Rng}: a seedrandom
 * Alea generator behind an integer-only API. Streams are forked by a stable label
 * (`root.fork('network')`), and a child's seed is `${parentSeed}/${label}`, so an extra draw in
 * one subsystem never shifts the draws of another. seedrandom is pinned to 3.0.5: its output is
 * part of the replay contract. Style rules 6 and 7.
 */
import seedrandom from 'seedrandom';
import { assert } from './assert';
import type { Ratio } from './ids';

const TWO_POW_32 = 0x1_0000_0000;

/** A deterministic random stream with an integer-only API. */
export class Rng {
  /** The seed string this stream was built from (`"42/network"`). */
  readonly seed: string;
  private readonly prng: seedrandom.PRNG;
  private draws = 0;

  /** @param seed non-empty seed string; never omitted, never entropy-based. */
  constructor(seed: string) {
    assert(typeof seed === 'string' && seed.length > 0, 'Rng seed must be a non-empty string');
    this.seed = seed;
    this.prng = seedrandom.alea(seed);
  }

  /** Number of values drawn so far (part of the determinism fingerprint). */
  get drawCount(): number {
    return this.draws;
  }

  /** A child stream for `label`: seed `${this.seed}/${label}`. @example rng.fork('broker/2') */
  fork(label: string): Rng {
    assert(label.length > 0, 'Rng fork label must be non-empty');
    return new Rng(`${this.seed}/${label}`);
  }

  /** A uniform integer in [0, 2^32). */
  uint32(): number {
    this.draws += 1;
    return this.prng.int32() >>> 0;
  }

  /**
   * A uniform integer in [min, max], by rejection sampling (no modulo bias).
   * The range may hold at most 2^32 values.
   * @example rng.intInclusive(1, 6)
   */
  intInclusive(min: number, max: number): number {
    assert(Number.isSafeInteger(min) && Number.isSafeInteger(max), 'intInclusive needs integers');
    // Every delivery and timer draws here: build the message only when the check fails.
    if (min > max) assert(false, `intInclusive needs min <= max: got ${min} > ${max}`);
    const range = max - min + 1;
    assert(range <= TWO_POW_32, 'intInclusive range must hold at most 2^32 values');
    const limit = TWO_POW_32 - (TWO_POW_32 % range);
    let draw = this.uint32();
    while (draw >= limit) draw = this.uint32();
    return min + (draw % range);
  }

  /**
   * True with probability `chance.numerator / chance.denominator`.
   * @example rng.chance({ numerator: 1, denominator: 10 })
   */
  chance(chance: Ratio): boolean {
    assertRatio(chance);
    if (chance.numerator === 0) return false;
    if (chance.numerator === chance.denominator) return true;
    return this.intInclusive(0, chance.denominator - 1) < chance.numerator;
  }

  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, 'pick needs a non-empty array');
    return items[this.intInclusive(0, items.length - 1)] as T;
  }

  /** A shuffled copy of `items` (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const result = items.slice();
    for (let i = result.length - 1; i > 0; i--) {
      const j = this.intInclusive(0, i);
      const held = result[i] as T;
      result[i] = result[j] as T;
      result[j] = held;
    }
    return result;
  }
}

/**
 * Asserts that a ratio is a probability: integers with 0 <= numerator <= denominator and
 * denominator > 0.
 */
export function assertRatio(chance: Ratio): void {
  assert(Number.isSafeInteger(chance.numerator), 'Ratio numerator must be an integer');
  assert(Number.isSafeInteger(chance.denominator), 'Ratio denominator must be an integer');
  assert(chance.denominator > 0, 'Ratio denominator must be positive');
  assert(chance.numerator >= 0, 'Ratio numerator must not be negative');
  assert(chance.numerator <= chance.denominator, 'Ratio must not exceed 1');
}
