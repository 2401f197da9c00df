/**
 * Goal: pin what a `transaction.state.log.min.isr` above the `__transaction_state` replication
 * factor does, which Kafka accepts. The coordinator appends to its log with acks=all and the
 * partition's own `min.insync.replicas`. Kafka 3.7+ caps that at the replication factor
 * (`Partition.effectiveMinIsr`, KAFKA-15583), so transactions work; before 3.7 every append is
 * refused NOT_ENOUGH_REPLICAS, which `TransactionStateManager.appendTransactionToLog` answers
 * as COORDINATOR_NOT_AVAILABLE, so InitProducerId is retried for ever and nothing is written.
 * Method: one transactional producer on a cluster with the state log at replication factor 3
 * and min ISR 4, with and without `bugs.KAFKA-15583` (the pre-3.7 rule); the test reads the
 * coordinator's answers to the producer from the run's message log.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';

function scenarioText(capped: boolean): string {
  return `name: state-log-min-isr-above-replication-factor
cluster:
  brokers: 3
  topics:
    - name: events
      replication.factor: 3
broker:
  transaction.state.log.replication.factor: 3
  transaction.state.log.min.isr: 4
bugs:
  KAFKA-15583: ${!capped}
clients:
  - name: T
    role: producer
    config:
      transactional.id: t1
    workload:
      transactions: 2
      records.per.transaction: 2
      topics: [events]
run:
  duration.ms: 20000
  heal.ms: 10000
  liveness.ms: 10000
`;
}

/** Per response kind the producer T received, the distinct errors, sorted. */
function answersToProducer(capped: boolean) {
  const run = runScenario(parseScenario(scenarioText(capped), 'inline/state-log.yaml'), {
    seed: '1',
  });
  const answers: Record<string, string[]> = {};
  for (const entry of run.messages) {
    if (entry.target !== 'T' || !entry.kind.endsWith('Response')) continue;
    const errors = new Set(answers[entry.kind] ?? []).add(entry.error ?? 'NONE');
    answers[entry.kind] = [...errors].sort();
  }
  return { run, answers };
}

describe('transaction.state.log.min.isr above the state log replication factor', () => {
  it('before 3.7: InitProducerId is answered COORDINATOR_NOT_AVAILABLE for ever', () => {
    const { run, answers } = answersToProducer(false);
    expect(answers).toEqual({ InitProducerIdResponse: ['COORDINATOR_NOT_AVAILABLE'] });
    expect(run.report.partitions.map((partition) => partition.logEndOffset)).toEqual([0]);
    expect(run.report.outcome).toBe('liveness');
  });

  it('3.7+: capped at the replication factor, so both transactions commit', () => {
    const { run, answers } = answersToProducer(true);
    expect(answers['InitProducerIdResponse']).toEqual(['NONE']);
    expect(answers['EndTxnResponse']).toEqual(['NONE']);
    // The workload's two transactions and the liveness probe's, two records and a COMMIT each.
    expect(run.report.partitions.map((partition) => partition.logEndOffset)).toEqual([9]);
    expect(run.report.outcome).toBe('pass');
  });
});
