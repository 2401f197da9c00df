/**
 * The leader epoch check of a Fetch at a replica (Partition.fetchRecords, KIP-320): a request
 * carrying an older current leader epoch is fenced (FENCED_LEADER_EPOCH) and a newer one is
 * unknown here (UNKNOWN_LEADER_EPOCH), whatever this replica's role; then only the leader answers
 * (NOT_LEADER_OR_FOLLOWER otherwise). Before KIP-320 (KAFKA-7395, fixed 2.1) a Fetch had no
 * current leader epoch to check: `fencedByLeaderEpoch` false. Also where a follower's log
 * diverges from the leader's (`fetchDivergence`).
 */
import type { KafkaErrorCode, FetchPartition } from '../protocol';
import type { PartitionReplica } from './partition_replica';

/**
 * `fencedByLeaderEpoch` (KIP-320) is asked only for a fetch whose epoch is not this replica's.
 * @example fetchEpochError(replica, { ...fetch, currentLeaderEpoch: 3 }, () => true)
 */
export function fetchEpochError(
  replica: PartitionReplica,
  fetch: Pick<FetchPartition, 'currentLeaderEpoch'>,
  fencedByLeaderEpoch: () => boolean,
): KafkaErrorCode {
  const current = fetch.currentLeaderEpoch;
  if (current >= 0 && current !== replica.state.leaderEpoch && fencedByLeaderEpoch()) {
    return current < replica.state.leaderEpoch ? 'FENCED_LEADER_EPOCH' : 'UNKNOWN_LEADER_EPOCH';
  }
  return replica.role === 'leader' ? 'NONE' : 'NOT_LEADER_OR_FOLLOWER';
}

/**
 * Partition.fetchRecords: where the follower's last epoch ends here, when its log went further
 * than ours for that epoch. A follower ahead of this leader's log end is told to truncate to it
 * (the outcome of AbstractFetcherThread.handleOutOfRangeError after an unclean election).
 */
export function fetchDivergence(
  replica: PartitionReplica,
  fetch: FetchPartition,
): { epoch: number; endOffset: number } | null {
  const log = replica.log;
  // At the latest epoch, that epoch ends at our log end: only the check below can fire.
  if (fetch.lastFetchedEpoch >= 0 && fetch.lastFetchedEpoch !== log.epochCache.latestEpoch()) {
    const end = log.epochCache.endOffsetFor(fetch.lastFetchedEpoch, log.logEndOffset);
    if (end === undefined)
      return { epoch: log.epochCache.latestEpoch(), endOffset: log.logEndOffset };
    if (end.epoch < fetch.lastFetchedEpoch || end.startOffset < fetch.fetchOffset) {
      return { epoch: end.epoch, endOffset: end.startOffset };
    }
  }
  if (fetch.fetchOffset > log.logEndOffset) {
    return { epoch: log.epochCache.latestEpoch(), endOffset: log.logEndOffset };
  }
  return null;
}
