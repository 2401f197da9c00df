/**
 * `invariant`: the simulator checks cluster invariants during the run (for example
 * `lastStableOffset ≤ highWatermark ≤ logEndOffset`) and records each broken one in the oracle;
 * this checker turns every recorded violation into an anomaly. It sees no history.
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionName } from './topic_partition';

/**
 * One anomaly per `oracle.invariantViolations` entry, in the oracle's order.
 * @example checkInvariant(new CheckContext(history, oracle))[0]?.message
 */
export function checkInvariant(context: CheckContext): Anomaly[] {
  return context.oracle.invariantViolations.map((violation) => {
    const { topic, partition, eventIndex, seed, invariant } = violation;
    const where =
      topic !== undefined && partition !== undefined
        ? ` at ${topicPartitionName(topic, partition)}`
        : violation.transactionalId !== undefined
          ? ` for transactionalId ${violation.transactionalId}`
          : '';
    const event = eventIndex === undefined ? '' : `, event ${eventIndex}`;
    const run = seed === undefined ? '' : ` (seed ${seed})`;
    return {
      kind: 'invariant',
      message:
        `Invariant${invariant === undefined ? '' : ` ${invariant}`} broken${where} at ` +
        `${violation.timeUs}us${event}${run}: ${violation.description}`,
      ...(topic === undefined ? {} : { topic }),
      ...(partition === undefined ? {} : { partition }),
      ...(violation.broker === undefined ? {} : { brokers: [violation.broker] }),
      ...(violation.producerId === undefined ? {} : { producerId: violation.producerId }),
      ...(violation.producerEpoch === undefined ? {} : { producerEpoch: violation.producerEpoch }),
      ...(violation.transactionalId === undefined
        ? {}
        : { transactionalId: violation.transactionalId }),
      ...(invariant === undefined ? {} : { invariant }),
      ...(violation.classification === undefined
        ? {}
        : { classification: violation.classification }),
      ...(eventIndex === undefined ? {} : { eventIndex }),
      ...(seed === undefined ? {} : { seed }),
      timeUs: violation.timeUs,
      activeFaults: context.activeFaultsAt(violation.timeUs),
    };
  });
}
