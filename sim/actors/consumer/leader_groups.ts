/** Groups a consumer's partitions by their leader in the client's metadata (one request each). */
import type { NodeId } from '../../kernel';
import type { TopicPartition } from '../protocol';

/** The metadata lookups the grouping needs. */
export interface LeaderLookup {
  leaderOf(tp: TopicPartition): NodeId | null;
  requestRefresh(): void;
}

/** Partitions by leader; a partition without a known leader asks for a metadata refresh. */
export function groupByLeader(
  partitions: readonly TopicPartition[],
  metadata: LeaderLookup,
): Map<NodeId, TopicPartition[]> {
  const byLeader = new Map<NodeId, TopicPartition[]>();
  for (const tp of partitions) {
    const leader = metadata.leaderOf(tp);
    if (leader === null) {
      metadata.requestRefresh();
      continue;
    }
    const list = byLeader.get(leader) ?? [];
    list.push(tp);
    byLeader.set(leader, list);
  }
  return byLeader;
}
