/**
 * `read-above-hw`: a consumer delivered a record at an offset at or above the high watermark
 * the partition's leader reported in the last fetch of that poll (the `highWatermark` of the
 * poll's `positions` entry for the partition; no entry or no `highWatermark`, no judgement).
 * Consumers may read only below the high watermark, whatever their isolation level:
 * read_committed reads stop at the last stable offset, which never exceeds it. The workload's
 * consumer sends one fetch per partition per poll, so that high watermark is the one that came
 * with the delivered records. Final reads count too. The classification says whether the final
 * log still holds the record there (`still-in-final-log`) or not (`gone-from-final-log`: the
 * exposed write did not survive).
 */
import type { DeliveredRecord } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import type { DeliveryOp } from './history_index';
import { recordKey, topicPartitionKey, topicPartitionName } from './topic_partition';
import { oracleRecordFor } from './transaction_outcome';
import { recordsOfBatches } from '../history';

/** Whether the final log still holds the record read above the high watermark. */
export type ReadAboveHwClassification = 'still-in-final-log' | 'gone-from-final-log';

/**
 * Reports every delivery at or above its poll's reported high watermark, one anomaly per
 * (consumer client, partition, offset), at the time of its first such delivery.
 * @example checkReadAboveHw(new CheckContext(history, oracle))[0]?.offset
 */
export function checkReadAboveHw(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const reported = new Set<string>();
  for (const op of context.deliveries) {
    const highWatermarks = new Map<string, number>();
    for (const position of op.value.positions) {
      if (position.highWatermark === undefined) continue;
      const key = topicPartitionKey(position.topic, position.partition);
      highWatermarks.set(key, position.highWatermark);
    }
    for (const batch of op.value.batches) {
      const highWatermark = highWatermarks.get(topicPartitionKey(batch.topic, batch.partition));
      // A batch wholly below its high watermark (every batch, normally) is not walked.
      if (highWatermark === undefined) continue;
      if (batch.offset + batch.values.length <= highWatermark) continue;
      for (const record of recordsOfBatches([batch])) {
        if (record.offset < highWatermark) continue;
        const key = recordKey(record.topic, record.partition, record.offset, op.client);
        if (reported.has(key)) continue;
        reported.add(key);
        anomalies.push(readAboveHwAnomaly(context, { op, record, highWatermark }));
      }
    }
  }
  return anomalies;
}

function readAboveHwAnomaly(
  context: CheckContext,
  found: {
    readonly op: DeliveryOp;
    readonly record: DeliveredRecord;
    readonly highWatermark: number;
  },
): Anomaly {
  const { op, record, highWatermark } = found;
  const index = context.partitionIndex(record.topic, record.partition);
  const oracleRecord = oracleRecordFor(index, record);
  const survived: ReadAboveHwClassification =
    oracleRecord === null ? 'gone-from-final-log' : 'still-in-final-log';
  const classification = index === undefined ? null : survived;
  const message =
    `Client ${op.client} (${op.value.isolationLevel}) delivered value ${record.value} at ` +
    `${topicPartitionName(record.topic, record.partition)} offset ${record.offset} in a ` +
    `${op.f} at ${op.timeUs}us, at or above the highWatermark ${highWatermark} its leader ` +
    `reported in the last fetch${classification === null ? '' : `: ${classification}`}`;
  return {
    kind: 'read-above-hw',
    message,
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    value: record.value,
    ...(oracleRecord === null ? {} : { producerId: oracleRecord.producerId }),
    ...(oracleRecord === null ? {} : { producerEpoch: oracleRecord.producerEpoch }),
    client: op.client,
    process: op.process,
    timeUs: op.timeUs,
    ...(classification === null ? {} : { classification }),
    activeFaults: context.activeFaultsAt(op.timeUs),
  };
}
