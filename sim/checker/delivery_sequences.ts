/**
 * The order in which one consumer process delivered one partition's records, as Jepsen's
 * `poll-skip` and `nonmonotonic-poll` read it. `poll` and `final-read` operations form separate
 * sequences: the final reader seeks every partition back to offset 0 once before its reads, so
 * the first final read legitimately starts below the last poll. A poll that lists a partition as
 * `repositioned` (the application sought it, or the group assigned it anew and the consumer took
 * the committed offset: a pipeline's rewind after an abort, a rebalance) starts a new sequence
 * of that partition: the order holds between reassignments. Only `ok` completions count.
 */
import type { DeliveredRecord } from '../history';
import type { DeliveryOp } from './history_index';
import { recordsOfBatches } from '../history';

/** One delivered record and the operation that delivered it. */
export interface DeliveryStep {
  readonly op: DeliveryOp;
  readonly record: DeliveredRecord;
}

/** Every delivery of one partition to one process, in one stream, in delivery order. */
export interface DeliverySequence {
  readonly process: string;
  readonly topic: string;
  readonly partition: number;
  readonly stream: DeliveryOp['f'];
  /** In history order, and within an operation in the order it listed its records. */
  readonly steps: readonly DeliveryStep[];
}

interface OpenSequence {
  readonly sequence: DeliverySequence;
  readonly steps: DeliveryStep[];
}

/**
 * The delivery sequences of a history, in order of their first delivery.
 * @example deliverySequences(context.deliveries)[0]?.steps.map((step) => step.record.offset)
 */
export function deliverySequences(deliveries: readonly DeliveryOp[]): DeliverySequence[] {
  let sequences = sequencesByDeliveries.get(deliveries);
  if (sequences === undefined) {
    sequences = buildSequences(deliveries);
    sequencesByDeliveries.set(deliveries, sequences);
  }
  return sequences;
}

/** Built once per check: poll-skip and nonmonotonic-poll both walk them (and only read them). */
const sequencesByDeliveries = new WeakMap<readonly DeliveryOp[], DeliverySequence[]>();

function buildSequences(deliveries: readonly DeliveryOp[]): DeliverySequence[] {
  const sequences = new Map<string, OpenSequence>();
  const all: OpenSequence[] = [];
  for (const op of deliveries) {
    // A repositioned partition (seek, new assignment) starts a new sequence from this op on.
    for (const { topic, partition } of op.value.repositioned ?? []) {
      sequences.delete(JSON.stringify([op.process, topic, partition, op.f]));
    }
    for (const batch of op.value.batches) {
      const { topic, partition } = batch;
      const key = JSON.stringify([op.process, topic, partition, op.f]);
      let known = sequences.get(key);
      if (known === undefined) {
        const steps: DeliveryStep[] = [];
        const sequence = { process: op.process, topic, partition, stream: op.f, steps };
        known = { sequence, steps };
        sequences.set(key, known);
        all.push(known);
      }
      for (const record of recordsOfBatches([batch])) known.steps.push({ op, record });
    }
  }
  return all.map((known) => known.sequence);
}

/**
 * Splits a sequence's steps into runs delivered by one operation each, in order.
 * @example stepsByOp(sequence.steps).length // how many operations delivered the partition
 */
export function stepsByOp(steps: readonly DeliveryStep[]): DeliveryStep[][] {
  const runs: DeliveryStep[][] = [];
  for (const step of steps) {
    const current = runs[runs.length - 1];
    if (current !== undefined && current[0]?.op === step.op) current.push(step);
    else runs.push([step]);
  }
  return runs;
}

/**
 * Names a stream's operations for messages.
 * @example operationName('final-read') // 'final read'
 */
export function operationName(stream: DeliveryOp['f']): string {
  return stream === 'poll' ? 'poll' : 'final read';
}
