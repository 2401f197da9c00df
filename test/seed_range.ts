/**
 * Which seeds a sweep test runs. Tests pass a small default range so `npm test` stays quick;
 * setting `SIM_SEEDS` (read once in `test/setup.ts`, never in `sim/`) widens every sweep at once
 * for a big opt-in run, e.g. `SIM_SEEDS=1..2000 npm test`. Style rule 35.
 */

/** The most seeds one sweep may run: a typo such as `1..20000000000` fails loudly. */
export const SWEEP_SEEDS_MAX = 1_000_000;

let override: readonly string[] | undefined;

/**
 * Parses a seed list: comma-separated decimal seeds or inclusive ranges `first..last`.
 * Seeds are returned as decimal strings, the form `Rng` and the CLI take (style rule 5).
 * @example parseSeedRange('1..3,10') // ['1', '2', '3', '10']
 */
export function parseSeedRange(text: string): string[] {
  const seeds: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    const match = /^(\d+)(?:\.\.(\d+))?$/.exec(item);
    if (match === null) {
      throw new Error(`Seed range must look like "1..2000" or "1,5,9": got "${text}"`);
    }
    const first = BigInt(match[1] as string);
    const last = match[2] === undefined ? first : BigInt(match[2]);
    if (last < first) throw new Error(`Seed range must not run backwards: got "${item}"`);
    if (last - first + 1n + BigInt(seeds.length) > BigInt(SWEEP_SEEDS_MAX)) {
      throw new Error(`Seed range must hold at most ${SWEEP_SEEDS_MAX} seeds: got "${text}"`);
    }
    for (let seed = first; seed <= last; seed++) seeds.push(seed.toString());
  }
  return seeds;
}

/**
 * Sets the seeds every sweep runs instead of its default; `undefined` restores the defaults.
 * Only `test/setup.ts` calls this, with the parsed `SIM_SEEDS`.
 */
export function setSweepSeedsOverride(seeds: readonly string[] | undefined): void {
  override = seeds;
}

/**
 * The seeds a sweep test should run: the `SIM_SEEDS` range when it is set, else
 * `defaultRange` (same syntax as {@link parseSeedRange}).
 * @example for (const seed of sweepSeeds('1..20')) it(`seed ${seed}`, () => runScenario(seed))
 */
export function sweepSeeds(defaultRange: string): readonly string[] {
  return override ?? parseSeedRange(defaultRange);
}

/**
 * Whether `SIM_SEEDS` widened the sweeps (tests that scale other work with it ask this).
 * @example const perScenario = sweepSeedsWidened() ? 5 : 1;
 */
export function sweepSeedsWidened(): boolean {
  return override !== undefined;
}
