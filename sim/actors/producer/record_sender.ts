/**
 * The producer's data path (Kafka's Sender and RecordAccumulator, KIP-360;
 * RecordAccumulator.drainBatchesForOneNode, shouldStopDrainBatchesForPartition;
 * Sender.completeBatch): it drains queued records into batches, stamps
 * producerId/epoch/baseSequence on first drain, keeps at most
 * `max.in.flight.requests.per.connection` Produce requests per broker, sends only the head batch of
 * a partition while it is a retry, retries retriable errors until `retries` or
 * `delivery.timeout.ms` run out, and on `request.timeout.ms` drops the connection, failing every
 * request on it with NETWORK_EXCEPTION as Kafka's NetworkClient does.
 *
 * An idempotent producer's epoch bump (KIP-360, TransactionManager `canRetry`,
 * `handleFailedBatch`, `maybeResolveSequences`, `bumpIdempotentProducerEpoch`) is per partition:
 * only the partitions that asked for it have their in-flight batches rewritten from sequence 0
 * under the new epoch; every other partition finishes its in-flight batches, retries included,
 * under the epoch they were stamped with, and drains nothing new until they complete
 * (`maybeUpdateProducerIdAndEpoch`). A batch is never re-stamped when it is retried.
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS, PRODUCE_CONNECTION } from '../protocol';
import { assertInFlightWithin } from './sender_invariants';
import type { KafkaErrorCode, KafkaMessage, ProduceResponse, TopicPartition } from '../protocol';
import { NO_SEQUENCE, incrementSequence, isRetriable, partitionKey } from '../protocol';
import { BATCH_RECORDS_MAX, type ProducerConfig } from './producer_config';
import type { PartitionSendState, PendingRecord, ProducerBatch } from './producer_batch';
import { failRecords, newSendState, produceRequestOf } from './producer_batch';
import * as go from './go_client_rules';
import { Linger } from './linger';
import type { InFlightRequest, SenderPolicy, SenderTimer } from './sender_types';
import * as librdkafkaRules from './client_rules';
import { clientTransactionVersion, isLibrdkafka } from './client_rules';

type Ctx = ActorContext<KafkaMessage>;

/** Errors after which the client refreshes its metadata (InvalidMetadataException's). */
const LEADERSHIP_ERRORS = new Set<KafkaErrorCode>([
  'NOT_LEADER_OR_FOLLOWER',
  'KAFKA_STORAGE_ERROR',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'LEADER_NOT_AVAILABLE',
  'NETWORK_EXCEPTION',
]);

export type { SenderPolicy, SenderTimer } from './sender_types';
export { flushesAccumulator } from './linger';

/** The data path of one producer. */
export class RecordSender {
  readonly partitions = new BoundedMap<string, PartitionSendState>(
    COLLECTION_BOUNDS.clientPartitions,
  );
  private readonly inFlightPerBroker = new BoundedMap<NodeId, number>(
    COLLECTION_BOUNDS.clientBrokers,
  );
  private readonly requests = new BoundedMap<number, InFlightRequest>(
    COLLECTION_BOUNDS.clientRequests,
  );
  /** TransactionManager's epochBumpRequired and partitionsToRewriteSequences. */
  private epochBumpRequired = false;
  private readonly rewritePartitions = new Set<string>();
  /** `produce-retry` timers set and not yet fired. */
  private retryTimersPending = 0;
  /** librdkafka's producer-wide drain before an epoch bump (RD_KAFKA_IDEMP_STATE_DRAIN_BUMP). */
  private drainBumpError: KafkaErrorCode | null = null;
  private awaitingIdentity = false;
  private readonly linger: Linger;

  constructor(
    private readonly config: ProducerConfig,
    private readonly metadata: {
      readonly transactionVersion: number;
      leaderOf(tp: TopicPartition): NodeId | null;
      requestRefresh(): void;
    },
    private readonly policy: SenderPolicy,
    private readonly nextCorrelationId: () => number,
  ) {
    this.linger = new Linger(config.lingerMs ?? 0);
  }

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
   * Fails every queued record never drained into a batch (Kafka's abortUndrainedBatches). Drained
   * batches carry sequences, so on an abort they run to completion, or the partition's sequence
   * would have a gap; a fatal error (`includeDrained`) fails them too (librdkafka: purgeQueues).
   */
  failUnsent(error: KafkaErrorCode, includeDrained: boolean): void {
    for (const state of this.partitions.values()) {
      if (includeDrained && isLibrdkafka(this.config)) {
        librdkafkaRules.purgeQueues(state);
        continue;
      }
      const records = state.queue.splice(0);
      const retries = includeDrained ? state.retries.splice(0) : [];
      for (const batch of retries) this.policy.onBatchFailed(batch, error);
      failRecords(records, error, { producerId: -1, producerEpoch: -1 });
    }
  }

  /**
   * Restarts every partition's sequences at 0 under the producer's current identity (a new
   * producerId from InitProducerId, or the epoch EndTxn v5 returned). Called with nothing in
   * flight (a transaction ends only once its batches are flushed).
   */
  resetSequences(): void {
    const identity = this.policy.identity();
    for (const state of this.partitions.values()) {
      state.nextSequence = 0;
      state.lastAckedSequence = NO_SEQUENCE;
      state.producerId = identity.producerId;
      state.producerEpoch = identity.producerEpoch;
      state.unresolvedNextSequence = NO_SEQUENCE;
    }
    this.epochBumpRequired = false;
    this.rewritePartitions.clear();
  }

  /**
   * Drains and sends whatever may be sent now. Like one pass of Kafka's `Sender.runOnce`, it first
   * resolves sequences and applies a pending idempotent epoch bump; then arms its wakeup.
   */
  sendReady(ctx: Ctx): void {
    if (this.drainBumpError !== null && this.requests.size === 0) this.bumpAfterDrain();
    for (let pass = 0; pass < 2; pass += 1) {
      this.maybeResolveSequences();
      if (this.epochBumpRequired) this.bumpEpoch();
      for (const state of this.partitions.values()) {
        while (this.sendOne(state, ctx)) {
          // keep draining this partition while there is room
        }
      }
      // A batch that expired while draining may have asked for a bump: apply it now.
      if (!this.epochBumpRequired && !this.hasResolvableSequences()) break;
    }
    this.rearmHeldBackRetry(ctx);
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
        batch.producerId === state.producerId &&
        batch.producerEpoch === state.producerEpoch
      ) {
        // TransactionManager.maybeUpdateLastAckedSequence: only ever moves forward.
        const last = incrementSequence(batch.baseSequence, batch.records.length - 1);
        state.lastAckedSequence = Math.max(state.lastAckedSequence, last);
      }
      state.possiblyAckedNext = undefined; // librdkafka: next_ack_seq follows this success
      this.policy.onBatchSucceeded(batch, response.baseOffset);
    } else {
      this.onBatchError(batch, response.error, ctx);
    }
    this.sendReady(ctx);
  }

  onTimer(timer: SenderTimer, ctx: Ctx): void {
    if (timer.type === 'linger') {
      this.linger.onWakeup(ctx.nowUs());
      this.sendReady(ctx);
      return;
    }
    if (timer.type === 'produce-retry') {
      this.retryTimersPending -= 1;
      this.sendReady(ctx);
      this.rearmHeldBackRetry(ctx);
      return;
    }
    const request = this.requests.get(timer.correlationId);
    if (request === undefined) return;
    if (timer.type === 'delivery-expiry') {
      // KIP-91 (Sender.getExpiredInflightBatches): a batch past delivery.timeout.ms fails even
      // while its request is in flight; the request may still reach the broker later, and its
      // answer is ignored (the root of BUG-01/BUG-02, TransactionManager.nextRequest).
      this.takeRequest(timer.correlationId, ctx);
      this.expire(request.batch);
      this.sendReady(ctx);
      return;
    }
    this.disconnect(request.broker, ctx); // request.timeout.ms: the client closes the connection
  }

  /** The transport reset the connection to `peer`. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    if (this.oldestRequestTo(peer) !== undefined) this.disconnect(peer, ctx);
  }

  /** Closes the connection to `broker`: its requests fail (NETWORK_EXCEPTION), held bytes die. */
  private disconnect(broker: NodeId, ctx: Ctx): void {
    ctx.closeConnection(broker, PRODUCE_CONNECTION);
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

  /**
   * KIP-360; Sender.completeBatch (Sender.completeBatch): retry while `retries` and
   * `delivery.timeout.ms` allow and {@link canRetry} says so; otherwise fail the batch, telling
   * {@link failBatch} whether its sequence may be reassigned (only while retries are not exhausted,
   * as Kafka does).
   */
  private onBatchError(batch: ProducerBatch, error: KafkaErrorCode, ctx: Ctx): void {
    if (LEADERSHIP_ERRORS.has(error)) this.metadata.requestRefresh();
    const state = this.stateOf(batch.tp);
    const retriesLeft = batch.attempts <= this.config.retries;
    const keep = go.franzGoKeepsRetrying(batch, error, this.config);
    const withinLimits = keep || (retriesLeft && ctx.nowUs() < batch.deadlineUs);
    if (!withinLimits || !this.canRetry(batch, state, error)) {
      this.failBatch(batch, state, withinLimits ? error : 'REQUEST_TIMED_OUT', retriesLeft);
      return;
    }
    batch.inRetry = true;
    if (isLibrdkafka(this.config))
      librdkafkaRules.librdkafkaOnRetry(batch, state, error, this.config.client);
    batch.retryAfterUs = ctx.nowUs() + this.config.retryBackoffMs * 1000;
    const position = state.retries.findIndex(
      (waiting) => waiting.baseSequence > batch.baseSequence,
    );
    if (position < 0 || batch.baseSequence === NO_SEQUENCE) state.retries.push(batch);
    else state.retries.splice(position, 0, batch);
    this.armRetryTimer(this.config.retryBackoffMs * 1000, ctx);
  }

  private armRetryTimer(delayUs: number, ctx: Ctx): void {
    this.retryTimersPending += 1;
    ctx.setTimer(delayUs, { owner: 'producer', type: 'produce-retry' } satisfies SenderTimer);
  }

  /**
   * No retry timer is pending but a retry still waits out its backoff: the node's clock went back
   * after the backoff was stamped (swarm seed 60 of replicated-random-faults). Kafka's Sender
   * never sleeps past a waiting batch (RecordAccumulator.ready returns the time left as
   * nextReadyCheckDelayMs, the poll timeout of Sender.runOnce), so wake again then. Without a
   * clock jump the last timer fires when every backoff is over, and nothing is armed.
   */
  private rearmHeldBackRetry(ctx: Ctx): void {
    if (this.retryTimersPending > 0) return;
    let waitUs = Infinity;
    for (const state of this.partitions.values()) {
      const retry = state.retries[0];
      if (retry === undefined || state.inFlight.length > 0) continue;
      waitUs = Math.min(waitUs, retry.retryAfterUs - ctx.nowUs());
    }
    if (waitUs > 0 && waitUs !== Infinity) this.armRetryTimer(waitUs, ctx);
  }

  /**
   * TransactionManager.canRetry for an error on `batch`. OUT_OF_ORDER_SEQUENCE_NUMBER on a batch
   * that is not next in line (an earlier one is outstanding) or was already rewritten only
   * retries; on the next-in-line batch of an idempotent producer it is a real gap: request an
   * epoch bump for the partition, then retry. A transactional producer fails the batch.
   */
  private canRetry(
    batch: ProducerBatch,
    state: PartitionSendState,
    error: KafkaErrorCode,
  ): boolean {
    if (error !== 'OUT_OF_ORDER_SEQUENCE_NUMBER' || batch.baseSequence === NO_SEQUENCE)
      return isRetriable(error);
    if (go.saramaRefusesRetry(this.config, error)) return false;
    if (isLibrdkafka(this.config)) {
      const action = librdkafkaRules.librdkafkaOutOfOrder(batch, state, this.config.client);
      if (action === 'fatal') this.policy.onFatal(error);
      if (action === 'retry-and-bump') this.drainBumpError = error;
      return action !== 'fatal';
    }
    const unresolved = state.unresolvedNextSequence !== NO_SEQUENCE;
    const nextInLine = batch.baseSequence === incrementSequence(state.lastAckedSequence, 1);
    if (!unresolved && (batch.sequenceReset || !nextInLine)) return true;
    if (this.config.transactionalId !== null) return false;
    if (!unresolved || batch.baseSequence === state.unresolvedNextSequence)
      this.requestEpochBump(state);
    return true;
  }

  /**
   * Sender.failBatch and TransactionManager.handleFailedBatch: the batch's records fail. An
   * idempotent, non-transactional producer asks for an epoch bump of the partition after
   * OUT_OF_ORDER_SEQUENCE_NUMBER, or when `adjustSequences` (the broker answered an error and
   * retries were not exhausted).
   */
  private failBatch(
    batch: ProducerBatch,
    state: PartitionSendState,
    error: KafkaErrorCode,
    adjustSequences: boolean,
  ): void {
    this.policy.onBatchFailed(batch, error);
    if (!this.idempotentOnly || batch.baseSequence === NO_SEQUENCE) return;
    if (isLibrdkafka(this.config)) return this.librdkafkaGap(error);
    if (go.franzGoFailAll(this.config, batch, state, this.policy, error)) return;
    const sarama = go.saramaAfterFailure(this.config);
    if (sarama !== null) return sarama === 'bump' ? this.requestEpochBump(state) : undefined;
    if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER') return this.requestEpochBump(state);
    if (!adjustSequences) return;
    if (this.config.bumpWithoutWaitingForInFlight !== false) return this.requestEpochBump(state);
    this.markSequenceUnresolved(batch, state);
  }

  /**
   * The fix proposed for KAFKA-14034 (apache/kafka#13796): a failed batch's partition stops
   * draining and its sequence is unresolved up to the end of that batch, so the epoch bump waits
   * in maybeResolveSequences until its earlier batches have completed and cannot be rewritten.
   */
  private markSequenceUnresolved(batch: ProducerBatch, state: PartitionSendState): void {
    const next = incrementSequence(batch.baseSequence, batch.records.length);
    state.unresolvedNextSequence = Math.max(state.unresolvedNextSequence, next);
  }

  /**
   * A batch past `delivery.timeout.ms` fails with a timeout and its sequence is not reassigned; if
   * it had been retried it may be in the log, so its partition becomes unresolved
   * (Sender.sendProducerData, TransactionManager.markSequenceUnresolved,
   * RecordAccumulator.shouldStopDrainBatchesForPartition).
   */
  private expire(batch: ProducerBatch): void {
    this.policy.onBatchFailed(batch, 'REQUEST_TIMED_OUT');
    const state = this.stateOf(batch.tp);
    if (go.franzGoFailAll(this.config, batch, state, this.policy, 'REQUEST_TIMED_OUT')) return;
    if (!batch.inRetry || batch.baseSequence === NO_SEQUENCE) return;
    this.markSequenceUnresolved(batch, state);
  }

  /** librdkafka, failed for good: fatal under `enable.gapless.guarantee` (not for a timeout). */
  private librdkafkaGap(error: KafkaErrorCode): void {
    if (error === 'OUT_OF_ORDER_SEQUENCE_NUMBER') return; // already fatal (librdkafkaOutOfOrder)
    if (this.config.client?.enableGaplessGuarantee === true && error !== 'REQUEST_TIMED_OUT')
      this.policy.onFatal(error);
    else this.drainBumpError = error;
  }

  /** Drained: bump and renumber, or hand the bump to the producer (rd_kafka_idemp_drain_done). */
  private bumpAfterDrain(): void {
    const error = this.drainBumpError as KafkaErrorCode;
    this.drainBumpError = null;
    if (this.config.transactionalId !== null) {
      this.awaitingIdentity = this.policy.onDrainedForBump(error);
      return;
    }
    this.policy.bumpEpoch();
    this.renumber();
  }

  /** librdkafka: every partition renumbers from 0 under the producer's identity. */
  renumber(): void {
    this.awaitingIdentity = false;
    librdkafkaRules.renumberEveryPartition(this.partitions.values(), this.policy.identity());
  }

  private get idempotentOnly(): boolean {
    return this.config.enableIdempotence && this.config.transactionalId === null;
  }

  private requestEpochBump(state: PartitionSendState): void {
    this.epochBumpRequired = true;
    this.rewritePartitions.add(partitionKey(state.tp));
  }

  /** An unresolved partition whose batches have all completed. */
  private hasResolvableSequences(): boolean {
    for (const state of this.partitions.values()) {
      if (state.unresolvedNextSequence !== NO_SEQUENCE && !this.hasBatches(state)) return true;
    }
    return false;
  }

  /** Java's inflightBatchesBySequence: batches sent and not completed, retries included. */
  private hasBatches(state: PartitionSendState): boolean {
    return state.inFlight.length > 0 || state.retries.length > 0;
  }

  /**
   * TransactionManager.maybeResolveSequences: once an unresolved partition has no batch left, it
   * is resolved if the last acknowledged sequence is the one before the next; otherwise an
   * idempotent producer bumps the epoch for it (a transactional one is already abortable).
   */
  private maybeResolveSequences(): void {
    for (const state of this.partitions.values()) {
      if (state.unresolvedNextSequence === NO_SEQUENCE || this.hasBatches(state)) continue;
      const resolved = state.nextSequence === incrementSequence(state.lastAckedSequence, 1);
      if (!resolved && this.idempotentOnly) this.requestEpochBump(state);
      state.unresolvedNextSequence = NO_SEQUENCE;
    }
  }

  /**
   * TransactionManager.bumpIdempotentProducerEpoch: epoch + 1, then the partitions that asked for
   * the bump have their batches (in flight or waiting to retry) rewritten from sequence 0 under
   * the new epoch. The other partitions keep their identity until their batches complete.
   */
  private bumpEpoch(): void {
    this.epochBumpRequired = false;
    this.policy.bumpEpoch();
    const identity = this.policy.identity();
    for (const key of this.rewritePartitions) {
      const state = this.partitions.get(key);
      if (state === undefined) continue;
      const batches = [...state.inFlight, ...state.retries].sort(
        (a, b) => a.baseSequence - b.baseSequence,
      );
      state.nextSequence = 0;
      for (const batch of batches) {
        this.stamp(batch, state, identity);
        batch.sequenceReset = true;
      }
      state.lastAckedSequence = NO_SEQUENCE;
      state.producerId = identity.producerId;
      state.producerEpoch = identity.producerEpoch;
      state.unresolvedNextSequence = NO_SEQUENCE;
    }
    this.rewritePartitions.clear();
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
    const draining = this.drainBumpError !== null || this.awaitingIdentity;
    const hold = { state, broker, requests: this.requests.values(), draining };
    if (isLibrdkafka(this.config) && librdkafkaRules.librdkafkaHolds(hold)) return false;
    const identity = this.policy.identity();
    const retry = state.retries[0];
    if (retry !== undefined) {
      // A retry goes alone: nothing else of the partition may be in flight with it
      // (RecordAccumulator.shouldStopDrainBatchesForPartition).
      const alone = isLibrdkafka(this.config) || state.inFlight.length === 0;
      if (!alone || ctx.nowUs() < retry.retryAfterUs) return false;
      state.retries.shift();
      if (ctx.nowUs() >= retry.deadlineUs && go.mayFail(retry, this.config)) {
        this.expire(retry);
        return true;
      }
      // A retry keeps the producerId, epoch and sequence it was stamped with
      // (RecordAccumulator.drainBatchesForOneNode).
      this.transmit(retry, broker, ctx);
      return true;
    }
    if (state.queue.length === 0 || !this.policy.maySend(state.tp)) return false;
    const flushing = this.policy.flushInProgress();
    if (!this.linger.headBatchSendable(state, flushing, ctx)) return false;
    if (this.config.enableIdempotence && !this.mayDrainNew(state, identity)) return false;
    // The queue as Kafka's accumulator would have batched it: `batch.size` worth of records.
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
      sequenceReset: false,
    };
    if (this.config.enableIdempotence) this.stamp(batch, state, identity);
    this.transmit(batch, broker, ctx);
    return true;
  }

  /**
   * RecordAccumulator.shouldStopDrainBatchesForPartition and maybeUpdateProducerIdAndEpoch: no
   * new batch without a producerId, while the partition still has batches of an older identity
   * in flight, or while its sequences are unresolved; a partition whose old batches completed
   * restarts its sequences at 0 under the current identity.
   */
  private mayDrainNew(
    state: PartitionSendState,
    identity: { producerId: number; producerEpoch: number },
  ): boolean {
    if (identity.producerId === -1) return false;
    const stale =
      state.producerId !== identity.producerId || state.producerEpoch !== identity.producerEpoch;
    if (stale && state.inFlight.length > 0) return false;
    if (state.unresolvedNextSequence !== NO_SEQUENCE) return false;
    if (stale) {
      state.nextSequence = 0;
      state.lastAckedSequence = NO_SEQUENCE;
      state.producerId = identity.producerId;
      state.producerEpoch = identity.producerEpoch;
    }
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
    assertInFlightWithin(this.inFlightPerBroker.get(broker) ?? 0, this.config);
    const timerId = ctx.setTimer(this.config.requestTimeoutMs * 1000, {
      owner: 'producer',
      type: 'produce-timeout',
      correlationId,
    } satisfies SenderTimer);
    this.requests.set(correlationId, { batch, broker, timerId });
    const expiryUs = batch.deadlineUs - ctx.nowUs();
    if (expiryUs < this.config.requestTimeoutMs * 1000 && !go.isFranzGoIdempotent(this.config)) {
      ctx.setTimer(Math.max(0, expiryUs), {
        owner: 'producer',
        type: 'delivery-expiry',
        correlationId,
      } satisfies SenderTimer);
    }
    const transactionVersion = clientTransactionVersion(this.config, this.metadata);
    ctx.send(broker, produceRequestOf(batch, this.config, correlationId, transactionVersion));
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
      state = newSendState(tp);
      this.partitions.set(key, state);
    }
    return state;
  }
}
