/**
 * The last stable offset a partition had at a virtual time, from the oracle's recorded changes. A
 * read_committed fetch may return only offsets below it (LocalLog.collectAbortedTransactions), so
 * checkers compare every read_committed delivery with the LSO at the moment of delivery. Binary
 * search, O(log n).
 */
import type { OraclePartition } from '../history';

/**
 * LSO(t): the offset of the last entry of `lastStableOffsetChanges` with `timeUs ≤ t`, or 0 when
 * the partition had no recorded LSO yet. Entries are in time order; among entries at the same
 * time the last one wins, so a delivery at the instant the LSO moved sees the new value.
 * @example lastStableOffsetAt(partition, 1_500) // 7
 */
export function lastStableOffsetAt(partition: OraclePartition, timeUs: number): number {
  const changes = partition.lastStableOffsetChanges;
  let low = 0;
  let high = changes.length;
  // Invariant: every entry before `low` has timeUs <= t, every entry from `high` on has > t.
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    const change = changes[middle];
    if (change !== undefined && change.timeUs <= timeUs) low = middle + 1;
    else high = middle;
  }
  return changes[low - 1]?.offset ?? 0;
}

/**
 * The highest last stable offset the partition had reached by `t` (since its last unclean election
 * before `t`, if any). A new leader after a clean election may start with a lower LSO for a moment
 * (Partition.makeLeader: it keeps its own, lagging HW) although everything below the old LSO is
 * decided and still present, so a record below this bound was stable when delivered. An unclean
 * election can truly lose stable data, so the bound restarts there. O(log n) per call after one
 * O(n) pass per partition, which keeps a run of hundreds of thousands of deliveries linear.
 * @example stableOffsetBoundAt(partition, [], 1_500) // 9
 */
export function stableOffsetBoundAt(
  partition: OraclePartition,
  elections: ReadonlyArray<{ topic: string; partition: number; timeUs: number; kind: string }>,
  timeUs: number,
): number {
  const unclean = uncleanElectionTimes(partition, elections);
  const sinceUs = lastAtOrBefore(unclean, timeUs) ?? Number.NEGATIVE_INFINITY;
  const current = lastStableOffsetAt(partition, timeUs);
  const changes = partition.lastStableOffsetChanges;
  const last = lastChangeIndexAt(changes, timeUs);
  const lastChange = changes[last];
  if (lastChange === undefined || lastChange.timeUs < sinceUs) return current;
  // The running maximum restarts at every unclean election, so at `last` it covers exactly the
  // changes from `sinceUs` (the latest election at or before that change) up to `t`.
  const runningMax = runningMaxima(partition, unclean)[last] ?? current;
  return Math.max(current, runningMax);
}

/** Unclean election times of this partition, ascending. */
function uncleanElectionTimes(
  partition: OraclePartition,
  elections: ReadonlyArray<{ topic: string; partition: number; timeUs: number; kind: string }>,
): number[] {
  return elections
    .filter(
      (election) =>
        election.kind === 'unclean' &&
        election.topic === partition.topic &&
        election.partition === partition.partition,
    )
    .map((election) => election.timeUs)
    .sort((a, b) => a - b);
}

/** The last value ≤ `timeUs` of an ascending list, or undefined. */
function lastAtOrBefore(times: readonly number[], timeUs: number): number | undefined {
  let found: number | undefined;
  for (const time of times) {
    if (time > timeUs) break;
    found = time;
  }
  return found;
}

/** The index of the last change with `timeUs ≤ t`, or -1. */
function lastChangeIndexAt(
  changes: OraclePartition['lastStableOffsetChanges'],
  timeUs: number,
): number {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    if ((changes[middle]?.timeUs ?? Number.POSITIVE_INFINITY) <= timeUs) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** Per partition: the running maximum of the LSO changes, restarting at each unclean election. */
const runningMaximaCache = new WeakMap<OraclePartition, { key: string; maxima: number[] }>();

function runningMaxima(partition: OraclePartition, unclean: readonly number[]): number[] {
  const key = unclean.join(',');
  const cached = runningMaximaCache.get(partition);
  if (cached !== undefined && cached.key === key) return cached.maxima;
  const maxima: number[] = [];
  let next = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (const change of partition.lastStableOffsetChanges) {
    while (next < unclean.length && (unclean[next] as number) <= change.timeUs) {
      max = Number.NEGATIVE_INFINITY;
      next += 1;
    }
    max = Math.max(max, change.offset);
    maxima.push(max);
  }
  runningMaximaCache.set(partition, { key, maxima });
  return maxima;
}
