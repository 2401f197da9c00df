/**
 * Goal: pin what the 500-seed swarms of the bundled scenarios found that is Kafka's own outcome,
 * each explained: power losses that took `__transaction_state`'s unflushed tail
 * (late-transaction-metric), a retry outliving producer.id.expiration.ms (producer-id-expiration).
 * Method: draw the seed as `sweep --swarm` does and assert the verdict and its explanation.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

const LATE = 'scenarios/late-transaction-metric.yaml';

function runSwarm(seed: string, file = LATE) {
  const { scenario, parameters } = drawSwarm(loadScenario(file), seed);
  return runScenario(scenario, { seed, swarm: parameters, messageLog: false });
}

describe('a producer identity granted again after __transaction_state lost its record', () => {
  // Seed 394 showed this until partitions held bytes on open connections (TCP) instead of
  // dropping them; seed 35 shows it since (the same invariant at __transaction_state-19).
  it('swarm seed 35: permitted by the power loss that took __transaction_state-19', () => {
    const { report } = runSwarm('35');
    const invariant = report.guarantee.verdicts.find((verdict) => verdict.kind === 'invariant');
    expect(invariant?.coveredBy).toBe('kafka:power-loss');
    expect(report.outcome).toBe('pass');
  });
});

describe('a coordinator that reloaded an older state and whose markers are refused', () => {
  // Skipped: seed 443 passes since partitions hold bytes on open connections (TCP) instead of
  // dropping them, and no swarm seed of 1..200 shows this stall now (the one liveness seed, 191,
  // is a different stall). A seed from a wider search (the 500-seed range it came from) should
  // replace it; the report's explanation it pins is unchanged code.
  it.skip('swarm seed 443: PA is stuck behind an ABORT marker at epoch 0; the report says', () => {
    const { report } = runSwarm('443');
    expect(report.outcome).toBe('liveness');
    expect(report.liveness.detail).toContain(
      'PA: coordinator b1 holds pa in PrepareAbort at producerId 2000 epoch 0, but payments-0 ' +
        '(leader b1) already has epoch 1: its ABORT marker is refused with INVALID_PRODUCER_EPOCH',
    );
    expect(report.liveness.detail).toContain(
      "__transaction_state-19 lost the newer epoch's records on b2 at 82.885 s (power-loss",
    );
  });
});

describe('a retry appended again after the leader expired its producer', () => {
  it('swarm seed 6 of producer-id-expiration: a permitted duplicate, no invariant', () => {
    const { report } = runSwarm('6', 'scenarios/producer-id-expiration.yaml');
    expect(report.check.anomalyTypes).toEqual(['duplicate']);
    const [duplicate] = report.guarantee.verdicts;
    expect(duplicate).toMatchObject({
      kind: 'duplicate',
      coveredBy: 'kafka:producer-id-expiration',
    });
    expect(report.check.anomalies[0]?.classification).toBe('written-after-producer-expired');
    expect(report.outcome).toBe('pass');
  });
});
