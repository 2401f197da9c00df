/**
 * The offset APIs at the group coordinator (Kafka's GroupCoordinator.handleCommitOffsets,
 * handleTxnCommitOffsets, handleFetchOffsets and GroupMetadataManager.storeOffsets; the new
 * coordinator's ClassicGroup.validateOffsetCommit; KIP-447 for the transactional commits).
 *
 * - OffsetCommit and TxnOffsetCommit are validated with one table
 *   (GroupCoordinator.validateOffsetCommit): Dead → COORDINATOR_NOT_AVAILABLE; generation < 0 in an
 *   Empty group → accepted; with member information: FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID,
 *   ILLEGAL_GENERATION; without it a plain commit to a non-empty group → UNKNOWN_MEMBER_ID while a
 *   transactional one is accepted (the old groupId-only API); a plain commit in CompletingRebalance
 *   → REBALANCE_IN_PROGRESS. An unknown group is created Empty for generation < 0, else
 *   ILLEGAL_GENERATION.
 * - A plain commit applies once its records are durable. A transactional one is pending for its
 *   producer from the leader append on, and only a marker decides it
 *   (GroupMetadata.prepareTxnOffsetCommit).
 * - OffsetFetch answers the committed offset, -1 without one; with requireStable a partition
 *   with a pending transactional offset from any producer answers UNSTABLE_OFFSET_COMMIT.
 */
import type { ActorContext } from '../../kernel';
import type {
  KafkaErrorCode,
  KafkaMessage,
  OffsetCommitRecord,
  OffsetCommitRequest,
  OffsetCommitResults,
  OffsetFetchRequest,
  OffsetFetchResponse,
  TxnOffsetCommitRequest,
} from '../protocol';
import type { ClassicGroup } from './group_metadata';
import type { GroupMembership } from './group_membership';
import type { StoredOffset } from './offset_store';
import { DEFAULT_EXPIRE_TIMESTAMP } from './offset_expiration';

type Ctx = ActorContext<KafkaMessage>;

/** The transaction an offsets append belongs to, with its KIP-890 verification guard. */
export interface OffsetsTransaction {
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The guard from the verification (0 when skipped), or null with verification off. */
  readonly guard: number | null;
}

/** What the offset handlers need from the coordinator. */
export interface OffsetsHost {
  readonly membership: GroupMembership;
  /** The offset commit value schema: v1 (with an expire timestamp) or v3. */
  readonly recordValueVersion: 1 | 3;
  /**
   * KAFKA-4682 on (before 2.1, KIP-211): every commit expires this long after it (KafkaApis's
   * defaultExpireTimestamp, `offsets.retention.minutes`), whatever the group's state; null: the
   * commit has no expire timestamp.
   */
  readonly retentionMsOnCommit: number | null;
  /** The group, or undefined when the coordinator has none by that id. */
  group(groupId: string): ClassicGroup | undefined;
  /** Creates an Empty group (simple consumers and the old API, generation < 0). */
  createGroup(groupId: string): ClassicGroup;
  /**
   * Appends offset records to the group's partition with acks=all: `appended` gets the record
   * offsets right after the leader append (only if it succeeded), then `done` gets NONE or the
   * error, already mapped for offset commits (it may run before this call returns).
   */
  appendOffsets(
    group: ClassicGroup,
    append: { records: readonly OffsetCommitRecord[]; transaction: OffsetsTransaction | null },
    ctx: Ctx,
    callbacks: {
      appended: (baseOffsets: readonly number[]) => void;
      done: (error: KafkaErrorCode) => void;
    },
  ): void;
}

/**
 * Kafka's maybeConvertOffsetCommitError: append and verification errors as commit errors. A
 * verification that died in transport (NETWORK_EXCEPTION, KIP-890 part 1 on TxnOffsetCommit from
 * 3.7.0, KAFKA-15449) is answered COORDINATOR_LOAD_IN_PROGRESS, which every client retries
 * without a coordinator lookup, since KAFKA-16386 (apache/kafka#15559, 3.7.1 and 3.8.0). With
 * `networkExceptionUnconverted` (the bug, 3.7.0) it goes to the client as it is.
 */
export function offsetCommitErrorFor(
  error: KafkaErrorCode,
  networkExceptionUnconverted = false,
): KafkaErrorCode {
  switch (error) {
    case 'NETWORK_EXCEPTION':
      return networkExceptionUnconverted ? error : 'COORDINATOR_LOAD_IN_PROGRESS';
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'NOT_ENOUGH_REPLICAS':
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
      return 'NOT_COORDINATOR';
    default:
      return error;
  }
}

/**
 * The validation table for plain (`transactional` false) and transactional commits
 * (GroupCoordinator.validateOffsetCommit).
 */
export function validateOffsetCommit(
  group: ClassicGroup,
  request: { generationId: number; memberId: string; groupInstanceId: string | null },
  options: { transactional: boolean; membership: GroupMembership },
): KafkaErrorCode {
  const { generationId, memberId, groupInstanceId } = request;
  if (group.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
  if (generationId < 0 && group.state === 'Empty') return 'NONE';
  if (generationId >= 0 || memberId !== '' || groupInstanceId !== null) {
    const invalid = options.membership.validateMember(group, memberId, groupInstanceId);
    if (invalid !== 'NONE') return invalid;
    if (generationId !== group.generationId) return 'ILLEGAL_GENERATION';
  } else if (!options.transactional && group.state !== 'Empty') {
    return 'UNKNOWN_MEMBER_ID';
  }
  if (!options.transactional && group.state === 'CompletingRebalance') {
    return 'REBALANCE_IN_PROGRESS';
  }
  return 'NONE';
}

/** The group a commit goes to: known, created Empty for generation < 0, or an error. */
function groupForCommit(
  host: OffsetsHost,
  request: { groupId: string; generationId: number },
): ClassicGroup | 'ILLEGAL_GENERATION' {
  const group = host.group(request.groupId);
  if (group !== undefined) return group;
  return request.generationId < 0 ? host.createGroup(request.groupId) : 'ILLEGAL_GENERATION';
}

function allPartitions(
  request: { offsets: ReadonlyArray<{ topic: string; partition: number }> },
  error: KafkaErrorCode,
): OffsetCommitResults {
  return request.offsets.map(({ topic, partition }) => ({ topic, partition, error }));
}

/**
 * GroupMetadataManager.offsetCommitValue: v1 below IBP 2.1 or when the commit has an expire
 * timestamp (before KIP-211 every commit had one); a v1 value without one holds the default.
 */
function recordsOf(
  request: OffsetCommitRequest | TxnOffsetCommitRequest,
  nowUs: number,
  host: OffsetsHost,
): OffsetCommitRecord[] {
  const retentionMs = host.retentionMsOnCommit;
  const expireTimestampMs =
    retentionMs === null ? DEFAULT_EXPIRE_TIMESTAMP : Math.floor(nowUs / 1000) + retentionMs;
  const v1 = host.recordValueVersion === 1 || retentionMs !== null;
  const expire = v1 ? { expireTimestampMs } : {};
  return request.offsets.map(({ topic, partition, offset }) => ({
    type: 'offset',
    groupId: request.groupId,
    topic,
    partition,
    value: { offset, commitTimestampUs: nowUs, ...expire },
  }));
}

/** OffsetCommit (commitSync, auto-commit): validated, appended, applied once durable. */
export function commitOffsets(
  host: OffsetsHost,
  request: OffsetCommitRequest,
  ctx: Ctx,
  respond: (results: OffsetCommitResults) => void,
): void {
  const group = groupForCommit(host, request);
  if (typeof group === 'string') return respond(allPartitions(request, group));
  const options = { transactional: false, membership: host.membership };
  const invalid = validateOffsetCommit(group, request, options);
  if (invalid !== 'NONE') return respond(allPartitions(request, invalid));
  const member = group.members.get(request.memberId);
  // A member's commit also counts as a heartbeat.
  if (member !== undefined) {
    host.membership.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
  }
  const records = recordsOf(request, ctx.nowUs(), host);
  let appended: readonly number[] = [];
  host.appendOffsets(group, { records, transaction: null }, ctx, {
    appended: (baseOffsets) => {
      appended = baseOffsets;
    },
    done: (error) => {
      if (error === 'NONE') {
        records.forEach((record, index) =>
          group.offsets.commit(storedOf(record, appended[index], host)),
        );
      }
      respond(allPartitions(request, error));
    },
  });
}

/**
 * TxnOffsetCommit after the KIP-890 verification passed (the caller ran it): the
 * GroupCoordinator.validateOffsetCommit table, then a transactional append carrying the producer's
 * id and epoch (INVALID_PRODUCER_EPOCH for a stale epoch); the offsets are pending for the producer
 * from the leader append on.
 */
export function commitTransactionalOffsets(
  host: OffsetsHost,
  request: TxnOffsetCommitRequest & { readonly guard: number | null },
  ctx: Ctx,
  respond: (results: OffsetCommitResults) => void,
): void {
  const group = groupForCommit(host, request);
  if (typeof group === 'string') return respond(allPartitions(request, group));
  const options = { transactional: true, membership: host.membership };
  const invalid = validateOffsetCommit(group, request, options);
  if (invalid !== 'NONE') return respond(allPartitions(request, invalid));
  const records = recordsOf(request, ctx.nowUs(), host);
  const { producerId, producerEpoch, guard } = request;
  let stored: StoredOffset[] = [];
  const transaction = { producerId, producerEpoch, guard };
  host.appendOffsets(group, { records, transaction }, ctx, {
    appended: (baseOffsets) => {
      stored = records.map((record, index) => storedOf(record, baseOffsets[index], host));
      for (const offset of stored) group.offsets.addPending(producerId, offset);
    },
    done: (error) => {
      if (error !== 'NONE') group.offsets.failPending(producerId, stored);
      respond(allPartitions(request, error));
    },
  });
}

/** OffsetFetch for a group this coordinator serves (GroupMetadata.prepareTxnOffsetCommit). */
export function fetchOffsets(
  group: ClassicGroup | undefined,
  request: OffsetFetchRequest,
): OffsetFetchResponse {
  const partitions = request.partitions.map(({ topic, partition }) => {
    const tp = { topic, partition };
    if (group === undefined) return { ...tp, offset: -1, error: 'NONE' as const };
    if (request.requireStable && group.offsets.hasPendingTransactional(tp)) {
      return { ...tp, offset: -1, error: 'UNSTABLE_OFFSET_COMMIT' as const };
    }
    return { ...tp, offset: group.offsets.committedOffset(tp), error: 'NONE' as const };
  });
  return {
    kind: 'OffsetFetchResponse',
    correlationId: request.correlationId,
    error: 'NONE',
    partitions,
  };
}

/** The offset a live commit holds: an expire timestamp only before KIP-211 (KAFKA-4682). */
function storedOf(
  record: OffsetCommitRecord,
  appendOffset: number | undefined,
  host: OffsetsHost,
): StoredOffset {
  const expireTimestampMs = record.value?.expireTimestampMs;
  const expire =
    host.retentionMsOnCommit === null || expireTimestampMs === undefined
      ? {}
      : { expireTimestampMs };
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.value?.offset ?? -1,
    commitTimestampUs: record.value?.commitTimestampUs ?? -1,
    ...expire,
    appendOffset: appendOffset ?? -1,
  };
}
