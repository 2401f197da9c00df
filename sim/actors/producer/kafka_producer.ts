/**
 * A Kafka producer, idempotent or transactional, as the Java client behaves (TransactionManager,
 * Sender; KIP-360 for the epoch bump). The application calls `initTransactions`,
 * `beginTransaction`, `send`, `commitTransaction` and `abortTransaction` with callbacks;
 * coordinator requests go one at a time; EndTxn waits until every batch is complete; errors are
 * classified fatal, abortable or retriable per API, and abortable and fatal errors are sticky.
 */
import { assert, type ActorContext, type NodeId } from '../../kernel';
import type {
  KafkaErrorCode,
  KafkaMessage,
  KafkaRequest,
  KafkaResponse,
  OffsetToCommit,
  TopicPartition,
} from '../protocol';
import { PRODUCER_COORDINATOR_CONNECTION, isRetriable, partitionKey } from '../protocol';
import { completeBatch, failRecords, type SendResult } from './producer_batch';
import { clientTransactionVersion, isLibrdkafka } from './client_rules';
import {
  ADD_PARTITIONS_RETRY_BACKOFF_US,
  assertClientTransition,
  MAX_BLOCK_MS_DEFAULT,
  type ClientTransactionState,
  type ProducerConfig,
} from './producer_config';
import { RecordSender, flushesAccumulator, type SenderTimer } from './record_sender';
import { TxnOffsets, type OffsetsOutcome, type TxnGroupMetadata } from './txn_offsets';
import { buildCoordinatorRequest, type CoordinatorRequestKind } from './coordinator_requests';
import { InitTransactionsCall, type InitTimeoutTimer } from './init_transactions_call';

type Ctx = ActorContext<KafkaMessage>;

/** Timers of the coordinator path. */
type CoordinatorTimer =
  | { readonly owner: 'producer'; readonly type: 'coordinator-retry' }
  | {
      readonly owner: 'producer';
      readonly type: 'coordinator-timeout';
      readonly correlationId: number;
    };

/** Where the producer finds brokers: the client's metadata cache. */
export interface ProducerMetadata {
  readonly brokers: readonly NodeId[];
  /** The partition's leader, or null when unknown or offline. */
  leaderOf(tp: TopicPartition): NodeId | null;
  /** Asks for fresh metadata after a leadership error. */
  requestRefresh(): void;
  /**
   * The cluster's finalized `transaction.version` feature (from ApiVersions): 2 makes the client
   * skip AddPartitionsToTxn and take a new epoch from every EndTxn (KIP-890 part 2).
   */
  readonly transactionVersion: number;
}

/** A producer instance living on a client node. */
export class KafkaProducer {
  state: ClientTransactionState = 'UNINITIALIZED';
  producerId = -1;
  producerEpoch = -1;
  /** The error that put the producer in ABORTABLE_ERROR or FATAL_ERROR. */
  lastError: KafkaErrorCode = 'NONE';
  /** True once EndTxn(commit) was sent for the current transaction: its outcome may be commit. */
  commitRequested = false;
  private readonly sender: RecordSender;
  private coordinator: NodeId | null = null;
  private coordinatorRequest: {
    correlationId: number;
    kind: CoordinatorRequestKind;
    timerId: number;
    broker: NodeId;
  } | null = null;
  private retryTimerSet = false;
  /** InitProducerId attempts of an idempotent producer so far (picks the broker to ask). */
  private idempotentInitAttempts = 0;
  private correlationIds = 1;
  private epochBumpRequired = false;
  private midTransactionBump = false; // librdkafka#3575: InitProducerId during the transaction
  private idempotentInitSent = false;
  private readonly pendingAdds = new Map<string, TopicPartition>();
  private readonly inTransaction = new Map<string, TopicPartition>();
  private pendingEnd: { committed: boolean; callback: (error: KafkaErrorCode) => void } | null =
    null;
  private readonly initCall: InitTransactionsCall;
  private readonly txnOffsets = new TxnOffsets();

  constructor(
    private readonly config: ProducerConfig,
    private readonly metadata: ProducerMetadata,
    private readonly ctx: Ctx,
    /** The first correlation id: a restarted instance starts past its predecessor's. @default 1 */
    correlationIdBase = 1,
  ) {
    this.correlationIds = correlationIdBase;
    this.sender = new RecordSender(
      config,
      metadata,
      {
        identity: () => ({ producerId: this.producerId, producerEpoch: this.producerEpoch }),
        maySend: (tp) => this.maySend(tp),
        onBatchFailed: (batch, error) => this.onBatchFailed(batch.records, error),
        bumpEpoch: () => this.bumpIdempotentEpoch(),
        onFatal: (error) => this.fatal(error),
        onDrainedForBump: (error) => this.onDrainedForBump(error),
        flushInProgress: () => flushesAccumulator(this.state),
        onBatchSucceeded: (batch, baseOffset) => completeBatch(batch, baseOffset),
      },
      () => this.correlationIds++,
    );
    const retryThrows = () => !isLibrdkafka(config) && config.initRetryAfterAnswerThrows === true;
    this.initCall = new InitTransactionsCall(ctx, retryThrows, {
      fatalError: () => (this.state === 'FATAL_ERROR' ? this.lastError : null),
      uninitialized: () => this.state === 'UNINITIALIZED',
      start: () => (this.transition('INITIALIZING'), this.pump()),
    });
  }

  private get transactional(): boolean {
    return this.config.transactionalId !== null;
  }

  /** KIP-890 part 2: the partition leader adds partitions; every EndTxn bumps the epoch. */
  private get version2(): boolean {
    return clientTransactionVersion(this.config, this.metadata) >= 2;
  }

  /** `initTransactions()`; `bounded`: waits at most `max.block.ms` (init_transactions_call.ts). */
  initTransactions(callback: (error: KafkaErrorCode) => void, bounded = false): void {
    assert(this.transactional, 'initTransactions needs a transactional.id');
    this.initCall.call(callback, bounded ? (this.config.maxBlockMs ?? MAX_BLOCK_MS_DEFAULT) : null);
  }

  /** `beginTransaction()`: local only. Returns NONE or the error Kafka would throw. */
  beginTransaction(): KafkaErrorCode {
    if (this.state === 'FATAL_ERROR' || this.state === 'ABORTABLE_ERROR') return this.lastError;
    if (this.state !== 'READY') return 'INVALID_TXN_STATE';
    this.transition('IN_TRANSACTION');
    this.commitRequested = false;
    return 'NONE';
  }

  /** `send()`: queues one record; `callback` gets its offset or error. */
  send(tp: TopicPartition, value: number, callback: (result: SendResult) => void): void {
    if (this.state === 'FATAL_ERROR' || this.state === 'ABORTABLE_ERROR')
      return this.failSend(callback, this.lastError);
    if (this.transactional && this.state !== 'IN_TRANSACTION')
      return this.failSend(callback, 'INVALID_TXN_STATE');
    if (this.transactional && !this.inTransaction.has(partitionKey(tp))) {
      if (this.version2) this.inTransaction.set(partitionKey(tp), tp);
      else this.pendingAdds.set(partitionKey(tp), tp);
    }
    this.sender.enqueue(tp, { value, callback, createdUs: this.ctx.nowUs() });
    this.pump();
  }

  /** A `send()` refused at once (a method: esbuild's keepNames names every new closure). */
  private failSend(callback: (result: SendResult) => void, error: KafkaErrorCode): void {
    const { producerId, producerEpoch } = this;
    callback({ error, offset: -1, producerId, producerEpoch });
  }

  /**
   * `sendOffsetsToTransaction(offsets, groupMetadata)`: the offsets join the transaction. `group`
   * is the consumer's `groupMetadata()` (KIP-447), or generation -1 and member '' for the
   * groupId-only API; how each TxnOffsetCommit error is classified is in txn_offsets.ts; in an
   * error state the sticky error comes back at once (TransactionManager.maybeFailWithError).
   */
  sendOffsetsToTransaction(
    offsets: readonly OffsetToCommit[],
    group: TxnGroupMetadata,
    callback: (error: KafkaErrorCode) => void,
  ): void {
    assert(this.transactional, 'sendOffsetsToTransaction needs a transactional.id');
    if (this.state === 'FATAL_ERROR' || this.state === 'ABORTABLE_ERROR')
      return callback(this.lastError);
    if (this.state !== 'IN_TRANSACTION') return callback('INVALID_TXN_STATE');
    this.txnOffsets.enqueue(offsets, group, callback, this.version2);
    this.pump();
  }

  /** `commitTransaction()`: flushes, then EndTxn(commit). */
  commitTransaction(callback: (error: KafkaErrorCode) => void): void {
    if (this.state === 'FATAL_ERROR' || this.state === 'ABORTABLE_ERROR')
      return callback(this.lastError);
    if (this.state !== 'IN_TRANSACTION') return callback('INVALID_TXN_STATE');
    this.transition('COMMITTING_TRANSACTION');
    this.pendingEnd = { committed: true, callback };
    this.pump();
  }

  /** `abortTransaction()`: fails unsent records, waits for in-flight ones, then EndTxn(abort). */
  abortTransaction(callback: (error: KafkaErrorCode) => void): void {
    if (this.state === 'FATAL_ERROR') return callback(this.lastError);
    if (this.state !== 'IN_TRANSACTION' && this.state !== 'ABORTABLE_ERROR')
      return callback('INVALID_TXN_STATE');
    this.transition('ABORTING_TRANSACTION');
    this.sender.failUnsent('TRANSACTION_ABORTABLE', false);
    this.pendingAdds.clear();
    this.txnOffsets.failAll('TRANSACTION_ABORTABLE');
    this.pendingEnd = { committed: false, callback };
    this.pump();
  }

  /** The connection to `peer` was reset: its requests fail as on a disconnect. */
  onConnectionReset(peer: NodeId): void {
    this.sender.onConnectionReset(peer, this.ctx);
    const request = this.coordinatorRequest;
    if (request !== null && request.broker === peer) {
      this.ctx.cancelTimer(request.timerId);
      this.coordinatorRequest = null;
      this.forgetCoordinatorOf(request.kind);
      // Java's NetworkClient fails the request on the disconnect and the retry waits
      // retry.backoff.ms: without the wait a broker that refuses connections is asked again in
      // the same instant, for ever.
      this.scheduleRetry(this.config.retryBackoffMs * 1000);
    }
    this.pump();
  }

  /** New metadata arrived: send what waited for a leader. */
  onMetadataUpdate(): void {
    this.pump();
  }

  /** Routes a response addressed to this producer. */
  onResponse(response: KafkaResponse): void {
    if (response.kind === 'ProduceResponse') {
      this.sender.onProduceResponse(response, this.ctx);
      this.pump();
      return;
    }
    const request = this.coordinatorRequest;
    if (request === null || request.correlationId !== response.correlationId) return;
    this.coordinatorRequest = null;
    this.ctx.cancelTimer(request.timerId);
    switch (response.kind) {
      case 'FindCoordinatorResponse':
        if (response.error !== 'NONE') this.scheduleRetry(this.config.retryBackoffMs * 1000);
        else if (request.kind === 'FindGroupCoordinator')
          this.txnOffsets.groupCoordinator = response.nodeId as NodeId;
        else this.coordinator = response.nodeId as NodeId;
        break;
      case 'AddOffsetsToTxnResponse':
        this.onOffsetsOutcome(this.txnOffsets.onAddOffsetsToTxn(response.error));
        break;
      case 'TxnOffsetCommitResponse':
        this.onOffsetsOutcome(this.txnOffsets.onTxnOffsetCommit(response.results, this.config));
        break;
      case 'InitProducerIdResponse':
        this.onInitProducerIdResponse(response.error, response.producerId, response.producerEpoch);
        break;
      case 'AddPartitionsToTxnResponse':
        this.onAddPartitionsResponse(response.results);
        break;
      case 'EndTxnResponse':
        this.onEndTxnResponse(response.error, response.producerId, response.producerEpoch);
        break;
      default:
        return;
    }
    this.pump();
  }

  onTimer(timer: SenderTimer | CoordinatorTimer | InitTimeoutTimer): void {
    if (timer.type === 'init-timeout') return this.initCall.onTimeout(timer);
    if (timer.type === 'coordinator-retry') {
      this.retryTimerSet = false;
    } else if (timer.type === 'coordinator-timeout') {
      const request = this.coordinatorRequest;
      if (request?.correlationId === timer.correlationId) {
        // The connection is dropped, held bytes and all: find the coordinator again and retry.
        this.ctx.closeConnection(request.broker, PRODUCER_COORDINATOR_CONNECTION);
        this.coordinatorRequest = null;
        this.forgetCoordinatorOf(request.kind);
      }
    } else {
      this.sender.onTimer(timer, this.ctx);
    }
    this.pump();
  }

  /** Drives both paths after any change. */
  private pump(): void {
    if (this.state === 'FATAL_ERROR') return;
    if (!this.transactional && this.config.enableIdempotence && this.producerId === -1)
      this.initIdempotent();
    this.sender.sendReady(this.ctx);
    this.maybeCompleteLocally();
    this.sendCoordinatorRequest();
  }

  /**
   * InitProducerId of an idempotent producer: the first attempt goes to the first broker, each
   * retry to the next one (Java asks the least loaded node, so a dead broker is not asked again).
   */
  private initIdempotent(): void {
    if (this.idempotentInitSent || this.retryTimerSet) return;
    this.idempotentInitSent = true;
    const brokers = this.metadata.brokers;
    const broker = brokers[this.idempotentInitAttempts++ % brokers.length] as NodeId;
    this.sendToBroker(broker, 'InitProducerId', {
      kind: 'InitProducerId',
      correlationId: 0,
      transactionalId: null,
      transactionTimeoutMs: this.config.transactionTimeoutMs,
      producerId: -1,
      producerEpoch: -1,
    });
  }

  private maySend(tp: TopicPartition): boolean {
    if (!this.transactional) return this.state !== 'FATAL_ERROR';
    if (this.midTransactionBump) return false;
    const open = this.state === 'IN_TRANSACTION' || this.state === 'COMMITTING_TRANSACTION';
    return open && this.inTransaction.has(partitionKey(tp));
  }

  /**
   * With no partition (nor offsets) added, EndTxn is skipped: the end is local
   * (TransactionManager.nextRequest).
   */
  private maybeCompleteLocally(): void {
    if (this.pendingEnd === null || this.inTransaction.size > 0 || this.pendingAdds.size > 0)
      return;
    if (this.txnOffsets.offsetsAdded || this.txnOffsets.hasWork) return;
    if (!this.sender.isIdle() || this.coordinatorRequest !== null) return;
    if (this.epochBumpRequired && !this.pendingEnd.committed) return;
    this.finishEnd('NONE');
  }

  /**
   * Picks the next coordinator request, in Kafka's priority order (TransactionManager.nextRequest).
   */
  private sendCoordinatorRequest(): void {
    if (!this.transactional || this.coordinatorRequest !== null || this.retryTimerSet) return;
    const next = this.nextCoordinatorRequest();
    if (next === null) return;
    const toGroup = next === 'FindGroupCoordinator' || next === 'TxnOffsetCommit';
    const target = toGroup ? this.txnOffsets.groupCoordinator : this.coordinator;
    const kind = target !== null ? next : toGroup ? 'FindGroupCoordinator' : 'FindCoordinator';
    const brokers = this.metadata.brokers;
    const broker = target ?? (brokers[this.ctx.rng.intInclusive(0, brokers.length - 1)] as NodeId);
    if (kind === 'EndTxn' && this.pendingEnd?.committed === true) this.commitRequested = true;
    const request = buildCoordinatorRequest(kind, {
      transactionalId: this.config.transactionalId as string,
      producerId: this.producerId,
      producerEpoch: this.producerEpoch,
      transactionTimeoutMs: this.config.transactionTimeoutMs,
      epochBumpRequired: this.epochBumpRequired || this.midTransactionBump,
      pendingAdds: [...this.pendingAdds.values()],
      committed: this.pendingEnd?.committed ?? false,
      version2: this.version2,
      offsets: this.txnOffsets.hasWork ? this.txnOffsets.head() : null,
    });
    this.sendToBroker(broker, kind, request);
  }

  private nextCoordinatorRequest(): CoordinatorRequestKind | null {
    if (this.state === 'INITIALIZING' || this.midTransactionBump) return 'InitProducerId';
    const adding = this.state === 'IN_TRANSACTION' || this.state === 'COMMITTING_TRANSACTION';
    if (adding && this.pendingAdds.size > 0) return 'AddPartitionsToTxn';
    if (adding && this.txnOffsets.hasWork) return this.txnOffsets.nextKind();
    if (this.pendingEnd === null || !this.sender.isIdle()) return null;
    if (this.state === 'COMMITTING_TRANSACTION' || this.state === 'ABORTING_TRANSACTION') {
      if (this.inTransaction.size > 0 || this.txnOffsets.offsetsAdded) return 'EndTxn';
      if (this.epochBumpRequired && this.state === 'ABORTING_TRANSACTION') {
        // TV2: an abort with the current epoch bumps it ("empty abort", KIP-890;
        // TransactionCoordinator.endTransaction).
        return this.version2 ? 'EndTxn' : 'InitProducerId';
      }
    }
    return null;
  }

  private sendToBroker(broker: NodeId, kind: CoordinatorRequestKind, message: KafkaRequest): void {
    const correlationId = this.correlationIds++;
    const timerId = this.ctx.setTimer(this.config.requestTimeoutMs * 1000, {
      owner: 'producer',
      type: 'coordinator-timeout',
      correlationId,
    } satisfies CoordinatorTimer);
    this.coordinatorRequest = { correlationId, kind, timerId, broker };
    this.ctx.send(broker, { ...message, correlationId });
  }

  private scheduleRetry(delayUs: number): void {
    this.retryTimerSet = true;
    this.ctx.setTimer(delayUs, {
      owner: 'producer',
      type: 'coordinator-retry',
    } satisfies CoordinatorTimer);
  }

  /** Retriable coordinator errors retry; NOT_COORDINATOR-like ones find the coordinator again. */
  private retryCoordinatorError(error: KafkaErrorCode, backoffUs: number): boolean {
    if (!isRetriable(error)) return false;
    if (
      error === 'NOT_COORDINATOR' ||
      error === 'COORDINATOR_NOT_AVAILABLE' ||
      error === 'NETWORK_EXCEPTION'
    ) {
      this.coordinator = null;
    }
    this.scheduleRetry(backoffUs);
    return true;
  }

  /** A request timed out or its connection reset: forget the coordinator it went to. */
  private forgetCoordinatorOf(kind: CoordinatorRequestKind): void {
    if (kind === 'TxnOffsetCommit') this.txnOffsets.groupCoordinator = null;
    else if (kind !== 'FindGroupCoordinator') this.coordinator = null;
    if (!this.transactional) this.idempotentInitSent = false;
  }

  private onOffsetsOutcome(outcome: OffsetsOutcome): void {
    switch (outcome.type) {
      case 'progress':
        return;
      case 'retry':
        if (outcome.rediscover === 'group') this.txnOffsets.groupCoordinator = null;
        if (outcome.rediscover === 'transaction') this.coordinator = null;
        return this.scheduleRetry(this.config.retryBackoffMs * 1000);
      case 'abortable':
        return this.abortable(outcome.error);
      case 'fatal':
        return this.fatal(outcome.error);
    }
  }

  private onInitProducerIdResponse(
    error: KafkaErrorCode,
    producerId: number,
    producerEpoch: number,
  ): void {
    if (error === 'NONE') {
      this.producerId = producerId;
      this.producerEpoch = producerEpoch;
      if (this.midTransactionBump) return this.finishMidTransactionBump();
      this.sender.resetSequences();
      if (!this.transactional) return;
      const wasBump = this.state === 'ABORTING_TRANSACTION';
      this.epochBumpRequired = false;
      if (wasBump) {
        this.finishEnd('NONE');
        return;
      }
      this.transition('READY');
      return this.initCall.complete('NONE');
    }
    if (!this.transactional) {
      this.idempotentInitSent = false;
      return;
    }
    if (this.retryCoordinatorError(error, this.config.retryBackoffMs * 1000)) return;
    this.fatal(error === 'INVALID_PRODUCER_EPOCH' ? 'PRODUCER_FENCED' : error);
  }

  private onAddPartitionsResponse(
    results: ReadonlyArray<TopicPartition & { error: KafkaErrorCode }>,
  ): void {
    const failure = results.find((result) => result.error !== 'NONE');
    if (failure === undefined) {
      for (const result of results) {
        const key = partitionKey(result);
        const tp = this.pendingAdds.get(key);
        if (tp !== undefined) this.inTransaction.set(key, tp);
        this.pendingAdds.delete(key);
      }
      return;
    }
    const backoffUs =
      this.inTransaction.size === 0
        ? ADD_PARTITIONS_RETRY_BACKOFF_US
        : this.config.retryBackoffMs * 1000;
    if (this.retryCoordinatorError(failure.error, backoffUs)) return;
    if (
      failure.error === 'PRODUCER_FENCED' ||
      failure.error === 'INVALID_PRODUCER_EPOCH' ||
      failure.error === 'INVALID_TXN_STATE'
    ) {
      this.fatal(failure.error === 'INVALID_TXN_STATE' ? failure.error : 'PRODUCER_FENCED');
      return;
    }
    this.abortable(failure.error);
  }

  private onEndTxnResponse(error: KafkaErrorCode, producerId: number, producerEpoch: number): void {
    if (error === 'NONE' && this.version2) {
      // EndTxn v5 returns the identity to use next; sequences restart at 0 (KIP-890;
      // TransactionCoordinator.endTransaction).
      this.producerId = producerId;
      this.producerEpoch = producerEpoch;
      this.sender.resetSequences();
      this.epochBumpRequired = false;
      this.finishEnd('NONE');
      return;
    }
    if (error === 'NONE') {
      if (this.pendingEnd !== null && !this.pendingEnd.committed && this.epochBumpRequired) {
        this.inTransaction.clear();
        return; // KIP-360: after the abort, bump the epoch with InitProducerId
      }
      this.finishEnd('NONE');
      return;
    }
    if (this.retryCoordinatorError(error, this.config.retryBackoffMs * 1000)) return;
    if (error === 'INVALID_PRODUCER_ID_MAPPING' && this.state === 'COMMITTING_TRANSACTION') {
      this.abortable(error);
      return;
    }
    this.fatal(error === 'INVALID_PRODUCER_EPOCH' ? 'PRODUCER_FENCED' : error);
  }

  private finishEnd(error: KafkaErrorCode): void {
    const pending = this.pendingEnd;
    this.pendingEnd = null;
    this.inTransaction.clear();
    this.pendingAdds.clear();
    this.txnOffsets.reset();
    if (error === 'NONE') this.transition('READY');
    pending?.callback(error);
  }

  /** A batch failed for good (TransactionManager.maybeTransitionToErrorState). */
  private onBatchFailed(
    records: ReadonlyArray<{ callback: (result: SendResult) => void }>,
    error: KafkaErrorCode,
  ): void {
    failRecords(records, error, this);
    if (error === 'TRANSACTION_ABORTABLE' && this.state === 'ABORTING_TRANSACTION') return;
    // An idempotent producer's epoch bump is the sender's (KIP-360; Sender.completeBatch, per
    // partition).
    if (!this.transactional) return;
    // Java's TransactionManager: fencing and "not part of an ongoing transaction" are fatal.
    if (error === 'PRODUCER_FENCED' || error === 'INVALID_TXN_STATE') return this.fatal(error);
    if (this.state === 'ABORTING_TRANSACTION') return;
    this.epochBumpRequired = true;
    this.abortable(error);
  }

  /** librdkafka drained for a bump: abortable then bump (1.8.2), or with #3575 bump now. */
  private onDrainedForBump(error: KafkaErrorCode): boolean {
    if (this.config.client?.bumpWithoutAbort === true) return (this.midTransactionBump = true);
    this.epochBumpRequired = true;
    if (this.state !== 'ABORTING_TRANSACTION') this.abortable(error);
    return false;
  }

  /**
   * librdkafka#3575: the new epoch arrived; the partitions renumber and the application's
   * transaction goes on with its partitions still counted as added (rd_kafka_txn_idemp_state_change
   * does nothing for an ASSIGNED PID in a transaction).
   */
  private finishMidTransactionBump(): void {
    this.midTransactionBump = false;
    this.sender.renumber();
  }

  /**
   * KIP-360: an idempotent producer bumps its epoch locally; the sender restarts the sequences of
   * the partitions that asked for it (Sender.completeBatch).
   */
  private bumpIdempotentEpoch(): void {
    this.producerEpoch += 1;
  }

  private abortable(error: KafkaErrorCode): void {
    if (this.state === 'FATAL_ERROR') return;
    const pending = this.pendingEnd;
    this.lastError = error;
    if (this.state !== 'ABORTABLE_ERROR') this.transition('ABORTABLE_ERROR');
    this.sender.failUnsent(error, false);
    this.pendingAdds.clear();
    this.txnOffsets.failAll(error);
    if (pending !== null && pending.committed) {
      this.pendingEnd = null;
      pending.callback(error);
    }
  }

  private fatal(error: KafkaErrorCode): void {
    if (this.state === 'FATAL_ERROR') return;
    this.lastError = error;
    this.transition('FATAL_ERROR');
    this.sender.failUnsent(error, true);
    this.txnOffsets.failAll(error);
    const pendingEnd = this.pendingEnd;
    this.pendingEnd = null;
    pendingEnd?.callback(error);
    this.initCall.complete(error);
  }

  private transition(target: ClientTransactionState): void {
    assertClientTransition(this.state, target);
    this.ctx.trace(`producer ${this.state} -> ${target}`);
    this.state = target;
  }
}
