/**
 * The transaction coordinator of one broker (Kafka's TransactionCoordinator, R3.3-R3.13). It owns
 * the transactional.ids whose __transaction_state partition this broker leads, answers
 * InitProducerId, AddPartitionsToTxn and EndTxn, writes COMMIT/ABORT markers to every partition
 * of a transaction, and aborts transactions that outlive their transaction.timeout.ms.
 *
 * Every state change is first "written to the log": it becomes pending, and applies only when a
 * simulated replicated append completes (a few milliseconds later). Until then other requests for
 * the id get CONCURRENT_TRANSACTIONS. A crash loses pending writes; the applied state is durable,
 * and a restarted coordinator bumps its coordinator epoch and finishes Prepare* transactions.
 */
import { assert, type ActorContext, type NodeId } from '../../kernel';
import type {
  AddPartitionsToTxnRequest,
  EndTxnRequest,
  InitProducerIdRequest,
  KafkaErrorCode,
  KafkaMessage,
  TopicPartition,
  WriteTxnMarkersResponse,
} from '../protocol';
import { partitionKey } from '../protocol';
import { MarkerSender } from './marker_sender';
import {
  EXHAUSTED_PRODUCER_EPOCH,
  assertValidTransition,
  isPrepare,
  transactionStatePartitionFor,
  type TransactionMetadata,
  type TransactionState,
} from './transaction_metadata';

/** Broker settings the coordinator uses, from Kafka's config keys. */
export interface CoordinatorSettings {
  /** `transaction.max.timeout.ms`. */
  readonly transactionMaxTimeoutMs: number;
  /** `transaction.abort.timed.out.transaction.cleanup.interval.ms`. */
  readonly abortTimedOutTransactionCleanupIntervalMs: number;
  /** Simulated latency of a replicated __transaction_state append, µs. */
  readonly logWriteUsMin: number;
  readonly logWriteUsMax: number;
}

/** A coordinator granting a newer epoch (oracle instrumentation, not Kafka state). */
export interface EpochGrantRecord {
  readonly timeUs: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly reason: 'init' | 'fence' | 'timeout';
}

/** Timers the coordinator sets; `owner` lets the broker route them. */
export type CoordinatorTimer =
  | { readonly owner: 'coordinator'; readonly type: 'log-write'; readonly writeId: number }
  | { readonly owner: 'coordinator'; readonly type: 'timeout-scan' }
  | {
      readonly owner: 'coordinator';
      readonly type: 'marker-retry';
      readonly transactionalId: string;
    }
  | {
      readonly owner: 'coordinator';
      readonly type: 'marker-timeout';
      readonly correlationId: number;
    };

type Ctx = ActorContext<KafkaMessage>;

/** What the coordinator needs from its broker. */
export interface CoordinatorHost {
  /** Whether this broker leads the __transaction_state partition of `transactionalId`. */
  owns(transactionalId: string): boolean;
  /** The leader of a data partition, or null when it has none now. */
  leaderOf(tp: TopicPartition): NodeId | null;
  /** A fresh producerId (durable counter, as the controller's id blocks are). */
  allocateProducerId(): number;
}

/** The coordinator of one broker. */
export class TransactionCoordinator {
  /** Durable: the applied state of every transactional.id (the __transaction_state content). */
  private readonly transactions = new Map<string, TransactionMetadata>();
  /** Volatile: log writes in flight, by write id. */
  private pendingWrites = new Map<number, () => void>();
  private nextWriteId = 1;
  private readonly markers: MarkerSender;
  /** Bumped at every start: markers carry it so partitions can fence a stale coordinator. */
  coordinatorEpoch = -1;
  /** Oracle: how often each state transition happened, keyed `from->to` (sweep coverage). */
  readonly transitionCounts = new Map<string, number>();
  /** Oracle: every epoch this coordinator granted. */
  readonly epochGrants: EpochGrantRecord[] = [];

  constructor(
    private readonly settings: CoordinatorSettings,
    private readonly host: CoordinatorHost,
  ) {
    this.markers = new MarkerSender(host, (transactionalId, ctx) =>
      this.onMarkersComplete(transactionalId, ctx),
    );
  }

  /** Called when the broker starts or restarts (R3.13). */
  onStart(ctx: Ctx): void {
    this.coordinatorEpoch += 1;
    ctx.setTimer(this.settings.abortTimedOutTransactionCleanupIntervalMs * 1000, {
      owner: 'coordinator',
      type: 'timeout-scan',
    } satisfies CoordinatorTimer);
    for (const metadata of this.transactions.values()) {
      if (isPrepare(metadata.state)) this.sendMarkers(metadata, ctx);
    }
  }

  /** Called when the broker crashes: in-memory state is lost. */
  onCrash(): void {
    this.pendingWrites = new Map();
    this.markers.clear();
    for (const metadata of this.transactions.values()) {
      metadata.pendingState = null;
      metadata.lastProducerEpoch = -1;
      if (metadata.epochBeforeFence !== null) {
        // The fence lived only in memory: the log still holds the old epoch.
        metadata.producerEpoch = metadata.epochBeforeFence;
        metadata.epochBeforeFence = null;
      }
    }
  }

  /** The applied state of a transactional.id (oracle and tests). */
  metadataOf(transactionalId: string): Readonly<TransactionMetadata> | undefined {
    return this.transactions.get(transactionalId);
  }

  onTimer(timer: CoordinatorTimer, ctx: Ctx): void {
    switch (timer.type) {
      case 'log-write': {
        const apply = this.pendingWrites.get(timer.writeId);
        this.pendingWrites.delete(timer.writeId);
        if (apply !== undefined) apply();
        return;
      }
      case 'timeout-scan':
        this.abortTimedOutTransactions(ctx);
        ctx.setTimer(this.settings.abortTimedOutTransactionCleanupIntervalMs * 1000, timer);
        return;
      case 'marker-retry':
      case 'marker-timeout':
        this.markers.onTimer(timer, ctx);
        return;
    }
  }

  /** The connection to `peer` was reset: markers in flight to it are sent again. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    this.markers.onConnectionReset(peer, ctx);
  }

  onWriteTxnMarkersResponse(response: WriteTxnMarkersResponse, ctx: Ctx): void {
    this.markers.onResponse(response, ctx);
  }

  /** InitProducerId for a transactional.id (R3.5). Answers through `respond`. */
  handleInitProducerId(
    request: InitProducerIdRequest & { transactionalId: string },
    ctx: Ctx,
    respond: (error: KafkaErrorCode, producerId: number, producerEpoch: number) => void,
  ): void {
    const { transactionalId } = request;
    if (!this.host.owns(transactionalId)) return respond('NOT_COORDINATOR', -1, -1);
    if (transactionalId === '') return respond('INVALID_REQUEST', -1, -1);
    if (
      request.transactionTimeoutMs <= 0 ||
      request.transactionTimeoutMs > this.settings.transactionMaxTimeoutMs
    ) {
      return respond('INVALID_TRANSACTION_TIMEOUT', -1, -1);
    }
    const expectsEpoch = request.producerId !== -1 || request.producerEpoch !== -1;
    if (expectsEpoch && (request.producerId === -1 || request.producerEpoch === -1)) {
      return respond('INVALID_REQUEST', -1, -1);
    }
    const metadata = this.metadataOrCreate(transactionalId, request.transactionTimeoutMs, ctx);
    if (metadata.pendingState !== null) return respond('CONCURRENT_TRANSACTIONS', -1, -1);
    if (
      expectsEpoch &&
      metadata.producerEpoch !== -1 &&
      request.producerId !== metadata.producerId
    ) {
      return respond('PRODUCER_FENCED', -1, -1);
    }
    if (isPrepare(metadata.state)) return respond('CONCURRENT_TRANSACTIONS', -1, -1);
    if (metadata.state === 'Ongoing') {
      // Fence the ongoing transaction: abort it with a bumped epoch; the new instance retries.
      this.fenceAndAbort(metadata, 'fence', ctx, () => respond('CONCURRENT_TRANSACTIONS', -1, -1));
      return;
    }
    const next = this.nextIdentity(metadata, expectsEpoch ? request.producerEpoch : null);
    if (next === 'PRODUCER_FENCED') return respond('PRODUCER_FENCED', -1, -1);
    if (next === 'unchanged') return respond('NONE', metadata.producerId, metadata.producerEpoch);
    this.writeTransition(metadata, 'Empty', ctx, () => {
      const lastEpoch = next.producerId === metadata.producerId ? metadata.producerEpoch : -1;
      metadata.producerId = next.producerId;
      metadata.producerEpoch = next.producerEpoch;
      metadata.lastProducerEpoch = expectsEpoch ? lastEpoch : -1;
      metadata.txnTimeoutMs = request.transactionTimeoutMs;
      metadata.topicPartitions = new Map();
      metadata.txnStartUs = -1;
      this.recordGrant(metadata, 'init', ctx);
      respond('NONE', metadata.producerId, metadata.producerEpoch);
    });
  }

  /** AddPartitionsToTxn (R3.6, baseline check order). */
  handleAddPartitionsToTxn(
    request: AddPartitionsToTxnRequest,
    ctx: Ctx,
    respond: (error: KafkaErrorCode) => void,
  ): void {
    if (!this.host.owns(request.transactionalId)) return respond('NOT_COORDINATOR');
    const metadata = this.transactions.get(request.transactionalId);
    if (metadata === undefined || metadata.producerId !== request.producerId) {
      return respond('INVALID_PRODUCER_ID_MAPPING');
    }
    if (metadata.producerEpoch !== request.producerEpoch) return respond('PRODUCER_FENCED');
    if (metadata.pendingState !== null || isPrepare(metadata.state))
      return respond('CONCURRENT_TRANSACTIONS');
    const added = request.partitions.filter(
      (tp) => !metadata.topicPartitions.has(partitionKey(tp)),
    );
    if (metadata.state === 'Ongoing' && added.length === 0) return respond('NONE');
    const startsTransaction = metadata.state !== 'Ongoing';
    this.writeTransition(metadata, 'Ongoing', ctx, () => {
      for (const tp of added) metadata.topicPartitions.set(partitionKey(tp), tp);
      if (startsTransaction) metadata.txnStartUs = ctx.nowUs();
      respond('NONE');
    });
  }

  /** EndTxn (R3.8, baseline check order). NONE is answered once Prepare* is durable. */
  handleEndTxn(request: EndTxnRequest, ctx: Ctx, respond: (error: KafkaErrorCode) => void): void {
    if (!this.host.owns(request.transactionalId)) return respond('NOT_COORDINATOR');
    const metadata = this.transactions.get(request.transactionalId);
    if (metadata === undefined || metadata.producerId !== request.producerId) {
      return respond('INVALID_PRODUCER_ID_MAPPING');
    }
    if (metadata.producerEpoch !== request.producerEpoch) return respond('PRODUCER_FENCED');
    if (metadata.pendingState !== null) return respond('CONCURRENT_TRANSACTIONS');
    const target: TransactionState = request.committed ? 'PrepareCommit' : 'PrepareAbort';
    if (metadata.state === 'Ongoing') {
      this.writeTransition(metadata, target, ctx, () => {
        respond('NONE');
        this.sendMarkers(metadata, ctx);
      });
      return;
    }
    const completed = request.committed ? 'CompleteCommit' : 'CompleteAbort';
    if (metadata.state === completed) return respond('NONE');
    if (metadata.state === target) return respond('CONCURRENT_TRANSACTIONS');
    respond('INVALID_TXN_STATE');
  }

  /** R3.11: abort every Ongoing transaction older than its timeout, bumping the epoch. */
  private abortTimedOutTransactions(ctx: Ctx): void {
    const nowUs = ctx.nowUs();
    for (const metadata of this.transactions.values()) {
      if (metadata.state !== 'Ongoing' || metadata.pendingState !== null) continue;
      if (metadata.txnStartUs + metadata.txnTimeoutMs * 1000 >= nowUs) continue;
      ctx.trace(`transaction ${metadata.transactionalId} timed out: aborting with an epoch bump`);
      this.fenceAndAbort(metadata, 'timeout', ctx, () => undefined);
    }
  }

  /** PrepareEpochFence then PrepareAbort with epoch + 1, then markers (R3.5 Ongoing, R3.11). */
  private fenceAndAbort(
    metadata: TransactionMetadata,
    reason: 'fence' | 'timeout',
    ctx: Ctx,
    onDurable: () => void,
  ): void {
    // PrepareEpochFence is an in-memory step: the epoch is bumped at once, so requests still
    // carrying the old epoch are fenced while the PrepareAbort write is in flight (Kafka's
    // endTransaction sets producerEpoch before appending PrepareAbort). The state stays Ongoing
    // until that write is durable.
    assertValidTransition(metadata, 'PrepareEpochFence');
    this.countTransition(metadata.state, 'PrepareEpochFence');
    metadata.epochBeforeFence = metadata.producerEpoch;
    metadata.producerEpoch += 1;
    metadata.lastProducerEpoch = -1;
    this.recordGrant(metadata, reason, ctx);
    this.writeTransition(metadata, 'PrepareAbort', ctx, () => {
      metadata.epochBeforeFence = null;
      onDurable();
      this.sendMarkers(metadata, ctx);
    });
  }

  private sendMarkers(metadata: TransactionMetadata, ctx: Ctx): void {
    assert(isPrepare(metadata.state), 'markers are sent only from a Prepare state');
    this.markers.send(
      {
        transactionalId: metadata.transactionalId,
        producerId: metadata.producerId,
        producerEpoch: metadata.producerEpoch,
        coordinatorEpoch: this.coordinatorEpoch,
        committed: metadata.state === 'PrepareCommit',
        partitions: [...metadata.topicPartitions.values()],
      },
      ctx,
    );
  }

  /** All markers are in: write CompleteCommit/CompleteAbort with the partitions cleared. */
  private onMarkersComplete(transactionalId: string, ctx: Ctx): void {
    const metadata = this.transactions.get(transactionalId);
    if (metadata === undefined || !isPrepare(metadata.state) || metadata.pendingState !== null)
      return;
    const target = metadata.state === 'PrepareCommit' ? 'CompleteCommit' : 'CompleteAbort';
    this.writeTransition(metadata, target, ctx, () => {
      metadata.topicPartitions = new Map();
      metadata.txnStartUs = -1;
    });
  }

  /** Sets the pending state, appends to the log, and applies `apply` once durable. */
  private writeTransition(
    metadata: TransactionMetadata,
    target: TransactionState,
    ctx: Ctx,
    apply: () => void,
  ): void {
    assertValidTransition(metadata, target);
    metadata.pendingState = target;
    this.appendToLog(ctx, () => {
      metadata.pendingState = null;
      assertValidTransition(metadata, target);
      this.countTransition(metadata.state, target);
      metadata.state = target;
      metadata.txnLastUpdateUs = ctx.nowUs();
      apply();
    });
  }

  private countTransition(from: TransactionState, to: TransactionState): void {
    const key = `${from}->${to}`;
    this.transitionCounts.set(key, (this.transitionCounts.get(key) ?? 0) + 1);
  }

  private appendToLog(ctx: Ctx, apply: () => void): void {
    const writeId = this.nextWriteId++;
    this.pendingWrites.set(writeId, apply);
    const delayUs = ctx.rng.intInclusive(this.settings.logWriteUsMin, this.settings.logWriteUsMax);
    ctx.setTimer(delayUs, {
      owner: 'coordinator',
      type: 'log-write',
      writeId,
    } satisfies CoordinatorTimer);
  }

  private metadataOrCreate(
    transactionalId: string,
    txnTimeoutMs: number,
    ctx: Ctx,
  ): TransactionMetadata {
    let metadata = this.transactions.get(transactionalId);
    if (metadata === undefined) {
      metadata = {
        transactionalId,
        producerId: this.host.allocateProducerId(),
        producerEpoch: -1,
        lastProducerEpoch: -1,
        txnTimeoutMs,
        state: 'Empty',
        pendingState: null,
        topicPartitions: new Map(),
        txnStartUs: -1,
        txnLastUpdateUs: ctx.nowUs(),
        epochBeforeFence: null,
      };
      this.transactions.set(transactionalId, metadata);
    }
    return metadata;
  }

  /** R3.5 for Empty/Complete*: the identity the next InitProducerId grants. */
  private nextIdentity(
    metadata: TransactionMetadata,
    expectedEpoch: number | null,
  ): { producerId: number; producerEpoch: number } | 'unchanged' | 'PRODUCER_FENCED' {
    const current = metadata.producerEpoch;
    if (
      current >= EXHAUSTED_PRODUCER_EPOCH &&
      (expectedEpoch === null || expectedEpoch === current)
    ) {
      return { producerId: this.host.allocateProducerId(), producerEpoch: 0 };
    }
    if (expectedEpoch === null || expectedEpoch === current || current === -1) {
      return { producerId: metadata.producerId, producerEpoch: current + 1 };
    }
    if (expectedEpoch === metadata.lastProducerEpoch) return 'unchanged';
    return 'PRODUCER_FENCED';
  }

  private recordGrant(
    metadata: TransactionMetadata,
    reason: EpochGrantRecord['reason'],
    ctx: Ctx,
  ): void {
    this.epochGrants.push({
      timeUs: ctx.nowUs(),
      transactionalId: metadata.transactionalId,
      producerId: metadata.producerId,
      producerEpoch: metadata.producerEpoch,
      reason,
    });
  }
}

/** The coordinator's __transaction_state partition for an id (re-exported for the broker). */
export { transactionStatePartitionFor };
