/**
 * The records of a `poll` or `final-read` in both forms: the runs of consecutive offsets the
 * history keeps (`DeliveredBatch`) and one `DeliveredRecord` per record, for readers that need
 * them one at a time. Converting either way keeps the delivery order exactly.
 */
import type { DeliveredBatch, DeliveredRecord, PollValue } from './history_types';

/** The fields of a delivered record that runs are built from. */
interface RecordLike {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly value: number;
}

/**
 * Groups records, in their order, into runs of consecutive offsets of one partition.
 * @example deliveredBatchesOf([{ topic: 't', partition: 0, offset: 4, value: 9 }])
 */
export function deliveredBatchesOf(records: readonly RecordLike[]): DeliveredBatch[] {
  const batches: DeliveredBatch[] = [];
  let topic = '';
  let partition = -1;
  let next = -1;
  let values: number[] = [];
  for (const record of records) {
    if (record.offset !== next || record.partition !== partition || record.topic !== topic) {
      ({ topic, partition } = record);
      values = [];
      batches.push({ topic, partition, offset: record.offset, values });
    }
    values.push(record.value);
    next = record.offset + 1;
  }
  return batches;
}

/** Every record of `batches`, one per offset, in delivery order. */
export function recordsOfBatches(batches: readonly DeliveredBatch[]): DeliveredRecord[] {
  const records: DeliveredRecord[] = [];
  for (const { topic, partition, offset, values } of batches) {
    for (let index = 0; index < values.length; index++) {
      records.push({ topic, partition, offset: offset + index, value: values[index] as number });
    }
  }
  return records;
}

/**
 * Every record a poll delivered, one per record, in delivery order.
 * @example deliveredRecordsOf(op.value).map((record) => record.offset)
 */
export function deliveredRecordsOf(value: Pick<PollValue, 'batches'>): DeliveredRecord[] {
  return recordsOfBatches(value.batches);
}

/** How many records a poll delivered. */
export function deliveredCount(value: Pick<PollValue, 'batches'>): number {
  let count = 0;
  for (const batch of value.batches) count += batch.values.length;
  return count;
}
