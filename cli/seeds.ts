/**
 * Seeds and seed ranges from the command line. A seed is a decimal u64 string (no sign, no
 * leading zeros, so one universe has one spelling) or a 40-hex git commit hash, lower-cased
 * (style rule 5). Ranges are `A..B` (inclusive) or a single seed, iterated with bigints because
 * u64 seeds exceed JavaScript's safe integers. Inventing a seed is not here: only `cli.ts` may.
 */
import { UsageError } from './errors';

/** The largest u64. */
const U64_MAX = (1n << 64n) - 1n;
/** The most seeds one sweep of one scenario may run: a typo such as `1..10000000000` fails. */
export const SWEEP_SEEDS_MAX = 1_000_000;

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const GIT_HASH = /^[0-9a-fA-F]{40}$/;

/** An inclusive range of decimal u64 seeds. */
export interface SeedRange {
  readonly first: string;
  readonly last: string;
}

/**
 * Validates a `--seed` value and returns its canonical form.
 * @throws {@link UsageError} for anything but a decimal u64 or a 40-hex git hash.
 * @example parseSeed('8812') // '8812'
 * @example parseSeed('ABCDEF0123456789ABCDEF0123456789ABCDEF01') // lower-cased
 */
export function parseSeed(text: string): string {
  if (GIT_HASH.test(text)) return text.toLowerCase();
  if (DECIMAL.test(text) && BigInt(text) <= U64_MAX) return text;
  throw new UsageError(
    `--seed must be a decimal u64 (0 to ${U64_MAX}, no leading zeros) or a 40-hex git ` +
      `commit hash: got "${text}"`,
  );
}

/**
 * Validates a `--seeds` value: `A..B` with A ≤ B, or one seed `A`.
 * @throws {@link UsageError} for a malformed, backwards or oversized range.
 * @example parseSeedRange('1..20') // { first: '1', last: '20' }
 */
export function parseSeedRange(text: string): SeedRange {
  const match = /^([0-9]+)(?:\.\.([0-9]+))?$/.exec(text);
  const first = match?.[1];
  const last = match?.[2] ?? first;
  const valid = (seed: string | undefined): seed is string =>
    seed !== undefined && DECIMAL.test(seed) && BigInt(seed) <= U64_MAX;
  if (!valid(first) || !valid(last)) {
    throw new UsageError(`--seeds must look like "1..2000" with decimal u64 seeds: got "${text}"`);
  }
  if (BigInt(last) < BigInt(first)) {
    throw new UsageError(`--seeds must not run backwards: got "${text}"`);
  }
  if (BigInt(last) - BigInt(first) >= BigInt(SWEEP_SEEDS_MAX)) {
    throw new UsageError(`--seeds must hold at most ${SWEEP_SEEDS_MAX} seeds: got "${text}"`);
  }
  return { first, last };
}

/**
 * The seeds of `range`, in order, as decimal strings.
 * @example [...seedsOf({ first: '1', last: '3' })] // ['1', '2', '3']
 */
export function* seedsOf(range: SeedRange): Generator<string> {
  for (let seed = BigInt(range.first); seed <= BigInt(range.last); seed += 1n) {
    yield seed.toString();
  }
}

/**
 * How many seeds `range` holds.
 * @example seedCount({ first: '1', last: '20' }) // 20
 */
export function seedCount(range: SeedRange): number {
  return Number(BigInt(range.last) - BigInt(range.first) + 1n);
}
