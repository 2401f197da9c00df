/**
 * `nonmonotonic-poll`, Jepsen's definition: one consumer process, polling one partition, delivers
 * in a poll an offset at or below the last offset it delivered in its previous poll of that
 * partition. A Kafka consumer only moves forward unless the application seeks or the group
 * reassigns the partition: the workload's plain pollers never do, and a pipeline's rewind after
 * an abort and its reassignments are recorded as `repositioned` and start a new sequence
 * (`delivery_sequences.ts`); a process that crashed continues as a new process, which starts
 * afresh.
 * Polls and final reads are judged apart (the final reader seeks to 0 once, see
 * `delivery_sequences.ts`), final reads among themselves. Going backwards inside one poll is
 * Jepsen's separate `int-nonmonotonic-poll`, except that an offset of a poll at or below the
 * previous poll's last offset counts wherever it sits in the poll.
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import {
  deliverySequences,
  operationName,
  firstStep,
  lastStep,
  runsByOp,
  type DeliverySequence,
  type DeliveryStep,
} from './delivery_sequences';
import { topicPartitionName } from './topic_partition';

/** Whether the later poll repeated the earlier offset or went below it. */
export type NonmonotonicPollClassification = 'offset-delivered-again' | 'offset-went-backwards';

/**
 * Reports every poll whose delivery went back, one anomaly per (process, partition, poll), at
 * the time of that poll. `offsets` and `values` are the previous poll's last delivery, then the
 * first delivery of this poll at or below it; `offset` and `value` are the latter.
 * @example checkNonmonotonicPoll(new CheckContext(history, oracle))[0]?.offsets // [5, 3]
 */
export function checkNonmonotonicPoll(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  for (const sequence of deliverySequences(context.deliveries)) {
    let previous: DeliveryStep | null = null;
    for (const group of runsByOp(sequence.runs)) {
      const last: DeliveryStep | null = previous;
      // A run's offsets ascend: its first record is the first at or below `last`, if any is.
      const back =
        last === null ? undefined : group.find((run) => run.batch.offset <= last.record.offset);
      if (last !== null && back !== undefined) {
        const later = firstStep(back);
        anomalies.push(nonmonotonicAnomaly(context, { sequence, earlier: last, later }));
      }
      const end = group[group.length - 1];
      previous = end === undefined ? previous : lastStep(end);
    }
  }
  return anomalies;
}

function nonmonotonicAnomaly(
  context: CheckContext,
  found: {
    readonly sequence: DeliverySequence;
    readonly earlier: DeliveryStep;
    readonly later: DeliveryStep;
  },
): Anomaly {
  const { sequence, earlier, later } = found;
  const classification: NonmonotonicPollClassification =
    later.record.offset === earlier.record.offset
      ? 'offset-delivered-again'
      : 'offset-went-backwards';
  const name = operationName(sequence.stream);
  const message =
    `Process ${sequence.process} (client ${later.op.client}) delivered ` +
    `${topicPartitionName(sequence.topic, sequence.partition)} offset ${later.record.offset} ` +
    `(value ${later.record.value}) in a ${name} at ${later.op.timeUs}us after its previous ` +
    `${name} at ${earlier.op.timeUs}us ended at offset ${earlier.record.offset} (value ` +
    `${earlier.record.value}): ${classification}`;
  return {
    kind: 'nonmonotonic-poll',
    message,
    topic: sequence.topic,
    partition: sequence.partition,
    offset: later.record.offset,
    offsets: [earlier.record.offset, later.record.offset],
    value: later.record.value,
    values: [earlier.record.value, later.record.value],
    client: later.op.client,
    process: sequence.process,
    timeUs: later.op.timeUs,
    classification,
    activeFaults: context.activeFaultsAt(later.op.timeUs),
  };
}
