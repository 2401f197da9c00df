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
  readonly value: {
    readonly offset: number;
    readonly commitTimestampUs: number;
    /**
     * OffsetCommitValue v1's `expire_timestamp` in ms, present only in a v1 record: Kafka writes
     * v1 below `inter.broker.protocol.version` 2.1 (GroupMetadataManager.offsetCommitValue), with
     * OffsetCommitRequest.DEFAULT_TIMESTAMP (-1) when the commit set no retention (KIP-211
     * removed the retention time from OffsetCommit; the model's clients never set one). Absent:
     * v3, which has no such field.
     */
    readonly expireTimestampMs?: number;
  } | null;
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
    /**
     * GroupMetadataValue v2's `current_state_timestamp` (KIP-211): when the group entered its
     * state. Absent in a v1 record, written below `inter.broker.protocol.version` 2.1.
     */
    readonly currentStateTimestampUs?: number;
  } | null;
}

/** One `__consumer_offsets` record. */
export type GroupLogRecord = OffsetCommitRecord | GroupMetadataRecord;
