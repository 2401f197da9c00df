/**
 * Goal: the liveness verdict says why a transaction hangs when an unclean election erased the
 * marker that ended its producer epoch before a late batch of that epoch arrived (found by the
 * 100k safe sweep, swarm seed 2153 of pause-beyond-transaction-timeout-fixed): the ABORT of
 * epoch 1 on orders-0 was truncated away at 11.34 s, then the produce of epoch 0, whose KIP-890
 * verification answer had been held for 15 s, was appended at 15.0 s and opened a transaction no
 * coordinator will end. A hanging transaction with no such truncation gets no such explanation.
 * Method: draw the seeds as `sweep --swarm` does and read the liveness detail.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

function livenessOf(file: string, seed: string) {
  const { scenario, parameters } = drawSwarm(loadScenario(file), seed);
  const { report } = runScenario(scenario, { seed, swarm: parameters, messageLog: false });
  return { outcome: report.outcome, detail: report.liveness?.detail ?? '' };
}

describe('a hanging transaction opened after its epoch-ending marker was truncated away', () => {
  it('swarm seed 2153 of pause-beyond-transaction-timeout-fixed: said with the truncation', () => {
    const { outcome, detail } = livenessOf(
      'scenarios/pause-beyond-transaction-timeout-fixed.yaml',
      '2153',
    );
    expect(outcome).toBe('liveness');
    expect(detail).toContain(
      'the ABORT marker of epoch 1 was truncated away on b3 at 11.339691 s (diverging-epoch), ' +
        'before the epoch-0 batch that opens it was appended at 15.003174 s',
    );
  });

  it('swarm seed 281 of hanging-transaction-operator-abort: no marker lost, none claimed', () => {
    const { outcome, detail } = livenessOf(
      'scenarios/hanging-transaction-operator-abort.yaml',
      '281',
    );
    expect(outcome).toBe('liveness');
    expect(detail).toContain('LSO 1 < HW 64');
    expect(detail).not.toContain('truncated away');
  });
});
