/**
 * A Kafka broker: it heartbeats to the controller, holds its replicas (leading some, following
 * others) through the replica manager and fetcher, answers Produce, Fetch, ListOffsets and
 * Metadata, answers FindCoordinator for anyone, hosts a transaction coordinator for the
 * `__transaction_state` partitions it leads and a group coordinator for the `__consumer_offsets`
 * partitions it leads, verifies transactional writes with the coordinator (KIP-890), and appends
 * WriteTxnMarkers as leader (telling the group coordinator of markers on its partitions). Logs
 * survive a process crash; producer and transaction state are rebuilt from them on restart, and a
 * power loss also drops the unflushed tail.
 */
import type { Actor, ActorContext, CrashMode, Envelope, NodeId } from '../../kernel';
import { pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS, CONTROLLER_HEARTBEAT_CONNECTION } from '../protocol';
import { withProperties } from '../options';
import type {
  KafkaErrorCode,
  KafkaMessage,
  KafkaObservation,
  ListOffsetsRequest,
  LogBatch,
  PartitionChangeNotice,
  ProduceRequest,
  TransactionLogRecord,
  WriteTxnMarkersRequest,
} from '../protocol';
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC, partitionKey } from '../protocol';
import { CONTROLLER_ID } from '../controller/controller';
import { forwardTopicAdmin } from './admin_forwarding';
import {
  TransactionCoordinator,
  type CoordinatorSettings,
  type CoordinatorTimer,
} from '../coordinator/transaction_coordinator';
import {
  DEFAULT_GROUP_COORDINATOR_SETTINGS,
  GroupCoordinator,
  type GroupCoordinatorSettings,
} from '../group/group_coordinator';
import type { GroupTimer } from '../group/group_membership';
import type { ClusterMetadata } from './cluster_metadata';
import { answerAdmin } from './admin_handlers';
import { BrokerRegistration } from './broker_registration';
import { HeartbeatChannel } from './heartbeat_channel';
import { InjectedProduceErrors } from './injected_produce_errors';
import { LogDirState } from './log_dir_failure';
import type { PartitionBugs } from './partition_log';
import type { PartitionReplica, ReplicationSettings } from './partition_replica';
import { ReplicaFetcher, type FetcherTimer } from './replica_fetcher';
import { ReplicaManager, type AppendOutcome, type ReplicaTimer } from './replica_manager';
import { addOffsetsToTxn, verifyOffsetsTransaction, type OffsetsBroker } from './offsets_requests';
import { TransactionVerifier, type VerifierTimer } from './transaction_verifier';
import { producerIdAt } from './producer_id_blocks';

type Ctx = ActorContext<KafkaMessage>;

/** `broker.heartbeat.interval.ms`. */
const BROKER_HEARTBEAT_INTERVAL_US = 2_000_000;

/** What a broker is built from. */
export interface BrokerOptions {
  readonly id: NodeId;
  readonly metadata: ClusterMetadata;
  readonly coordinator: CoordinatorSettings;
  readonly replication: ReplicationSettings;
  readonly bugs: PartitionBugs;
  /** Most batches one partition returns per fetch (max.partition.fetch.bytes). @default 64 */
  readonly fetchBatchesMax: number;
  /** `transaction.partition.verification.enable` (KIP-890 part 1). @default true */
  readonly transactionPartitionVerificationEnable: boolean;
  /** `broker.session.timeout.ms`: times out the heartbeat channel. @default 9000 */
  readonly brokerSessionTimeoutMs?: number;
  /**
   * `group.initial.rebalance.delay.ms`, `group.min.session.timeout.ms` and
   * `group.max.session.timeout.ms`; `offsets.topic.num.partitions` comes from the metadata.
   * @default Kafka's defaults (3000, 6000, 1800000)
   */
  readonly group?: Partial<Omit<GroupCoordinatorSettings, 'offsetsTopicNumPartitions'>>;
}

type BrokerTimer =
  | CoordinatorTimer
  | GroupTimer
  | ReplicaTimer
  | FetcherTimer
  | VerifierTimer
  | { readonly owner: 'heartbeat' };

/** One broker node. */
export class Broker implements Actor<KafkaMessage> {
  readonly replicaManager: ReplicaManager;
  readonly coordinator: TransactionCoordinator;
  /** The group coordinator of the `__consumer_offsets` partitions this broker leads. */
  readonly groupCoordinator: GroupCoordinator;
  private readonly fetcher: ReplicaFetcher;
  private readonly verifier = new TransactionVerifier();
  readonly injectedProduceErrors = new InjectedProduceErrors();
  /** The disk under the log directory: the `log-dir-failure` fault fails it. */
  readonly logDir = new LogDirState();
  private readonly brokerIndex: number;
  /** Durable: producer ids handed out so far. */
  private producerIdsAllocated = 0;
  private crashed: { mode: CrashMode; atUs: number } | null = null;
  private started = false;
  private readonly registration = new BrokerRegistration();
  private readonly heartbeatChannel: HeartbeatChannel;
  /**
   * The controller metadata offset up to which every change was applied (0: the initial states),
   * reported in every heartbeat. A change that arrives after a lost one does not advance it, so
   * the controller answers the next heartbeat with the full state.
   */
  private metadataOffset = 0;
  private heartbeatIds = 1;
  /** The context observations go through, known from the first start on. */
  private observer: Ctx | null = null;

  constructor(private readonly options: BrokerOptions) {
    const { metadata, id } = options;
    this.brokerIndex = metadata.brokers.indexOf(id);
    this.heartbeatChannel = new HeartbeatChannel(options.brokerSessionTimeoutMs ?? 9000);
    this.replicaManager = new ReplicaManager({
      brokerId: id,
      initialStates: metadata.initialStates(),
      replication: options.replication,
      bugs: options.bugs,
      fetchBatchesMax: options.fetchBatchesMax,
      logDir: this.logDir,
      minInsyncReplicasOf: (topic) => metadata.minInsyncReplicasOf(topic),
      observe: (observation) => this.observer?.observe(observation),
    });
    this.fetcher = new ReplicaFetcher(id, this.replicaManager, options.replication);
    this.replicaManager.onNewLeader = (leader) => this.fetcher.resetLeader(leader);
    this.replicaManager.onRoleChange = (replica, ctx) => this.onRoleChange(replica, ctx);
    this.coordinator = new TransactionCoordinator(options.coordinator, {
      leaderOf: (tp) => this.replicaManager.leaderOf(tp),
      allocateProducerId: () => this.allocateProducerId(),
      appendTransactionLog: (partition, record, ctx, done) =>
        this.replicaManager.appendTransactionLog(
          { topic: TRANSACTION_STATE_TOPIC, partition },
          record,
          ctx,
          done,
        ),
      readTransactionLog: (partition) => this.readTransactionLog(partition),
    });
    this.groupCoordinator = this.newGroupCoordinator();
  }

  /** What the offset request handlers use of this broker. */
  private offsetsBroker(): OffsetsBroker {
    return {
      metadata: this.options.metadata,
      coordinator: this.coordinator,
      replicaManager: this.replicaManager,
      verifier: this.verifier,
      verificationEnable: this.options.transactionPartitionVerificationEnable,
      verificationGuardBeforeEpochCheck: () => this.options.bugs.verificationGuardBeforeEpochCheck,
      transactionCoordinatorOf: (transactionalId) => this.coordinatorNodeFor(transactionalId),
    };
  }

  private newGroupCoordinator(): GroupCoordinator {
    const offsetsTopic = CONSUMER_OFFSETS_TOPIC;
    const settings = withProperties(DEFAULT_GROUP_COORDINATOR_SETTINGS, this.options.group ?? {});
    const offsetsTopicNumPartitions = this.options.metadata.consumerOffsetsLog?.numPartitions ?? 50;
    return new GroupCoordinator(
      withProperties(settings as GroupCoordinatorSettings, { offsetsTopicNumPartitions }),
      {
        brokerId: this.options.id,
        appendGroupLog: (partition, append, ctx, callbacks) =>
          this.replicaManager.appendGroupLog(
            { topic: offsetsTopic, partition },
            append,
            ctx,
            callbacks,
          ),
        readGroupLog: (partition) => this.readLog(partitionKey({ topic: offsetsTopic, partition })),
        verifyTransaction: (partition, request, ctx, done) =>
          verifyOffsetsTransaction({ partition, request, broker: this.offsetsBroker() }, ctx, done),
      },
    );
  }

  /** The partition logs this broker holds, keyed `topic-partition` (oracle). */
  get partitions(): ReadonlyMap<string, import('./partition_replica').PartitionReplica> {
    return this.replicaManager.replicas;
  }

  onStart(ctx: Ctx): void {
    this.observer = ctx;
    const restarted = this.started;
    this.started = true;
    if (this.crashed !== null) {
      for (const replica of this.replicaManager.replicas.values()) {
        // A power-loss truncation is observed by the log itself (reason `power-loss`).
        const lost = replica.log.recoverAfterCrash(this.crashed.mode, this.crashed.atUs);
        if (lost.length > 0) {
          const toOffset = lost[0]?.baseOffset ?? replica.log.logEndOffset;
          pushWithin(COLLECTION_BOUNDS.truncations, replica.truncations, {
            timeUs: ctx.nowUs(),
            toOffset,
            reason: 'power-loss',
            removed: lost,
          });
        }
      }
      this.crashed = null;
    }
    // After a restart the broker registers anew and needs the controller's full metadata.
    this.registration.started(restarted, this.heartbeatIds);
    this.heartbeatChannel.reset();
    this.replicaManager.onStart(ctx, restarted);
    this.coordinator.onStart(ctx);
    // Without __consumer_offsets no group can load, and the expiry check would find none.
    if (this.options.metadata.consumerOffsetsLog !== null) this.groupCoordinator.onStart(ctx);
    this.heartbeat(ctx);
    this.fetcher.maybeFetch(ctx);
  }

  onCrash(mode: CrashMode, nowUs: number): void {
    this.crashed = { mode, atUs: nowUs };
    this.coordinator.onCrash();
    const unloaded: KafkaObservation = {
      kind: 'TransactionLogUnloaded',
      coordinator: this.options.id,
      stateLogPartition: null,
    };
    this.observer?.observe(unloaded);
    this.groupCoordinator.onCrash();
    this.verifier.onCrash();
    this.replicaManager.onCrash(nowUs);
    this.fetcher.onCrash();
    this.groupCoordinator.reportGroups(this.observer);
  }

  onTimer(payload: unknown, ctx: Ctx): void {
    this.handleTimer(payload, ctx);
    this.groupCoordinator.reportGroups(this.observer);
  }

  onMessage(envelope: Envelope<KafkaMessage>, ctx: Ctx): void {
    this.handleMessage(envelope, ctx);
    this.groupCoordinator.reportGroups(this.observer);
  }

  private handleTimer(payload: unknown, ctx: Ctx): void {
    const timer = payload as BrokerTimer;
    switch (timer.owner) {
      case 'coordinator':
        return this.coordinator.onTimer(timer, ctx);
      case 'group':
        return this.groupCoordinator.onTimer(timer, ctx);
      case 'fetcher':
        return this.fetcher.onTimer(timer, ctx);
      case 'verifier':
        return this.verifier.onTimer(timer, ctx);
      case 'heartbeat':
        return this.heartbeat(ctx);
      default:
        this.replicaManager.onTimer(timer, ctx);
        this.fetcher.maybeFetch(ctx);
    }
  }

  private handleMessage(envelope: Envelope<KafkaMessage>, ctx: Ctx): void {
    const message = envelope.payload;
    const source = envelope.source;
    switch (message.kind) {
      case 'Produce':
        return this.onProduce(message, source, ctx);
      case 'Fetch':
        return this.replicaManager.handleFetch(message, ctx, (answer) =>
          ctx.send(source, {
            kind: 'FetchResponse',
            correlationId: message.correlationId,
            ...answer,
          }),
        );
      case 'FetchResponse':
        return this.fetcher.onFetchResponse(message, source, ctx);
      case 'ListOffsets':
        return this.onListOffsets(message, source, ctx);
      case 'Metadata':
        return ctx.send(source, {
          kind: 'MetadataResponse',
          correlationId: message.correlationId,
          partitions: [...this.replicaManager.metadata.values()],
        });
      case 'FindCoordinator':
        return this.onFindCoordinator(message, source, ctx);
      case 'InitProducerId':
        return this.onInitProducerId(message, source, ctx);
      case 'AddPartitionsToTxn':
      case 'EndTxn':
        return this.onTransactionRequest(message, source, ctx);
      case 'AddPartitionsToTxnResponse':
        return this.verifier.onResponse(message, ctx);
      case 'AddOffsetsToTxn':
        return addOffsetsToTxn(message, source, ctx, this.offsetsBroker());
      case 'JoinGroup':
      case 'SyncGroup':
      case 'Heartbeat':
      case 'LeaveGroup':
      case 'OffsetCommit':
      case 'OffsetFetch':
      case 'TxnOffsetCommit':
        return this.groupCoordinator.handle(message, source, ctx);
      case 'WriteTxnMarkers':
        return this.onWriteTxnMarkers(message, source, ctx);
      case 'DescribeProducers':
      case 'ListTransactions':
      case 'DescribeTransactions':
        return ctx.send(source, answerAdmin(message, this.replicaManager, this.coordinator));
      case 'WriteTxnMarkersResponse':
        return this.coordinator.onWriteTxnMarkersResponse(message, ctx);
      case 'PartitionChange':
        return this.onPartitionChange(message, ctx);
      case 'AlterPartitionResponse':
        this.replicaManager.onAlterPartitionResponse(message, ctx);
        return this.fetcher.maybeFetch(ctx);
      case 'ConnectionReset':
        this.fetcher.onConnectionReset(message.peer, ctx);
        this.coordinator.onConnectionReset(message.peer, ctx);
        this.verifier.onConnectionReset(message.peer as NodeId, ctx);
        return;
      case 'BrokerHeartbeatResponse':
        return this.heartbeatChannel.answered();
      default:
        if (!forwardTopicAdmin(message, source, ctx)) ctx.trace(`ignored ${message.kind}`);
    }
  }

  /** AddPartitionsToTxn and EndTxn, answered by this broker's coordinator. */
  private onTransactionRequest(
    request: Extract<KafkaMessage, { kind: 'AddPartitionsToTxn' | 'EndTxn' }>,
    source: NodeId,
    ctx: Ctx,
  ): void {
    const { correlationId } = request;
    if (request.kind === 'AddPartitionsToTxn') {
      return this.coordinator.handleAddPartitionsToTxn(request, ctx, (results) =>
        ctx.send(source, { kind: 'AddPartitionsToTxnResponse', correlationId, results }),
      );
    }
    this.coordinator.handleEndTxn(request, ctx, (error, producerId, producerEpoch) =>
      ctx.send(source, { kind: 'EndTxnResponse', correlationId, error, producerId, producerEpoch }),
    );
  }

  /**
   * A metadata change from the controller. Partition states are ordered by their epochs, the
   * fenced set by the metadata offset; a change after a lost one leaves the applied offset
   * behind, so the next heartbeat asks for the full state.
   */
  private onPartitionChange(message: PartitionChangeNotice, ctx: Ctx): void {
    if (!this.registration.admits(message)) {
      ctx.trace('ignored PartitionChange before registration');
      return;
    }
    this.replicaManager.onPartitionChange(message.partitions, ctx);
    if (message.metadataOffset >= this.metadataOffset) {
      this.replicaManager.onFencedBrokers(message.fencedBrokers, ctx);
    }
    if (message.snapshot || message.metadataOffset === this.metadataOffset + 1) {
      this.metadataOffset = Math.max(this.metadataOffset, message.metadataOffset);
    }
    this.fetcher.maybeFetch(ctx);
  }

  private heartbeat(ctx: Ctx): void {
    if (this.heartbeatChannel.sending(ctx.nowUs())) {
      ctx.closeConnection(CONTROLLER_ID as NodeId, CONTROLLER_HEARTBEAT_CONNECTION);
    }
    ctx.send(CONTROLLER_ID as NodeId, {
      kind: 'BrokerHeartbeat',
      correlationId: this.heartbeatIds++,
      brokerId: this.options.id,
      starting: this.registration.starting,
      metadataOffset: this.metadataOffset,
    });
    ctx.setTimer(BROKER_HEARTBEAT_INTERVAL_US, { owner: 'heartbeat' } satisfies BrokerTimer);
  }

  /**
   * Produce. A transactional batch whose producer has no open transaction on the partition is first
   * verified with (TV<2) or added by (TV2) the coordinator, with a fresh guard (KIP-890 part 1;
   * ReplicaManager.maybeStartTransactionVerificationForPartitions).
   */
  private onProduce(request: ProduceRequest, client: NodeId, ctx: Ctx): void {
    const answer = (outcome: AppendOutcome): void => {
      if (request.acks === 0) return;
      ctx.send(client, {
        kind: 'ProduceResponse',
        correlationId: request.correlationId,
        topic: request.topic,
        partition: request.partition,
        error: outcome.error,
        baseOffset: outcome.baseOffset,
      });
    };
    const { respond, refused } = this.injectedProduceErrors.take(request, answer);
    if (refused !== null) return respond({ error: refused, baseOffset: -1 });
    const verifying =
      this.options.transactionPartitionVerificationEnable &&
      request.transactionalId !== null &&
      request.batch.isTransactional;
    const replica = this.replicaManager.replicas.get(partitionKey(request));
    const log = replica?.role === 'leader' ? replica.log : undefined;
    const { producerId, producerEpoch, baseSequence } = request.batch;
    if (!verifying || log === undefined || log.hasOngoingTransaction(producerId, producerEpoch)) {
      // Kafka's SENTINEL guard: a transaction open at this epoch needs no verification.
      const check = verifying ? { guard: 0 } : null;
      return this.replicaManager.handleProduce(request, ctx, respond, check);
    }
    // Since KAFKA-19690 a stale epoch is refused before a verification starts.
    const staleEpoch = log.isStaleEpoch(producerId, producerEpoch);
    if (staleEpoch && !this.options.bugs.verificationGuardBeforeEpochCheck) {
      return respond({ error: 'INVALID_PRODUCER_EPOCH', baseOffset: -1 });
    }
    const guard = log.startVerification(
      producerId,
      producerEpoch,
      baseSequence,
      request.transactionVersion >= 2,
    );
    const coordinator = this.coordinatorNodeFor(request.transactionalId as string);
    this.verifier.verify(request, coordinator, ctx, (error) => {
      if (error !== 'NONE') return respond({ error, baseOffset: -1 });
      this.replicaManager.handleProduce(request, ctx, respond, { guard });
    });
  }

  /** The broker leading the `__transaction_state` partition of an id, in this broker's cache. */
  private coordinatorNodeFor(transactionalId: string): NodeId | null {
    return this.replicaManager.leaderOf(
      this.options.metadata.transactionStatePartition(transactionalId),
    );
  }

  /**
   * The broker leading the `__consumer_offsets` partition of a group
   * (GroupMetadataManager.partitionFor), or null.
   */
  private groupCoordinatorNodeFor(groupId: string): NodeId | null {
    const tp = this.options.metadata.consumerOffsetsPartition(groupId);
    return tp === null ? null : this.replicaManager.leaderOf(tp);
  }

  /**
   * FindCoordinator (TransactionStateManager.partitionFor; GroupMetadataManager.partitionFor): the
   * leader of the key's `__transaction_state` or `__consumer_offsets` partition, or
   * COORDINATOR_NOT_AVAILABLE.
   */
  private onFindCoordinator(
    request: Extract<KafkaMessage, { kind: 'FindCoordinator' }>,
    client: NodeId,
    ctx: Ctx,
  ): void {
    const node =
      request.keyType === 'group'
        ? this.groupCoordinatorNodeFor(request.key)
        : this.coordinatorNodeFor(request.key);
    ctx.send(client, {
      kind: 'FindCoordinatorResponse',
      correlationId: request.correlationId,
      error: node === null ? 'COORDINATOR_NOT_AVAILABLE' : 'NONE',
      nodeId: node ?? '',
    });
  }

  /** An internal topic's replica changed role: its coordinator loads or unloads it. */
  private onRoleChange(replica: PartitionReplica, ctx: Ctx): void {
    const { topic, partition, leaderEpoch } = replica.state;
    if (topic === CONSUMER_OFFSETS_TOPIC) {
      if (replica.role === 'leader') this.groupCoordinator.onElected(partition, leaderEpoch, ctx);
      else this.groupCoordinator.onResigned(partition, ctx);
      return;
    }
    if (topic !== TRANSACTION_STATE_TOPIC) return;
    if (replica.role === 'leader') {
      this.coordinator.onElected(replica.state.partition, replica.state.leaderEpoch, ctx);
    } else {
      this.coordinator.onResigned(replica.state.partition, ctx);
    }
  }

  /** The records of this broker's replica of `__transaction_state-<partition>`, oldest first. */
  private readTransactionLog(partition: number): TransactionLogRecord[] {
    const records: TransactionLogRecord[] = [];
    for (const batch of this.readLog(partitionKey({ topic: TRANSACTION_STATE_TOPIC, partition }))) {
      if (batch.transactionLog !== undefined) records.push(batch.transactionLog);
    }
    return records;
  }

  /** Every batch of this broker's replica of a partition, oldest first. */
  private readLog(key: string): readonly LogBatch[] {
    return this.replicaManager.replicas.get(key)?.log.log ?? [];
  }

  /** LSO or HW at the leader; earliest is the log start offset (UnifiedLog.read). */
  private onListOffsets(request: ListOffsetsRequest, client: NodeId, ctx: Ctx): void {
    const partitions = request.partitions.map((query) => {
      const replica = this.replicaManager.replicas.get(partitionKey(query));
      if (replica === undefined || replica.role !== 'leader') {
        return {
          topic: query.topic,
          partition: query.partition,
          error: 'NOT_LEADER_OR_FOLLOWER' as const,
          offset: -1,
        };
      }
      const log = replica.log;
      if (query.timestamp === -1 && log.highWatermark < replica.leaderEpochStartOffset) {
        // A new leader's HW below its epoch start: no end offset yet (UnifiedLog.read).
        return {
          topic: query.topic,
          partition: query.partition,
          error: 'OFFSET_NOT_AVAILABLE' as const,
          offset: -1,
        };
      }
      const offset =
        query.timestamp === -2 ? log.logStartOffset : log.endOffset(request.isolationLevel);
      return { topic: query.topic, partition: query.partition, error: 'NONE' as const, offset };
    });
    ctx.send(client, {
      kind: 'ListOffsetsResponse',
      correlationId: request.correlationId,
      partitions,
    });
  }

  private onInitProducerId(
    request: Extract<KafkaMessage, { kind: 'InitProducerId' }>,
    client: NodeId,
    ctx: Ctx,
  ): void {
    const respond = (error: KafkaErrorCode, producerId: number, producerEpoch: number): void =>
      ctx.send(client, {
        kind: 'InitProducerIdResponse',
        correlationId: request.correlationId,
        error,
        producerId,
        producerEpoch,
      });
    if (request.transactionalId === null) {
      // Idempotent: a fresh id at epoch 0 (TransactionCoordinator.handleInitProducerId).
      return respond('NONE', this.allocateProducerId(), 0);
    }
    this.coordinator.handleInitProducerId(
      { ...request, transactionalId: request.transactionalId },
      ctx,
      respond,
    );
  }

  /** Markers are appended at each partition's leader with acks=all; one answer for all. */
  private onWriteTxnMarkers(request: WriteTxnMarkersRequest, coordinator: NodeId, ctx: Ctx): void {
    const results: Array<{ topic: string; partition: number; error: KafkaErrorCode }> = [];
    let outstanding = request.partitions.length;
    const finish = (): void => {
      if (outstanding > 0) return;
      ctx.send(coordinator, {
        kind: 'WriteTxnMarkersResponse',
        correlationId: request.correlationId,
        producerId: request.producerId,
        results,
      });
    };
    for (const tp of request.partitions) {
      this.replicaManager.appendMarker(tp, request, ctx, (error) => {
        // Kafka's handleTxnCompletion: the group coordinator learns of a durable marker.
        if (error === 'NONE' && tp.topic === CONSUMER_OFFSETS_TOPIC) {
          this.groupCoordinator.onTxnCompletion(
            tp.partition,
            request.producerId,
            request.committed,
          );
        }
        results.push({ topic: tp.topic, partition: tp.partition, error });
        outstanding -= 1;
        finish();
      });
    }
    finish();
  }

  /** The next id of this broker's durable producer id blocks (`producer_id_blocks.ts`). */
  private allocateProducerId(): number {
    const brokers = this.options.metadata.brokers.length;
    return producerIdAt(this.brokerIndex, brokers, this.producerIdsAllocated++);
  }
}
