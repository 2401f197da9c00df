/**
 * Byte sizes of record batches as Kafka's v2 format lays them out, for the byte limits of a fetch
 * (`fetch.min.bytes`, `fetch.max.bytes`; DelayedFetch.tryComplete counts bytes, not records).
 * A batch is its 61-byte header (DefaultRecordBatch.RECORD_BATCH_OVERHEAD) plus its records, each
 * sized by DefaultRecord.sizeInBytes: a varint length, one attributes byte, the offset and
 * timestamp deltas as varints, the key, the value and a header count.
 *
 * What the model does not keep is sized as follows: a data record's value is the model's integer,
 * 8 bytes as LongSerializer writes it; keys are not kept in the log (a null key, 1 byte); every
 * record of a batch carries the batch's timestamp (delta 0). A control record has Kafka's 4-byte
 * key (version, type) and 6-byte value (version, coordinator epoch; EndTransactionMarker).
 * `__transaction_state` and `__consumer_offsets` records are sized as one data record.
 */
import type { LogBatch } from './records';

/** DefaultRecordBatch.RECORD_BATCH_OVERHEAD: the v2 batch header. */
export const RECORD_BATCH_OVERHEAD = 61;
/** LongSerializer: a data record's value. */
const VALUE_BYTES = 8;
/** EndTransactionMarker: key = version + type (2 shorts), value = version + coordinator epoch. */
const CONTROL_KEY_BYTES = 4;
const CONTROL_VALUE_BYTES = 6;
/** ByteUtils.sizeOfVarint(-1): a null key or value. */
const NULL_VARINT_SIZE_BYTES = 1;

/** ByteUtils.sizeOfVarint: zig-zag encoded, 7 bits a byte. */
export function sizeOfVarint(value: number): number {
  let zigzag = value >= 0 ? value * 2 : -value * 2 - 1;
  let bytes = 1;
  while (zigzag >= 0x80) {
    zigzag = Math.floor(zigzag / 0x80);
    bytes += 1;
  }
  return bytes;
}

/** DefaultRecord.sizeInBytes with timestamp delta 0 and no headers; keySize -1 for null. */
export function recordSizeInBytes(offsetDelta: number, keySize: number, valueSize: number): number {
  const key = keySize < 0 ? NULL_VARINT_SIZE_BYTES : sizeOfVarint(keySize) + keySize;
  const value = sizeOfVarint(valueSize) + valueSize;
  const body = 1 + sizeOfVarint(offsetDelta) + sizeOfVarint(0) + key + value + sizeOfVarint(0);
  return sizeOfVarint(body) + body;
}

/** The bytes a batch occupies in the log and in a fetch response. */
export function batchSizeInBytes(batch: LogBatch): number {
  if (batch.control !== undefined)
    return RECORD_BATCH_OVERHEAD + recordSizeInBytes(0, CONTROL_KEY_BYTES, CONTROL_VALUE_BYTES);
  const records = Math.max(1, batch.lastOffset - batch.baseOffset + 1);
  let size = RECORD_BATCH_OVERHEAD;
  for (let offsetDelta = 0; offsetDelta < records; offsetDelta++)
    size += recordSizeInBytes(offsetDelta, -1, VALUE_BYTES);
  return size;
}
