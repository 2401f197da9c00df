/**
 * Goal: the rest of the pinned replay contract (sweeps tier, `npm run test:sweeps`). Method:
 * (1) every bundled scenario but the largest runs as `eos-sim run FILE --seed 1 --json
 * --check-determinism` through the CLI's own `main`: the two runs must agree (the CLI compares
 * executed events and reports and says "deterministic") and match the pin; (2) every bundled
 * scenario at the other golden seed, and the costly ones at every golden seed, run once and are
 * compared with `event_hashes.json`. Equal hashes on two commits mean the same schedule, event
 * for event; for the LSO worked example this is also its determinism check (two runs of it held
 * side by side would need about 7 GB).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli } from '../cli/cli_helpers';
import {
  bundledScenarios,
  GOLDEN_SEEDS,
  pinnedRun,
  TOO_LARGE_TO_RUN_TWICE,
} from './bundled_scenarios';
import { expectPinned, readGolden } from './golden_check';

const golden = readGolden();
const FIRST_SEED = GOLDEN_SEEDS[0];
/** What `--check-determinism` prints when the two runs agree (`cli/determinism.ts`). */
const DETERMINISTIC_LINE = /determinism\s+deterministic: 2 runs executed the same \d+ events/;

describe(`every bundled scenario, seed ${FIRST_SEED}, --check-determinism`, () => {
  const files = bundledScenarios().filter((file) => file !== TOO_LARGE_TO_RUN_TWICE);
  it.each(files)('%s runs the same twice and replays to its pin', async (file) => {
    const argv = ['run', file, '--seed', FIRST_SEED, '--json', '--check-determinism'];
    const { stdout, stderr } = await runCli(main, argv);
    expect(stderr).toMatch(DETERMINISTIC_LINE);
    const report = JSON.parse(stdout) as { eventHash: string; eventsRun: number };
    expectPinned(golden, file, FIRST_SEED, {
      eventHash: report.eventHash,
      eventsRun: report.eventsRun,
    });
  });
});

const runs = bundledScenarios().flatMap((file) =>
  GOLDEN_SEEDS.filter((seed, index) => index > 0 || file === TOO_LARGE_TO_RUN_TWICE).map(
    (seed) => ({ file, seed }),
  ),
);

describe('every bundled scenario at the other golden seeds', () => {
  it.each(runs)('$file seed $seed replays to its pinned event hash', ({ file, seed }) => {
    expectPinned(golden, file, seed, pinnedRun(file, seed));
  });
});
