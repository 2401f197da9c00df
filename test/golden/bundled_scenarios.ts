/**
 * The bundled scenarios whose runs are pinned by `event_hashes.json`, the seeds they are pinned
 * at, and how one pinned value is computed. The replay contract (same scenario file, seed and
 * build → same run) is checked within one build by `--check-determinism`; the pinned hashes
 * extend it across commits: a change that alters any run of a bundled scenario shows up here,
 * and is re-pinned with `npm run golden:update` only when it is meant to (the commit says why).
 */
import { readdirSync } from 'node:fs';
import { runScenario } from '../../sim/runner';
import { loadScenario } from '../../scenarios';

/** Folders whose `.yaml` files ship with the tool, relative to the repository root. */
const BUNDLED_FOLDERS = ['scenarios', 'scenarios/known-bugs', 'examples'] as const;

/** Two seeds per scenario: different seeds take different schedules through the same file. */
export const GOLDEN_SEEDS = ['1', '42'] as const;

/**
/**
 * Scenarios too costly for the fast tier: the LSO worked example writes 900,001 records (about a
 * minute and 3.5 GB per run), and its small version still simulates 715 s of replication fetches
 * (over a minute per run here); the epoch-exhaustion runs commit 32,767 transactions (about two
 * minutes of CPU each); the KAFKA-9666 pair runs a timeout scan every millisecond for 50 s
 * (a few seconds each). Their pins are checked by `npm run test:sweeps`, and the large one is
 * never run twice side by side (about 7 GB).
 */
export const SLOW_SCENARIOS: ReadonlySet<string> = new Set([
  'examples/lso-worked-example.yaml',
  'examples/lso-worked-example-small.yaml',
  'scenarios/epoch-exhaustion-lost-endtxn-response.yaml',
  'scenarios/known-bugs/failed-fence-write-bumps-epoch.yaml',
  'scenarios/known-bugs/failed-fence-write-bumps-epoch-fixed.yaml',
  'scenarios/known-bugs/timeout-fence-bumps-epoch-twice.yaml',
  'scenarios/known-bugs/timeout-fence-bumps-epoch-twice-fixed.yaml',
  'scenarios/known-bugs/rotation-forgotten-after-coordinator-reload.yaml',
  'scenarios/known-bugs/rotation-forgotten-after-coordinator-reload-fixed.yaml',
  'scenarios/known-bugs/fence-abort-hands-out-exhausted-epoch.yaml',
  'scenarios/known-bugs/fence-abort-hands-out-exhausted-epoch-fixed.yaml',
]);

/** The one scenario of {@link SLOW_SCENARIOS} too large for `--check-determinism` in any tier. */
export const TOO_LARGE_TO_RUN_TWICE = 'examples/lso-worked-example.yaml';

/** Where the pinned values live, relative to the repository root. */
export const GOLDEN_FILE = 'test/golden/event_hashes.json';

/** What is pinned for one run: the event hash and, to read a difference at a glance, its size. */
export interface PinnedRun {
  readonly eventHash: string;
  readonly eventsRun: number;
}

/** Scenario file → seed → pinned run. */
export type GoldenHashes = Record<string, Record<string, PinnedRun>>;

/** Every bundled scenario file, sorted, e.g. `scenarios/zombie-fencing.yaml`. */
export function bundledScenarios(): string[] {
  return BUNDLED_FOLDERS.flatMap((folder) =>
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.yaml'))
      .map((entry) => `${folder}/${entry.name}`),
  ).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Runs `file` at `seed` as `eos-sim run FILE --seed SEED` does and returns what is pinned. */
export function pinnedRun(file: string, seed: string): PinnedRun {
  const { report } = runScenario(loadScenario(file), { seed, messageLog: false });
  return { eventHash: report.eventHash, eventsRun: report.eventsRun };
}
