/**
 * The offsets of one group (Kafka's GroupMetadata offset maps,
 * GroupMetadata.prepareTxnOffsetCommit): the committed offset per partition with the log offset of
 * the record that committed it, and the pending transactional offsets per producer id. A pending
 * offset is invisible to OffsetFetch (requireStable answers UNSTABLE_OFFSET_COMMIT while one exists
 * for the partition); a COMMIT marker from its producer makes it the committed offset unless the
 * committed one was appended later (the comparison is by append offset, Kafka's
 * CommitRecordMetadataAndOffset.olderThan); ABORT discards it.
 */
import type { TopicPartition } from '../protocol';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import { partitionKey } from '../protocol';

/** A committed or pending offset. */
export interface StoredOffset {
  readonly topic: string;
  readonly partition: number;
  /** The next offset the group reads. */
  readonly offset: number;
  readonly commitTimestampUs: number;
  /**
   * Kafka's OffsetAndMetadata.expireTimestamp (ms): set only for an offset loaded from a v1
   * record with an expire timestamp (offset_expiration.ts); such an offset expires at that time,
   * whatever the group's state (the pre-KIP-211 rule). Absent: KIP-211's rule.
   */
  readonly expireTimestampMs?: number;
  /** The `__consumer_offsets` offset of the record; -1 while not appended (pending only). */
  appendOffset: number;
}

/** The offsets of one group. */
export class OffsetStore {
  private readonly committed = new BoundedMap<string, StoredOffset>(
    COLLECTION_BOUNDS.committedOffsets,
  );
  private readonly pending = new BoundedMap<number, Map<string, StoredOffset>>(
    COLLECTION_BOUNDS.pendingOffsetCommits,
  );

  /** The committed offset of `tp`, or -1 when the group has none. */
  committedOffset(tp: TopicPartition): number {
    return this.committed.get(partitionKey(tp))?.offset ?? -1;
  }

  /** Every committed offset, in first-commit order (oracle, reports). */
  committedOffsets(): StoredOffset[] {
    return [...this.committed.values()];
  }

  /**
   * True when any producer has a pending transactional offset for `tp`
   * (GroupMetadata.prepareTxnOffsetCommit).
   */
  hasPendingTransactional(tp: TopicPartition): boolean {
    const key = partitionKey(tp);
    for (const offsets of this.pending.values()) if (offsets.has(key)) return true;
    return false;
  }

  /** The producer ids with pending transactional offsets, in first-commit order. */
  pendingProducers(): number[] {
    return [...this.pending.keys()];
  }

  /** The pending offsets of one producer (tests, reports). */
  pendingOf(producerId: number): StoredOffset[] {
    return [...(this.pending.get(producerId)?.values() ?? [])];
  }

  /** A committed offset becomes visible once its record is durable, unless a later one is. */
  commit(offset: StoredOffset): void {
    const key = partitionKey(offset);
    const current = this.committed.get(key);
    if (current === undefined || current.appendOffset < offset.appendOffset) {
      this.committed.set(key, offset);
    }
  }

  /** A tombstone: the committed offset is deleted. */
  delete(tp: TopicPartition): void {
    this.committed.delete(partitionKey(tp));
  }

  /** Kafka's prepareTxnOffsetCommit and onTxnOffsetCommitAppend: the offset is now pending. */
  addPending(producerId: number, offset: StoredOffset): void {
    let offsets = this.pending.get(producerId);
    if (offsets === undefined) {
      offsets = new BoundedMap(COLLECTION_BOUNDS.committedOffsets);
      this.pending.set(producerId, offsets);
    }
    offsets.set(partitionKey(offset), offset);
  }

  /** A transactional tombstone drops the producer's pending offset of `tp`. */
  deletePending(producerId: number, tp: TopicPartition): void {
    this.pending.get(producerId)?.delete(partitionKey(tp));
    if (this.pending.get(producerId)?.size === 0) this.pending.delete(producerId);
  }

  /**
   * Kafka's failedTxnOffsetCommitAppend: the append of these offsets failed, so the ones still
   * without an append offset (or with exactly the failed one) are dropped.
   */
  failPending(producerId: number, offsets: readonly StoredOffset[]): void {
    const pending = this.pending.get(producerId);
    if (pending === undefined) return;
    for (const offset of offsets) {
      const key = partitionKey(offset);
      if (pending.get(key) === offset) pending.delete(key);
    }
    if (pending.size === 0) this.pending.delete(producerId);
  }

  /**
   * GroupMetadata.prepareTxnOffsetCommit, Kafka's completePendingTxnOffsetCommit: the producer's
   * transaction ended. COMMIT materialises each pending offset unless the committed one was
   * appended later; ABORT drops them. Returns how many offsets became committed.
   */
  completeTransaction(producerId: number, committed: boolean): number {
    const pending = this.pending.get(producerId);
    if (pending === undefined) return 0;
    this.pending.delete(producerId);
    if (!committed) return 0;
    let materialised = 0;
    for (const offset of pending.values()) {
      if (offset.appendOffset < 0) continue;
      const current = this.committed.get(partitionKey(offset));
      if (current !== undefined && current.appendOffset > offset.appendOffset) continue;
      this.committed.set(partitionKey(offset), offset);
      materialised += 1;
    }
    return materialised;
  }
}
