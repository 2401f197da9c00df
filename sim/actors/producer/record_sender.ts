/**
 * The producer's data path (Kafka's Sender and RecordAccumulator, R2.2-R2.3, R2.10): it drains
 * queued records into batches, stamps producerId/epoch/baseSequence on first drain, keeps at most
 * `max.in.flight.requests.per.connection` Produce requests per broker, sends only the head batch
 * of a partition while it is a retry, retries retriable errors until `retries` or
 * `delivery.timeout.ms` run out, and on `request.timeout.ms` drops the connection, failing every
 * request on it with NETWORK_EXCEPTION as Kafka's NetworkClient does.
 */
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage, ProduceResponse, TopicPartition } from '../protocol';
import { NO_SEQUENCE, incrementSequence, isRetriable, partitionKey } from '../protocol';
import { BATCH_RECORDS_MAX, type ProducerConfig } from './producer_config';
import type { PartitionSendState, PendingRecord, ProducerBatch } from './producer_batch';

type Ctx = ActorContext<KafkaMessage>;

/** Errors after which the client refreshes its metadata (Sender.completeBatch). */
const LEADERSHIP_ERRORS = new Set<KafkaErrorCode>([
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'LEADER_NOT_AVAILABLE',
  'NETWORK_EXCEPTION',
]);

/** The identity batches are stamped with, and whether the partition may be sent to now. */
export interface SenderPolicy {
  /** Current producerId/epoch; producerId -1 when not idempotent. */
  identity(): { producerId: number; producerEpoch: number };
  /** Whether new batches of `tp` may be drained now (transaction state, partition added). */
  maySend(tp: TopicPartition): boolean;
  /** A batch failed for good with `error`. */
  onBatchFailed(batch: ProducerBatch, error: KafkaErrorCode): void;
  /** A batch was written; the producer learns its offsets. */
  onBatchSucceeded(batch: ProducerBatch, baseOffset: number): void;
}

/** Timers the sender sets. */
export type SenderTimer =
  | { readonly owner: 'producer'; readonly type: 'produce-timeout'; readonly correlationId: number }
  | { readonly owner: 'producer'; readonly type: 'delivery-expiry'; readonly correlationId: number }
  | { readonly owner: 'producer'; readonly type: 'produce-retry' };

interface InFlightRequest {
  readonly batch: ProducerBatch;
  readonly broker: NodeId;
  readonly timerId: number;
}

/** The data path of one producer. */
export class RecordSender {
  readonly partitions = new Map<string, PartitionSendState>();
  private readonly inFlightPerBroker = new Map<NodeId, number>();
  private readonly requests = new Map<number, InFlightRequest>();

  constructor(
    private readonly config: ProducerConfig,
    private readonly metadata: {
      readonly transactionVersion: number;
      leaderOf(tp: TopicPartition): NodeId | null;
      requestRefresh(): void;
    },
    private readonly policy: SenderPolicy,
    private readonly nextCorrelationId: () => number,
  ) {}

  /** Queues one record for `tp`. */
  enqueue(tp: TopicPartition, record: PendingRecord): void {
    this.stateOf(tp).queue.push(record);
  }

  /** True when nothing is queued, waiting or in flight on any partition. */
  isIdle(): boolean {
    for (const state of this.partitions.values()) {
      if (state.queue.length > 0 || state.retries.length > 0 || state.inFlight.length > 0)
        return false;
    }
    return true;
  }

  /** True when some request is in flight. */
  hasInFlight(): boolean {
    return this.requests.size > 0;
  }

  /**
   * Fails every queued record that was never drained into a batch (Kafka's
   * abortUndrainedBatches). Drained batches carry sequences, so on an abort they still run to
   * completion, or the partition's sequence would have a gap; only a fatal error
   * (`includeDrained`) fails them too.
   */
  failUnsent(error: KafkaErrorCode, includeDrained: boolean): void {
    for (const state of this.partitions.values()) {
      const records = state.queue.splice(0);
      const retries = includeDrained ? state.retries.splice(0) : [];
      for (const batch of retries) this.policy.onBatchFailed(batch, error);
      for (const record of records) {
        record.callback({ error, offset: -1, producerId: -1, producerEpoch: -1 });
      }
    }
  }

  /** Restarts every partition's sequences at 0 (a new producerId or epoch). */
  resetSequences(): void {
    for (const state of this.partitions.values()) {
      state.nextSequence = 0;
      state.lastAckedSequence = NO_SEQUENCE;
    }
  }

  /** Drains and sends whatever may be sent now. */
  sendReady(ctx: Ctx): void {
    for (const state of this.partitions.values()) {
      while (this.sendOne(state, ctx)) {
        // keep draining this partition while there is room
      }
    }
  }

  onProduceResponse(response: ProduceResponse, ctx: Ctx): void {
    const pending = this.requests.get(response.correlationId);
    if (pending === undefined) return;
    if (this.oldestRequestTo(pending.broker) !== response.correlationId) {
      // A connection delivers responses in request order. An older request still unanswered
      // means its response was lost, so the connection is broken: Kafka's NetworkClient fails
      // on the correlation id mismatch and disconnects.
      this.disconnect(pending.broker, ctx);
      return;
    }
    const request = this.takeRequest(response.correlationId, ctx);
    if (request === undefined) return;
    const batch = request.batch;
    if (response.error === 'NONE') {
      const state = this.stateOf(batch.tp);
      if (
        batch.baseSequence !== NO_SEQUENCE &&
        batch.producerEpoch === this.policy.identity().producerEpoch
      ) {
        state.lastAckedSequence = incrementSequence(batch.baseSequence, batch.records.length - 1);
      }
      this.policy.onBatchSucceeded(batch, response.baseOffset);
    } else {
      this.onBatchError(batch, response.error, ctx);
    }
    this.sendReady(ctx);
  }

  onTimer(timer: SenderTimer, ctx: Ctx): void {
    if (timer.type === 'produce-retry') {
      this.sendReady(ctx);
      return;
    }
    const request = this.requests.get(timer.correlationId);
    if (request === undefined) return;
    if (timer.type === 'delivery-expiry') {
      // KIP-91 (Sender.getExpiredInflightBatches): a batch past delivery.timeout.ms fails even
      // while its request is in flight; the request may still reach the broker later, and its
      // answer is ignored (the root of BUG-01/BUG-02, R3.17).
      this.takeRequest(timer.correlationId, ctx);
      this.policy.onBatchFailed(request.batch, 'REQUEST_TIMED_OUT');
      this.sendReady(ctx);
      return;
    }
    // request.timeout.ms: the client closes the connection.
    this.disconnect(request.broker, ctx);
  }

  /** The transport reset the connection to `peer`. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    if (this.oldestRequestTo(peer) !== undefined) this.disconnect(peer, ctx);
  }

  /** Closes the connection to `broker`: every request on it fails with NETWORK_EXCEPTION. */
  private disconnect(broker: NodeId, ctx: Ctx): void {
    for (const [correlationId, request] of [...this.requests]) {
      if (request.broker !== broker) continue;
      this.takeRequest(correlationId, ctx);
      this.onBatchError(request.batch, 'NETWORK_EXCEPTION', ctx);
    }
    this.sendReady(ctx);
  }

  private oldestRequestTo(broker: NodeId): number | undefined {
    for (const [correlationId, request] of this.requests)
      if (request.broker === broker) return correlationId;
    return undefined;
  }

  private takeRequest(correlationId: number, ctx: Ctx): InFlightRequest | undefined {
    const request = this.requests.get(correlationId);
    if (request === undefined) return undefined;
    this.requests.delete(correlationId);
    ctx.cancelTimer(request.timerId);
    this.inFlightPerBroker.set(
      request.broker,
      (this.inFlightPerBroker.get(request.broker) ?? 1) - 1,
    );
    const state = this.stateOf(request.batch.tp);
    const index = state.inFlight.indexOf(request.batch);
    if (index >= 0) state.inFlight.splice(index, 1);
    return request;
  }

  /** R2.10: retry while allowed; an out-of-order reply to a batch not next in line retries too. */
  private onBatchError(batch: ProducerBatch, error: KafkaErrorCode, ctx: Ctx): void {
    if (LEADERSHIP_ERRORS.has(error)) this.metadata.requestRefresh();
    const state = this.stateOf(batch.tp);
    const nextExpected = incrementSequence(state.lastAckedSequence, 1);
    const notNextInLine =
      error === 'OUT_OF_ORDER_SEQUENCE_NUMBER' &&
      batch.baseSequence !== NO_SEQUENCE &&
      batch.baseSequence !== nextExpected;
    const retriable = isRetriable(error) || notNextInLine;
    const withinLimits = batch.attempts <= this.config.retries && ctx.nowUs() < batch.deadlineUs;
    if (!retriable || !withinLimits) {
      this.policy.onBatchFailed(batch, withinLimits ? error : 'REQUEST_TIMED_OUT');
      return;
    }
    batch.inRetry = true;
    batch.retryAfterUs = ctx.nowUs() + this.config.retryBackoffMs * 1000;
    const position = state.retries.findIndex(
      (waiting) => waiting.baseSequence > batch.baseSequence,
    );
    if (position < 0 || batch.baseSequence === NO_SEQUENCE) state.retries.push(batch);
    else state.retries.splice(position, 0, batch);
    ctx.setTimer(this.config.retryBackoffMs * 1000, {
      owner: 'producer',
      type: 'produce-retry',
    } satisfies SenderTimer);
  }

  /** Sends one batch of `state` if the rules allow; returns whether it sent. */
  private sendOne(state: PartitionSendState, ctx: Ctx): boolean {
    const broker = this.metadata.leaderOf(state.tp);
    if (broker === null) {
      if (state.queue.length > 0 || state.retries.length > 0) this.metadata.requestRefresh();
      return false;
    }
    if ((this.inFlightPerBroker.get(broker) ?? 0) >= this.config.maxInFlightRequestsPerConnection)
      return false;
    const identity = this.policy.identity();
    const retry = state.retries[0];
    if (retry !== undefined) {
      // A retry goes alone: nothing else of the partition may be in flight with it (R2.3).
      if (state.inFlight.length > 0 || ctx.nowUs() < retry.retryAfterUs) return false;
      if (ctx.nowUs() >= retry.deadlineUs) {
        state.retries.shift();
        this.policy.onBatchFailed(retry, 'REQUEST_TIMED_OUT');
        return true;
      }
      state.retries.shift();
      if (retry.producerId !== -1 && retry.producerEpoch !== identity.producerEpoch) {
        // The epoch was bumped: the batch is stamped again with fresh sequences (R2.10).
        this.stamp(retry, state, identity);
      }
      this.transmit(retry, broker, ctx);
      return true;
    }
    if (state.queue.length === 0 || !this.policy.maySend(state.tp)) return false;
    if (identity.producerId === -1 && this.config.enableIdempotence) return false;
    if (state.inFlight.some((batch) => batch.producerEpoch !== identity.producerEpoch))
      return false;
    const records = state.queue.splice(0, BATCH_RECORDS_MAX);
    const first = records[0] as PendingRecord;
    const batch: ProducerBatch = {
      tp: state.tp,
      records,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: NO_SEQUENCE,
      isTransactional: this.config.transactionalId !== null,
      attempts: 0,
      inRetry: false,
      retryAfterUs: 0,
      deadlineUs: first.createdUs + this.config.deliveryTimeoutMs * 1000,
    };
    if (this.config.enableIdempotence) this.stamp(batch, state, identity);
    this.transmit(batch, broker, ctx);
    return true;
  }

  private stamp(
    batch: ProducerBatch,
    state: PartitionSendState,
    identity: { producerId: number; producerEpoch: number },
  ): void {
    batch.producerId = identity.producerId;
    batch.producerEpoch = identity.producerEpoch;
    batch.baseSequence = state.nextSequence;
    state.nextSequence = incrementSequence(state.nextSequence, batch.records.length);
  }

  private transmit(batch: ProducerBatch, broker: NodeId, ctx: Ctx): void {
    const correlationId = this.nextCorrelationId();
    batch.attempts += 1;
    const state = this.stateOf(batch.tp);
    state.inFlight.push(batch);
    this.inFlightPerBroker.set(broker, (this.inFlightPerBroker.get(broker) ?? 0) + 1);
    const timerId = ctx.setTimer(this.config.requestTimeoutMs * 1000, {
      owner: 'producer',
      type: 'produce-timeout',
      correlationId,
    } satisfies SenderTimer);
    this.requests.set(correlationId, { batch, broker, timerId });
    const expiryUs = batch.deadlineUs - ctx.nowUs();
    if (expiryUs < this.config.requestTimeoutMs * 1000) {
      ctx.setTimer(Math.max(0, expiryUs), {
        owner: 'producer',
        type: 'delivery-expiry',
        correlationId,
      } satisfies SenderTimer);
    }
    ctx.send(broker, {
      kind: 'Produce',
      correlationId,
      acks: this.config.acks,
      timeoutMs: this.config.requestTimeoutMs,
      transactionalId: this.config.transactionalId,
      transactionVersion:
        this.config.transactionalId === null ? 0 : this.metadata.transactionVersion,
      topic: batch.tp.topic,
      partition: batch.tp.partition,
      batch: {
        producerId: batch.producerId,
        producerEpoch: batch.producerEpoch,
        baseSequence: batch.baseSequence,
        isTransactional: batch.isTransactional,
        values: batch.records.map((record) => record.value),
      },
    });
    if (this.config.acks === 0) {
      // acks=0: no response will come; the batch counts as sent.
      this.takeRequest(correlationId, ctx);
      this.policy.onBatchSucceeded(batch, -1);
    }
  }

  private stateOf(tp: TopicPartition): PartitionSendState {
    const key = partitionKey(tp);
    let state = this.partitions.get(key);
    if (state === undefined) {
      state = {
        tp,
        queue: [],
        retries: [],
        inFlight: [],
        nextSequence: 0,
        lastAckedSequence: NO_SEQUENCE,
      };
      this.partitions.set(key, state);
    }
    return state;
  }
}
