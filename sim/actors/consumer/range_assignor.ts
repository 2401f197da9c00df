/**
 * Kafka's RangeAssignor (`partition.assignment.strategy=range`, the classic consumer's first
 * default): for each topic on its own, the partitions sorted by number are cut into contiguous
 * ranges, one per subscribed member in member order (static members by `group.instance.id`
 * first, then dynamic ones by member id, as Java's `MemberInfo.compareTo`); the first
 * `partitions % members` members get one partition more. The group leader runs it on the
 * JoinGroup member list (ClassicGroup).
 * [apache/kafka `RangeAssignor.assign`, `AbstractPartitionAssignor`]
 */
import type { TopicPartition } from '../protocol';

/** The assignor's protocol name in JoinGroup. */
export const RANGE_ASSIGNOR_NAME = 'range';

/** One member as the assignor sees it: its id and the topics it subscribed to. */
export interface AssignorMember {
  readonly memberId: string;
  /** `group.instance.id` of a static member (KIP-345), else null. */
  readonly groupInstanceId: string | null;
  readonly topics: readonly string[];
}

/**
 * Assigns every partition of every subscribed topic.
 * @param members the group's members (any order; sorted here, see {@link compareMembers})
 * @param partitionCounts the number of partitions of each topic; an unknown topic is skipped
 * @returns each member's partitions, topic by topic in sorted topic order, every member present
 * @example
 * const m = (memberId: string) => ({ memberId, groupInstanceId: null, topics: ['t'] });
 * rangeAssign([m('a'), m('b')], new Map([['t', 3]]))
 * // a: t-0, t-1; b: t-2
 */
export function rangeAssign(
  members: readonly AssignorMember[],
  partitionCounts: ReadonlyMap<string, number>,
): Map<string, TopicPartition[]> {
  const sorted = [...members].sort(compareMembers);
  const assignment = new Map<string, TopicPartition[]>(sorted.map((m) => [m.memberId, []]));
  const topics = [...new Set(sorted.flatMap((member) => member.topics))].sort(compareStrings);
  for (const topic of topics) {
    const count = partitionCounts.get(topic);
    if (count === undefined) continue;
    const subscribers = sorted.filter((member) => member.topics.includes(topic));
    const perMember = Math.floor(count / subscribers.length);
    const withExtra = count % subscribers.length;
    subscribers.forEach((member, index) => {
      const start = perMember * index + Math.min(index, withExtra);
      const length = perMember + (index < withExtra ? 1 : 0);
      const partitions = assignment.get(member.memberId) as TopicPartition[];
      for (let partition = start; partition < start + length; partition += 1)
        partitions.push({ topic, partition });
    });
  }
  return assignment;
}

/** Static members first, by instance id; then dynamic members by member id. */
function compareMembers(a: AssignorMember, b: AssignorMember): number {
  if (a.groupInstanceId !== null && b.groupInstanceId !== null) {
    const byInstance = compareStrings(a.groupInstanceId, b.groupInstanceId);
    if (byInstance !== 0) return byInstance;
  } else if (a.groupInstanceId !== null) return -1;
  else if (b.groupInstanceId !== null) return 1;
  return compareStrings(a.memberId, b.memberId);
}

/** Code-unit order, as Java's String.compareTo; never locale order (style rule 13). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
