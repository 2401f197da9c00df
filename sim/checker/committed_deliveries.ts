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
  let deliveries = deliveriesByContext.get(context);
  if (deliveries === undefined) {
    deliveries = firstCommittedDeliveries(context);
    deliveriesByContext.set(context, deliveries);
  }
  return deliveries;
}

/** Built once per check: uncommitted-read and aborted-read both walk them. */
const deliveriesByContext = new WeakMap<CheckContext, CommittedDelivery[]>();

function firstCommittedDeliveries(context: CheckContext): CommittedDelivery[] {
  const deliveries: CommittedDelivery[] = [];
  // The offsets each (client, partition) already delivered: one key per batch, not per record.
  const seen = new Map<string, Set<number>>();
  for (const op of context.deliveries) {
    if (op.value.isolationLevel !== 'read_committed') continue;
    for (const batch of op.value.batches) {
      const { topic, partition } = batch;
      const key = recordKey(topic, partition, -1, op.client);
      let offsets = seen.get(key);
      if (offsets === undefined) seen.set(key, (offsets = new Set<number>()));
      const index = context.partitionIndex(topic, partition);
      batch.values.forEach((value, at) => {
        const offset = batch.offset + at;
        if (offsets.has(offset)) return;
        offsets.add(offset);
        const record = { topic, partition, offset, value };
        deliveries.push({ op, record, index, oracleRecord: oracleRecordFor(index, record) });
      });
    }
  }
  return deliveries;
}
