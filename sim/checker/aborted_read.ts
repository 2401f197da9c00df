/**
 * `aborted-read` (G1a): a read_committed consumer delivered a record whose transaction the oracle
 * shows aborted. read_uncommitted consumers may see aborted data, so they are never reported. The
 * classification says where filtering failed: `aborted-filter-missed` when the record was below the
 * LSO at delivery (the consumer should have dropped it using the fetch's aborted-transaction list,
 * CompletedFetch.nextFetchedRecord), `read-above-last-stable-offset` when the broker served it from
 * at or above the LSO (LocalLog.collectAbortedTransactions).
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { committedDeliveries, mayReadAborted } from './committed_deliveries';
import { stableOffsetBoundAt } from './last_stable_offset';
import { topicPartitionName } from './topic_partition';

/**
 * Reports every record of an aborted transaction delivered to a read_committed consumer, one
 * anomaly per (consumer client, partition, offset), at the time of the delivering operation.
 * @example checkAbortedRead(new CheckContext(history, oracle))[0]?.client // 'reader'
 */
export function checkAbortedRead(context: CheckContext): Anomaly[] {
  // Run against oracle batch first: the per-record pass only when a run may qualify.
  if (!mayReadAborted(context)) return [];
  const anomalies: Anomaly[] = [];
  for (const { op, record, index, oracleRecord } of committedDeliveries(context)) {
    if (index === undefined || oracleRecord === null) continue;
    const outcome = index.outcomeAt(record.offset);
    if (outcome?.status !== 'aborted') continue;
    const elections = context.oracle.elections ?? [];
    const lastStableOffset = stableOffsetBoundAt(index.partition, elections, op.timeUs);
    const classification =
      record.offset < lastStableOffset ? 'aborted-filter-missed' : 'read-above-last-stable-offset';
    const message =
      `read_committed client ${op.client} delivered value ${record.value} at ` +
      `${topicPartitionName(record.topic, record.partition)} offset ${record.offset}, written ` +
      `by producer ${oracleRecord.producerId} epoch ${oracleRecord.producerEpoch} in a ` +
      `transaction aborted by the marker at offset ${outcome.markerOffset ?? -1} ` +
      `(lastStableOffset ${lastStableOffset} at ${op.timeUs}us): ${classification}`;
    anomalies.push({
      kind: 'aborted-read',
      message,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      value: record.value,
      producerId: oracleRecord.producerId,
      producerEpoch: oracleRecord.producerEpoch,
      client: op.client,
      timeUs: op.timeUs,
      classification,
      activeFaults: context.activeFaultsAt(op.timeUs),
    });
  }
  return anomalies;
}
