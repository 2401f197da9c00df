/**
 * When a parked fetch may be answered before its wait ends (Kafka's DelayedFetch.tryComplete):
 * at once if this broker lost leadership of a fetched partition or its epoch was fenced (cases
 * A-E), if the fetch offset is past the offset the fetcher may read to (case F, a truncated
 * leader), if a follower's log diverged (case H), and otherwise once the bytes between each fetch
 * offset and that end offset add up to the request's minimum bytes (case G). The end offset is
 * the log end offset for a follower, the high watermark for a read_uncommitted consumer and the
 * last stable offset for a read_committed one (FetchIsolation). ReplicaManager.fetchMessages parks
 * only what could not be answered on arrival; DelayedFetch.onComplete then reads again, so the
 * answer carries the data, high watermark, LSO and aborted transactions as of its completion.
 */
import type {
  FetchPartition,
  IsolationLevel,
  KafkaErrorCode,
  LogBatch,
  TopicPartition,
} from '../protocol';
import { batchSizeInBytes, firstBatchEndingAtOrAfter, partitionKey } from '../protocol';
import type { PartitionLog } from './partition_log';
import type { PartitionReplica } from './partition_replica';

/** FetchIsolation: how far a fetcher may read. */
export type FetchIsolation = 'LOG_END' | 'HIGH_WATERMARK' | 'TXN_COMMITTED';

/** The isolation of a consumer fetch (FetchIsolation.of). */
export function consumerIsolation(level: IsolationLevel): FetchIsolation {
  return level === 'read_committed' ? 'TXN_COMMITTED' : 'HIGH_WATERMARK';
}

/** What the completion check reads from the broker. */
export interface FetchState {
  readonly replicaOf: (key: string) => PartitionReplica | undefined;
  /** Leadership and epoch fence of a partition (cases A-E); NONE when it may be read. */
  readonly epochError: (
    replica: PartitionReplica | undefined,
    fetch: FetchPartition,
  ) => KafkaErrorCode;
  /** A follower's diverging epoch (case H), or null. */
  readonly diverges: (replica: PartitionReplica, fetch: FetchPartition) => boolean;
}

/** DelayedFetch.tryComplete for the partitions of one parked fetch. */
export function canCompleteFetch(
  partitions: readonly FetchPartition[],
  parked: { readonly isolation: FetchIsolation; readonly minBytes: number },
  state: FetchState,
): boolean {
  let accumulated = 0;
  for (const fetch of partitions) {
    const replica = state.replicaOf(partitionKey(fetch));
    if (replica === undefined || state.epochError(replica, fetch) !== 'NONE') return true;
    const endOffset = fetchEndOffset(replica.log, parked.isolation);
    if (fetch.fetchOffset > endOffset) return true;
    if (parked.isolation === 'LOG_END' && state.diverges(replica, fetch)) return true;
    if (fetch.fetchOffset < endOffset) {
      const missing = parked.minBytes - accumulated;
      accumulated += bytesBetween(replica.log.log, fetch.fetchOffset, endOffset, missing);
    }
    if (accumulated >= parked.minBytes) return true;
  }
  return accumulated >= parked.minBytes;
}

/** The offset a fetcher of this isolation may read to. */
export function fetchEndOffset(log: PartitionLog, isolation: FetchIsolation): number {
  if (isolation === 'LOG_END') return log.logEndOffset;
  return isolation === 'TXN_COMMITTED' ? log.lastStableOffset : log.highWatermark;
}

/**
 * The bytes of the batches from the one holding `from` up to `to` (LogOffsetMetadata.positionDiff
 * of the end offset and the fetch offset); stops counting once `enough` is reached.
 */
export function bytesBetween(
  batches: readonly LogBatch[],
  from: number,
  to: number,
  enough: number,
): number {
  let bytes = 0;
  for (let index = firstBatchEndingAtOrAfter(batches, from); index < batches.length; index++) {
    const batch = batches[index] as LogBatch;
    if (batch.baseOffset >= to || bytes >= enough) break;
    bytes += batchSizeInBytes(batch);
  }
  return bytes;
}

/** The bytes of a fetch answer's records. */
export function responseBytes(partitions: ReadonlyArray<{ batches: readonly LogBatch[] }>): number {
  let bytes = 0;
  for (const partition of partitions)
    for (const batch of partition.batches) bytes += batchSizeInBytes(batch);
  return bytes;
}

/**
 * Whether a follower fetch is answered on arrival (ReplicaManager.fetchMessages): a partition
 * has an error or a diverging epoch, or the records read add up to `minBytes`. `answers` may
 * hold nulls for the partitions an incremental fetch leaves out.
 */
export function mustAnswerNow(
  answers: ReadonlyArray<{
    readonly error: KafkaErrorCode;
    readonly divergingEpoch: unknown;
    readonly batches: readonly LogBatch[];
  } | null>,
  minBytes: number,
): boolean {
  let bytes = 0;
  for (const answer of answers) {
    if (answer === null) continue;
    if (answer.error !== 'NONE' || answer.divergingEpoch !== null) return true;
    for (const batch of answer.batches) bytes += batchSizeInBytes(batch);
  }
  return bytes >= minBytes;
}

/** Whether a partition answer holds an error (ReplicaManager.fetchMessages: errorReadingData). */
export function hasError(partitions: ReadonlyArray<{ error: KafkaErrorCode }>): boolean {
  return partitions.some((partition) => partition.error !== 'NONE');
}

/** The keys a parked fetch watches (TopicPartitionOperationKey). */
export function watchKeys(partitions: readonly TopicPartition[]): ReadonlySet<string> {
  return new Set(partitions.map(partitionKey));
}
