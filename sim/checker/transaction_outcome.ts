/**
 * Transaction outcomes of a partition's records, from the oracle log alone. A transactional data
 * record is decided by the first control marker after it in the same partition with the same
 * producerId: COMMIT means committed, ABORT means aborted, no marker means still open.
 * Non-transactional records are committed on append. The index is built in one backward pass
 * per partition over its batches: walking from the end, keep per producerId the nearest following
 * marker.
 */
import type { OracleBatch, OraclePartition, OracleRecord } from '../history';
import { oracleBatchIndexAt, oracleBatchesOf, oracleRecordOf } from '../history';
import { requireInput } from './input_error';
import { topicPartitionName } from './topic_partition';
import { ValueIndex } from './value_index';

/** What became of a data record's transaction. */
export type TransactionStatus = 'committed' | 'aborted' | 'open';

/** A data record's outcome and the offset of the marker that decided it. */
export interface RecordOutcome {
  readonly status: TransactionStatus;
  /** Offset of the deciding control marker; null when open or non-transactional. */
  readonly markerOffset: number | null;
}

const NON_TRANSACTIONAL: RecordOutcome = { status: 'committed', markerOffset: null };

/**
 * One oracle partition with lookups by offset and by value. Its log is kept as batches: every
 * record of a data batch has the batch's producer and transaction, so outcomes are per batch.
 * @example indexPartition(partition).outcomeAt(4) // { status: 'aborted', markerOffset: 6 }
 */
export class PartitionIndex {
  /** The log, oldest batch first. */
  readonly batches: readonly OracleBatch[];
  /** The outcome of each batch's records (parallel to `batches`); null for control batches. */
  private readonly outcomes: ReadonlyArray<RecordOutcome | null>;
  private values: ValueIndex | null = null;

  constructor(readonly partition: OraclePartition) {
    const name = topicPartitionName(partition.topic, partition.partition);
    if (partition.records !== undefined) requireRecordShapes(partition.records, name);
    this.batches = oracleBatchesOf(partition);
    requireBatchShapes(this.batches, name);
    requireLastStableOffsetOrder(partition, name);
    this.outcomes = batchOutcomes(this.batches);
  }

  /** The record, data or control, at `offset`; undefined when the log does not hold it. */
  recordAt(offset: number): OracleRecord | undefined {
    const batch = this.batches[oracleBatchIndexAt(this.batches, offset)];
    return batch === undefined ? undefined : oracleRecordOf(batch, offset);
  }

  /** The outcome of the data record at `offset`; undefined for a marker or a missing offset. */
  outcomeAt(offset: number): RecordOutcome | undefined {
    return this.outcomes[oracleBatchIndexAt(this.batches, offset)] ?? undefined;
  }

  /** The outcome of every record of `batches[position]`; null for a control batch. */
  outcomeOfBatch(position: number): RecordOutcome | null {
    return this.outcomes[position] ?? null;
  }

  /** The offsets holding data value `value`, ascending. */
  offsetsOf(value: number): readonly number[] {
    this.values ??= new ValueIndex(this.batches);
    return this.values.offsetsOf(value);
  }
}

/**
 * The outcome of each batch, in one backward pass (O(batches)): a transactional data batch is
 * decided by the first control marker after it in the same partition with the same producerId
 * (COMMIT: committed, ABORT: aborted, none: still open); a non-transactional one is committed on
 * append.
 */
function batchOutcomes(batches: readonly OracleBatch[]): Array<RecordOutcome | null> {
  const outcomes = new Array<RecordOutcome | null>(batches.length);
  const nextMarkers = new Map<number, RecordOutcome>();
  for (let position = batches.length - 1; position >= 0; position -= 1) {
    const batch = batches[position] as OracleBatch;
    if (batch.control !== undefined) {
      const status = batch.control === 'COMMIT' ? 'committed' : 'aborted';
      nextMarkers.set(batch.producerId, { status, markerOffset: batch.baseOffset });
      outcomes[position] = null;
    } else if (!batch.isTransactional) {
      outcomes[position] = NON_TRANSACTIONAL;
    } else {
      outcomes[position] = nextMarkers.get(batch.producerId) ?? {
        status: 'open',
        markerOffset: null,
      };
    }
  }
  return outcomes;
}

/** Indexes one oracle partition; throws `CheckerInputError` on a malformed log. */
export function indexPartition(partition: OraclePartition): PartitionIndex {
  return new PartitionIndex(partition);
}

/** A log given per record: markers carry no value, data records do. */
function requireRecordShapes(records: readonly OracleRecord[], name: string): void {
  for (const record of records) {
    const where = `${name}@${record.offset}`;
    if (record.control !== undefined) {
      requireInput(record.value === null, `Oracle marker carries a value: ${where}`);
    } else {
      requireInput(record.value !== null, `Oracle data record has no value: ${where}`);
    }
  }
}

/** Batches in strictly increasing offsets, each as many values as offsets (markers: one, none). */
function requireBatchShapes(batches: readonly OracleBatch[], name: string): void {
  let previous: OracleBatch | undefined;
  for (const batch of batches) {
    requireInput(
      previous === undefined || previous.lastOffset < batch.baseOffset,
      `Oracle offsets must strictly increase: ${name} offset ${batch.baseOffset}`,
    );
    const where = `${name}@${batch.baseOffset}`;
    const offsets = batch.lastOffset - batch.baseOffset + 1;
    if (batch.control !== undefined) {
      requireInput(
        offsets === 1 && batch.values.length === 0,
        `Oracle marker carries a value: ${where}`,
      );
    } else {
      requireInput(
        offsets >= 1 && batch.values.length === offsets,
        `Oracle data batch has ${batch.values.length} values for ${offsets} offsets: ${where}`,
      );
    }
    previous = batch;
  }
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
  const record = index?.recordAt(delivered.offset);
  if (record === undefined || record.control !== undefined) return null;
  return record.value === delivered.value ? record : null;
}
