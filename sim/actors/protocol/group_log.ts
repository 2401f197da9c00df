/**
 * The records of `__consumer_offsets` (Kafka's GroupCoordinatorRecordSerde keys and values,
 * ClassicGroup; GroupMetadata.prepareTxnOffsetCommit): an offset commit per (group, topic,
 * partition), and the group metadata record written when a rebalance completes (generation, leader,
 * members with their assignment). A transactional offset commit is appended in a transactional
 * batch carrying the producer's id and epoch, so the COMMIT or ABORT marker on the same partition
 * decides it. A null value is a tombstone.
 */
import type { TopicPartition } from './messages';

/** The internal topic that holds committed offsets and group metadata. */
export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets';

/** OffsetCommitKey -> OffsetCommitValue. */
export interface OffsetCommitRecord {
  readonly type: 'offset';
  readonly groupId: string;
  readonly topic: string;
  readonly partition: number;
  /** null: a tombstone (offset deleted). */
  readonly value: { readonly offset: number; readonly commitTimestampUs: number } | null;
}

/** One member in a GroupMetadataValue. */
export interface GroupMemberRecord {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly subscription: readonly string[];
  readonly assignment: readonly TopicPartition[];
}

/** GroupMetadataKey -> GroupMetadataValue. */
export interface GroupMetadataRecord {
  readonly type: 'group';
  readonly groupId: string;
  /** null: a tombstone (group deleted). */
  readonly value: {
    readonly protocolType: string;
    readonly generationId: number;
    readonly protocolName: string | null;
    readonly leader: string | null;
    readonly members: readonly GroupMemberRecord[];
  } | null;
}

/** One `__consumer_offsets` record. */
export type GroupLogRecord = OffsetCommitRecord | GroupMetadataRecord;
