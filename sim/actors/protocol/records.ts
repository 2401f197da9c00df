/**
 * Record batches as the log stores them and fetch responses carry them. A data batch holds one or
 * more record values; a control batch holds exactly one COMMIT or ABORT marker and occupies one
 * offset (TransactionMarkerChannelManager.addTxnMarkersToSend). Sequences are per batch:
 * `baseSequence` is the first record's sequence and the batch covers `recordCount` consecutive
 * sequences (RecordAccumulator.drainBatchesForOneNode).
 */

import type { GroupLogRecord } from './group_log';
import type { TransactionLogRecord } from './transaction_log';

/** `producerId`/`producerEpoch`/`sequence` value meaning "none" (idempotence off, markers). */
export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;

/** Largest sequence before it wraps to 0 (int32). */
export const SEQUENCE_MAX = 2_147_483_647;

/**
 * Largest producer epoch (int16); epochs at or above 32766 are exhausted
 * (TransactionMetadata.isEpochExhausted).
 */
export const PRODUCER_EPOCH_MAX = 32_767;

/** Kafka's `DefaultRecordBatch.incrementSequence`: adds with int32 wrap-around to 0. */
export function incrementSequence(sequence: number, increment: number): number {
  if (sequence > SEQUENCE_MAX - increment) return increment - (SEQUENCE_MAX - sequence) - 1;
  return sequence + increment;
}

/** A batch as a producer sends it. */
export interface ProducedBatch {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly isTransactional: boolean;
  /** Record values, one per record. */
  readonly values: readonly number[];
  /** Set on a `__transaction_state` record written by a transaction coordinator. */
  readonly transactionLog?: TransactionLogRecord;
  /** Set on a `__consumer_offsets` record written by a group coordinator (one record). */
  readonly groupLog?: GroupLogRecord;
}

/** A batch in a partition's log. */
export interface LogBatch {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly isTransactional: boolean;
  /** Set on control batches. */
  readonly control?: 'COMMIT' | 'ABORT';
  /** The coordinator epoch a marker was written under. */
  readonly coordinatorEpoch?: number;
  /** Data record values; empty for a control batch. */
  readonly values: readonly number[];
  /** Set on a `__transaction_state` record (one record, value 0 in `values`). */
  readonly transactionLog?: TransactionLogRecord;
  /** Set on a `__consumer_offsets` record written by a group coordinator (one record). */
  readonly groupLog?: GroupLogRecord;
  /** LogAppendTime in virtual microseconds. */
  readonly appendUs: number;
  /**
   * The leader epoch the batch was appended under (partitionLeaderEpoch, UnifiedLog.append;
   * LeaderEpochFileCache.assign).
   */
  readonly leaderEpoch: number;
}

/** The last sequence of a batch, wrapping like Kafka. */
export function lastSequenceOf(batch: {
  baseSequence: number;
  values: readonly unknown[];
}): number {
  if (batch.baseSequence === NO_SEQUENCE) return NO_SEQUENCE;
  return incrementSequence(batch.baseSequence, batch.values.length - 1);
}

/**
 * The index of the first batch of `batches` (ordered by offset) whose last offset is at or
 * after `offset`: the batch holding `offset`, or the first one after it; `batches.length` when
 * none (a binary search, as UnifiedLog's segment and offset-index lookups are).
 */
export function firstBatchEndingAtOrAfter(batches: readonly LogBatch[], offset: number): number {
  let low = 0;
  let high = batches.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((batches[middle] as LogBatch).lastOffset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
