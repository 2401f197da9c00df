/**
 * The records of a `send` operation in either form: one record (`send`) or a run of records
 * that landed in one producer batch (`run`), listed one `SendMicroOp` per record.
 */
import type { SendMicroOp, SendRunValue, SendValue } from './history_types';

/**
 * Every record a `send` operation names, in send order, with its offset when the operation
 * carries one.
 * @example sentRecordsOf(op.value).map((send) => send.value)
 */
export function sentRecordsOf(value: SendValue | SendRunValue): SendMicroOp[] {
  if ('send' in value) return [value.send];
  const { topic, partition, values, offset } = value.run;
  // acks=0 acknowledges without offsets: -1 for every record, as for a single send.
  return values.map((sent, at) =>
    offset === undefined
      ? { topic, partition, value: sent }
      : { topic, partition, value: sent, offset: offset < 0 ? -1 : offset + at },
  );
}

/** How many records a `send` operation names. */
export function sentCount(value: SendValue | SendRunValue): number {
  return 'send' in value ? 1 : value.run.values.length;
}
