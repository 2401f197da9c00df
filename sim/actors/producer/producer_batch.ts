/**
 * The producer's batches and per-partition send state (RecordAccumulator and the sequence
 * bookkeeping of TransactionManager, RecordAccumulator.drainBatchesForOneNode,
 * shouldStopDrainBatchesForPartition). A batch gets its producerId, epoch and baseSequence when it
 * is first drained and keeps them across retries.
 */
import {
  NO_SEQUENCE,
  type KafkaErrorCode,
  type ProduceRequest,
  type TopicPartition,
} from '../protocol';
import type { ProducerConfig } from './producer_config';

/**
 * librdkafka's local error for a message purged from the producer's queues
 * (RD_KAFKA_RESP_ERR__PURGE_QUEUE, -152): on a fatal error rd_kafka_set_fatal_error0 purges the
 * queued messages, retries waiting to be re-sent included, but not the requests in flight, whose
 * own answers still come back. The message got no answer of its own; it may have been written
 * by an earlier attempt, so its send is indeterminate.
 */
export const PURGED_FROM_QUEUE = '_PURGE_QUEUE';

/** What a send ended with: a Kafka error code, or librdkafka's purge of its queue. */
export type SendError = KafkaErrorCode | typeof PURGED_FROM_QUEUE;

/** The outcome of one `send()`, handed to its callback. */
export interface SendResult {
  readonly error: SendError;
  /** The record's offset when written, else -1. */
  readonly offset: number;
  readonly producerId: number;
  readonly producerEpoch: number;
}

/** A record waiting in the accumulator. */
export interface PendingRecord {
  readonly value: number;
  readonly callback: (result: SendResult) => void;
  readonly createdUs: number;
}

/** A drained batch, in flight or waiting for a retry. */
export interface ProducerBatch {
  readonly tp: TopicPartition;
  readonly records: readonly PendingRecord[];
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  readonly isTransactional: boolean;
  attempts: number;
  /** Set once the batch was re-enqueued for a retry (ProducerBatch.inRetry). */
  inRetry: boolean;
  /** A retry waits `retry.backoff.ms` after the failure: not sent before this time. */
  retryAfterUs: number;
  /** When `delivery.timeout.ms` expires for it. */
  readonly deadlineUs: number;
  /**
   * Set once an epoch bump rewrote its producerId, epoch and sequence
   * (ProducerBatch.sequenceHasBeenReset): an OUT_OF_ORDER_SEQUENCE_NUMBER on it then only retries.
   */
  sequenceReset: boolean;
  /** franz-go: a broker answered its last request (recBatch.canFailFromLoadErrs). */
  answered?: boolean;
  /** franz-go from v1.20.7: once answered REQUEST_TIMED_OUT or NOT_ENOUGH_REPLICAS_AFTER_APPEND. */
  unsureIfProduced?: boolean;
}

/** What the sender keeps per partition. */
export interface PartitionSendState {
  readonly tp: TopicPartition;
  readonly queue: PendingRecord[];
  /** Batches waiting to be re-sent, lowest sequence first. */
  readonly retries: ProducerBatch[];
  readonly inFlight: ProducerBatch[];
  nextSequence: number;
  lastAckedSequence: number;
  /**
   * librdkafka before 2.3.0 (confluentinc/librdkafka#4438): the next sequence it expects
   * acknowledged (rktp_eos.next_ack_seq) once a possibly persisted error moved it past the
   * failed batch, under that batch's producerId and epoch; cleared by the next success.
   */
  possiblyAckedNext?: { producerId: number; producerEpoch: number; sequence: number } | undefined;
  /**
   * The producerId and epoch the partition's sequences run under (TransactionManager's per
   * partition producerIdAndEpoch); -1 before the first batch. When the producer's epoch moves on,
   * the partition keeps its old identity until its in-flight batches complete
   * (RecordAccumulator.shouldStopDrainBatchesForPartition).
   */
  producerId: number;
  producerEpoch: number;
  /**
   * The sequence that follows a batch which expired after a retry (markSequenceUnresolved), or
   * NO_SEQUENCE: while set, no new batch is drained for the partition (KIP-360;
   * RecordAccumulator.shouldStopDrainBatchesForPartition; Sender.completeBatch).
   */
  unresolvedNextSequence: number;
  /**
   * librdkafka: the partition waits for its in-flight requests to finish before it sends again
   * (rktp_eos.wait_drain, set before a retry).
   */
  waitDrain?: boolean;
}

/** The Produce request that carries `batch` as stamped. */
export function produceRequestOf(
  batch: ProducerBatch,
  config: ProducerConfig,
  correlationId: number,
  transactionVersion: number,
): ProduceRequest {
  return {
    kind: 'Produce',
    correlationId,
    acks: config.acks,
    timeoutMs: config.requestTimeoutMs,
    transactionalId: config.transactionalId,
    transactionVersion,
    topic: batch.tp.topic,
    partition: batch.tp.partition,
    batch: {
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
      baseSequence: batch.baseSequence,
      isTransactional: batch.isTransactional,
      values: batch.records.map((record) => record.value),
    },
  };
}

/** Every record of a written batch learns its offset (-1 under acks=0) and identity. */
export function completeBatch(batch: ProducerBatch, baseOffset: number): void {
  batch.records.forEach((record, index) =>
    record.callback({
      error: 'NONE',
      offset: baseOffset < 0 ? -1 : baseOffset + index,
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
    }),
  );
}

/** Every one of `records` fails with `error`, under `identity` (-1 for records never sent). */
export function failRecords(
  records: ReadonlyArray<{ callback: (result: SendResult) => void }>,
  error: SendError,
  identity: { readonly producerId: number; readonly producerEpoch: number },
): void {
  for (const record of records) {
    const { producerId, producerEpoch } = identity;
    record.callback({ error, offset: -1, producerId, producerEpoch });
  }
}

/** A partition's send state before its first batch. */
export function newSendState(tp: TopicPartition): PartitionSendState {
  return {
    tp,
    queue: [],
    retries: [],
    inFlight: [],
    nextSequence: 0,
    lastAckedSequence: NO_SEQUENCE,
    producerId: -1,
    producerEpoch: -1,
    unresolvedNextSequence: NO_SEQUENCE,
  };
}
