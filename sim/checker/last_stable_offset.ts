/**
 * The last stable offset a partition had at a virtual time, from the oracle's recorded changes.
 * A read_committed fetch may return only offsets below it (R4.4), so checkers compare every
 * read_committed delivery with the LSO at the moment of delivery. Binary search, O(log n).
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
 * The highest last stable offset the partition had reached by `t` (since its last unclean
 * election before `t`, if any). A new leader after a clean election may start with a lower LSO
 * for a moment (R1.11: it keeps its own, lagging HW) although everything below the old LSO is
 * decided and still present, so a record below this bound was stable when delivered. An unclean
 * election can truly lose stable data, so the bound restarts there.
 * @example stableOffsetBoundAt(partition, [], 1_500) // 9
 */
export function stableOffsetBoundAt(
  partition: OraclePartition,
  elections: ReadonlyArray<{ topic: string; partition: number; timeUs: number; kind: string }>,
  timeUs: number,
): number {
  let sinceUs = Number.NEGATIVE_INFINITY;
  for (const election of elections) {
    if (election.kind !== 'unclean' || election.timeUs > timeUs) continue;
    if (election.topic !== partition.topic || election.partition !== partition.partition) continue;
    sinceUs = Math.max(sinceUs, election.timeUs);
  }
  let bound = lastStableOffsetAt(partition, timeUs);
  for (const change of partition.lastStableOffsetChanges) {
    if (change.timeUs > timeUs) break;
    if (change.timeUs >= sinceUs) bound = Math.max(bound, change.offset);
  }
  return bound;
}
