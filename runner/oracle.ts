/**
 * Builds the oracle from the brokers' real state at the end of a run: every partition's log
 * expanded to one entry per offset, its offsets and their history, the coordinators' epoch
 * grants, the faults and the invariants found broken.
 */
import type { Broker, LogBatch } from '../sim/actors';
import type { FaultInterval, Oracle, OraclePartition, OracleRecord } from '../sim/history';

function expand(batch: LogBatch): OracleRecord[] {
  const common = {
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    isTransactional: batch.isTransactional,
    appendUs: batch.appendUs,
  };
  if (batch.control !== undefined) {
    return [
      { ...common, offset: batch.baseOffset, value: null, sequence: -1, control: batch.control },
    ];
  }
  return batch.values.map((value, index) => ({
    ...common,
    offset: batch.baseOffset + index,
    value,
    sequence: batch.baseSequence < 0 ? -1 : batch.baseSequence + index,
  }));
}

/** The oracle of a finished run. */
export function buildOracle(
  brokers: ReadonlyArray<{ id: string; broker: Broker }>,
  faults: readonly FaultInterval[],
): Oracle {
  const partitions: OraclePartition[] = [];
  const invariantViolations: Array<{
    timeUs: number;
    topic: string;
    partition: number;
    description: string;
  }> = [];
  for (const { id, broker } of brokers) {
    for (const log of broker.partitions.values()) {
      const openTransactions = [...log.openTransactions].map(([producerId, firstOffset]) => ({
        producerId,
        producerEpoch: log.producerState(producerId)?.producerEpoch ?? -1,
        firstOffset,
      }));
      partitions.push({
        topic: log.topic,
        partition: log.partition,
        leader: id,
        logStartOffset: log.logStartOffset,
        logEndOffset: log.logEndOffset,
        highWatermark: log.highWatermark,
        lastStableOffset: log.lastStableOffset,
        records: log.log.flatMap(expand),
        highWatermarkChanges: log.highWatermarkChanges,
        lastStableOffsetChanges: log.lastStableOffsetChanges,
        openTransactions,
      });
      for (const violation of log.invariantViolations) {
        invariantViolations.push({ ...violation, topic: log.topic, partition: log.partition });
      }
    }
  }
  partitions.sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
  const epochGrants = brokers.flatMap(({ broker }) => broker.coordinator.epochGrants);
  epochGrants.sort((a, b) => a.timeUs - b.timeUs || a.producerEpoch - b.producerEpoch);
  return { partitions, epochGrants, faults, invariantViolations };
}
