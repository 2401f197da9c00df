/**
 * The group coordinator of one broker (Kafka's GroupCoordinator and GroupMetadataManager,
 * ClassicGroup). It serves the groups whose
 * `__consumer_offsets` partition this broker leads: the partition of a group is
 * abs(javaHash(group.id)) % `offsets.topic.num.partitions` (TransactionStateManager.partitionFor's
 * formula). On becoming leader it loads the partition (COORDINATOR_LOAD_IN_PROGRESS until done;
 * groups, committed offsets and pending transactional offsets are rebuilt from the log, and the
 * restored members' sessions restart); on losing it, the partition's groups are dropped and their
 * parked requests answered NOT_COORDINATOR. A crash loses everything in memory.
 *
 * Requests: JoinGroup, SyncGroup, Heartbeat, LeaveGroup (group_join.ts, group_membership.ts),
 * OffsetCommit, OffsetFetch and TxnOffsetCommit (group_offsets.ts). TxnOffsetCommit first runs
 * the KIP-890 verification of its `__consumer_offsets` partition through the broker. A COMMIT
 * or ABORT marker appended to a partition this coordinator serves completes that producer's
 * pending offsets (Kafka's handleTxnCompletion, called by the broker once the marker is durable).
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type {
  GroupLogRecord,
  GroupRequest,
  KafkaErrorCode,
  KafkaMessage,
  KafkaObservation,
  LogBatch,
  OffsetCommitResults,
  TopicPartition,
  TxnOffsetCommitRequest,
} from '../protocol';
import { CONSUMER_OFFSETS_TOPIC } from '../protocol';
import { transactionStatePartitionFor } from '../coordinator/transaction_metadata';
import { loadGroups } from './group_loader';
import { expiredOffsets, hasOffsets } from './offset_expiration';
import { joinGroup } from './group_join';
import { ClassicGroup, type GroupState } from './group_metadata';
import {
  GroupMembership,
  groupStoreErrorFor,
  joinError,
  type GroupTimer,
  type MembershipHost,
} from './group_membership';
import {
  commitOffsets,
  commitTransactionalOffsets,
  fetchOffsets,
  offsetCommitErrorFor,
  type OffsetsHost,
  type OffsetsTransaction,
} from './group_offsets';

type Ctx = ActorContext<KafkaMessage>;

/** How long reading a `__consumer_offsets` partition takes when a broker becomes its leader. */
export const GROUP_LOG_LOAD_US = 2_000;

/** The serialised report of a coordinator serving no group. */
const NO_GROUPS = '[]';

/** Broker settings of the group coordinator, from Kafka's config keys. */
export interface GroupCoordinatorSettings {
  /** `offsets.topic.num.partitions`. @default 50 */
  readonly offsetsTopicNumPartitions: number;
  /** `group.initial.rebalance.delay.ms`. @default 3000 */
  readonly groupInitialRebalanceDelayMs: number;
  /** `group.min.session.timeout.ms`. @default 6000 */
  readonly groupMinSessionTimeoutMs: number;
  /** `group.max.session.timeout.ms`. @default 1800000 */
  readonly groupMaxSessionTimeoutMs: number;
  /** `offsets.retention.minutes` (offset_expiration.ts). @default 10080 */
  readonly offsetsRetentionMinutes: number;
  /** `offsets.retention.check.interval.ms`. @default 600000 */
  readonly offsetsRetentionCheckIntervalMs: number;
  /**
   * The value schema of offset and group records: 1 below `inter.broker.protocol.version` 2.1,
   * else 3 (GroupMetadataManager.offsetCommitValue, groupMetadataValue).
   */
  readonly recordValueVersion: 1 | 3;
  /** KAFKA-8069 on (2.1): a v1 offset record's default expire timestamp loads as real. */
  readonly defaultExpireTimestampKept: boolean;
  /**
   * KAFKA-4682 on (before 2.1): every commit expires `offsets.retention.minutes` after it, also
   * in a group with members (offset_expiration.ts).
   */
  readonly commitExpiresWhateverState: boolean;
  /**
   * KAFKA-16386 on (3.7.0): a TxnOffsetCommit whose verification died in transport is answered
   * NETWORK_EXCEPTION (maybeConvertOffsetCommitError without its first case, group_offsets.ts).
   */
  readonly networkExceptionUnconverted: boolean;
}

/** Kafka's defaults for {@link GroupCoordinatorSettings}. */
export const DEFAULT_GROUP_COORDINATOR_SETTINGS: GroupCoordinatorSettings = {
  offsetsTopicNumPartitions: 50,
  groupInitialRebalanceDelayMs: 3000,
  groupMinSessionTimeoutMs: 6000,
  groupMaxSessionTimeoutMs: 1_800_000,
  offsetsRetentionMinutes: 10_080,
  offsetsRetentionCheckIntervalMs: 600_000,
  recordValueVersion: 3,
  defaultExpireTimestampKept: false,
  commitExpiresWhateverState: false,
  networkExceptionUnconverted: false,
};

/** What the group coordinator needs from its broker. */
export interface GroupCoordinatorHost {
  readonly brokerId: NodeId;
  /**
   * Appends records to `__consumer_offsets-<partition>` as its leader with acks=all, one batch
   * each; transactional ones carry the producer's id and epoch and the verification guard.
   * `appended` gets the batch offsets right after a successful leader append, then `done` gets
   * NONE once replicated or the produce error (it may run before this call returns).
   */
  appendGroupLog(
    partition: number,
    append: { records: readonly GroupLogRecord[]; transaction: OffsetsTransaction | null },
    ctx: Ctx,
    callbacks: {
      appended: (baseOffsets: readonly number[]) => void;
      done: (error: KafkaErrorCode) => void;
    },
  ): void;
  /** Every batch of this broker's replica of `__consumer_offsets-<partition>`, oldest first. */
  readGroupLog(partition: number): readonly LogBatch[];
  /**
   * KIP-890 for a TxnOffsetCommit on `__consumer_offsets-<partition>`
   * (ReplicaManager.maybeStartTransactionVerificationForPartitions): `done` gets NONE with the
   * guard to append with (0 when skipped, null when verification is off) or the error.
   */
  verifyTransaction(
    partition: number,
    request: TxnOffsetCommitRequest,
    ctx: Ctx,
    done: (error: KafkaErrorCode, guard: number | null) => void,
  ): void;
}

/** One owned partition: its leader epoch, whether it is still loading, and its groups. */
interface OwnedPartition {
  readonly epoch: number;
  loading: boolean;
  readonly groups: Map<string, ClassicGroup>;
}

/** A group as the oracle and the reports see it. */
export interface GroupSummary {
  readonly groupId: string;
  readonly partition: number;
  readonly state: GroupState;
  readonly generationId: number;
  readonly protocolName: string | null;
  readonly leader: string | null;
  readonly members: ReadonlyArray<{
    readonly memberId: string;
    readonly groupInstanceId: string | null;
    readonly assignment: readonly TopicPartition[];
  }>;
  /** Committed offsets, in first-commit order. */
  readonly committed: ReadonlyArray<TopicPartition & { readonly offset: number }>;
  /** Producer ids with pending transactional offsets. */
  readonly pendingProducers: readonly number[];
}

/** The group coordinator of one broker. */
export class GroupCoordinator {
  private partitions = new BoundedMap<number, OwnedPartition>(
    COLLECTION_BOUNDS.coordinatorPartitions,
  );
  private readonly membership: GroupMembership;
  private readonly membershipHost: MembershipHost;
  private memberIds = 0;
  /** The groups last observed, serialised: they are reported only when they change. */
  private reportedGroups = NO_GROUPS;

  constructor(
    private readonly settings: GroupCoordinatorSettings,
    private readonly host: GroupCoordinatorHost,
  ) {
    this.membershipHost = {
      initialRebalanceDelayMs: settings.groupInitialRebalanceDelayMs,
      storeGroup: (group, assignments, ctx, done) =>
        this.append(group, [group.toRecord(assignments, settings.recordValueVersion)], null, ctx, {
          appended: () => undefined,
          done: (error) => done(groupStoreErrorFor(error)),
        }),
      isCurrent: (group) => this.isCurrent(group),
    };
    this.membership = new GroupMembership(this.membershipHost);
  }

  /** The `__consumer_offsets` partition of a group (GroupMetadataManager.partitionFor). */
  partitionFor(groupId: string): number {
    return transactionStatePartitionFor(groupId, this.settings.offsetsTopicNumPartitions);
  }

  /**
   * The broker started: GroupMetadataManager.startup schedules the expired-offsets check every
   * `offsets.retention.check.interval.ms` (its first run at start finds no group loaded).
   */
  onStart(ctx: Ctx): void {
    const intervalUs = this.settings.offsetsRetentionCheckIntervalMs * 1000;
    ctx.setTimer(intervalUs, { owner: 'group', type: 'offset-expiration' } satisfies GroupTimer);
  }

  /** The broker crashed: every group, session and parked request is gone. */
  onCrash(): void {
    this.partitions = new BoundedMap(COLLECTION_BOUNDS.coordinatorPartitions);
  }

  /** This broker became leader of `__consumer_offsets-<partition>` at `epoch`: load it. */
  onElected(partition: number, epoch: number, ctx: Ctx): void {
    const owned = this.partitions.get(partition);
    if (owned !== undefined && owned.epoch >= epoch) return;
    if (owned !== undefined) this.unloadGroups(owned, ctx);
    this.partitions.set(partition, {
      epoch,
      loading: true,
      groups: new BoundedMap(COLLECTION_BOUNDS.groups),
    });
    ctx.trace(`group coordinator loading ${CONSUMER_OFFSETS_TOPIC}-${partition} at epoch ${epoch}`);
    ctx.setTimer(GROUP_LOG_LOAD_US, {
      owner: 'group',
      type: 'load',
      partition,
      epoch,
    } satisfies GroupTimer);
  }

  /** This broker stopped leading `__consumer_offsets-<partition>`: its groups are dropped. */
  onResigned(partition: number, ctx: Ctx): void {
    const owned = this.partitions.get(partition);
    if (owned === undefined) return;
    this.partitions.delete(partition);
    this.unloadGroups(owned, ctx);
  }

  onTimer(timer: GroupTimer, ctx: Ctx): void {
    if (timer.type === 'load') return this.finishLoading(timer.partition, timer.epoch, ctx);
    if (timer.type === 'offset-expiration') {
      this.cleanupGroupMetadata(ctx);
      return void ctx.setTimer(this.settings.offsetsRetentionCheckIntervalMs * 1000, timer);
    }
    const owned = this.partitions.get(this.partitionFor(timer.groupId));
    const group = owned?.loading === false ? owned.groups.get(timer.groupId) : undefined;
    if (group !== undefined) this.membership.onTimer(group, timer, ctx);
  }

  /**
   * Kafka's handleTxnCompletion: a marker of `producerId` is durable on a partition this
   * coordinator serves; the producer's pending offsets there are committed or discarded.
   */
  onTxnCompletion(partition: number, producerId: number, committed: boolean): void {
    const owned = this.partitions.get(partition);
    if (owned === undefined || owned.loading) return;
    for (const group of owned.groups.values()) {
      group.offsets.completeTransaction(producerId, committed);
    }
  }

  /** The `__consumer_offsets` partitions this coordinator owns, with epoch and load state. */
  ownedPartitions(): Array<{ partition: number; epoch: number; loading: boolean }> {
    return [...this.partitions].map(([partition, owned]) => ({
      partition,
      epoch: owned.epoch,
      loading: owned.loading,
    }));
  }

  /**
   * Observes the groups this coordinator serves when they differ from the last report. Offsets
   * commit inside replication callbacks of other requests, so the broker calls this after every
   * event of its own rather than at each place a group changes.
   */
  reportGroups(observer: { observe(observation: KafkaObservation): void } | null): void {
    // Runs after every event of the broker: a broker serving no group partition, that last
    // reported no group, has nothing new to say.
    if (this.partitions.size === 0 && this.reportedGroups === NO_GROUPS) return;
    const groups = this.groups().map((summary) => ({
      groupId: summary.groupId,
      partition: summary.partition,
      state: summary.state,
      generationId: summary.generationId,
      committedOffsets: summary.committed.map(({ topic, partition, offset }) => ({
        topic,
        partition,
        offset,
      })),
    }));
    const serialised = JSON.stringify(groups);
    if (serialised === this.reportedGroups) return;
    this.reportedGroups = serialised;
    const coordinator = this.host.brokerId;
    observer?.observe({ kind: 'ConsumerGroupsChanged', coordinator, groups });
  }

  /** Every group this coordinator serves now (oracle, reports). */
  groups(): GroupSummary[] {
    const summaries: GroupSummary[] = [];
    for (const [partition, owned] of this.partitions) {
      if (owned.loading) continue;
      for (const group of owned.groups.values()) summaries.push(summaryOf(group, partition));
    }
    return summaries;
  }

  /** Answers one group request (AddOffsetsToTxn goes to the transaction coordinator). */
  handle(
    request: Exclude<GroupRequest, { kind: 'AddOffsetsToTxn' }>,
    source: NodeId,
    ctx: Ctx,
  ): void {
    const { correlationId } = request;
    const status = this.status(request.groupId);
    switch (request.kind) {
      case 'JoinGroup':
        return this.onJoinGroup(request, source, ctx, status);
      case 'SyncGroup': {
        const group = this.loadedGroup(request.groupId);
        const reply = (response: KafkaMessage): void =>
          ctx.send(source, { ...response, correlationId } as KafkaMessage);
        if (status !== 'NONE' || group === undefined) {
          const error = status === 'NONE' ? 'UNKNOWN_MEMBER_ID' : status;
          return reply({ kind: 'SyncGroupResponse', correlationId, error, assignment: [] });
        }
        return this.membership.sync(group, request, ctx, reply);
      }
      case 'Heartbeat':
      case 'LeaveGroup': {
        const group = this.loadedGroup(request.groupId);
        let error: KafkaErrorCode = status === 'NONE' ? 'UNKNOWN_MEMBER_ID' : status;
        if (group !== undefined && request.kind === 'Heartbeat')
          error = this.membership.heartbeat(group, request, ctx);
        if (group !== undefined && request.kind === 'LeaveGroup')
          error = this.membership.leave(group, request, ctx);
        // One literal kind per send: a union-typed kind is too wide for TypeScript to match.
        if (request.kind === 'Heartbeat') {
          return ctx.send(source, { kind: 'HeartbeatResponse', correlationId, error });
        }
        return ctx.send(source, { kind: 'LeaveGroupResponse', correlationId, error });
      }
      case 'OffsetFetch':
        if (status !== 'NONE') {
          return ctx.send(source, {
            kind: 'OffsetFetchResponse',
            correlationId,
            error: status,
            partitions: [],
          });
        }
        return ctx.send(source, fetchOffsets(this.loadedGroup(request.groupId), request));
      case 'OffsetCommit':
      case 'TxnOffsetCommit':
        return this.onCommit(request, source, ctx, status);
    }
  }

  private onJoinGroup(
    request: Extract<GroupRequest, { kind: 'JoinGroup' }>,
    source: NodeId,
    ctx: Ctx,
    status: KafkaErrorCode,
  ): void {
    const respond = (response: KafkaMessage): void =>
      ctx.send(source, { ...response, correlationId: request.correlationId } as KafkaMessage);
    if (status !== 'NONE') return respond(joinError(status, request.memberId));
    const { sessionTimeoutMs } = request;
    if (
      sessionTimeoutMs < this.settings.groupMinSessionTimeoutMs ||
      sessionTimeoutMs > this.settings.groupMaxSessionTimeoutMs
    ) {
      return respond(joinError('INVALID_SESSION_TIMEOUT', request.memberId));
    }
    let group = this.loadedGroup(request.groupId);
    if (group === undefined) {
      if (request.memberId !== '') return respond(joinError('UNKNOWN_MEMBER_ID', request.memberId));
      group = this.createGroup(request.groupId);
    }
    joinGroup(group, { ...request, clientId: source }, ctx, {
      membership: this.membership,
      host: this.membershipHost,
      newMemberId: (target, prefix) => this.newMemberId(target, prefix),
      respond,
    });
  }

  /** OffsetCommit, or TxnOffsetCommit after its KIP-890 verification. */
  private onCommit(
    request: Extract<GroupRequest, { kind: 'OffsetCommit' | 'TxnOffsetCommit' }>,
    source: NodeId,
    ctx: Ctx,
    status: KafkaErrorCode,
  ): void {
    const { correlationId } = request;
    const kind =
      request.kind === 'OffsetCommit' ? 'OffsetCommitResponse' : 'TxnOffsetCommitResponse';
    const respond = (results: OffsetCommitResults): void =>
      ctx.send(source, { kind, correlationId, results });
    const all = (error: KafkaErrorCode): void =>
      respond(request.offsets.map(({ topic, partition }) => ({ topic, partition, error })));
    if (status !== 'NONE') return all(status);
    const host = this.offsetsHost();
    if (request.kind === 'OffsetCommit') return commitOffsets(host, request, ctx, respond);
    const partition = this.partitionFor(request.groupId);
    this.host.verifyTransaction(partition, request, ctx, (error, guard) => {
      if (error !== 'NONE') {
        return all(offsetCommitErrorFor(error, this.settings.networkExceptionUnconverted));
      }
      // Ownership may have changed while the transaction coordinator answered.
      const now = this.status(request.groupId);
      if (now !== 'NONE') return all(now);
      commitTransactionalOffsets(host, { ...request, guard }, ctx, respond);
    });
  }

  private offsetsHost(): OffsetsHost {
    return {
      membership: this.membership,
      recordValueVersion: this.settings.recordValueVersion,
      retentionMsOnCommit: this.settings.commitExpiresWhateverState
        ? this.settings.offsetsRetentionMinutes * 60_000
        : null,
      group: (groupId) => this.loadedGroup(groupId),
      createGroup: (groupId) => this.createGroup(groupId),
      appendOffsets: (group, append, ctx, callbacks) =>
        this.append(group, append.records, append.transaction, ctx, {
          appended: callbacks.appended,
          done: (error) => callbacks.done(offsetCommitErrorFor(error)),
        }),
    };
  }

  /** Appends for a group; a reply after the partition changed hands is NOT_COORDINATOR. */
  private append(
    group: ClassicGroup,
    records: readonly GroupLogRecord[],
    transaction: OffsetsTransaction | null,
    ctx: Ctx,
    callbacks: {
      appended: (baseOffsets: readonly number[]) => void;
      done: (error: KafkaErrorCode) => void;
    },
  ): void {
    const partition = this.partitionFor(group.groupId);
    const epoch = this.partitions.get(partition)?.epoch ?? -1;
    this.host.appendGroupLog(partition, { records, transaction }, ctx, {
      appended: callbacks.appended,
      done: (error) => {
        const owned = this.partitions.get(partition);
        if (owned === undefined || owned.epoch !== epoch) return callbacks.done('NOT_COORDINATOR');
        callbacks.done(error);
      },
    });
  }

  /** NONE when this coordinator serves the group now, else the error to answer. */
  private status(groupId: string): KafkaErrorCode {
    const owned = this.partitions.get(this.partitionFor(groupId));
    if (owned === undefined) return 'NOT_COORDINATOR';
    return owned.loading ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'NONE';
  }

  private loadedGroup(groupId: string): ClassicGroup | undefined {
    const owned = this.partitions.get(this.partitionFor(groupId));
    return owned === undefined || owned.loading ? undefined : owned.groups.get(groupId);
  }

  private createGroup(groupId: string): ClassicGroup {
    const owned = this.partitions.get(this.partitionFor(groupId));
    const group = new ClassicGroup(groupId);
    if (owned !== undefined && !owned.loading) owned.groups.set(groupId, group);
    return group;
  }

  private isCurrent(group: ClassicGroup): boolean {
    const owned = this.partitions.get(this.partitionFor(group.groupId));
    return owned?.loading === false && owned.groups.get(group.groupId) === group;
  }

  /** Kafka's `clientId-UUID`: here the prefix, this broker and epoch, and a counter. */
  private newMemberId(group: ClassicGroup, prefix: string): string {
    const epoch = this.partitions.get(this.partitionFor(group.groupId))?.epoch ?? -1;
    this.memberIds += 1;
    return `${prefix}-${this.host.brokerId}.${epoch}.${this.memberIds}`;
  }

  private finishLoading(partition: number, epoch: number, ctx: Ctx): void {
    const owned = this.partitions.get(partition);
    if (owned === undefined || !owned.loading || owned.epoch !== epoch) return;
    const groups = loadGroups(this.host.readGroupLog(partition), {
      defaultExpireTimestampKept: this.settings.defaultExpireTimestampKept,
    });
    for (const [groupId, group] of groups) {
      owned.groups.set(groupId, group);
      // Kafka restarts the session of every restored member.
      for (const member of group.members.values()) {
        this.membership.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
      }
    }
    owned.loading = false;
    ctx.trace(
      `group coordinator loaded ${CONSUMER_OFFSETS_TOPIC}-${partition}: ${groups.size} groups`,
    );
  }

  /**
   * GroupMetadataManager.cleanupGroupMetadata: expired offsets leave every loaded group; an
   * Empty group left without offsets becomes Dead and leaves the cache. Their tombstones (and
   * the group's, past generation 0) are appended without waiting: a lost one is written again
   * at a later check.
   */
  private cleanupGroupMetadata(ctx: Ctx): void {
    for (const owned of this.partitions.values()) {
      if (owned.loading) continue;
      for (const group of [...owned.groups.values()]) {
        const { offsetsRetentionMinutes, commitExpiresWhateverState } = this.settings;
        const expired = expiredOffsets(
          group,
          ctx.nowUs(),
          offsetsRetentionMinutes,
          commitExpiresWhateverState,
        );
        for (const offset of expired) group.offsets.delete(offset);
        const records: GroupLogRecord[] = expired.map(({ topic, partition }) => ({
          type: 'offset',
          groupId: group.groupId,
          topic,
          partition,
          value: null,
        }));
        if (group.state === 'Empty' && !hasOffsets(group)) {
          group.transitionTo('Dead', ctx.nowUs());
          owned.groups.delete(group.groupId);
          if (group.generationId > 0)
            records.push({ type: 'group', groupId: group.groupId, value: null });
        }
        if (records.length === 0) continue;
        ctx.trace(`group ${group.groupId}: ${expired.length} offsets expired`);
        this.append(group, records, null, ctx, {
          appended: () => undefined,
          done: () => undefined,
        });
      }
    }
  }

  private unloadGroups(owned: OwnedPartition, ctx: Ctx): void {
    for (const group of owned.groups.values()) this.membership.unload(group, ctx);
  }
}

function summaryOf(group: ClassicGroup, partition: number): GroupSummary {
  return {
    groupId: group.groupId,
    partition,
    state: group.state,
    generationId: group.generationId,
    protocolName: group.protocolName,
    leader: group.leaderId,
    members: [...group.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      assignment: member.assignment,
    })),
    committed: group.offsets
      .committedOffsets()
      .map(({ topic, partition: index, offset }) => ({ topic, partition: index, offset })),
    pendingProducers: group.offsets.pendingProducers(),
  };
}
