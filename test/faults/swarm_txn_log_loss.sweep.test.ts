/**
 * Goal: pin what the 500-seed swarm of `scenarios/late-transaction-metric.yaml` found when power
 * losses took `__transaction_state`'s unflushed tail: Kafka's own outcomes, each explained.
 * Method: draw the seed as `sweep --swarm` does and assert the verdict and its explanation.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

const LATE = 'scenarios/late-transaction-metric.yaml';

function runSwarm(seed: string) {
  const { scenario, parameters } = drawSwarm(loadScenario(LATE), seed);
  return runScenario(scenario, { seed, swarm: parameters, messageLog: false });
}

describe('a producer identity granted again after __transaction_state lost its record', () => {
  it('swarm seed 394: permitted by the power loss that took __transaction_state-19', () => {
    const { report } = runSwarm('394');
    const invariant = report.guarantee.verdicts.find((verdict) => verdict.kind === 'invariant');
    expect(invariant?.coveredBy).toBe('kafka:power-loss');
    expect(report.outcome).toBe('pass');
  });
});

describe('a coordinator that reloaded an older state and whose markers are refused', () => {
  it('swarm seed 443: PA is stuck behind an ABORT marker at epoch 0; the report says why', () => {
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
