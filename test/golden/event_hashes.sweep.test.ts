/**
 * Goal: the rest of the pinned replay contract (sweeps tier, `npm run test:sweeps`): every
 * bundled scenario at the golden seeds the fast tier does not run, and the scenarios too costly
 * for the fast tier at every golden seed. Method: run each as `eos-sim run FILE --seed N` does and
 * compare its event hash and event count with `event_hashes.json`. Equal hashes on two commits
 * mean the same schedule, event for event; for the costly LSO worked example this is also its
 * determinism check (two runs of it held side by side would need about 7 GB).
 */
import { describe, it } from 'vitest';
import { bundledScenarios, GOLDEN_SEEDS, pinnedRun, SLOW_SCENARIOS } from './bundled_scenarios';
import { expectPinned, readGolden } from './golden_check';

const golden = readGolden();

const runs = bundledScenarios().flatMap((file) =>
  GOLDEN_SEEDS.filter((seed, index) => index > 0 || SLOW_SCENARIOS.has(file)).map((seed) => ({
    file,
    seed,
  })),
);

describe('every bundled scenario at the other golden seeds', () => {
  it.each(runs)('$file seed $seed replays to its pinned event hash', ({ file, seed }) => {
    expectPinned(golden, file, seed, pinnedRun(file, seed));
  });
});
