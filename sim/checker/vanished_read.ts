/**
 * `vanished-read`: a consumer delivered a record (in a `poll` or `final-read` ok operation) whose
 * value the partition's final log no longer holds at any offset: it was read, then truncated away
 * from every replica that mattered. The oracle's truncations say which replica removed it, when,
 * why and after which election (`truncation_cause.ts`); `no-truncation-recorded` when none did
 * (an oracle without truncations, or a record the broker served that no log ever held). A
 * partition the oracle does not hold is not judged.
 */
import type { DeliveredRecord } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { oracleHoldsRun } from './delivered_runs';
import type { DeliveryOp } from './history_index';
import { topicPartitionName } from './topic_partition';
import type { PartitionIndex } from './transaction_outcome';
import {
  describeTruncationCause,
  explainTruncation,
  type TruncationClassification,
} from './truncation_cause';
import { recordsOfBatches } from '../history';

/** Why a delivered record left the final log. */
export type VanishedReadClassification = TruncationClassification | 'no-truncation-recorded';

/**
 * Reports every delivered record absent from its partition's final log, one anomaly per
 * (partition, offset, value), at the time of its first delivery, naming the client that
 * delivered it first and, in `brokers`, the replica whose truncation removed it.
 * @example checkVanishedRead(new CheckContext(history, oracle))[0]?.classification
 */
export function checkVanishedRead(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const reported = new Set<string>();
  for (const op of context.deliveries) {
    for (const batch of op.value.batches) {
      const index = context.partitionIndex(batch.topic, batch.partition);
      if (index === undefined) continue;
      // A run the final log holds as it was delivered holds every value; otherwise a record
      // object only for a value the final log no longer holds.
      if (oracleHoldsRun(index, batch)) continue;
      const gone = batch.values.some((value) => index.offsetsOf(value).length === 0);
      if (!gone) continue;
      for (const record of recordsOfBatches([batch])) {
        if (index.offsetsOf(record.value).length > 0) continue;
        const key = JSON.stringify([record.topic, record.partition, record.offset, record.value]);
        if (reported.has(key)) continue;
        reported.add(key);
        anomalies.push(vanishedAnomaly(context, { op, record, index }));
      }
    }
  }
  return anomalies;
}

function vanishedAnomaly(
  context: CheckContext,
  found: {
    readonly op: DeliveryOp;
    readonly record: DeliveredRecord;
    readonly index: PartitionIndex;
  },
): Anomaly {
  const { op, record, index } = found;
  const cause = explainTruncation(context.replicationIndex, record);
  const classification: VanishedReadClassification =
    cause?.classification ?? 'no-truncation-recorded';
  const why = cause === null ? 'no recorded truncation removed it' : describeTruncationCause(cause);
  const message =
    `Client ${op.client} delivered value ${record.value} at ` +
    `${topicPartitionName(record.topic, record.partition)} offset ${record.offset} ` +
    `(${op.f}, ${op.value.isolationLevel}, ${op.timeUs}us), but the final log no longer ` +
    `holds it (${describeFinalOffset(index, record.offset)}): ${why}: ${classification}`;
  return {
    kind: 'vanished-read',
    message,
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    value: record.value,
    ...(cause === null ? {} : { producerId: cause.record.producerId }),
    ...(cause === null ? {} : { producerEpoch: cause.record.producerEpoch }),
    ...(cause === null ? {} : { brokers: [cause.truncation.broker] }),
    client: op.client,
    timeUs: op.timeUs,
    classification,
    activeFaults: context.activeFaultsAt(op.timeUs),
  };
}

/** What the final log holds at the delivered offset now, for messages. */
function describeFinalOffset(index: PartitionIndex, offset: number): string {
  const now = index.recordAt(offset);
  if (now === undefined) return `offset ${offset} now holds nothing`;
  if (now.control !== undefined) return `offset ${offset} now holds a ${now.control} marker`;
  return `offset ${offset} now holds value ${now.value ?? 'none'}`;
}
