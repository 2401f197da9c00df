/**
 * Goal: prove the invariant `producer-identity-grows` end to end: a coordinator that writes an
 * epoch it already granted in a fresh `__transaction_state` record is reported, with the seed,
 * event index and epoch, while the same run without the mutation is silent. The late answer of a
 * paused coordinator (swarm seed 796, whose record was durable before the newer grants) is in
 * producer_identity.sweep.test.ts: one replay takes several seconds. Method: a short transactional
 * run under transaction version 2 (every EndTxn bumps the epoch, KIP-890), then the same run with a
 * test-only mutation: once, at the fifth EndTxn, the coordinator's in-memory epoch is set one back
 * before it prepares, so its bump writes the epoch of the previous EndTxn again (as a coordinator
 * that lost its last record would).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TransactionCoordinator } from '../../sim/actors';
import type { Anomaly } from '../../sim/checker';
import { runScenario } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';

const SCENARIO = `
name: producer-identity
cluster: { brokers: 3, topics: [{ name: orders, partitions: 1 }] }
broker: { min.insync.replicas: 2 }
protocol: { transaction.version: 2 }
clients:
  - name: PA
    role: producer
    config: { transactional.id: pa }
    workload:
      transactions: 12
      records.per.transaction: 2
      send.interval.ms: 5
      transaction.interval.ms: 20
      topics: [orders]
expect: { anomalies: [] }
run: { duration.ms: 2000, heal.ms: 5000, seeds: 1..1 }
`;

/** The private method the mutation wraps (TransactionCoordinator.prepareEnd). */
type PrepareEnd = (
  metadata: { producerEpoch: number },
  committed: boolean,
  bump: boolean,
  ...rest: unknown[]
) => void;

function identityViolations(anomalies: readonly Anomaly[]) {
  return anomalies.filter(
    (anomaly) => anomaly.kind === 'invariant' && anomaly.invariant === 'producer-identity-grows',
  );
}

describe('producer-identity-grows in a real run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stays silent while every EndTxn bumps the epoch', () => {
    const { report, oracle } = runScenario(parseScenario(SCENARIO, 'inline.yaml'), {
      seed: '1',
      messageLog: false,
    });
    expect(oracle.epochGrants.length).toBeGreaterThan(5);
    expect(report.check.anomalyTypes).toEqual([]);
    expect(report.outcome).toBe('pass');
  });

  it('reports an epoch written again in a new record', () => {
    const prototype = TransactionCoordinator.prototype as unknown as { prepareEnd: PrepareEnd };
    const original = prototype.prepareEnd;
    let ends = 0;
    let regranted = -1;
    vi.spyOn(prototype, 'prepareEnd').mockImplementation(function (
      this: unknown,
      metadata,
      committed,
      bump,
      ...rest
    ) {
      ends += 1;
      if (ends === 5 && bump) {
        metadata.producerEpoch -= 1;
        regranted = metadata.producerEpoch + 1;
      }
      original.call(this, metadata, committed, bump, ...rest);
    });
    const { report } = runScenario(parseScenario(SCENARIO, 'inline.yaml'), {
      seed: '1',
      messageLog: false,
    });
    expect(regranted).toBeGreaterThan(0);
    const found = identityViolations(report.check.anomalies);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ seed: '1', producerEpoch: regranted, transactionalId: 'pa' });
    expect(found[0]?.eventIndex).toBeGreaterThan(0);
    expect(report.outcome).toBe('fail');
  });
});
