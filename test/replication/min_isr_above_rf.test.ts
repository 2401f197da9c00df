/**
 * Goal: pin what a `min.insync.replicas` above the topic's replication factor does, which Kafka
 * accepts without complaint. Kafka 3.7+ (KAFKA-15583, `Partition.effectiveMinIsr`) caps it at
 * the replication factor, so the produces succeed; before 3.7, `Partition.appendRecordsToLeader`
 * compared the ISR with the configured value, so every acks=all produce is refused with
 * NOT_ENOUGH_REPLICAS, nothing is ever appended and the run cannot converge. Method: one
 * idempotent producer (acks=all) on a topic with replication factor 3 and min.insync.replicas 4,
 * run with and without `bugs.KAFKA-15583` (the pre-3.7 rule); the test reads the leader's answers
 * from the run's message log and the log end offset from the report.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';

/** The scenario, with the era's HW rule. */
function scenarioText(strict: boolean): string {
  return `name: min-isr-above-replication-factor
cluster:
  brokers: 3
  topics:
    - name: events
      replication.factor: 3
broker:
  min.insync.replicas: 4
bugs:
  KAFKA-15583: ${!strict}
clients:
  - name: P
    role: producer
    config:
      # KafkaProducer refuses delivery.timeout.ms below linger.ms + request.timeout.ms.
      linger.ms: 0
      delivery.timeout.ms: 30000
    workload:
      sends: 3
      topics: [events]
run:
  duration.ms: 40000
  heal.ms: 10000
  liveness.ms: 10000
`;
}

/** The errors of the leader's ProduceResponses to P, each once, sorted. */
function produceErrors(strict: boolean) {
  const run = runScenario(parseScenario(scenarioText(strict), 'inline/min-isr.yaml'), {
    seed: '1',
  });
  const errors = run.messages
    .filter((entry) => entry.kind === 'ProduceResponse' && entry.target === 'P')
    .map((entry) => entry.error ?? 'NONE');
  return { run, errors: [...new Set(errors)].sort() };
}

describe('min.insync.replicas above the replication factor', () => {
  it('before 3.7: every acks=all produce fails NOT_ENOUGH_REPLICAS and nothing is appended', () => {
    const { run, errors } = produceErrors(false);
    expect(errors).toEqual(['NOT_ENOUGH_REPLICAS']);
    expect(run.report.partitions.map((partition) => partition.logEndOffset)).toEqual([0]);
    expect(run.report.outcome).toBe('liveness');
  });

  it('3.7+: capped at the replication factor, so the produces succeed', () => {
    const { run, errors } = produceErrors(true);
    expect(errors).toEqual(['NONE']);
    expect(run.report.outcome).toBe('pass');
  });
});
