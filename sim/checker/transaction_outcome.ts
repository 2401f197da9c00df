/**
 * Transaction outcomes of a partition's records, from the oracle log alone. A transactional data
 * record is decided by the first control marker after it in the same partition with the same
 * producerId: COMMIT means committed, ABORT means aborted, no marker means still open.
 * Non-transactional records are committed on append. The index is built in one backward pass
 * per partition, O(n): walking from the end, keep per producerId the nearest following marker.
 */
import type { OraclePartition, OracleRecord } from '../history';
import { requireInput } from './input_error';
import { topicPartitionName } from './topic_partition';

/** What became of a data record's transaction. */
export type TransactionStatus = 'committed' | 'aborted' | 'open';

/** A data record's outcome and the offset of the marker that decided it. */
export interface RecordOutcome {
  readonly status: TransactionStatus;
  /** Offset of the deciding control marker; null when open or non-transactional. */
  readonly markerOffset: number | null;
}

/** One oracle partition with lookups by offset and by value. */
export interface PartitionIndex {
  readonly partition: OraclePartition;
  /** Every record, data and control, by offset. */
  readonly recordsByOffset: ReadonlyMap<number, OracleRecord>;
  /** The outcome of every data record, by offset; control markers have none. */
  readonly outcomes: ReadonlyMap<number, RecordOutcome>;
  /** The offsets holding each data value, ascending. */
  readonly offsetsByValue: ReadonlyMap<number, readonly number[]>;
}

const NON_TRANSACTIONAL: RecordOutcome = { status: 'committed', markerOffset: null };

/**
 * The outcome of every data record of `partition`, by offset. Throws `CheckerInputError` when
 * the offsets do not strictly increase.
 * @example buildTransactionOutcomes(partition).get(4) // { status: 'aborted', markerOffset: 6 }
 */
export function buildTransactionOutcomes(partition: OraclePartition): Map<number, RecordOutcome> {
  const name = topicPartitionName(partition.topic, partition.partition);
  const outcomes = new Map<number, RecordOutcome>();
  const nextMarkers = new Map<number, OracleRecord>();
  const records = partition.records;
  for (let position = records.length - 1; position >= 0; position -= 1) {
    const record = records[position];
    requireInput(record !== undefined, `Oracle record missing: ${name} position ${position}`);
    const previous = records[position - 1];
    requireInput(
      previous === undefined || previous.offset < record.offset,
      `Oracle offsets must strictly increase: ${name} offset ${record.offset}`,
    );
    if (record.control !== undefined) {
      nextMarkers.set(record.producerId, record);
    } else if (!record.isTransactional) {
      outcomes.set(record.offset, NON_TRANSACTIONAL);
    } else {
      outcomes.set(record.offset, outcomeFromMarker(nextMarkers.get(record.producerId)));
    }
  }
  return outcomes;
}

function outcomeFromMarker(marker: OracleRecord | undefined): RecordOutcome {
  if (marker === undefined) return { status: 'open', markerOffset: null };
  const status = marker.control === 'COMMIT' ? 'committed' : 'aborted';
  return { status, markerOffset: marker.offset };
}

/**
 * Indexes one oracle partition: records by offset, outcomes, and offsets by value.
 * @example indexPartition(partition).offsetsByValue.get(17) // [4, 9] for a value written twice
 */
export function indexPartition(partition: OraclePartition): PartitionIndex {
  const name = topicPartitionName(partition.topic, partition.partition);
  const recordsByOffset = new Map<number, OracleRecord>();
  const offsetsByValue = new Map<number, number[]>();
  for (const record of partition.records) {
    recordsByOffset.set(record.offset, record);
    if (record.control !== undefined) {
      const where = `${name}@${record.offset}`;
      requireInput(record.value === null, `Oracle marker carries a value: ${where}`);
      continue;
    }
    const where = `${name}@${record.offset}`;
    requireInput(record.value !== null, `Oracle data record has no value: ${where}`);
    const offsets = offsetsByValue.get(record.value);
    if (offsets === undefined) offsetsByValue.set(record.value, [record.offset]);
    else offsets.push(record.offset);
  }
  requireLastStableOffsetOrder(partition, name);
  const outcomes = buildTransactionOutcomes(partition);
  return { partition, recordsByOffset, outcomes, offsetsByValue };
}

/** `lastStableOffsetAt` binary-searches the changes, so they must be in time order. */
function requireLastStableOffsetOrder(partition: OraclePartition, name: string): void {
  const changes = partition.lastStableOffsetChanges;
  for (let position = 1; position < changes.length; position += 1) {
    const previous = changes[position - 1];
    const change = changes[position];
    requireInput(
      previous !== undefined && change !== undefined && previous.timeUs <= change.timeUs,
      `Oracle lastStableOffsetChanges must be in time order: ${name} entry ${position}`,
    );
  }
}

/**
 * The oracle data record at `offset` if it holds `value`, else null (the offset holds another
 * record, a marker, or nothing: the delivered copy was truncated or never existed).
 * @example oracleRecordFor(index, { offset: 4, value: 17 })
 */
export function oracleRecordFor(
  index: PartitionIndex | undefined,
  delivered: { readonly offset: number; readonly value: number },
): OracleRecord | null {
  const record = index?.recordsByOffset.get(delivered.offset);
  if (record === undefined || record.control !== undefined) return null;
  return record.value === delivered.value ? record : null;
}
