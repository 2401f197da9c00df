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
  return context.oracle.invariantViolations.map((violation) => ({
    kind: 'invariant',
    message:
      `Invariant broken at ${topicPartitionName(violation.topic, violation.partition)} at ` +
      `${violation.timeUs}us: ${violation.description}`,
    topic: violation.topic,
    partition: violation.partition,
    timeUs: violation.timeUs,
    activeFaults: context.activeFaultsAt(violation.timeUs),
  }));
}
