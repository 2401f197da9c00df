/**
 * A partition's transaction bookkeeping (ProducerStateManager.ongoingTxns;
 * UnifiedLog.lastStableOffset; TransactionIndex): the ongoing transactions by producerId, the
 * completed ones whose marker is not yet below the high watermark ("unreplicated"), and the
 * aborted-transaction index that read_committed fetches return. It computes the last stable offset:
 * the first offset of any transaction still undecided, capped by the high watermark.
 */
import type { AbortedTransaction } from '../protocol';
import { BoundedMap, pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';

/** An aborted transaction as the index keeps it (Kafka's AbortedTxn). */
export interface AbortedTxn {
  readonly producerId: number;
  readonly firstOffset: number;
  /** The ABORT marker's offset. */
  readonly lastOffset: number;
  /** The LSO when the abort was appended (TransactionIndex). */
  readonly lastStableOffset: number;
}

/** Ongoing, unreplicated and aborted transactions of one partition. */
export class TransactionIndex {
  /** producerId → first offset of its open transaction. */
  readonly ongoing = new BoundedMap<number, number>(COLLECTION_BOUNDS.ongoingTransactions);
  private unreplicated: Array<{ producerId: number; firstOffset: number; lastOffset: number }> = [];
  private readonly aborted: AbortedTxn[] = [];

  /** Forgets everything (before a rebuild from the log). */
  clear(): void {
    this.ongoing.clear();
    this.unreplicated = [];
    this.aborted.length = 0;
  }

  /** A producer's first transactional batch here opens its transaction. */
  open(producerId: number, firstOffset: number): void {
    this.ongoing.set(producerId, firstOffset);
  }

  /** A marker at `markerOffset` completes the producer's open transaction. */
  complete(done: {
    producerId: number;
    firstOffset: number;
    markerOffset: number;
    committed: boolean;
  }): void {
    this.ongoing.delete(done.producerId);
    pushWithin(COLLECTION_BOUNDS.unreplicatedTransactions, this.unreplicated, {
      producerId: done.producerId,
      firstOffset: done.firstOffset,
      lastOffset: done.markerOffset,
    });
    if (done.committed) return;
    let earliestOtherOngoing = done.markerOffset + 1;
    for (const firstOffset of this.ongoing.values()) {
      earliestOtherOngoing = Math.min(earliestOtherOngoing, firstOffset);
    }
    pushWithin(COLLECTION_BOUNDS.abortedTransactions, this.aborted, {
      producerId: done.producerId,
      firstOffset: done.firstOffset,
      lastOffset: done.markerOffset,
      lastStableOffset: earliestOtherOngoing,
    });
  }

  /** Completed transactions leave the unstable set once their marker is below the HW. */
  onHighWatermark(highWatermark: number): void {
    if (this.unreplicated.length === 0) return;
    this.unreplicated = this.unreplicated.filter((txn) => txn.lastOffset >= highWatermark);
  }

  /** LSO = firstUnstableOffset when below the HW, else the HW (UnifiedLog.lastStableOffset). */
  lastStableOffset(highWatermark: number, logStartOffset: number): number {
    let firstUnstable = Number.POSITIVE_INFINITY;
    for (const firstOffset of this.ongoing.values())
      firstUnstable = Math.min(firstUnstable, firstOffset);
    for (const txn of this.unreplicated) firstUnstable = Math.min(firstUnstable, txn.firstOffset);
    if (firstUnstable === Number.POSITIVE_INFINITY) return highWatermark;
    firstUnstable = Math.max(firstUnstable, logStartOffset);
    return firstUnstable < highWatermark ? firstUnstable : highWatermark;
  }

  /**
   * Index entries with lastOffset >= fetchOffset and firstOffset < upperBound
   * (LocalLog.collectAbortedTransactions).
   */
  abortedOverlapping(fetchOffset: number, upperBound: number): AbortedTransaction[] {
    const overlapping: AbortedTransaction[] = [];
    for (const txn of this.aborted) {
      if (txn.lastOffset >= fetchOffset && txn.firstOffset < upperBound) {
        overlapping.push({ producerId: txn.producerId, firstOffset: txn.firstOffset });
      }
    }
    return overlapping;
  }
}
