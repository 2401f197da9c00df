/**
 * What a consumer makes of one partition's fetch response (Kafka's CompletedFetch,
 * CompletedFetch.nextFetchedRecord; FetchCollector.fetchRecords): control markers are never
 * delivered; under read_committed, batches of transactions listed as aborted are skipped using the
 * producer-id set walk; and the position moves past everything fetched, even when no record is
 * returned.
 */
import type { FetchPartitionResponse, IsolationLevel, LogBatch } from '../protocol';

/** A record delivered to the application. */
export interface ConsumerRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly value: number;
  readonly producerId: number;
  readonly producerEpoch: number;
}

/** Records to deliver and the position after them. */
export interface FilteredFetch {
  readonly records: ConsumerRecord[];
  readonly nextFetchOffset: number;
}

/** Applies CompletedFetch.nextFetchedRecord to one partition's response, starting at `position`. */
export function filterFetchedBatches(
  response: FetchPartitionResponse,
  position: number,
  isolationLevel: IsolationLevel,
): FilteredFetch {
  const aborted = [...(response.abortedTransactions ?? [])].sort((a, b) =>
    a.firstOffset !== b.firstOffset ? a.firstOffset - b.firstOffset : a.producerId - b.producerId,
  );
  const abortedProducerIds = new Set<number>();
  const records: ConsumerRecord[] = [];
  let nextFetchOffset = position;
  let last: LogBatch | undefined;
  for (const batch of response.batches) {
    last = batch;
    if (batch.lastOffset < nextFetchOffset) continue;
    if (isolationLevel === 'read_committed' && batch.producerId >= 0) {
      while (
        aborted.length > 0 &&
        (aborted[0] as { firstOffset: number }).firstOffset <= batch.lastOffset
      ) {
        abortedProducerIds.add((aborted.shift() as { producerId: number }).producerId);
      }
      if (batch.control === 'ABORT') {
        abortedProducerIds.delete(batch.producerId);
      } else if (
        batch.control === undefined &&
        batch.isTransactional &&
        abortedProducerIds.has(batch.producerId)
      ) {
        nextFetchOffset = batch.lastOffset + 1;
        continue;
      }
    }
    if (batch.control !== undefined) {
      nextFetchOffset = batch.lastOffset + 1;
      continue;
    }
    batch.values.forEach((value, index) => {
      const offset = batch.baseOffset + index;
      if (offset < nextFetchOffset) return;
      records.push({
        topic: response.topic,
        partition: response.partition,
        offset,
        value,
        producerId: batch.producerId,
        producerEpoch: batch.producerEpoch,
      });
      nextFetchOffset = offset + 1;
    });
  }
  if (last !== undefined) nextFetchOffset = Math.max(nextFetchOffset, last.lastOffset + 1);
  return { records, nextFetchOffset };
}
