/**
 * `uncommitted-read`: a read_committed consumer delivered, at time t, a record at offset o of a
 * partition whose LSO at t (the last recorded change at or before t, 0 before any) did not yet
 * cover it: o ≥ LSO(t), or the record is transactional and its completing marker is absent or was
 * appended only after t (its transaction was still open when it was read). The marker itself may
 * sit above LSO(t): another producer's transaction, open from an offset between the record and the
 * marker, holds the LSO there while this one is already decided (UnifiedLog.lastStableOffset). Each
 * partition is judged on its own: the transient cross-partition skew of KIP-98 is allowed.
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import type { CommittedDelivery } from './committed_deliveries';
import { committedDeliveries, mayReadUncommitted } from './committed_deliveries';
import { stableOffsetBoundAt } from './last_stable_offset';
import { topicPartitionName } from './topic_partition';

/** Why a read_committed delivery was not yet stable. */
export type UncommittedReadClassification =
  'above-last-stable-offset' | 'transaction-open' | 'marker-after-read';

/**
 * Reports every read_committed delivery of a record not yet stable, one anomaly per (consumer
 * client, partition, offset), at the time of the delivering operation.
 * @example checkUncommittedRead(new CheckContext(history, oracle))[0]?.classification
 */
export function checkUncommittedRead(context: CheckContext): Anomaly[] {
  // Run against oracle batch first: the per-record pass only when a run may qualify.
  if (!mayReadUncommitted(context)) return [];
  const anomalies: Anomaly[] = [];
  for (const delivery of committedDeliveries(context)) {
    const { op, record, index, oracleRecord } = delivery;
    if (index === undefined) continue;
    const elections = context.oracle.elections ?? [];
    const lastStableOffset = stableOffsetBoundAt(index.partition, elections, op.timeUs);
    const classification = classify(delivery, lastStableOffset);
    if (classification === null) continue;
    const writer =
      oracleRecord === null
        ? ''
        : `, written by producer ${oracleRecord.producerId} epoch ${oracleRecord.producerEpoch}`;
    const marker = index.outcomeAt(record.offset)?.markerOffset ?? null;
    const message =
      `read_committed client ${op.client} delivered value ${record.value} at ` +
      `${topicPartitionName(record.topic, record.partition)} offset ${record.offset}${writer}, ` +
      `at ${op.timeUs}us when lastStableOffset was ${lastStableOffset} and the completing ` +
      `marker was ${marker === null ? 'absent' : `at offset ${marker}`}: ${classification}`;
    anomalies.push({
      kind: 'uncommitted-read',
      message,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      value: record.value,
      ...(oracleRecord === null ? {} : { producerId: oracleRecord.producerId }),
      ...(oracleRecord === null ? {} : { producerEpoch: oracleRecord.producerEpoch }),
      client: op.client,
      timeUs: op.timeUs,
      classification,
      activeFaults: context.activeFaultsAt(op.timeUs),
    });
  }
  return anomalies;
}

/** Null when the delivery was stable, else why it was not. */
function classify(
  delivery: CommittedDelivery,
  lastStableOffset: number,
): UncommittedReadClassification | null {
  const { record, index, oracleRecord } = delivery;
  if (record.offset >= lastStableOffset) return 'above-last-stable-offset';
  // Without the oracle record the delivery cannot be tied to a transaction; only the
  // position test above applies.
  if (oracleRecord === null || !oracleRecord.isTransactional) return null;
  const outcome = index?.outcomeAt(record.offset);
  if (outcome === undefined || outcome.markerOffset === null) return 'transaction-open';
  const marker = index?.recordAt(outcome.markerOffset);
  return marker !== undefined && marker.appendUs > delivery.op.timeUs ? 'marker-after-read' : null;
}
