/**
 * A Kafka broker: it leads the partitions the cluster metadata gives it, answers Produce, Fetch
 * and ListOffsets for them, answers FindCoordinator for anyone, hosts a transaction coordinator,
 * and appends WriteTxnMarkers. The log survives a process crash; producer and transaction state
 * are rebuilt from it on restart, and a power loss also drops the unflushed tail.
 */
import type { Actor, ActorContext, CrashMode, Envelope, NodeId } from '../../kernel';
import type {
  FetchRequest,
  KafkaMessage,
  ListOffsetsRequest,
  ProduceRequest,
  TopicPartition,
  WriteTxnMarkersRequest,
} from '../protocol';
import { partitionKey } from '../protocol';
import {
  TransactionCoordinator,
  type CoordinatorSettings,
  type CoordinatorTimer,
} from '../coordinator/transaction_coordinator';
import type { ClusterMetadata } from './cluster_metadata';
import { PartitionLog, type PartitionBugs } from './partition_log';

type Ctx = ActorContext<KafkaMessage>;

/** Producer ids come in blocks, as the controller hands them out (R2.1). */
const PRODUCER_ID_BLOCK_SIZE = 1000;

/** What a broker is built from. */
export interface BrokerOptions {
  readonly id: NodeId;
  readonly metadata: ClusterMetadata;
  readonly coordinator: CoordinatorSettings;
  readonly bugs: PartitionBugs;
  /** Most batches one partition returns per fetch (stands in for fetch.max.bytes). @default 64 */
  readonly fetchBatchesMax: number;
}

/** One broker node. */
export class Broker implements Actor<KafkaMessage> {
  /** Durable: the logs of the partitions this broker leads. */
  readonly partitions = new Map<string, PartitionLog>();
  readonly coordinator: TransactionCoordinator;
  private readonly brokerIndex: number;
  /** Durable: producer ids handed out so far. */
  private producerIdsAllocated = 0;
  private crashed: { mode: CrashMode; atUs: number } | null = null;

  constructor(private readonly options: BrokerOptions) {
    const { metadata, id } = options;
    this.brokerIndex = metadata.brokers.indexOf(id);
    for (const tp of metadata.allPartitions()) {
      if (metadata.leaderOf(tp) === id) {
        this.partitions.set(
          partitionKey(tp),
          new PartitionLog(tp.topic, tp.partition, options.bugs),
        );
      }
    }
    this.coordinator = new TransactionCoordinator(options.coordinator, {
      owns: (transactionalId) => metadata.coordinatorFor(transactionalId) === id,
      leaderOf: (tp) => metadata.leaderOf(tp),
      allocateProducerId: () => this.allocateProducerId(),
    });
  }

  onStart(ctx: Ctx): void {
    if (this.crashed !== null) {
      for (const partition of this.partitions.values()) {
        partition.recoverAfterCrash(this.crashed.mode, this.crashed.atUs);
      }
      this.crashed = null;
    }
    this.coordinator.onStart(ctx);
  }

  onCrash(mode: CrashMode, nowUs: number): void {
    this.crashed = { mode, atUs: nowUs };
    this.coordinator.onCrash();
  }

  onTimer(payload: unknown, ctx: Ctx): void {
    this.coordinator.onTimer(payload as CoordinatorTimer, ctx);
  }

  onMessage(envelope: Envelope<KafkaMessage>, ctx: Ctx): void {
    const message = envelope.payload;
    const client = envelope.source;
    switch (message.kind) {
      case 'Produce':
        return this.onProduce(message, client, ctx);
      case 'Fetch':
        return this.onFetch(message, client, ctx);
      case 'ListOffsets':
        return this.onListOffsets(message, client, ctx);
      case 'FindCoordinator':
        return ctx.send(client, {
          kind: 'FindCoordinatorResponse',
          correlationId: message.correlationId,
          error: 'NONE',
          nodeId: this.options.metadata.coordinatorFor(message.key),
        });
      case 'InitProducerId':
        return this.onInitProducerId(message, client, ctx);
      case 'AddPartitionsToTxn':
        return this.coordinator.handleAddPartitionsToTxn(message, ctx, (error) =>
          ctx.send(client, {
            kind: 'AddPartitionsToTxnResponse',
            correlationId: message.correlationId,
            results: message.partitions.map((tp) => ({ ...tp, error })),
          }),
        );
      case 'EndTxn':
        return this.coordinator.handleEndTxn(message, ctx, (error) =>
          ctx.send(client, { kind: 'EndTxnResponse', correlationId: message.correlationId, error }),
        );
      case 'WriteTxnMarkers':
        return this.onWriteTxnMarkers(message, client, ctx);
      case 'WriteTxnMarkersResponse':
        return this.coordinator.onWriteTxnMarkersResponse(message, ctx);
      default:
        ctx.trace(`ignored unexpected ${message.kind}`);
    }
  }

  private partitionLog(tp: TopicPartition): PartitionLog | undefined {
    return this.partitions.get(partitionKey(tp));
  }

  private leadershipError(
    tp: TopicPartition,
  ): 'UNKNOWN_TOPIC_OR_PARTITION' | 'NOT_LEADER_OR_FOLLOWER' {
    return this.options.metadata.exists(tp)
      ? 'NOT_LEADER_OR_FOLLOWER'
      : 'UNKNOWN_TOPIC_OR_PARTITION';
  }

  private onProduce(request: ProduceRequest, client: NodeId, ctx: Ctx): void {
    const log = this.partitionLog(request);
    const result =
      log === undefined
        ? { error: this.leadershipError(request), baseOffset: -1 }
        : log.appendAsLeader(request.batch, ctx.nowUs());
    if (request.acks === 0) return;
    ctx.send(client, {
      kind: 'ProduceResponse',
      correlationId: request.correlationId,
      topic: request.topic,
      partition: request.partition,
      error: result.error,
      baseOffset: result.baseOffset,
    });
  }

  private onFetch(request: FetchRequest, client: NodeId, ctx: Ctx): void {
    const partitions = request.partitions.map((fetch) => {
      const log = this.partitionLog(fetch);
      if (log === undefined) {
        return {
          topic: fetch.topic,
          partition: fetch.partition,
          error: this.leadershipError(fetch),
          highWatermark: -1,
          lastStableOffset: -1,
          logStartOffset: -1,
          abortedTransactions: null,
          batches: [],
        };
      }
      const read = log.read(
        fetch.fetchOffset,
        request.isolationLevel,
        this.options.fetchBatchesMax,
      );
      return {
        topic: fetch.topic,
        partition: fetch.partition,
        error: read.error,
        highWatermark: log.highWatermark,
        lastStableOffset: log.lastStableOffset,
        logStartOffset: log.logStartOffset,
        abortedTransactions: read.abortedTransactions,
        batches: read.batches,
      };
    });
    ctx.send(client, { kind: 'FetchResponse', correlationId: request.correlationId, partitions });
  }

  private onListOffsets(request: ListOffsetsRequest, client: NodeId, ctx: Ctx): void {
    const partitions = request.partitions.map((query) => {
      const log = this.partitionLog(query);
      if (log === undefined) {
        return {
          topic: query.topic,
          partition: query.partition,
          error: this.leadershipError(query),
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
    const respond = (
      error: Parameters<Parameters<TransactionCoordinator['handleEndTxn']>[2]>[0],
      producerId: number,
      producerEpoch: number,
    ): void =>
      ctx.send(client, {
        kind: 'InitProducerIdResponse',
        correlationId: request.correlationId,
        error,
        producerId,
        producerEpoch,
      });
    if (request.transactionalId === null) {
      // An idempotent producer: any broker hands out a fresh id with epoch 0 (R2.1).
      return respond('NONE', this.allocateProducerId(), 0);
    }
    this.coordinator.handleInitProducerId(
      { ...request, transactionalId: request.transactionalId },
      ctx,
      respond,
    );
  }

  private onWriteTxnMarkers(request: WriteTxnMarkersRequest, coordinator: NodeId, ctx: Ctx): void {
    const results = request.partitions.map((tp) => {
      const log = this.partitionLog(tp);
      const error =
        log === undefined ? this.leadershipError(tp) : log.appendMarker(request, ctx.nowUs());
      return { topic: tp.topic, partition: tp.partition, error };
    });
    ctx.send(coordinator, {
      kind: 'WriteTxnMarkersResponse',
      correlationId: request.correlationId,
      producerId: request.producerId,
      results,
    });
  }

  /** Durable producer id blocks: broker i uses blocks i, i + N, i + 2N, ... of 1000 ids. */
  private allocateProducerId(): number {
    const brokers = this.options.metadata.brokers.length;
    const block =
      this.brokerIndex + brokers * Math.floor(this.producerIdsAllocated / PRODUCER_ID_BLOCK_SIZE);
    const id =
      block * PRODUCER_ID_BLOCK_SIZE + (this.producerIdsAllocated % PRODUCER_ID_BLOCK_SIZE);
    this.producerIdsAllocated += 1;
    return id;
  }
}
