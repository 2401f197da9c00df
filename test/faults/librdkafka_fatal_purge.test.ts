/**
 * Goal: a librdkafka producer's fatal error is judged by the send that met it, not by the sends
 * it took down with it. rd_kafka_set_fatal_error0 purges the producer's queues (retries waiting
 * to be re-sent included) with the local error _PURGE_QUEUE and leaves the requests in flight to
 * their own answers. Found on the idempotent-librdkafka mutants base
 * (transactions-random-faults.yaml with idempotent librdkafka producers), swarm seeds 884 and
 * 1232, where the purged sends were recorded with the refused batch's
 * OUT_OF_ORDER_SEQUENCE_NUMBER and judged as if their own partitions had refused them (8 and 5
 * false fatal-txn-error). Seed 884: the fatal error is a permitted first-batch-reordered one;
 * the retries on the other partitions end _PURGE_QUEUE and are not counted. Seed 1232: the
 * producer dies in the liveness probe of a refusal after an unclean election truncated the
 * partition (Kafka's own); the probe notes it as stopped instead of waiting 238 s for it.
 * Method: draw the seeds as `sweep --swarm` does on the base `eos-sim mutants` builds.
 */
import { describe, expect, it } from 'vitest';
import { baseByLabel } from '../../cli/mutants';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

const BASE = baseByLabel(
  loadScenario('scenarios/transactions-random-faults.yaml'),
  'idempotent-librdkafka',
).scenario;

function run(seed: string) {
  const { scenario, parameters } = drawSwarm(BASE, seed);
  return runScenario(scenario, { seed, swarm: parameters, messageLog: false });
}

describe('a librdkafka fatal error purges the queues', () => {
  it('swarm seed 884: the purged retries end _PURGE_QUEUE, only the refused batch counts', () => {
    const { report, history } = run('884');
    expect(report.outcome).toBe('pass');
    const fatalAt = 16_361_019;
    const ended = history.filter(
      (op) => op.f === 'send' && op.type !== 'invoke' && op.timeUs === fatalAt,
    );
    const purged = ended.filter((op) => op.error === '_PURGE_QUEUE');
    const refused = ended.filter((op) => op.error === 'OUT_OF_ORDER_SEQUENCE_NUMBER');
    // Retries that had gone out under producerId 2 are among the purged, on other partitions.
    const partitionOf = (op: (typeof ended)[number]) =>
      op.f === 'send' && 'send' in op.value ? op.value.send.partition : -1;
    const purgedRetries = purged.filter((op) => op.f === 'send' && op.value.producerId === 2);
    expect(purgedRetries.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const refusedPartitions = new Set(refused.map(partitionOf));
    expect(purgedRetries.some((op) => !refusedPartitions.has(partitionOf(op)))).toBe(true);
    const fatal = report.check.anomalies.filter((anomaly) => anomaly.kind === 'fatal-txn-error');
    expect(fatal.length).toBeGreaterThan(0);
    for (const anomaly of fatal) {
      expect(anomaly.classification).toBe('first-batch-taken-out-of-order');
    }
  });

  it('swarm seed 1232: a producer dead of a truncation in the probe is noted', () => {
    const { report } = run('1232');
    expect(report.outcome).toBe('pass');
    expect(report.liveness?.detail).toContain(
      'T1 stopped during the probe after the fatal OUT_OF_ORDER_SEQUENCE_NUMBER',
    );
    const kinds = report.check.anomalies.map((anomaly) => anomaly.kind);
    expect(kinds).not.toContain('fatal-txn-error');
  });
});
