/**
 * The leader epoch check of a Fetch at a replica (Partition.fetchRecords, KIP-320): a request
 * carrying an older current leader epoch is fenced (FENCED_LEADER_EPOCH) and a newer one is
 * unknown here (UNKNOWN_LEADER_EPOCH), whatever this replica's role; then only the leader answers
 * (NOT_LEADER_OR_FOLLOWER otherwise). Before KIP-320 (KAFKA-7395, fixed 2.1) a Fetch had no
 * current leader epoch to check: `fencedByLeaderEpoch` false.
 */
import type { KafkaErrorCode, FetchPartition } from '../protocol';
import type { PartitionReplica } from './partition_replica';

/** @example fetchEpochError(replica, { ...fetch, currentLeaderEpoch: 3 }, true) */
export function fetchEpochError(
  replica: PartitionReplica,
  fetch: Pick<FetchPartition, 'currentLeaderEpoch'>,
  fencedByLeaderEpoch: boolean | undefined,
): KafkaErrorCode {
  if (fencedByLeaderEpoch !== false && fetch.currentLeaderEpoch >= 0) {
    if (fetch.currentLeaderEpoch < replica.state.leaderEpoch) return 'FENCED_LEADER_EPOCH';
    if (fetch.currentLeaderEpoch > replica.state.leaderEpoch) return 'UNKNOWN_LEADER_EPOCH';
  }
  return replica.role === 'leader' ? 'NONE' : 'NOT_LEADER_OR_FOLLOWER';
}
