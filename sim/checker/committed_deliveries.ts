/**
 * The deliveries that read_committed promises hold to: every record a `read_committed` consumer
 * delivered in a `poll` or `final-read`, paired with its oracle partition and, when the oracle
 * still holds that value at that offset, its oracle record. A consumer that delivers the same
 * offset again (after a rewind or rebalance) repeats one observation, so each (client, topic,
 * partition, offset) appears once, at its first delivery.
 */
import type { DeliveredRecord, OracleRecord } from '../history';
import type { CheckContext } from './check_context';
import type { DeliveryOp } from './history_index';
import { oracleRecordFor, type PartitionIndex } from './transaction_outcome';
import { recordKey } from './topic_partition';

/** One read_committed delivery with what the oracle knows about it. */
export interface CommittedDelivery {
  readonly op: DeliveryOp;
  readonly record: DeliveredRecord;
  /** The oracle partition; undefined when the oracle does not hold it. */
  readonly index: PartitionIndex | undefined;
  /** The oracle record at that offset with that value; null when there is none. */
  readonly oracleRecord: OracleRecord | null;
}

/**
 * Every first delivery of a record to a read_committed consumer, in history order.
 * @example committedDeliveries(context).filter((delivery) => delivery.oracleRecord === null)
 */
export function committedDeliveries(context: CheckContext): CommittedDelivery[] {
  const deliveries: CommittedDelivery[] = [];
  const seen = new Set<string>();
  for (const op of context.deliveries) {
    if (op.value.isolationLevel !== 'read_committed') continue;
    for (const record of op.value.records) {
      const key = recordKey(record.topic, record.partition, record.offset, op.client);
      if (seen.has(key)) continue;
      seen.add(key);
      const index = context.partitionIndex(record.topic, record.partition);
      deliveries.push({ op, record, index, oracleRecord: oracleRecordFor(index, record) });
    }
  }
  return deliveries;
}
