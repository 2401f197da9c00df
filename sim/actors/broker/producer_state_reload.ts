/**
 * Producer and transaction state rebuilt from a log after a truncation or a crash: the state
 * is volatile and follows from the batches alone (ProducerStateManager.truncateAndReload).
 */
import { NO_PRODUCER_ID, lastSequenceOf, type LogBatch } from '../protocol';
import {
  emptyEntry,
  recordDataBatch,
  recordMarker,
  type ProducerStateEntry,
} from './producer_state';
import type { TransactionIndex } from './transaction_index';

/**
 * Applies one batch to producer and transaction state without validation (ProducerAppendInfo;
 * ProducerStateManager.truncateAndReload).
 */
export function replayBatch(
  batch: LogBatch,
  producers: Map<number, ProducerStateEntry>,
  transactions: TransactionIndex,
): void {
  if (batch.producerId === NO_PRODUCER_ID) return;
  const entry = producers.get(batch.producerId) ?? emptyEntry(batch.producerId);
  producers.set(batch.producerId, entry);
  if (batch.control !== undefined) {
    const firstOffset = entry.currentTxnFirstOffset;
    const marker = {
      producerEpoch: Math.max(entry.producerEpoch, batch.producerEpoch),
      coordinatorEpoch: batch.coordinatorEpoch ?? 0,
      appendUs: batch.appendUs,
    };
    recordMarker(entry, marker);
    if (firstOffset !== -1) {
      transactions.complete({
        producerId: batch.producerId,
        firstOffset,
        markerOffset: batch.baseOffset,
        committed: batch.control === 'COMMIT',
      });
    }
    return;
  }
  recordDataBatch(entry, {
    producerEpoch: Math.max(entry.producerEpoch, batch.producerEpoch),
    metadata: {
      firstSequence: batch.baseSequence,
      lastSequence: lastSequenceOf(batch),
      firstOffset: batch.baseOffset,
      lastOffset: batch.lastOffset,
    },
    appendUs: batch.appendUs,
  });
  if (batch.isTransactional && entry.currentTxnFirstOffset === -1) {
    entry.currentTxnFirstOffset = batch.baseOffset;
    transactions.open(batch.producerId, batch.baseOffset);
  }
}
