/**
 * The replication side of one broker (Kafka's ReplicaManager and Partition): it keeps this broker's
 * replicas and its metadata cache, applies the controller's partition changes, answers produce and
 * fetch requests as leader (acks semantics Partition.checkEnoughReplicasReachOffset, follower fetch
 * Partition.fetchRecords, consumer fetch limits UnifiedLog.read), moves the high watermark, and
 * proposes ISR changes to the controller. Follower fetching lives in ReplicaFetcher.
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap, BoundedSet } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type {
  AlterPartitionResponse,
  FetchPartition,
  FetchPartitionResponse,
  FetchRequest,
  FetchResponse,
  KafkaErrorCode,
  KafkaMessage,
  LogBatch,
  PartitionState,
  ProduceRequest,
  GroupLogRecord,
  TopicPartition,
  TransactionLogRecord,
} from '../protocol';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, partitionKey } from '../protocol';
import { CONTROLLER_ID } from '../controller/controller';
import { emptyPartition, handleConsumerFetch } from './consumer_fetch';
import { canCompleteFetch, mustAnswerNow, type FetchState } from './delayed_fetch';
import { DelayedOperations } from './delayed_operations';
import { FetchSessionCache, type CachedPartition, type FetchSession } from './fetch_session_cache';
import type { VerificationCheck } from './partition_log';
import type { PartitionReplica } from './partition_replica';
import { newPartitionReplica } from './replica_factory';
import { isOwnIsrChange, sameMembers } from './own_isr_change';
import { fetchDivergence, fetchEpochError } from './fetch_epoch';
import type { ReplicaManagerOptions, ReplicaTimer } from './replica_manager_options';

type Ctx = ActorContext<KafkaMessage>;

/** How long a leader waits for an AlterPartition answer before it may propose again. */
const ALTER_PARTITION_TIMEOUT_US = 30_000_000;

export type { ReplicaManagerOptions, ReplicaTimer } from './replica_manager_options';

/** `request.timeout.ms` of the broker: how long an internal acks=all append may wait. */
const INTERNAL_APPEND_TIMEOUT_US = 30_000_000;

/** What a fetch is answered with (the broker adds the kind and correlation id). */
export type FetchAnswer = Omit<FetchResponse, 'kind' | 'correlationId'>;

/** A produce or marker outcome once it is final. */
export type AppendOutcome = { error: KafkaErrorCode; baseOffset: number };

/** The replicas and metadata of one broker. */
export class ReplicaManager {
  /** Durable logs, wrapped in their replication state. */
  readonly replicas = new BoundedMap<string, PartitionReplica>(COLLECTION_BOUNDS.replicas);
  /** The metadata cache: the latest state of every partition this broker heard of. */
  readonly metadata = new BoundedMap<string, PartitionState>(COLLECTION_BOUNDS.metadataCache);
  readonly delayed = new DelayedOperations();
  /** Followers' fetch sessions on this broker as leader (KIP-227). */
  private readonly fetchSessions = new FetchSessionCache();
  private alterRequests = new BoundedMap<number, string>(COLLECTION_BOUNDS.alterPartitionRequests);
  /** Brokers the controller fences, as last published. */
  private readonly fencedBrokers = new BoundedSet<string>(COLLECTION_BOUNDS.fencedBrokers);
  private correlationIds = 1;
  /**
   * Bumped whenever a replica may have changed its role or leader, so the fetcher can keep its
   * grouping of followed partitions by leader until then.
   */
  rolesVersion = 0;
  /** What a parked fetch's completion check reads (DelayedFetch.tryComplete). */
  private readonly fetchState: FetchState = {
    replicaOf: (key) => this.replicas.get(key),
    epochError: (replica, fetch) => this.epochError(replica, fetch),
    diverges: (replica, fetch) => fetchDivergence(replica, fetch) !== null,
  };

  constructor(private readonly options: ReplicaManagerOptions) {
    for (const state of options.initialStates) {
      this.metadata.set(partitionKey(state), state);
      if (state.replicas.includes(options.brokerId)) this.createReplica(state);
    }
  }

  /** A new, empty replica of `state`'s partition on this broker (its log created). */
  private createReplica(state: PartitionState): PartitionReplica {
    const replica = newPartitionReplica(this.options, state, this.fencedBrokers);
    this.replicas.set(partitionKey(state), replica);
    return replica;
  }

  /** The leader of `tp` in this broker's metadata cache, or null. */
  leaderOf(tp: TopicPartition): NodeId | null {
    return (this.metadata.get(partitionKey(tp))?.leader ?? null) as NodeId | null;
  }

  /** At first start, replicas take their roles from the initial metadata. */
  onStart(ctx: Ctx, restarted: boolean): void {
    this.rolesVersion += 1;
    if (!restarted) {
      for (const replica of this.replicas.values()) {
        replica.applyState(replica.state, ctx.nowUs());
        this.onRoleChange(replica, ctx);
      }
    }
    ctx.setTimer(this.options.replication.replicaLagTimeMaxMs * 500, {
      owner: 'replica',
      type: 'isr-check',
    });
    const expiration = { owner: 'replica', type: 'producer-expiration' } as const;
    ctx.setTimer(this.producerExpirationCheckUs, expiration);
  }

  private get producerExpirationCheckUs(): number {
    return (this.options.replication.producerIdExpirationCheckIntervalMs ?? 600_000) * 1000;
  }

  /**
   * UnifiedLog's scheduled removeExpiredProducers, every
   * `producer.id.expiration.check.interval.ms` on every replica of this broker, leader or not.
   */
  private expireProducers(ctx: Ctx): void {
    const expirationUs = (this.options.replication.producerIdExpirationMs ?? 86_400_000) * 1000;
    for (const replica of this.replicas.values())
      replica.log.expireProducers(ctx.nowUs(), expirationUs);
  }

  /** Crash: roles, follower tracking and waiting requests are volatile; logs are not. */
  onCrash(nowUs: number): void {
    this.rolesVersion += 1;
    this.delayed.clear();
    this.fetchSessions.clear();
    this.alterRequests = new BoundedMap(COLLECTION_BOUNDS.alterPartitionRequests);
    for (const replica of this.replicas.values()) {
      replica.endLeaderTerm(nowUs);
      replica.role = 'none';
      replica.pendingIsr = null;
    }
  }

  onTimer(timer: ReplicaTimer, ctx: Ctx): void {
    if (timer.owner === 'delayed') return this.delayed.onTimer(timer);
    if (timer.type === 'alter-timeout') {
      const key = this.alterRequests.get(timer.correlationId);
      this.alterRequests.delete(timer.correlationId);
      const replica = key === undefined ? undefined : this.replicas.get(key);
      if (replica !== undefined) replica.pendingIsr = null;
      return;
    }
    if (timer.type === 'producer-expiration') {
      this.expireProducers(ctx);
      return void ctx.setTimer(this.producerExpirationCheckUs, timer);
    }
    this.shrinkIsrs(ctx);
    ctx.setTimer(this.options.replication.replicaLagTimeMaxMs * 500, timer);
  }

  /** Applies the fenced brokers the controller published (KAFKA-13091: own_isr_change.ts). */
  onFencedBrokers(fenced: readonly string[], ctx: Ctx): void {
    const changed = !sameMembers(fenced, this.fencedBrokers);
    this.fencedBrokers.clear();
    for (const broker of fenced) this.fencedBrokers.add(broker);
    if (!changed && this.options.replication.highWatermarkAfterAlterPartition === false) return;
    for (const [key, replica] of this.replicas) {
      if (replica.role === 'leader') this.afterLeaderChange(replica, key, ctx);
    }
  }

  /** Applies the controller's partition changes to the cache and the replicas. */
  onPartitionChange(states: readonly PartitionState[], ctx: Ctx, fromAlterPartition = false): void {
    for (const state of states) {
      const key = partitionKey(state);
      const known = this.metadata.get(key);
      const newer =
        known === undefined ||
        state.leaderEpoch > known.leaderEpoch ||
        (state.leaderEpoch === known.leaderEpoch && state.partitionEpoch >= known.partitionEpoch);
      if (newer) this.metadata.set(key, state);
      // A partition created in the run gets its log when the change arrives (applyDelta).
      const created = known === undefined && state.replicas.includes(this.options.brokerId);
      const replica = created ? this.createReplica(state) : this.replicas.get(key);
      if (replica === undefined || !newer) continue;
      this.rolesVersion += 1;
      const own = isOwnIsrChange(this.options.replication, replica, state, fromAlterPartition);
      const became = replica.applyState(state, ctx.nowUs());
      if (became === 'follower' && state.leader !== null) this.onNewLeader(state.leader);
      if (became === 'follower' || became === 'none') this.delayed.onLeadershipLost(key, ctx);
      else this.delayed.checkFetches(key, ctx);
      if (became !== 'unchanged') this.onRoleChange(replica, ctx);
      if (replica.role === 'leader' && !own) this.afterLeaderChange(replica, key, ctx);
    }
  }

  /** Called when this broker starts following a new leader epoch (the fetcher resets). */
  onNewLeader: (leader: string) => void = () => undefined;

  /** Called after a replica became leader, follower or none (the coordinator follows it). */
  onRoleChange: (replica: PartitionReplica, ctx: Ctx) => void = () => undefined;

  /**
   * A `__transaction_state` record from this broker's coordinator, appended as leader with acks=all
   * (TransactionStateManager.appendTransactionToLog); `done` gets NONE once replicated, or the
   * produce error, and the record's offset (-1 when it was not appended).
   */
  appendTransactionLog(
    tp: TopicPartition,
    record: TransactionLogRecord,
    ctx: Ctx,
    done: (error: KafkaErrorCode, offset: number) => void,
  ): void {
    const key = partitionKey(tp);
    const replica = this.replicas.get(key);
    if (replica?.role !== 'leader') return done(this.leadershipError(tp), -1);
    const refused = this.appendRefusal(replica, true);
    if (refused !== null) return done(refused, -1);
    const batch = {
      producerId: NO_PRODUCER_ID,
      producerEpoch: NO_PRODUCER_EPOCH,
      baseSequence: NO_SEQUENCE,
      isTransactional: false,
      values: [0],
      transactionLog: record,
    };
    const result = replica.log.appendAsLeader(batch, ctx.nowUs(), null);
    this.afterLeaderAppend(replica, key, ctx);
    this.awaitReplication(
      replica,
      { key, requiredOffset: result.baseOffset + 1, timeoutUs: INTERNAL_APPEND_TIMEOUT_US },
      ctx,
      (error) => done(error, result.baseOffset),
    );
  }

  /**
   * `__consumer_offsets` records from this broker's group coordinator, one batch each, appended as
   * leader with acks=all (ClassicGroup; GroupCoordinator.validateOffsetCommit). Transactional ones
   * carry the producer's id and epoch and no sequence: the epoch is checked, the sequence is not
   * (Kafka's AppendOrigin.COORDINATOR), and the KIP-890 guard is checked when given. `appended`
   * gets the batch offsets right after the leader append; `done` gets NONE once replicated, or the
   * error.
   */
  appendGroupLog(
    tp: TopicPartition,
    append: {
      records: readonly GroupLogRecord[];
      transaction: { producerId: number; producerEpoch: number; guard: number | null } | null;
    },
    ctx: Ctx,
    callbacks: { appended: (offsets: number[]) => void; done: (error: KafkaErrorCode) => void },
  ): void {
    const key = partitionKey(tp);
    const replica = this.replicas.get(key);
    const { transaction } = append;
    if (replica === undefined || replica.role !== 'leader')
      return callbacks.done(this.leadershipError(tp));
    const refused = this.appendRefusal(replica, true);
    if (refused !== null) return callbacks.done(refused);
    const offsets: number[] = [];
    for (const record of append.records) {
      const batch = {
        producerId: transaction?.producerId ?? NO_PRODUCER_ID,
        producerEpoch: transaction?.producerEpoch ?? NO_PRODUCER_EPOCH,
        baseSequence: NO_SEQUENCE,
        isTransactional: transaction !== null,
        values: [0],
        groupLog: record,
      };
      const guard = transaction?.guard ?? null;
      const check = guard === null ? null : { guard };
      const result = replica.log.appendAsLeader(batch, ctx.nowUs(), check);
      if (result.error !== 'NONE') {
        if (offsets.length > 0) this.afterLeaderAppend(replica, key, ctx);
        return callbacks.done(result.error);
      }
      offsets.push(result.baseOffset);
    }
    this.afterLeaderAppend(replica, key, ctx);
    callbacks.appended(offsets);
    const requiredOffset = replica.log.logEndOffset;
    const wait = { key, requiredOffset, timeoutUs: INTERNAL_APPEND_TIMEOUT_US };
    this.awaitReplication(replica, wait, ctx, callbacks.done);
  }

  /** Produce at the leader. `respond` is called once, now or when replicated (DelayedProduce). */
  handleProduce(
    request: ProduceRequest,
    ctx: Ctx,
    respond: (outcome: AppendOutcome) => void,
    verification: VerificationCheck | null = null,
  ): void {
    const key = partitionKey(request);
    const replica = this.replicas.get(key);
    if (replica === undefined || replica.role !== 'leader') {
      return respond({ error: this.leadershipError(request), baseOffset: -1 });
    }
    const refused = this.appendRefusal(replica, request.acks === -1);
    if (refused !== null) return respond({ error: refused, baseOffset: -1 });
    const result = replica.log.appendAsLeader(request.batch, ctx.nowUs(), verification);
    if (result.error !== 'NONE') return respond({ error: result.error, baseOffset: -1 });
    if (!result.duplicate) this.afterLeaderAppend(replica, key, ctx);
    if (request.acks !== -1) return respond({ error: 'NONE', baseOffset: result.baseOffset });
    const requiredOffset = result.baseOffset + request.batch.values.length;
    this.awaitReplication(
      replica,
      { key, requiredOffset, timeoutUs: request.timeoutMs * 1000 },
      ctx,
      (error) => respond({ error, baseOffset: error === 'NONE' ? result.baseOffset : -1 }),
    );
  }

  /** A COMMIT/ABORT marker at the leader, appended with acks=all (handleWriteTxnMarkersRequest). */
  appendMarker(
    tp: TopicPartition,
    marker: {
      producerId: number;
      producerEpoch: number;
      coordinatorEpoch: number;
      committed: boolean;
      transactionVersion?: number;
    },
    ctx: Ctx,
    respond: (error: KafkaErrorCode) => void,
  ): void {
    const key = partitionKey(tp);
    const replica = this.replicas.get(key);
    if (replica === undefined || replica.role !== 'leader')
      return respond(this.leadershipError(tp));
    const refused = this.appendRefusal(replica, true);
    if (refused !== null) return respond(refused);
    const error = replica.log.appendMarker(marker, ctx.nowUs());
    if (error !== 'NONE') return respond(error);
    this.afterLeaderAppend(replica, key, ctx);
    const requiredOffset = replica.log.logEndOffset;
    this.awaitReplication(replica, { key, requiredOffset, timeoutUs: 30_000_000 }, ctx, respond);
  }

  /**
   * Why a leader append is refused before its batch is in the log: an acks=all append with the ISR
   * below `min.insync.replicas` (Partition.appendRecordsToLeader), or a failed log directory.
   */
  private appendRefusal(replica: PartitionReplica, acksAll: boolean): KafkaErrorCode | null {
    if (acksAll && replica.isr.length < replica.effectiveMinIsr()) return 'NOT_ENOUGH_REPLICAS';
    return this.storageError();
  }

  /** KAFKA_STORAGE_ERROR when a log write fails now (`log_dir_failure.ts`), else null. */
  storageError(): KafkaErrorCode | null {
    return this.options.logDir?.writeError() ?? null;
  }

  private awaitReplication(
    replica: PartitionReplica,
    wait: { key: string; requiredOffset: number; timeoutUs: number },
    ctx: Ctx,
    respond: (error: KafkaErrorCode) => void,
  ): void {
    const finish = (outcome: 'replicated' | KafkaErrorCode): void => {
      if (outcome !== 'replicated') return respond(outcome);
      const enough = replica.maximalIsr().length >= replica.effectiveMinIsr();
      respond(enough ? 'NONE' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND');
    };
    if (replica.log.highWatermark >= wait.requiredOffset) return finish('replicated');
    this.delayed.waitForReplication(
      {
        partitionKey: wait.key,
        requiredOffset: wait.requiredOffset,
        complete: finish,
        timeoutUs: wait.timeoutUs,
      },
      ctx,
    );
  }

  /**
   * A fetch from a consumer (sessionless) or a follower (in its fetch session, KIP-227: every
   * partition of the session is read, only the changed ones are answered). `respond` may be
   * deferred for a follower.
   */
  handleFetch(request: FetchRequest, ctx: Ctx, respond: (answer: FetchAnswer) => void): void {
    if (request.replicaId === null) {
      const deps = {
        state: this.fetchState,
        delayed: this.delayed,
        fetchBatchesMax: this.options.fetchBatchesMax,
      };
      return handleConsumerFetch(request, deps, ctx, respond);
    }
    const follower = request.replicaId;
    const context = this.fetchSessions.open(request);
    if ('error' in context) return respond({ error: context.error, sessionId: 0, partitions: [] });
    const first = this.readSession(context, follower, false, ctx);
    if (request.maxWaitMs <= 0 || mustAnswerNow(first, request.minBytes)) {
      const partitions = this.fetchSessions.select(context, first);
      return respond({ sessionId: context.session.id, partitions });
    }
    const fetched = [...context.session.partitions.values()].map((cached) => cached.params);
    const parked = { isolation: 'LOG_END' as const, minBytes: request.minBytes };
    this.delayed.waitForData(
      {
        partitionKeys: new Set(context.session.partitions.keys()),
        // Bound, not a closure: tsx names every new closure (Object.defineProperty).
        canComplete: canCompleteFetch.bind(undefined, fetched, parked, this.fetchState),
        waitUs: request.maxWaitMs * 1000,
        complete: () => {
          const answers = this.readSession(context, follower, true, ctx);
          respond({
            sessionId: context.session.id,
            partitions: this.fetchSessions.select(context, answers),
          });
        },
      },
      ctx,
    );
  }

  /** Every partition of a follower's session read, in session order (null: left out). */
  private readSession(
    context: { readonly session: FetchSession; readonly full: boolean },
    follower: string,
    fromPurgatory: boolean,
    ctx: Ctx,
  ): Array<FetchPartitionResponse | null> {
    const read = { follower, full: context.full, fromPurgatory };
    const answers: Array<FetchPartitionResponse | null> = [];
    for (const cached of context.session.partitions.values()) {
      answers.push(this.followerRead(cached, read, ctx));
    }
    return answers;
  }

  /**
   * Partition.fetchRecords: a follower fetch of one session partition: epoch fence, divergence,
   * read to the LEO, then bookkeeping (Replica.updateFetchStateOrThrow; Partition.maybeExpandIsr,
   * maybeIncrementLeaderHW). Returns null for a partition an incremental fetch leaves out of its
   * answer (no records, no error, offsets already sent), without building it.
   */
  private followerRead(
    cached: CachedPartition,
    read: { readonly follower: string; readonly full: boolean; readonly fromPurgatory: boolean },
    ctx: Ctx,
  ): FetchPartitionResponse | null {
    const { params: fetch, key } = cached;
    const replica = this.replicas.get(key);
    const epochError = this.epochError(replica, fetch);
    if (replica === undefined || epochError !== 'NONE') return emptyPartition(fetch, epochError);
    const log = replica.log;
    const logEndOffset = log.logEndOffset;
    const highWatermark = log.highWatermark;
    const lastStableOffset = log.lastStableOffset;
    const diverging = fetchDivergence(replica, fetch);
    if (diverging !== null) {
      return {
        ...emptyPartition(fetch, 'NONE'),
        highWatermark,
        lastStableOffset,
        logStartOffset: log.logStartOffset,
        divergingEpoch: diverging,
      };
    }
    const batches =
      fetch.fetchOffset < logEndOffset
        ? log.readForFollower(fetch.fetchOffset, this.options.fetchBatchesMax)
        : NO_BATCHES;
    const unchanged =
      !read.full &&
      batches.length === 0 &&
      highWatermark === cached.highWatermark &&
      log.logStartOffset === cached.logStartOffset;
    // A fetch completed from the purgatory was accounted for when it arrived (Kafka's
    // updateFetchState = !readFromPurgatory).
    if (!read.fromPurgatory) {
      const follower = read.follower;
      replica.onFollowerFetch(follower, fetch.fetchOffset, logEndOffset, ctx.nowUs());
      if (replica.expansionCandidate(follower))
        this.proposeIsr(replica, [...replica.isr, follower], ctx);
      if (replica.maybeAdvanceHighWatermark(ctx.nowUs())) {
        this.delayed.onHighWatermark(key, log.highWatermark, ctx);
      }
    }
    if (unchanged) return null;
    return this.followerResponse(
      fetch,
      { highWatermark, lastStableOffset },
      batches,
      log.logStartOffset,
    );
  }

  /** A follower's answer carries the offsets sampled before the read (Partition.fetchRecords). */
  private followerResponse(
    fetch: FetchPartition,
    sampled: { highWatermark: number; lastStableOffset: number },
    batches: readonly LogBatch[],
    logStartOffset: number,
  ): FetchPartitionResponse {
    return {
      topic: fetch.topic,
      partition: fetch.partition,
      error: 'NONE',
      highWatermark: sampled.highWatermark,
      lastStableOffset: sampled.lastStableOffset,
      logStartOffset,
      abortedTransactions: null,
      batches,
      divergingEpoch: null,
    };
  }

  /** The epoch and leadership check of a fetch (`fetch_epoch.ts`). */
  private epochError(replica: PartitionReplica | undefined, fetch: FetchPartition): KafkaErrorCode {
    if (replica === undefined) return this.leadershipError(fetch);
    const { replication } = this.options;
    return fetchEpochError(replica, fetch, () => replication.fetchFencedByLeaderEpoch !== false);
  }

  /** Propose removing ISR members that fell behind (Partition.maybeShrinkIsr). */
  private shrinkIsrs(ctx: Ctx): void {
    for (const replica of this.replicas.values()) {
      const outOfSync = replica.outOfSyncReplicas(ctx.nowUs());
      if (outOfSync.length === 0) continue;
      this.proposeIsr(
        replica,
        replica.isr.filter((member) => !outOfSync.includes(member)),
        ctx,
      );
    }
  }

  private proposeIsr(replica: PartitionReplica, newIsr: string[], ctx: Ctx): void {
    const correlationId = this.correlationIds++;
    replica.pendingIsr = newIsr;
    this.alterRequests.set(correlationId, partitionKey(replica.state));
    ctx.setTimer(ALTER_PARTITION_TIMEOUT_US, {
      owner: 'replica',
      type: 'alter-timeout',
      correlationId,
    });
    ctx.send(CONTROLLER_ID as NodeId, {
      kind: 'AlterPartition',
      correlationId,
      brokerId: this.options.brokerId,
      topic: replica.state.topic,
      partition: replica.state.partition,
      leaderEpoch: replica.state.leaderEpoch,
      partitionEpoch: replica.state.partitionEpoch,
      newIsr,
    });
  }

  onAlterPartitionResponse(response: AlterPartitionResponse, ctx: Ctx): void {
    const key = this.alterRequests.get(response.correlationId);
    if (key === undefined) return;
    this.alterRequests.delete(response.correlationId);
    const replica = this.replicas.get(key);
    if (replica === undefined) return;
    replica.pendingIsr = null;
    if (response.state !== null) this.onPartitionChange([response.state], ctx, true);
  }

  private afterLeaderAppend(replica: PartitionReplica, key: string, ctx: Ctx): void {
    this.delayed.onAppend(key, ctx);
    if (replica.maybeAdvanceHighWatermark(ctx.nowUs())) {
      this.delayed.onHighWatermark(key, replica.log.highWatermark, ctx);
    }
  }

  private afterLeaderChange(replica: PartitionReplica, key: string, ctx: Ctx): void {
    if (replica.maybeAdvanceHighWatermark(ctx.nowUs())) {
      this.delayed.onHighWatermark(key, replica.log.highWatermark, ctx);
    }
  }

  private leadershipError(tp: TopicPartition): KafkaErrorCode {
    return this.metadata.has(partitionKey(tp))
      ? 'NOT_LEADER_OR_FOLLOWER'
      : 'UNKNOWN_TOPIC_OR_PARTITION';
  }
}

/** The records of a read at the log end offset: none. */
const NO_BATCHES: readonly LogBatch[] = Object.freeze([]);
