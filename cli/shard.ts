/**
 * `--shard K/N`: splits a seed range among N jobs, 1-based, round-robin. Seed s of the range
 * `first..last` belongs to shard ((s - first) mod N) + 1, so every shard gets every N-th seed,
 * the shards are disjoint and together cover the range, and which shard runs a seed depends on
 * nothing but the range and N: a CI matrix or a Kubernetes Indexed Job can pass its index.
 * Round-robin rather than contiguous blocks keeps slow seeds (which cluster in no particular
 * place) and seeds added at the end of a range spread over the shards.
 */
import { UsageError } from './errors';
import type { SeedRange } from './seeds';

/** One shard of N. */
export interface Shard {
  /** 1-based: 1..count. */
  readonly index: number;
  readonly count: number;
}

/** The most shards a sweep may be split into. */
export const SHARDS_MAX = 100_000;

/** The whole range as one shard. */
export const WHOLE: Shard = { index: 1, count: 1 };

/**
 * Parses `K/N`.
 * @throws {@link UsageError} unless 1 ≤ K ≤ N ≤ {@link SHARDS_MAX}.
 * @example parseShard('3/16') // { index: 3, count: 16 }
 */
export function parseShard(text: string): Shard {
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count > SHARDS_MAX) {
    throw new UsageError(
      `--shard must look like "3/16" with 1 <= 3 <= 16 <= ${SHARDS_MAX}: got "${text}"`,
    );
  }
  if (index > count) {
    throw new UsageError(`--shard must not name a shard past the count: got "${text}"`);
  }
  return { index, count };
}

/**
 * The shard seed `seed` of `range` belongs to (1-based).
 * @example shardOf('10', { first: '1', last: '100' }, 4) // 2: (10 - 1) mod 4 + 1
 */
export function shardOf(seed: string, range: SeedRange, count: number): number {
  return Number((BigInt(seed) - BigInt(range.first)) % BigInt(count)) + 1;
}

/**
 * Whether `seed` lies in `range` and belongs to `shard`.
 * @example isInShard('6', { first: '1', last: '10' }, { index: 2, count: 4 }) // true
 */
export function isInShard(seed: string, range: SeedRange, shard: Shard): boolean {
  if (!/^(0|[1-9][0-9]*)$/.test(seed)) return false;
  const value = BigInt(seed);
  if (value < BigInt(range.first) || value > BigInt(range.last)) return false;
  return shardOf(seed, range, shard.count) === shard.index;
}

/**
 * The seeds of `range` in `shard`, in increasing order.
 * @example [...shardSeeds({ first: '1', last: '10' }, { index: 2, count: 4 })] // ['2', '6', '10']
 */
export function* shardSeeds(range: SeedRange, shard: Shard): Generator<string> {
  const step = BigInt(shard.count);
  const last = BigInt(range.last);
  for (let seed = BigInt(range.first) + BigInt(shard.index - 1); seed <= last; seed += step) {
    yield seed.toString();
  }
}

/**
 * How many seeds of `range` fall in `shard`.
 * @example shardSeedCount({ first: '1', last: '10' }, { index: 2, count: 4 }) // 3
 */
export function shardSeedCount(range: SeedRange, shard: Shard): number {
  const size = BigInt(range.last) - BigInt(range.first) + 1n;
  const offset = BigInt(shard.index - 1);
  if (offset >= size) return 0;
  return Number((size - offset - 1n) / BigInt(shard.count) + 1n);
}
