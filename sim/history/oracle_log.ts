/**
 * Reading an oracle log (`OracleLog`): its batches whichever form it was given in, the record at
 * an offset by binary search, and the records of a batch when one entry per offset is needed.
 */
import type { OracleBatch, OracleLog, OracleRecord } from './oracle_types';

const converted = new WeakMap<readonly OracleRecord[], readonly OracleBatch[]>();

/** A log given one record per offset, as batches of one record each. */
function batchesOfRecords(records: readonly OracleRecord[]): readonly OracleBatch[] {
  let batches = converted.get(records);
  if (batches === undefined) {
    batches = records.map((record) => ({
      baseOffset: record.offset,
      lastOffset: record.offset,
      producerId: record.producerId,
      producerEpoch: record.producerEpoch,
      baseSequence: record.sequence,
      isTransactional: record.isTransactional,
      ...(record.control === undefined ? {} : { control: record.control }),
      appendUs: record.appendUs,
      values: record.value === null ? [] : [record.value],
    }));
    converted.set(records, batches);
  }
  return batches;
}

/** The batches of a log, oldest first: `batches`, or `records` one batch per record. */
export function oracleBatchesOf(log: OracleLog): readonly OracleBatch[] {
  if (log.batches !== undefined) return log.batches;
  return log.records === undefined ? [] : batchesOfRecords(log.records);
}

/** The record at `offset` of `batch` (which must hold it). */
export function oracleRecordOf(batch: OracleBatch, offset: number): OracleRecord {
  const { producerId, producerEpoch, isTransactional, appendUs } = batch;
  // The property order of the records the oracle kept before it kept batches, so reports and
  // history files serialise records as they did.
  if (batch.control !== undefined) {
    const control = batch.control;
    return {
      producerId,
      producerEpoch,
      isTransactional,
      appendUs,
      offset,
      value: null,
      sequence: -1,
      control,
    };
  }
  const index = offset - batch.baseOffset;
  return {
    producerId,
    producerEpoch,
    isTransactional,
    appendUs,
    offset,
    value: batch.values[index] as number,
    sequence: batch.baseSequence < 0 ? -1 : batch.baseSequence + index,
  };
}

/** Every record of `batches`, one per offset, in offset order. */
export function oracleRecordsOf(batches: readonly OracleBatch[]): OracleRecord[] {
  const records: OracleRecord[] = [];
  for (const batch of batches) {
    for (let offset = batch.baseOffset; offset <= batch.lastOffset; offset++) {
      records.push(oracleRecordOf(batch, offset));
    }
  }
  return records;
}

/**
 * The position in `batches` (ordered by offset) of the first batch whose last offset is at or
 * above `offset`, `batches.length` when none is (a binary search, as Kafka's offset index lookup
 * is).
 */
export function firstBatchEndingAtOrAbove(batches: readonly OracleBatch[], offset: number): number {
  let low = 0;
  let high = batches.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((batches[middle] as OracleBatch).lastOffset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The position in `batches` (ordered by offset) of the batch holding `offset`, or -1. */
export function oracleBatchIndexAt(batches: readonly OracleBatch[], offset: number): number {
  const at = firstBatchEndingAtOrAbove(batches, offset);
  const batch = batches[at];
  return batch !== undefined && batch.baseOffset <= offset ? at : -1;
}

/** The record at `offset`, or undefined when no batch holds it. */
export function oracleRecordAt(
  batches: readonly OracleBatch[],
  offset: number,
): OracleRecord | undefined {
  const batch = batches[oracleBatchIndexAt(batches, offset)];
  return batch === undefined ? undefined : oracleRecordOf(batch, offset);
}
