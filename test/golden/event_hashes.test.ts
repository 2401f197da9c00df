/**
 * Goal: pin the replay contract across commits and check it within one build, for every bundled
 * scenario (fast tier). Method: run each scenario as `eos-sim run FILE --seed 1 --json
 * --check-determinism` through the CLI's own `main`: the two runs must agree (the CLI compares
 * executed events and reports and says "deterministic"), and the first run's event hash must be
 * the one pinned in `event_hashes.json`. The second golden seed, and the scenarios too costly
 * for this tier, are checked by `event_hashes.sweep.test.ts` (`npm run test:sweeps`). The pin
 * file must name exactly the bundled scenarios at exactly the golden seeds, so a new scenario
 * cannot go unpinned.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli } from '../cli/cli_helpers';
import { bundledScenarios, GOLDEN_SEEDS, SLOW_SCENARIOS } from './bundled_scenarios';
import { expectPinned, readGolden } from './golden_check';

const golden = readGolden();
const FAST_SEED = GOLDEN_SEEDS[0];
/** What `--check-determinism` prints when the two runs agree (`cli/determinism.ts`). */
const DETERMINISTIC_LINE = /determinism\s+deterministic: 2 runs executed the same \d+ events/;

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

describe(`every bundled scenario, seed ${FAST_SEED}, --check-determinism`, () => {
  const files = bundledScenarios().filter((file) => !SLOW_SCENARIOS.has(file));
  it.each(files)('%s replays to its pinned event hash', async (file) => {
    const argv = ['run', file, '--seed', FAST_SEED, '--json', '--check-determinism'];
    const { stdout, stderr } = await runCli(main, argv);
    expect(stderr).toMatch(DETERMINISTIC_LINE);
    const report = JSON.parse(stdout) as { eventHash: string; eventsRun: number };
    expectPinned(golden, file, FAST_SEED, {
      eventHash: report.eventHash,
      eventsRun: report.eventsRun,
    });
  });
});
