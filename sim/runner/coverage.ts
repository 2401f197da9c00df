/**
 * Protocol-state coverage of one run: which Kafka error codes clients saw, which fault kinds the
 * nemesis ran, which kinds of leader election the controller held and why replicas truncated
 * their logs, why coordinators granted producer epochs, which anomaly kinds the checker found,
 * and (once the oracle carries them) which transaction-coordinator transitions happened. A sweep
 * adds these up over its seeds, so `--require-coverage` can fail a sweep that never reached a
 * state it was meant to exercise. Everything is read from the run's history, oracle and report,
 * so it is as deterministic as the run itself.
 *
 * Items are named `category:name`, e.g. `error:PRODUCER_FENCED`, `fault:pause`,
 * `election:unclean`, `truncation:diverging-epoch`, `grant:fence`, `anomaly:zombie-write`,
 * `transition:Ongoing->PrepareAbort`.
 */
import type { RunResult } from './run';

/** The coverage categories, in the order summaries list them. */
export const COVERAGE_CATEGORIES = [
  'error',
  'fault',
  'election',
  'truncation',
  'grant',
  'anomaly',
  'transition',
] as const;

/** One of {@link COVERAGE_CATEGORIES}. */
export type CoverageCategory = (typeof COVERAGE_CATEGORIES)[number];

/**
 * How often each coverage item occurred in one run, keyed `category:name`, keys sorted. A plain
 * object because it is serialised as one canonical JSON value per result line.
 */
export type RunCoverage = Readonly<Record<string, number>>;

/**
 * The coverage of a finished run: error codes from the `error` field of client operations,
 * fault kinds from the nemesis's `start` operations, election kinds, truncation reasons and
 * epoch-grant reasons from the oracle,
 * anomaly kinds (with their counts) from the check, and coordinator transitions from
 * `oracle.coordinatorTransitions` when present.
 * @example
 * runCoverage(runScenario(scenario, { seed: '1' }))
 * // { 'error:PRODUCER_FENCED': 1, 'fault:pause': 1, 'grant:init': 2, 'grant:timeout': 1 }
 */
export function runCoverage(result: Pick<RunResult, 'report' | 'history' | 'oracle'>): RunCoverage {
  const counts = new Map<string, number>();
  const add = (item: string, count = 1): void => {
    counts.set(item, (counts.get(item) ?? 0) + count);
  };
  for (const op of result.history) {
    if (op.f === 'nemesis') {
      if (op.value.phase === 'start') add(`fault:${op.value.fault}`);
    } else if (op.error !== undefined) {
      add(`error:${op.error}`);
    }
  }
  for (const election of result.oracle.elections ?? []) add(`election:${election.kind}`);
  for (const truncation of result.oracle.truncations ?? []) {
    add(`truncation:${truncation.reason}`);
  }
  for (const grant of result.oracle.epochGrants) add(`grant:${grant.reason}`);
  for (const { kind, count } of result.report.check.anomalyCounts) add(`anomaly:${kind}`, count);
  for (const { from, to, count } of result.oracle.coordinatorTransitions ?? []) {
    add(`transition:${from}->${to}`, count);
  }
  return sortedRecord(counts);
}

/**
 * The entries of `counts` as an object with sorted keys, the canonical form of result lines.
 * @example sortedRecord(new Map([['b', 1], ['a', 2]])) // { a: 2, b: 1 }
 */
export function sortedRecord(counts: ReadonlyMap<string, number>): Record<string, number> {
  const record: Record<string, number> = {};
  const keys = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) record[key] = counts.get(key) ?? 0;
  return record;
}

/**
 * The category of a coverage item, or undefined for an item without a known category.
 * @example coverageCategoryOf('fault:pause') // 'fault'
 */
export function coverageCategoryOf(item: string): CoverageCategory | undefined {
  const category = item.slice(0, Math.max(0, item.indexOf(':')));
  return (COVERAGE_CATEGORIES as readonly string[]).includes(category)
    ? (category as CoverageCategory)
    : undefined;
}
