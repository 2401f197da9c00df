/**
 * The classic consumer-group protocol and the offset APIs (KIP-447 for the transactional commits):
 * JoinGroup, SyncGroup, Heartbeat and LeaveGroup go to the group coordinator (the leader of the
 * group's `__consumer_offsets` partition, GroupMetadataManager.partitionFor); OffsetCommit and
 * OffsetFetch read and write committed offsets; AddOffsetsToTxn (to the transaction coordinator)
 * and TxnOffsetCommit (to the group coordinator) carry a transaction's input offsets (KIP-98,
 * KIP-447, KafkaProducer.sendOffsetsToTransaction; GroupCoordinator.validateOffsetCommit;
 * GroupMetadata.prepareTxnOffsetCommit). Field names follow Kafka's JSON message definitions
 * (JoinGroupRequest.json and friends).
 */
import type { KafkaErrorCode } from './errors';
import type { TopicPartition } from './messages';

/** `generationId` of a member that has not joined, or of the old groupId-only API. */
export const NO_GENERATION = -1;
/** `memberId` of a member that has not joined yet. */
export const UNKNOWN_MEMBER_ID = '';

/** The subscription one member sends in JoinGroup (ConsumerProtocolSubscription). */
export interface GroupSubscription {
  readonly topics: readonly string[];
  /** The partitions the member owned before this rebalance (eager protocol: informational). */
  readonly ownedPartitions: readonly TopicPartition[];
}

/** JoinGroup (classic protocol, protocolType "consumer"). */
export interface JoinGroupRequest {
  readonly kind: 'JoinGroup';
  readonly correlationId: number;
  readonly groupId: string;
  /** `session.timeout.ms`. */
  readonly sessionTimeoutMs: number;
  /** `max.poll.interval.ms`: how long the coordinator waits for members to rejoin. */
  readonly rebalanceTimeoutMs: number;
  /** Empty on the first join (KIP-394 then answers MEMBER_ID_REQUIRED with an id). */
  readonly memberId: string;
  /** `group.instance.id` (KIP-345 static membership), null for a dynamic member. */
  readonly groupInstanceId: string | null;
  /** Assignor names in preference order, e.g. ["range"]. */
  readonly protocols: ReadonlyArray<{
    readonly name: string;
    readonly subscription: GroupSubscription;
  }>;
}

/** One member as the leader sees it in JoinGroupResponse. */
export interface JoinGroupMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly subscription: GroupSubscription;
}

export interface JoinGroupResponse {
  readonly kind: 'JoinGroupResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  readonly generationId: number;
  /** The chosen assignor, null on error. */
  readonly protocolName: string | null;
  /** The member id of the group leader. */
  readonly leader: string;
  /** This member's id (also set with MEMBER_ID_REQUIRED). */
  readonly memberId: string;
  /** Every member with its subscription; empty unless the receiver is the leader. */
  readonly members: readonly JoinGroupMember[];
}

/** SyncGroup: the leader sends the assignment, followers send nothing and receive theirs. */
export interface SyncGroupRequest {
  readonly kind: 'SyncGroup';
  readonly correlationId: number;
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  /** Leader only: the partitions of each member. */
  readonly assignments: ReadonlyArray<{
    readonly memberId: string;
    readonly partitions: readonly TopicPartition[];
  }>;
}

export interface SyncGroupResponse {
  readonly kind: 'SyncGroupResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  /** This member's partitions in the new generation. */
  readonly assignment: readonly TopicPartition[];
}

/** Heartbeat: keeps the session alive; REBALANCE_IN_PROGRESS tells the member to rejoin. */
export interface HeartbeatRequest {
  readonly kind: 'Heartbeat';
  readonly correlationId: number;
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

export interface HeartbeatResponse {
  readonly kind: 'HeartbeatResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
}

/** LeaveGroup (v3+: a batch of members). */
export interface LeaveGroupRequest {
  readonly kind: 'LeaveGroup';
  readonly correlationId: number;
  readonly groupId: string;
  readonly members: ReadonlyArray<{
    readonly memberId: string;
    readonly groupInstanceId: string | null;
  }>;
}

export interface LeaveGroupResponse {
  readonly kind: 'LeaveGroupResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
}

/** One partition's offset to commit; `offset` is the next record the group should read. */
export interface OffsetToCommit extends TopicPartition {
  readonly offset: number;
}

/** OffsetCommit (commitSync / auto-commit): outside any transaction. */
export interface OffsetCommitRequest {
  readonly kind: 'OffsetCommit';
  readonly correlationId: number;
  readonly groupId: string;
  /** -1 with an empty member id for a commit from outside the group (simple consumer). */
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly offsets: readonly OffsetToCommit[];
}

/** Per-partition results of OffsetCommit and TxnOffsetCommit. */
export type OffsetCommitResults = ReadonlyArray<
  TopicPartition & { readonly error: KafkaErrorCode }
>;

export interface OffsetCommitResponse {
  readonly kind: 'OffsetCommitResponse';
  readonly correlationId: number;
  readonly results: OffsetCommitResults;
}

/** OffsetFetch: the committed offsets of a group (GroupMetadata.prepareTxnOffsetCommit). */
export interface OffsetFetchRequest {
  readonly kind: 'OffsetFetch';
  readonly correlationId: number;
  readonly groupId: string;
  readonly partitions: readonly TopicPartition[];
  /** KIP-447: answer UNSTABLE_OFFSET_COMMIT while a transactional offset is pending. */
  readonly requireStable: boolean;
}

export interface OffsetFetchResponse {
  readonly kind: 'OffsetFetchResponse';
  readonly correlationId: number;
  /** Group-level error (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, ...). */
  readonly error: KafkaErrorCode;
  /** `offset` is -1 when the group has no committed offset for the partition. */
  readonly partitions: ReadonlyArray<
    TopicPartition & { readonly offset: number; readonly error: KafkaErrorCode }
  >;
}

/**
 * AddOffsetsToTxn: the transaction coordinator adds the group's offsets partition
 * (KafkaApis.handleAddOffsetsToTxnRequest).
 */
export interface AddOffsetsToTxnRequest {
  readonly kind: 'AddOffsetsToTxn';
  readonly correlationId: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly groupId: string;
}

export interface AddOffsetsToTxnResponse {
  readonly kind: 'AddOffsetsToTxnResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
}

/**
 * TxnOffsetCommit: the producer writes the offsets as part of its transaction (KIP-447;
 * KafkaProducer.sendOffsetsToTransaction; GroupCoordinator.validateOffsetCommit).
 */
export interface TxnOffsetCommitRequest {
  readonly kind: 'TxnOffsetCommit';
  readonly correlationId: number;
  readonly transactionalId: string;
  readonly groupId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** From consumer.groupMetadata(); -1 / '' / null with the groupId-only API (pre-KIP-447). */
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly offsets: readonly OffsetToCommit[];
  /**
   * The producer's transaction version: 2 (TxnOffsetCommit v5+, KIP-890 part 2) sends no
   * AddOffsetsToTxn, so the group coordinator's broker adds the `__consumer_offsets` partition
   * to the transaction itself; below 2 it only verifies the partition is in it.
   */
  readonly transactionVersion: number;
}

export interface TxnOffsetCommitResponse {
  readonly kind: 'TxnOffsetCommitResponse';
  readonly correlationId: number;
  readonly results: OffsetCommitResults;
}

/** Every group and offset request. */
export type GroupRequest =
  | JoinGroupRequest
  | SyncGroupRequest
  | HeartbeatRequest
  | LeaveGroupRequest
  | OffsetCommitRequest
  | OffsetFetchRequest
  | AddOffsetsToTxnRequest
  | TxnOffsetCommitRequest;

/** Every group and offset response. */
export type GroupResponse =
  | JoinGroupResponse
  | SyncGroupResponse
  | HeartbeatResponse
  | LeaveGroupResponse
  | OffsetCommitResponse
  | OffsetFetchResponse
  | AddOffsetsToTxnResponse
  | TxnOffsetCommitResponse;
