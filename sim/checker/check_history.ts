/**
 * Runs the checkers over one history and its oracle and merges their verdicts in Jepsen's way.
 * Each checker runs inside its own try/catch: one that throws is recorded in `checkerErrors` and
 * makes the result `unknown`, never `false`, because a crashed checker proves nothing. Merging
 * follows Jepsen's `merge-valid`: `false` (a real anomaly, found by another checker) outranks
 * `unknown`, which outranks `true`. Anomalies are grouped by kind (kinds sorted), ordered by time
 * within a kind, and capped at `examplesMax` per kind; `anomalyCounts` keeps the true counts.
 */
import type { History, Oracle } from '../history';
import { groupAnomalies } from './anomaly_groups';
import type { Anomaly, AnomalyKind, CheckResult } from './anomaly_types';
import { checkAbortedRead } from './aborted_read';
import { CheckContext } from './check_context';
import { checkDuplicate } from './duplicate';
import { checkEosViolation } from './eos_violation';
import { checkFatalTxnError } from './fatal_txn_error';
import { checkG1cCycle } from './g1c_cycle';
import { checkHangingTransaction } from './hanging_transaction';
import { checkInconsistentOffsets } from './inconsistent_offsets';
import { checkInvariant } from './invariant';
import { checkLostWrite } from './lost_write';
import { checkNonmonotonicPoll } from './nonmonotonic_poll';
import { checkPollSkip } from './poll_skip';
import { checkReadAboveHw } from './read_above_hw';
import { checkTornTransaction } from './torn_transaction';
import { checkUncommittedRead } from './uncommitted_read';
import { checkVanishedRead } from './vanished_read';
import { checkZombieWrite } from './zombie_write';

/** A checker and the name its errors are recorded under. */
export interface NamedChecker {
  readonly name: string;
  readonly check: (context: CheckContext) => readonly Anomaly[];
}

/**
 * Every checker, named by the anomaly kind it reports, in {@link ANOMALY_KINDS} order; the
 * `duplicate` checker also reports `epoch-bump-duplicate`.
 */
export const CHECKERS: readonly NamedChecker[] = [
  { name: 'duplicate', check: checkDuplicate },
  { name: 'lost-write', check: checkLostWrite },
  { name: 'zombie-write', check: checkZombieWrite },
  { name: 'aborted-read', check: checkAbortedRead },
  { name: 'uncommitted-read', check: checkUncommittedRead },
  { name: 'vanished-read', check: checkVanishedRead },
  { name: 'read-above-hw', check: checkReadAboveHw },
  { name: 'inconsistent-offsets', check: checkInconsistentOffsets },
  { name: 'nonmonotonic-poll', check: checkNonmonotonicPoll },
  { name: 'poll-skip', check: checkPollSkip },
  { name: 'torn-transaction', check: checkTornTransaction },
  { name: 'hanging-transaction', check: checkHangingTransaction },
  { name: 'fatal-txn-error', check: checkFatalTxnError },
  { name: 'eos-violation', check: checkEosViolation },
  { name: 'g1c', check: checkG1cCycle },
  { name: 'invariant', check: checkInvariant },
];

/** Options of {@link checkHistory}. */
export interface CheckHistoryOptions {
  /**
   * Anomalies kept per kind; pass `Number.MAX_SAFE_INTEGER` to keep all (`--all-errors`).
   * @default 20
   */
  readonly examplesMax?: number;
  /**
   * The checkers to run, composed by name.
   * @default CHECKERS
   */
  readonly checkers?: readonly NamedChecker[];
}

/** Anomalies kept per kind unless `examplesMax` says otherwise. */
export const EXAMPLES_MAX_DEFAULT = 20;

/**
 * Checks `history` against `oracle` with every checker.
 * @example
 * const result = checkHistory(history, oracle, { examplesMax: 5 });
 * if (result.valid === false) console.log(result.anomalyCounts);
 */
export function checkHistory(
  history: History,
  oracle: Oracle,
  options: CheckHistoryOptions = {},
): CheckResult {
  const examplesMax = options.examplesMax ?? EXAMPLES_MAX_DEFAULT;
  if (!Number.isSafeInteger(examplesMax) || examplesMax < 0) {
    throw new RangeError(`examplesMax must be a non-negative integer: got ${String(examplesMax)}`);
  }
  const context = new CheckContext(history, oracle);
  const found: Anomaly[] = [];
  const checkerErrors: Array<{ checker: string; error: string }> = [];
  for (const checker of options.checkers ?? CHECKERS) {
    try {
      found.push(...checker.check(context));
    } catch (error) {
      checkerErrors.push({ checker: checker.name, error: describeError(error) });
    }
  }
  const byKind = groupByKind(found);
  const anomalyTypes = [...byKind.keys()].sort(compareKinds);
  const anomalies = anomalyTypes.flatMap((kind) => (byKind.get(kind) ?? []).slice(0, examplesMax));
  const anomalyCounts = anomalyTypes.map((kind) => ({
    kind,
    count: byKind.get(kind)?.length ?? 0,
  }));
  const valid = anomalyTypes.length > 0 ? false : checkerErrors.length > 0 ? 'unknown' : true;
  const classificationCounts = countClassifications(found);
  return {
    valid,
    anomalyTypes,
    anomalies,
    anomalyCounts,
    checkerErrors,
    ...(classificationCounts.length === 0 ? {} : { classificationCounts }),
    ...(found.length === 0 ? {} : { anomalyGroups: groupAnomalies(found) }),
  };
}

interface ClassificationCount {
  kind: AnomalyKind;
  classification: string;
  count: number;
}

/** Anomalies per (kind, classification) before the cap, sorted by kind then classification. */
function countClassifications(found: readonly Anomaly[]): ClassificationCount[] {
  const counts = new Map<string, ClassificationCount>();
  for (const { kind, classification } of found) {
    if (classification === undefined) continue;
    const key = `${kind}\u0000${classification}`;
    const entry = counts.get(key) ?? { kind, classification, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.keys()].sort().flatMap((key) => counts.get(key) ?? []);
}

/** Anomalies per kind, each list ordered by time, then by the order the checkers emitted. */
function groupByKind(found: readonly Anomaly[]): Map<AnomalyKind, Anomaly[]> {
  const ordered = found
    .map((anomaly, position) => ({ anomaly, position }))
    .sort((a, b) => (a.anomaly.timeUs ?? -1) - (b.anomaly.timeUs ?? -1) || a.position - b.position);
  const byKind = new Map<AnomalyKind, Anomaly[]>();
  for (const { anomaly } of ordered) {
    const known = byKind.get(anomaly.kind);
    if (known === undefined) byKind.set(anomaly.kind, [anomaly]);
    else known.push(anomaly);
  }
  return byKind;
}

/** Code-unit order; kinds are unique, so the order is total. */
function compareKinds(a: AnomalyKind, b: AnomalyKind): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
