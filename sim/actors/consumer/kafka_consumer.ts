/**
 * A Kafka consumer, with manually assigned partitions (`assign`) or as a member of a consumer group
 * (`subscribe`, ConsumerCoordinator). `poll` fetches every assigned partition from its leader, at
 * most one fetch in flight per broker (AbstractFetcher's nodesWithPendingFetchRequests), and
 * delivers what CompletedFetch.nextFetchedRecord lets through; the position moves past markers
 * and aborted batches. A fetch asks the broker to wait up to `fetch.max.wait.ms` for
 * `fetch.min.bytes` (a long poll): the poll ends with the first records, or empty once every fetch
 * was answered or `poll(timeout)` ran out; a fetch answered after its poll ended is buffered and
 * delivered by the next poll (FetchBuffer), unless its partition's position moved meanwhile.
 * A partition without a position takes its group's committed offset (OffsetFetch with
 * requireStable, GroupMetadata.prepareTxnOffsetCommit) and otherwise `auto.offset.reset` through
 * ListOffsets; `endOffsets` asks ListOffsets(LATEST), which answers the
 * last stable offset under read_committed and the high watermark otherwise
 * (SubscriptionState.partitionEndOffset). Group membership lives in {@link ConsumerCoordinator},
 * commits and committed offsets in {@link OffsetCommitter}.
 */
import { assert, BoundedMap, type ActorContext, type NodeId } from '../../kernel';
import type {
  FetchResponse,
  KafkaErrorCode,
  KafkaMessage,
  KafkaResponse,
  ListOffsetsResponse,
  OffsetToCommit,
  TopicPartition,
} from '../protocol';
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, NO_GENERATION, partitionKey } from '../protocol';
import { COLLECTION_BOUNDS, CONSUMER_FETCH_CONNECTION } from '../protocol';
import {
  resolveConsumerConfig,
  type ConsumerConfig,
  type ConsumerGroupMetadata,
  type ResolvedConsumerConfig,
} from './consumer_config';
import { ConsumerCoordinator, type RebalanceListener } from './consumer_coordinator';
import { CoordinatorChannel, type GroupTimer } from './coordinator_channel';
import { filterFetchedBatches, type ConsumerRecord } from './fetch_filter';
import { groupByLeader } from './leader_groups';
import { OffsetCommitter, type CommitGeneration } from './offset_committer';

type Ctx = ActorContext<KafkaMessage>;

/** Timers of the consumer: a fetch or ListOffsets without an answer, and the group's timers. */
export type ConsumerTimer =
  | { readonly owner: 'consumer'; readonly type: 'request-timeout'; readonly correlationId: number }
  | { readonly owner: 'consumer'; readonly type: 'poll-timeout' }
  | GroupTimer;

/** What the consumer reads from the client's metadata cache. */
export interface ConsumerMetadata {
  leaderOf(tp: TopicPartition): NodeId | null;
  leaderEpochOf(tp: TopicPartition): number;
  requestRefresh(): void;
  /** Every broker, for FindCoordinator; needed with a `group.id`. */
  readonly brokers?: readonly NodeId[];
  /** The partitions of a topic, for the group leader's assignment; needed with a `group.id`. */
  partitionsOf?(topic: string): readonly TopicPartition[];
}

type Pending =
  | { type: 'fetch'; timerId: number; broker: NodeId; fetchOffsets: Map<string, number> }
  | {
      type: 'offsets';
      timerId: number;
      broker: NodeId;
      onDone: (offsets: Map<string, number>) => void;
      timestamp: -1 | -2;
    };

interface PollInProgress {
  readonly records: ConsumerRecord[];
  readonly callback: (records: ConsumerRecord[]) => void;
  /** Fetches were sent: the poll ends with records, when they are answered, or at its timeout. */
  fetching: boolean;
  /** The timer that ends the fetch phase at `timeoutMs`. */
  fetchTimerId: number | null;
  /** Positions were initialised once in this poll: go on with the positioned partitions. */
  positionsTried: boolean;
  /** Ends a poll that waits for the group or for committed offsets (`poll(timeout)`). */
  waitToken: number | null;
  readonly timeoutMs: number;
}

/** One consumer instance on a client node. */
export class KafkaConsumer {
  private readonly resolved: ResolvedConsumerConfig;
  private readonly assigned = new Map<string, TopicPartition>();
  private readonly positions = new Map<string, number>();
  private readonly highWatermarks = new Map<string, number>();
  private readonly pending = new BoundedMap<number, Pending>(COLLECTION_BOUNDS.clientRequests);
  /** Fetch answers that arrived outside a poll, oldest first (FetchBuffer). */
  private buffered: Array<{ response: FetchResponse; fetchOffsets: Map<string, number> }> = [];
  private pollInProgress: PollInProgress | null = null;
  private correlationIds = 1;
  private readonly channel: CoordinatorChannel | null = null;
  private readonly membership: ConsumerCoordinator | null = null;
  private readonly committer: OffsetCommitter | null = null;
  private subscribed = false;
  private closed = false;
  /** Bumped whenever the assignment changes: late committed offsets of an old one are dropped. */
  private assignmentEpoch = 0;
  private positionsInFlight = false;
  private nextAutoCommitUs: number;

  /**
   * @param config Kafka's consumer settings; a `groupId` enables `subscribe` and commits
   * @param metadata the client's metadata cache
   * @param options.correlationIdBase the first correlation id, so a producer on the same node
   *   (read-process-write) never shares one with this consumer. @default 1
   */
  constructor(
    readonly config: ConsumerConfig,
    private readonly metadata: ConsumerMetadata,
    private readonly ctx: Ctx,
    options: { readonly correlationIdBase?: number } = {},
  ) {
    this.correlationIds = options.correlationIdBase ?? 1;
    this.resolved = resolveConsumerConfig(config);
    this.nextAutoCommitUs = ctx.nowUs() + this.resolved.autoCommitIntervalMs * 1000;
    const groupId = this.resolved.groupId;
    if (groupId === null) return;
    assert(metadata.brokers !== undefined, 'a consumer with a group.id needs the broker list');
    this.channel = new CoordinatorChannel({
      ctx,
      brokers: metadata.brokers,
      groupId,
      requestTimeoutMs: this.resolved.requestTimeoutMs,
      retryBackoffMs: this.resolved.retryBackoffMs,
      nextCorrelationId: () => this.correlationIds++,
    });
    const host = { ctx, config: this.resolved, channel: this.channel };
    this.membership = new ConsumerCoordinator({
      ...host,
      partitionCounts: (topics) => this.partitionCounts(topics),
      assignment: () => this.assignment(),
      setAssignment: (partitions) => this.setAssignment(partitions),
      autoCommitBeforeRebalance: (done) => this.commitSync(this.consumedOffsets(), () => done()),
      onGroupChange: () => this.continuePoll(),
    });
    this.committer = new OffsetCommitter({
      ...host,
      commitGeneration: () => this.commitGeneration(),
      onGenerationError: (error, generationId) => {
        if (generationId === this.membership?.generationId)
          this.membership.resetGeneration(`OffsetCommit answered ${error}`);
      },
      onRebalanceError: () => this.membership?.requestRejoin('OffsetCommit rebalancing'),
      onFatalError: (error) => this.membership?.fail(error),
    });
  }

  /** `assign()`: the partitions this consumer reads (not with `subscribe`). */
  assign(partitions: readonly TopicPartition[]): void {
    assert(!this.subscribed, 'assign() after subscribe() (Java: IllegalStateException)');
    for (const tp of partitions) this.assigned.set(partitionKey(tp), tp);
  }

  /**
   * `subscribe(topics, listener)`: joins the group `group.id` at the next poll and reads the
   * partitions the group's RangeAssignor gives this member (ClassicGroup). The listener hears every
   * revocation and assignment (eager protocol, see {@link RebalanceListener}).
   * @example consumer.subscribe(['input'], { onPartitionsRevoked: (tps, done) => done(),
   *   onPartitionsAssigned: () => undefined })
   */
  subscribe(topics: readonly string[], listener: RebalanceListener | null = null): void {
    assert(this.membership !== null, 'subscribe() needs a group.id (InvalidGroupIdException)');
    assert(this.assigned.size === 0 || this.subscribed, 'subscribe() after assign()');
    this.subscribed = true;
    this.membership.subscribe(topics, listener);
  }

  /** The high watermark the leader reported in the last fetch of `tp`, or undefined. */
  lastHighWatermark(tp: TopicPartition): number | undefined {
    return this.highWatermarks.get(partitionKey(tp));
  }

  /** `position()`: the offset of the next record to fetch, or undefined before it is known. */
  position(tp: TopicPartition): number | undefined {
    return this.positions.get(partitionKey(tp));
  }

  /**
   * The fatal group error Java's `poll()` throws (INVALID_SESSION_TIMEOUT as
   * InvalidSessionTimeoutException, FENCED_INSTANCE_ID as FencedInstanceIdException, ...), or
   * null: after it the consumer delivers nothing and must be closed (ConsumerCoordinator).
   */
  get groupError(): KafkaErrorCode | null {
    const membership = this.membership;
    if (membership === null || membership.state !== 'FATAL') return null;
    return membership.fatalError ?? 'UNKNOWN_SERVER_ERROR';
  }

  /** `assignment()`: the partitions assigned now (empty during a group rebalance). */
  assignment(): TopicPartition[] {
    return [...this.assigned.values()];
  }

  /** True while a poll waits for responses. */
  get polling(): boolean {
    return this.pollInProgress !== null;
  }

  /** `seek(tp, offset)`: the next poll fetches `tp` from `offset`. */
  seek(tp: TopicPartition, offset: number): void {
    this.positions.set(partitionKey(tp), offset);
  }

  /**
   * `groupMetadata()`: `{groupId, generationId, memberId, groupInstanceId}` of the last completed
   * generation, for `producer.sendOffsetsToTransaction` (KIP-447); generation -1 and member id ''
   * before the first join and after the generation was reset.
   */
  groupMetadata(): ConsumerGroupMetadata {
    assert(this.membership !== null, 'groupMetadata() needs a group.id');
    return this.membership.groupMetadata();
  }

  /** The member's group state and completed generations (observability for tests and traces). */
  get group(): ConsumerCoordinator | null {
    return this.membership;
  }

  /**
   * `commitSync(offsets)`: OffsetCommit with the current generation (-1 for a manually assigned
   * consumer). `callback` gets NONE, or ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID /
   * REBALANCE_IN_PROGRESS (Java's CommitFailedException), FENCED_INSTANCE_ID (fatal), or
   * REQUEST_TIMED_OUT after `default.api.timeout.ms` of retriable errors.
   */
  commitSync(offsets: readonly OffsetToCommit[], callback: (error: KafkaErrorCode) => void): void {
    assert(this.committer !== null, 'commitSync() needs a group.id');
    this.committer.commitSync(offsets, callback);
  }

  /**
   * `committed(partitions)`: the group's committed offsets keyed by `topic-partition` (absent:
   * none). With requireStable it waits out pending transactional offsets; `callback` gets NONE or
   * the error that ended it (REQUEST_TIMED_OUT after `default.api.timeout.ms`).
   */
  committed(
    partitions: readonly TopicPartition[],
    callback: (error: KafkaErrorCode, offsets: Map<string, number>) => void,
  ): void {
    assert(this.committer !== null, 'committed() needs a group.id');
    const deadlineUs = this.ctx.nowUs() + this.resolved.defaultApiTimeoutMs * 1000;
    this.committer.fetchCommitted(partitions, deadlineUs, callback);
  }

  /**
   * `poll(timeout)`: one fetch of every assigned partition, then `callback` with the records.
   * In a group it first joins or rejoins as needed and initialises positions; while that is not
   * done it delivers nothing, after `timeoutMs` at the latest. @default timeoutMs 100
   */
  poll(callback: (records: ConsumerRecord[]) => void, timeoutMs = 100): void {
    if (this.pollInProgress !== null || this.closed) return callback([]);
    this.pollInProgress = {
      records: [],
      callback,
      fetching: false,
      fetchTimerId: null,
      positionsTried: false,
      waitToken: null,
      timeoutMs,
    };
    this.membership?.onPollActivity();
    this.maybeAutoCommit();
    this.continuePoll();
  }

  /** `close()`: in a group, auto-commit (if on), revoke, LeaveGroup if dynamic; then `callback`. */
  close(callback: () => void = () => undefined): void {
    if (this.closed) return callback();
    const finish = (): void => {
      this.closed = true;
      this.buffered = [];
      this.channel?.close();
      this.finishPoll();
      callback();
    };
    if (this.membership === null || !this.subscribed) return finish();
    this.membership.close(finish);
  }

  /** `endOffsets()`: LSO under read_committed, HW under read_uncommitted. */
  endOffsets(
    partitions: readonly TopicPartition[],
    callback: (offsets: Map<string, number>) => void,
  ): void {
    this.listOffsets(partitions, LATEST_TIMESTAMP, callback);
  }

  /** Takes a response addressed to this consumer; false when it is someone else's. */
  onResponse(response: KafkaResponse): boolean {
    if (this.channel?.onResponse(response) === true) return true;
    const pending = this.pending.get(response.correlationId);
    if (pending === undefined) return false;
    this.pending.delete(response.correlationId);
    this.ctx.cancelTimer(pending.timerId);
    if (response.kind === 'FetchResponse' && pending.type === 'fetch') {
      if (this.pollInProgress?.fetching === true)
        this.onFetchResponse(response, pending.fetchOffsets);
      else this.buffered.push({ response, fetchOffsets: pending.fetchOffsets });
    } else if (response.kind === 'ListOffsetsResponse' && pending.type === 'offsets')
      this.onListOffsets(response, pending.onDone);
    this.maybeFinishPoll();
    return true;
  }

  onTimer(timer: ConsumerTimer): void {
    if (timer.type === 'poll-timeout') return this.onPollTimeout();
    if (timer.type !== 'request-timeout') return this.channel?.onTimer(timer);
    this.failRequest(timer.correlationId);
    this.maybeFinishPoll();
  }

  /** The connection to `peer` was reset: its requests end empty-handed, metadata refreshes. */
  onConnectionReset(peer: NodeId): void {
    this.channel?.onConnectionReset(peer);
    for (const [correlationId, pending] of [...this.pending]) {
      if (pending.broker !== peer) continue;
      this.ctx.cancelTimer(pending.timerId);
      this.failRequest(correlationId);
      this.metadata.requestRefresh();
    }
    this.maybeFinishPoll();
  }

  /** Moves a poll on: group first, then positions, then fetches. */
  private continuePoll(): void {
    const poll = this.pollInProgress;
    if (poll === null || poll.fetching) return;
    const membership = this.membership;
    if (membership?.state === 'FATAL') return this.finishPoll();
    if (membership !== null && this.subscribed && !membership.ensureActiveGroup())
      return this.waitInPoll(poll);
    const unpositioned = this.assignment().filter((tp) => !this.positions.has(partitionKey(tp)));
    if (unpositioned.length > 0 && !poll.positionsTried) {
      if (this.positionsInFlight) return this.waitInPoll(poll);
      this.positionsInFlight = true;
      this.initPositions(unpositioned, () => {
        this.positionsInFlight = false;
        if (this.pollInProgress === poll) poll.positionsTried = true;
        this.continuePoll();
      });
      return;
    }
    this.channel?.cancel(poll.waitToken);
    poll.waitToken = null;
    poll.fetching = true;
    for (const { response, fetchOffsets } of this.buffered)
      this.onFetchResponse(response, fetchOffsets);
    this.buffered = [];
    this.sendFetches();
    const sentSome = this.pending.size > 0 || poll.records.length > 0; // else block, as Java does
    if (this.pollInProgress !== poll || (sentSome && this.maybeFinishPoll())) return;
    poll.fetchTimerId = this.ctx.setTimer(poll.timeoutMs * 1000, {
      owner: 'consumer',
      type: 'poll-timeout',
    } satisfies ConsumerTimer);
  }

  /** `poll(timeout)` ran out with fetches in flight: it returns empty, they stay in flight. */
  private onPollTimeout(): void {
    const poll = this.pollInProgress;
    if (poll === null || !poll.fetching) return;
    poll.fetchTimerId = null;
    this.finishPoll();
  }

  private waitInPoll(poll: PollInProgress): void {
    if (poll.waitToken !== null || this.channel === null) return;
    poll.waitToken = this.channel.schedule(poll.timeoutMs * 1000, () => {
      poll.waitToken = null;
      if (this.pollInProgress === poll && !poll.fetching) this.finishPoll();
    });
  }

  /** Committed offsets first (with a group.id), then `auto.offset.reset` for the rest. */
  private initPositions(partitions: readonly TopicPartition[], done: () => void): void {
    const epoch = this.assignmentEpoch;
    const reset = (missing: readonly TopicPartition[]): void => {
      if (missing.length === 0) return done();
      const timestamp =
        this.config.autoOffsetReset === 'earliest' ? EARLIEST_TIMESTAMP : LATEST_TIMESTAMP;
      this.listOffsets(missing, timestamp, (offsets) => {
        for (const [key, offset] of offsets)
          if (epoch === this.assignmentEpoch && !this.positions.has(key))
            this.positions.set(key, offset);
        done();
      });
    };
    const committer = this.committer;
    if (committer === null) return reset(partitions);
    const deadlineUs = this.ctx.nowUs() + this.resolved.defaultApiTimeoutMs * 1000;
    committer.fetchCommitted(partitions, deadlineUs, (error, offsets) => {
      if (error !== 'NONE' || epoch !== this.assignmentEpoch) return done();
      for (const [key, offset] of offsets)
        if (!this.positions.has(key)) this.positions.set(key, offset);
      reset(partitions.filter((tp) => !offsets.has(partitionKey(tp))));
    });
  }

  /** Java's auto-commit in poll: the consumed positions every `auto.commit.interval.ms`. */
  private maybeAutoCommit(): void {
    if (!this.resolved.enableAutoCommit || this.committer === null) return;
    if (this.ctx.nowUs() < this.nextAutoCommitUs) return;
    if (this.subscribed && this.membership?.state !== 'STABLE') return;
    this.nextAutoCommitUs = this.ctx.nowUs() + this.resolved.autoCommitIntervalMs * 1000;
    this.committer.commitAsync(this.consumedOffsets());
  }

  /** The position of every assigned partition that has one: what the application consumed. */
  private consumedOffsets(): OffsetToCommit[] {
    return this.assignment().flatMap((tp) => {
      const offset = this.positions.get(partitionKey(tp));
      return offset === undefined ? [] : [{ topic: tp.topic, partition: tp.partition, offset }];
    });
  }

  /** Java's `generationIfStable`: a subscribed member commits only while STABLE. */
  private commitGeneration(): CommitGeneration {
    const membership = this.membership;
    const groupInstanceId = this.resolved.groupInstanceId;
    if (!this.subscribed || membership === null)
      return { error: 'NONE', generationId: -1, memberId: '', groupInstanceId };
    const fatal = this.groupError;
    if (fatal !== null) return { error: fatal };
    if (membership.state !== 'STABLE') return { error: 'REBALANCE_IN_PROGRESS' };
    const { generationId, memberId } = membership;
    return { error: 'NONE', generationId, memberId, groupInstanceId };
  }

  private setAssignment(partitions: readonly TopicPartition[]): void {
    this.assignmentEpoch += 1;
    const keys = new Set(partitions.map(partitionKey));
    for (const key of [...this.positions.keys()]) if (!keys.has(key)) this.positions.delete(key);
    this.assigned.clear();
    for (const tp of partitions) this.assigned.set(partitionKey(tp), tp);
  }

  private partitionCounts(topics: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const topic of topics) {
      const count = this.metadata.partitionsOf?.(topic).length ?? 0;
      if (count > 0) counts.set(topic, count);
    }
    return counts;
  }

  private failRequest(correlationId: number): void {
    const pending = this.pending.get(correlationId);
    if (pending === undefined) return;
    this.pending.delete(correlationId);
    this.ctx.closeConnection(pending.broker, CONSUMER_FETCH_CONNECTION); // held bytes are lost
    if (pending.type === 'offsets') pending.onDone(new Map());
  }

  private listOffsets(
    partitions: readonly TopicPartition[],
    timestamp: -1 | -2,
    onDone: (offsets: Map<string, number>) => void,
  ): void {
    const byLeader = groupByLeader(partitions, this.metadata);
    const collected = new Map<string, number>();
    let outstanding = byLeader.size;
    if (outstanding === 0) return onDone(collected);
    for (const [leader, tps] of byLeader) {
      const correlationId = this.correlationIds++;
      const timerId = this.setRequestTimer(correlationId);
      this.pending.set(correlationId, {
        broker: leader,
        type: 'offsets',
        timerId,
        timestamp,
        onDone: (offsets) => {
          for (const [key, offset] of offsets) collected.set(key, offset);
          outstanding -= 1;
          if (outstanding === 0) onDone(collected);
        },
      });
      this.ctx.send(leader, {
        kind: 'ListOffsets',
        correlationId,
        isolationLevel: this.config.isolationLevel,
        partitions: tps.map((tp) => ({ ...tp, timestamp })),
      });
    }
  }

  private setRequestTimer(correlationId: number): number {
    return this.ctx.setTimer(this.config.requestTimeoutMs * 1000, {
      owner: 'consumer',
      type: 'request-timeout',
      correlationId,
    } satisfies ConsumerTimer);
  }

  private onListOffsets(
    response: ListOffsetsResponse,
    onDone: (offsets: Map<string, number>) => void,
  ): void {
    const offsets = new Map<string, number>();
    for (const result of response.partitions) {
      if (result.error === 'NONE') offsets.set(partitionKey(result), result.offset);
      else this.metadata.requestRefresh();
    }
    onDone(offsets);
  }

  private sendFetches(): void {
    const positioned = this.assignment().filter((tp) => this.positions.has(partitionKey(tp)));
    const busy = new Set<NodeId>();
    for (const pending of this.pending.values())
      if (pending.type === 'fetch') busy.add(pending.broker);
    for (const [leader, tps] of groupByLeader(positioned, this.metadata)) {
      if (busy.has(leader)) continue;
      const correlationId = this.correlationIds++;
      const timerId = this.setRequestTimer(correlationId);
      const fetchOffsets = new Map(
        tps.map((tp) => [partitionKey(tp), this.positions.get(partitionKey(tp)) as number]),
      );
      this.pending.set(correlationId, { type: 'fetch', timerId, broker: leader, fetchOffsets });
      this.ctx.send(leader, {
        kind: 'Fetch',
        correlationId,
        replicaId: null,
        isolationLevel: this.config.isolationLevel,
        maxWaitMs: this.resolved.fetchMaxWaitMs,
        minBytes: this.resolved.fetchMinBytes,
        maxBytes: this.resolved.fetchMaxBytes,
        partitions: tps.map((tp) => ({
          ...tp,
          fetchOffset: fetchOffsets.get(partitionKey(tp)) as number,
          currentLeaderEpoch: this.metadata.leaderEpochOf(tp),
          lastFetchedEpoch: -1,
        })),
      });
    }
  }

  /** Data for a partition whose position moved since the fetch (seek, rebalance) is dropped. */
  private onFetchResponse(response: FetchResponse, fetchOffsets: Map<string, number>): void {
    const poll = this.pollInProgress;
    for (const partition of response.partitions) {
      const key = partitionKey(partition);
      const position = this.positions.get(key);
      if (position === undefined || position !== fetchOffsets.get(key)) continue;
      if (partition.error === 'OFFSET_OUT_OF_RANGE') {
        this.positions.delete(key); // reset by auto.offset.reset at the next poll
        continue;
      }
      if (partition.error !== 'NONE') {
        this.metadata.requestRefresh();
        continue;
      }
      this.highWatermarks.set(key, partition.highWatermark);
      const filtered = filterFetchedBatches(partition, position, this.config.isolationLevel);
      this.positions.set(key, filtered.nextFetchOffset);
      poll?.records.push(...filtered.records);
    }
  }

  /** Ends a fetching poll that has records or no fetch left in flight; true if it ended. */
  private maybeFinishPoll(): boolean {
    const poll = this.pollInProgress;
    if (poll === null || !poll.fetching) return false;
    if (poll.records.length === 0 && this.pending.size > 0) return false;
    this.finishPoll();
    return true;
  }

  private finishPoll(): void {
    const poll = this.pollInProgress;
    if (poll === null) return;
    this.pollInProgress = null;
    this.channel?.cancel(poll.waitToken);
    if (poll.fetchTimerId !== null) this.ctx.cancelTimer(poll.fetchTimerId);
    this.membership?.onPollActivity();
    poll.callback(this.withinGeneration(poll.records));
  }

  /**
   * Records fetched while the member lost its generation (a session expiry or poll timeout noticed
   * during the fetch) are not delivered: Java's poll() runs the coordinator first, which marks the
   * partitions lost and drops their buffered records before any is returned. The positions go back
   * to the first undelivered record, so nothing is skipped if the partitions come back. Without
   * this, an application would process them and commit its offsets with generation -1, which the
   * group coordinator accepts unfenced (GroupCoordinator.validateOffsetCommit).
   */
  private withinGeneration(records: ConsumerRecord[]): ConsumerRecord[] {
    const membership = this.membership;
    if (membership === null || !this.subscribed || records.length === 0) return records;
    if (membership.generationId !== NO_GENERATION) return records;
    for (const record of [...records].reverse())
      this.positions.set(partitionKey(record), record.offset);
    return [];
  }
}
