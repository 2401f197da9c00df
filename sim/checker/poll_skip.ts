/**
 * `poll-skip`, Jepsen's definition read against the final log: one consumer process delivered
 * offsets o1 < o2 of a partition one after the other (within one poll or across polls), and the
 * partition's final log holds, strictly between them, a data record that consumer's isolation level
 * makes visible: any data record for read_uncommitted; for read_committed only records whose
 * transaction committed (non-transactional records count as committed). Control markers and aborted
 * or open transactions are legitimate gaps (FetchCollector.fetchRecords). When the final log no
 * longer holds the delivered value at o1 or at o2 the log changed under the consumer, which is
 * `vanished-read`'s business, so the pair is not judged. Polls and final reads are separate
 * sequences (`delivery_sequences.ts`). The classification follows Jepsen's split: `within-poll`
 * (Jepsen's `int-poll-skip`) or `across-polls`.
 */
import type { OracleBatch, OracleRecord } from '../history';
import { oracleRecordOf } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import {
  deliverySequences,
  firstStep,
  lastStep,
  operationName,
  type DeliverySequence,
  type DeliveryStep,
} from './delivery_sequences';
import { topicPartitionName } from './topic_partition';
import { oracleRecordFor, type PartitionIndex } from './transaction_outcome';

/** Whether the two deliveries came from one operation or from two. */
export type PollSkipClassification = 'within-poll' | 'across-polls';

/** Skipped offsets a message lists before summing up the rest. */
const OFFSETS_LISTED_MAX = 10;

/**
 * Reports every pair of consecutive deliveries that skipped visible records, one anomaly per
 * (process, partition, o1, o2), at the time of the operation that delivered o2. `offsets` and
 * `values` are the skipped records; `offset` and `value` the first of them.
 * @example checkPollSkip(new CheckContext(history, oracle))[0]?.offsets // [1, 2]
 */
export function checkPollSkip(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const reported = new Set<string>();
  for (const sequence of deliverySequences(context.deliveries)) {
    const index = context.partitionIndex(sequence.topic, sequence.partition);
    if (index === undefined) continue;
    // Within a run offsets are consecutive, with nothing between: only the step from one run's
    // last record to the next run's first can skip.
    for (let position = 1; position < sequence.runs.length; position += 1) {
      const previousRun = sequence.runs[position - 1];
      const nextRun = sequence.runs[position];
      if (previousRun === undefined || nextRun === undefined) continue;
      const before = lastStep(previousRun);
      const after = firstStep(nextRun);
      if (before.record.offset + 1 >= after.record.offset) continue;
      if (oracleRecordFor(index, before.record) === null) continue;
      if (oracleRecordFor(index, after.record) === null) continue;
      const skipped = visibleBetween(index, { before, after });
      if (skipped.length === 0) continue;
      const key = JSON.stringify([
        sequence.process,
        sequence.topic,
        sequence.partition,
        before.record.offset,
        after.record.offset,
      ]);
      if (reported.has(key)) continue;
      reported.add(key);
      anomalies.push(pollSkipAnomaly(context, { sequence, before, after, skipped }));
    }
  }
  return anomalies;
}

/** Data records strictly between the two deliveries that the consumer should have seen. */
function visibleBetween(
  index: PartitionIndex,
  pair: { readonly before: DeliveryStep; readonly after: DeliveryStep },
): OracleRecord[] {
  const batches = index.batches;
  const readCommitted = pair.after.op.value.isolationLevel === 'read_committed';
  const from = pair.before.record.offset + 1;
  const until = pair.after.record.offset;
  const visible: OracleRecord[] = [];
  for (let at = firstEndingAtOrAbove(batches, from); at < batches.length; at += 1) {
    const batch = batches[at] as OracleBatch;
    if (batch.baseOffset >= until) break;
    if (batch.control !== undefined) continue;
    if (readCommitted && index.outcomeOfBatch(at)?.status !== 'committed') continue;
    const last = Math.min(batch.lastOffset, until - 1);
    for (let offset = Math.max(batch.baseOffset, from); offset <= last; offset++) {
      visible.push(oracleRecordOf(batch, offset));
    }
  }
  return visible;
}

/** The position of the first batch whose last offset is at or above `offset` (batches ascend). */
function firstEndingAtOrAbove(batches: readonly OracleBatch[], offset: number): number {
  let low = 0;
  let high = batches.length;
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    if ((batches[middle]?.lastOffset ?? Number.MAX_SAFE_INTEGER) < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

function pollSkipAnomaly(
  context: CheckContext,
  found: {
    readonly sequence: DeliverySequence;
    readonly before: DeliveryStep;
    readonly after: DeliveryStep;
    readonly skipped: readonly OracleRecord[];
  },
): Anomaly {
  const { sequence, before, after, skipped } = found;
  const classification: PollSkipClassification =
    before.op === after.op ? 'within-poll' : 'across-polls';
  const offsets = skipped.map((record) => record.offset);
  const values = skipped.map((record) => record.value);
  const listed = offsets.slice(0, OFFSETS_LISTED_MAX).join(', ');
  const unlisted = offsets.length - OFFSETS_LISTED_MAX;
  const more = unlisted > 0 ? ` and ${unlisted} more` : '';
  const isolationLevel = after.op.value.isolationLevel;
  const message =
    `Process ${sequence.process} (client ${after.op.client}, ${isolationLevel}) delivered ` +
    `${topicPartitionName(sequence.topic, sequence.partition)} offset ${before.record.offset} ` +
    `then offset ${after.record.offset} (${operationName(sequence.stream)} at ` +
    `${after.op.timeUs}us), skipping ${skipped.length} record(s) of the final log visible to ` +
    `${isolationLevel} at offsets ${listed}${more}: ${classification}`;
  const first = skipped[0];
  return {
    kind: 'poll-skip',
    message,
    topic: sequence.topic,
    partition: sequence.partition,
    ...(first === undefined ? {} : { offset: first.offset }),
    offsets,
    ...(first === undefined || first.value === null ? {} : { value: first.value }),
    values,
    ...(first === undefined ? {} : { producerId: first.producerId }),
    ...(first === undefined ? {} : { producerEpoch: first.producerEpoch }),
    client: after.op.client,
    process: sequence.process,
    timeUs: after.op.timeUs,
    classification,
    activeFaults: context.activeFaultsAt(after.op.timeUs),
  };
}
