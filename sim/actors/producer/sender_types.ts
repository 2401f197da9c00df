/**
 * The types the producer's data path (`record_sender.ts`) shares with the producer: what it asks
 * of the producer, the timers it sets, and one request it has in flight.
 */
import type { NodeId } from '../../kernel';
import type { KafkaErrorCode, TopicPartition } from '../protocol';
import type { ProducerBatch } from './producer_batch';

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
  /** KIP-360: an idempotent, non-transactional producer increments its epoch locally. */
  bumpEpoch(): void;
  /** librdkafka: a fatal error (rd_kafka_idemp_set_fatal_error); a bump after a drain. */
  onFatal(error: KafkaErrorCode): void;
  onDrainedForBump(error: KafkaErrorCode): boolean;
  /**
   * Whether every queued batch is sendable whatever `linger.ms` says: a transaction is
   * completing, whose commit or abort flushes the accumulator first
   * (Sender.maybeSendAndPollTransactionalRequest, RecordAccumulator.beginFlush).
   */
  flushInProgress(): boolean;
}

/** Timers the sender sets. */
export type SenderTimer =
  | { readonly owner: 'producer'; readonly type: 'produce-timeout'; readonly correlationId: number }
  | { readonly owner: 'producer'; readonly type: 'delivery-expiry'; readonly correlationId: number }
  | { readonly owner: 'producer'; readonly type: 'produce-retry' }
  | { readonly owner: 'producer'; readonly type: 'linger' };

export interface InFlightRequest {
  readonly batch: ProducerBatch;
  readonly broker: NodeId;
  readonly timerId: number;
}
