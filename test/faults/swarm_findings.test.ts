/**
 * Goal: pin the root causes swarm mode found on the safe replicated configuration, one seed
 * each, so they stay fixed. Method: replay the shrunk reproducers in docs/findings and seeds of
 * `scenarios/replicated-random-faults.yaml` under `--swarm`, and assert the exact outcome and
 * anomalies Kafka gives there.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../runner';

const SAFE = 'scenarios/replicated-random-faults.yaml';
const DUPLICATE_FINDING = 'docs/findings/swarm-duplicate-after-client-restart.yaml';

function runSwarm(seed: string) {
  const { scenario, parameters } = drawSwarm(loadScenario(SAFE), seed);
  return runScenario(scenario, { seed, swarm: parameters });
}

describe('idempotent epoch bump (R2.10, KIP-360)', () => {
  it('rewrites only the partition that asked for the bump; its copies are Kafka-made', () => {
    const { report, oracle } = runScenario(loadScenario(DUPLICATE_FINDING), { seed: '15' });
    // events-0 got OUT_OF_ORDER_SEQUENCE_NUMBER on its next-in-line batch: Java rewrites its
    // in-flight batches, two of them already appended, under epoch 1 (TransactionManager
    // bumpIdempotentProducerEpoch). events-1 had retries in flight under epoch 0: they keep
    // epoch 0 and sequence, so nothing there is written twice.
    expect(report.check.anomalyTypes).toEqual(['epoch-bump-duplicate']);
    expect(report.check.anomalyCounts).toEqual([{ kind: 'epoch-bump-duplicate', count: 30 }]);
    for (const anomaly of report.check.anomalies) {
      expect(anomaly).toMatchObject({ topic: 'events', partition: 0, producerId: 1 });
      expect(anomaly.classification).toBe('rewritten-after-epoch-bump');
    }
    const events1 = oracle.partitions.find((p) => p.topic === 'events' && p.partition === 1);
    const values = (events1?.records ?? []).flatMap((record) =>
      record.value === null ? [] : [record.value],
    );
    expect(values.length).toBeGreaterThan(0);
    expect(new Set(values).size).toBe(values.length);
    expect(report.outcome).toBe('pass');
  });
});

describe('metadata catch-up (KRaft brokers fetch the metadata log)', () => {
  it('swarm seed 15: followers that missed a PartitionChange rejoin the ISR after heal', () => {
    const { report } = runSwarm('15');
    expect(report.liveness).toMatchObject({ converged: true });
    expect(report.check.anomalyTypes).toEqual([]);
    expect(report.outcome).toBe('pass');
    for (const partition of report.partitions) expect(partition.isr).toHaveLength(3);
  });
});
