/**
 * Goal: the liveness note says why a producer was not probed. A producer that closed after its
 * last transaction (`close.when.done`) is not "fenced for good" (issue 19 saw that wording for
 * producers that simply closed); a fenced one with `on.fenced: stop` still is. Method: seed 1 of
 * a scenario of each kind, the report's liveness detail.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner';

function livenessOf(file: string): string {
  return runScenario(loadScenario(file), { seed: '1', messageLog: false }).report.liveness.detail;
}

describe('liveness notes', () => {
  it('says a producer closed after its last transaction, not fenced', () => {
    const detail = livenessOf('scenarios/delayed-endtxn-tv2.yaml');
    expect(detail).toContain(
      'PA closed its producer after its last transaction (close.when.done): not probed',
    );
    expect(detail).not.toContain('fenced for good');
  });

  it('still says fenced for good for a fenced producer with on.fenced: stop', () => {
    const detail = livenessOf('scenarios/zombie-fencing.yaml');
    expect(detail).toContain('A fenced for good (on.fenced: stop): not probed');
  });
});
