/**
 * The order in which one consumer process delivered one partition's records, as Jepsen's
 * `poll-skip` and `nonmonotonic-poll` read it. `poll` and `final-read` operations form separate
 * sequences: the final reader seeks every partition back to offset 0 once before its reads, so
 * the first final read legitimately starts below the last poll. A poll that lists a partition as
 * `repositioned` (the application sought it, or the group assigned it anew and the consumer took
 * the committed offset: a pipeline's rewind after an abort, a rebalance) starts a new sequence
 * of that partition: the order holds between reassignments. Only `ok` completions count.
 * A sequence keeps the delivered runs (a fetched batch: consecutive offsets, ascending), not one
 * entry per record; the records of a run are in offset order, so a run's first and last records
 * are all the two checkers need of it.
 */
import type { DeliveredBatch, DeliveredRecord } from '../history';
import type { DeliveryOp } from './history_index';

/** One delivered record and the operation that delivered it. */
export interface DeliveryStep {
  readonly op: DeliveryOp;
  readonly record: DeliveredRecord;
}

/** One delivered run of consecutive offsets (never empty) and the operation that delivered it. */
export interface DeliveryRun {
  readonly op: DeliveryOp;
  readonly batch: DeliveredBatch;
}

/** What one process delivered of one partition, in one stream (`poll` or `final-read`). */
export interface DeliverySequence {
  readonly process: string;
  readonly topic: string;
  readonly partition: number;
  readonly stream: DeliveryOp['f'];
  /** In history order, and within an operation in the order it listed its runs. */
  readonly runs: readonly DeliveryRun[];
}

interface OpenSequence {
  readonly sequence: DeliverySequence;
  readonly runs: DeliveryRun[];
}

/**
 * The delivery sequences of `deliveries`, in the order each began; memoised per array, since
 * two checkers walk them.
 * @example deliverySequences(context.deliveries).map((sequence) => sequence.runs.length)
 */
export function deliverySequences(deliveries: readonly DeliveryOp[]): DeliverySequence[] {
  let sequences = sequencesByDeliveries.get(deliveries);
  if (sequences === undefined) {
    sequences = buildSequences(deliveries);
    sequencesByDeliveries.set(deliveries, sequences);
  }
  return sequences;
}

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
        // Begun even by an empty run, so sequences keep the order they began in.
        const runs: DeliveryRun[] = [];
        const sequence = { process: op.process, topic, partition, stream: op.f, runs };
        known = { sequence, runs };
        sequences.set(key, known);
        all.push(known);
      }
      if (batch.values.length > 0) known.runs.push({ op, batch });
    }
  }
  return all.map((known) => known.sequence);
}

/** The first record of a run, with its operation. */
export function firstStep(run: DeliveryRun): DeliveryStep {
  return stepAt(run, 0);
}

/** The last record of a run, with its operation. */
export function lastStep(run: DeliveryRun): DeliveryStep {
  return stepAt(run, run.batch.values.length - 1);
}

function stepAt(run: DeliveryRun, at: number): DeliveryStep {
  const { topic, partition, offset, values } = run.batch;
  const record = { topic, partition, offset: offset + at, value: values[at] as number };
  return { op: run.op, record };
}

/**
 * Splits a sequence's runs into groups delivered by one operation each, in order.
 * @example runsByOp(sequence.runs).length // how many operations delivered the partition
 */
export function runsByOp(runs: readonly DeliveryRun[]): DeliveryRun[][] {
  const groups: DeliveryRun[][] = [];
  for (const run of runs) {
    const current = groups[groups.length - 1];
    if (current !== undefined && current[0]?.op === run.op) current.push(run);
    else groups.push([run]);
  }
  return groups;
}

/**
 * Names a stream's operations for messages.
 * @example operationName('final-read') // 'final read'
 */
export function operationName(stream: DeliveryOp['f']): string {
  return stream === 'poll' ? 'poll' : 'final read';
}
