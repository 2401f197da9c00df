/**
 * The producer's batches and per-partition send state (RecordAccumulator and the sequence
 * bookkeeping of TransactionManager, RecordAccumulator.drainBatchesForOneNode,
 * shouldStopDrainBatchesForPartition). A batch gets its producerId, epoch and baseSequence when it
 * is first drained and keeps them across retries.
 */
import type { KafkaErrorCode, TopicPartition } from '../protocol';

/** The outcome of one `send()`, handed to its callback. */
export interface SendResult {
  readonly error: KafkaErrorCode;
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
}

/** True when nothing of the partition is queued, waiting for a retry or in flight. */
export function isPartitionIdle(state: PartitionSendState): boolean {
  return state.queue.length === 0 && state.retries.length === 0 && state.inFlight.length === 0;
}
