/**
 * Which `__transaction_state` partitions this broker's coordinator owns, and their cache (Kafka's
 * TransactionStateManager, TransactionStateManager.partitionFor,
 * loadTransactionsForTxnTopicPartition). The coordinator of a transactional.id is the leader of its
 * partition; the coordinator epoch is that partition's leader epoch. When the broker becomes leader
 * the partition is *loading* (COORDINATOR_LOAD_IN_PROGRESS) until the log has been read from its
 * start to its end, the last value per transactional.id winning and a tombstone deleting; when it
 * stops leading, the cache of that partition is dropped (NOT_COORDINATOR).
 */
import type { KafkaErrorCode, TransactionLogRecord } from '../protocol';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import {
  metadataFromLog,
  transactionStatePartitionFor,
  type TransactionMetadata,
} from './transaction_metadata';

/** The cache of one owned partition. */
interface PartitionCache {
  readonly coordinatorEpoch: number;
  loading: boolean;
  readonly transactions: Map<string, TransactionMetadata>;
  /** What the load found removed by a tombstone: the metadata of each id's record before it. */
  tombstoned?: TransactionMetadata[];
}

/** The owned partitions of one coordinator and their transactions. */
export class TransactionStateManager {
  private partitions = new BoundedMap<number, PartitionCache>(
    COLLECTION_BOUNDS.coordinatorPartitions,
  );

  constructor(readonly numPartitions: number) {}

  /**
   * The partition of `__transaction_state` that holds an id (TransactionStateManager.partitionFor).
   */
  partitionFor(transactionalId: string): number {
    return transactionStatePartitionFor(transactionalId, this.numPartitions);
  }

  /**
   * NONE when this coordinator serves the id now, else the error to answer
   * (TransactionStateManager.appendTransactionToLog).
   */
  status(transactionalId: string): KafkaErrorCode {
    const cache = this.partitions.get(this.partitionFor(transactionalId));
    if (cache === undefined) return 'NOT_COORDINATOR';
    return cache.loading ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'NONE';
  }

  /** The metadata of a served id, if it has any. */
  get(transactionalId: string): TransactionMetadata | undefined {
    const cache = this.partitions.get(this.partitionFor(transactionalId));
    return cache === undefined || cache.loading
      ? undefined
      : cache.transactions.get(transactionalId);
  }

  /**
   * Adds fresh metadata for a served id (kept in memory until its first write,
   * TransactionCoordinator.handleInitProducerId).
   */
  put(metadata: TransactionMetadata): void {
    const cache = this.partitions.get(this.partitionFor(metadata.transactionalId));
    if (cache !== undefined && !cache.loading) {
      cache.transactions.set(metadata.transactionalId, metadata);
    }
  }

  /** The coordinator epoch of the partition holding an id; -1 when not served. */
  coordinatorEpochOf(transactionalId: string): number {
    const cache = this.partitions.get(this.partitionFor(transactionalId));
    return cache === undefined || cache.loading ? -1 : cache.coordinatorEpoch;
  }

  /** True when `metadata` is still the live object of its id under `coordinatorEpoch`. */
  isCurrent(metadata: TransactionMetadata, coordinatorEpoch: number): boolean {
    const cache = this.partitions.get(this.partitionFor(metadata.transactionalId));
    return (
      cache !== undefined &&
      !cache.loading &&
      cache.coordinatorEpoch === coordinatorEpoch &&
      cache.transactions.get(metadata.transactionalId) === metadata
    );
  }

  /** Starts loading a partition this broker now leads. False when already at that epoch. */
  beginLoading(partition: number, coordinatorEpoch: number): boolean {
    const cache = this.partitions.get(partition);
    if (cache !== undefined && cache.coordinatorEpoch >= coordinatorEpoch) return false;
    this.partitions.set(partition, {
      coordinatorEpoch,
      loading: true,
      transactions: new BoundedMap(COLLECTION_BOUNDS.transactionalIds),
    });
    return true;
  }

  /**
   * Finishes loading from the partition's records; returns the loaded transactions, or null when
   * the partition was unloaded or reloaded at another epoch meanwhile.
   */
  finishLoading(
    partition: number,
    coordinatorEpoch: number,
    records: readonly TransactionLogRecord[],
  ): TransactionMetadata[] | null {
    const cache = this.partitions.get(partition);
    if (cache === undefined || !cache.loading || cache.coordinatorEpoch !== coordinatorEpoch) {
      return null;
    }
    const tombstoned: TransactionMetadata[] = [];
    for (const record of records) {
      const removed = record.value === null ? cache.transactions.get(record.transactionalId) : null;
      if (removed !== undefined && removed !== null) tombstoned.push(removed);
      if (record.value === null) cache.transactions.delete(record.transactionalId);
      else
        cache.transactions.set(
          record.transactionalId,
          metadataFromLog(record.transactionalId, record.value),
        );
    }
    cache.loading = false;
    cache.tombstoned = tombstoned.filter(
      (metadata) => !cache.transactions.has(metadata.transactionalId),
    );
    return [...cache.transactions.values()];
  }

  /**
   * The ids the last load of `partition` found expired: removed by a tombstone and not written
   * again after it. Kafka's loader drops them the same way, so the next request under such an
   * id's producerId is answered INVALID_PRODUCER_ID_MAPPING, even where the coordinator that
   * wrote the tombstone died before its removal callback ran.
   */
  tombstonedAtLoad(partition: number): readonly TransactionMetadata[] {
    return this.partitions.get(partition)?.tombstoned ?? [];
  }

  /**
   * Each loaded partition with its coordinator epoch and transactions, in partition order of
   * ownership (TransactionStateManager.removeExpiredTransactionalIds walks the cache this way).
   */
  *loadedPartitions(): IterableIterator<{
    partition: number;
    coordinatorEpoch: number;
    transactions: readonly TransactionMetadata[];
  }> {
    for (const [partition, cache] of this.partitions) {
      if (cache.loading) continue;
      yield {
        partition,
        coordinatorEpoch: cache.coordinatorEpoch,
        transactions: [...cache.transactions.values()],
      };
    }
  }

  /** Removes an id's metadata from the cache (its tombstone is durable). */
  remove(metadata: TransactionMetadata): void {
    this.partitions
      .get(this.partitionFor(metadata.transactionalId))
      ?.transactions.delete(metadata.transactionalId);
  }

  /** Drops an owned partition; returns the ids it held. */
  unload(partition: number): string[] {
    const cache = this.partitions.get(partition);
    if (cache === undefined) return [];
    this.partitions.delete(partition);
    return [...cache.transactions.keys()];
  }

  /** Forgets everything (crash). */
  clear(): void {
    this.partitions = new BoundedMap(COLLECTION_BOUNDS.coordinatorPartitions);
  }

  /** Every loaded transaction, by partition then insertion order. */
  *loaded(): IterableIterator<TransactionMetadata> {
    for (const cache of this.partitions.values()) {
      if (!cache.loading) yield* cache.transactions.values();
    }
  }

  /** The partitions this coordinator owns and their epochs (oracle, reports). */
  ownedPartitions(): Array<{ partition: number; coordinatorEpoch: number; loading: boolean }> {
    return [...this.partitions].map(([partition, cache]) => ({
      partition,
      coordinatorEpoch: cache.coordinatorEpoch,
      loading: cache.loading,
    }));
  }
}
