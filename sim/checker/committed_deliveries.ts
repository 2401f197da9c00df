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
import { oracleOverlaps, someValueMatches } from './delivered_runs';
import { stableOffsetBoundAt } from './last_stable_offset';
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

/**
 * Whether some read_committed delivery may be an aborted read: false when no delivered run has a
 * value the oracle holds at that offset in a batch whose transaction was aborted. Every delivery
 * is looked at, first or not, so false rules out what {@link committedDeliveries} lists.
 */
export function mayReadAborted(context: CheckContext): boolean {
  for (const op of context.deliveries) {
    if (op.value.isolationLevel !== 'read_committed') continue;
    for (const run of op.value.batches) {
      const index = context.partitionIndex(run.topic, run.partition);
      if (index === undefined || run.values.length === 0) continue;
      const last = run.offset + run.values.length - 1;
      for (const overlap of oracleOverlaps(index, run.offset, last)) {
        if (index.outcomeOfBatch(overlap.position)?.status !== 'aborted') continue;
        if (someValueMatches(run, overlap)) return true;
      }
    }
  }
  return false;
}

/**
 * Whether some read_committed delivery may be an uncommitted read: false when every delivered
 * run ends below the last stable offset bound at its poll, and none has a value the oracle holds
 * at that offset in a transactional batch whose transaction was open, or whose marker was
 * appended after the poll.
 */
export function mayReadUncommitted(context: CheckContext): boolean {
  const elections = context.oracle.elections ?? [];
  for (const op of context.deliveries) {
    if (op.value.isolationLevel !== 'read_committed') continue;
    const bounds = new Map<string, number>();
    for (const run of op.value.batches) {
      const index = context.partitionIndex(run.topic, run.partition);
      if (index === undefined || run.values.length === 0) continue;
      const last = run.offset + run.values.length - 1;
      const key = recordKey(run.topic, run.partition, -1);
      let bound = bounds.get(key);
      if (bound === undefined) {
        bound = stableOffsetBoundAt(index.partition, elections, op.timeUs);
        bounds.set(key, bound);
      }
      if (last >= bound) return true;
      for (const overlap of oracleOverlaps(index, run.offset, last)) {
        if (!overlap.batch.isTransactional || overlap.batch.control !== undefined) continue;
        const outcome = index.outcomeOfBatch(overlap.position);
        const marker =
          outcome === null || outcome.markerOffset === null
            ? undefined
            : index.recordAt(outcome.markerOffset);
        const settled = marker !== undefined && marker.appendUs <= op.timeUs;
        if (!settled && someValueMatches(run, overlap)) return true;
      }
    }
  }
  return false;
}
