/**
 * Goal: pin the replay contract across commits for every bundled scenario, cheaply enough for
 * the fast tier. Method: run each scenario once at the first golden seed, as `eos-sim run FILE
 * --seed 1` does, and compare its event hash and event count with `event_hashes.json`. The pin
 * file must name exactly the bundled scenarios at exactly the golden seeds, so a new scenario
 * cannot go unpinned. The sweeps tier (`event_hashes.sweep.test.ts`) runs every scenario under
 * `--check-determinism` (two runs that must agree), the second golden seed, and the scenarios
 * too costly for this tier.
 */
import { describe, expect, it } from 'vitest';
import { bundledScenarios, GOLDEN_SEEDS, pinnedRun, SLOW_SCENARIOS } from './bundled_scenarios';
import { expectPinned, readGolden } from './golden_check';

const golden = readGolden();
const FAST_SEED = GOLDEN_SEEDS[0];

describe('the pin file', () => {
  it('pins every bundled scenario at every golden seed, and nothing else', () => {
    const expected = Object.fromEntries(
      bundledScenarios().map((file) => [file, [...GOLDEN_SEEDS].sort()]),
    );
    const actual = Object.fromEntries(
      Object.entries(golden).map(([file, seeds]) => [file, Object.keys(seeds).sort()]),
    );
    expect(actual, 'run `npm run golden:update FILE` for a new scenario').toEqual(expected);
  });
});

describe(`every bundled scenario, seed ${FAST_SEED}`, () => {
  const files = bundledScenarios().filter((file) => !SLOW_SCENARIOS.has(file));
  it.each(files)('%s replays to its pinned event hash', (file) => {
    expectPinned(golden, file, FAST_SEED, pinnedRun(file, FAST_SEED));
  });
});
