/**
 * Goal: `eos-sim sweep --safe` (`npm run sweep:safe`) keeps exactly the bundled files Kafka's
 * guarantee must hold for: outside known-bugs/, expecting no anomaly and no stall; and given only
 * known-bug files it stops with a usage error instead of sweeping nothing. Method: the sweep
 * planner on the bundled scenario directory.
 */
import { describe, expect, it } from 'vitest';
import { planSweep, safePlans } from '../../cli/sweep';
import { UsageError } from '../../cli/errors';

describe('safePlans', () => {
  const all = planSweep(['scenarios'], undefined);
  const safe = safePlans(all).map((plan) => plan.scenario.file);

  it('keeps the safe files and only them', () => {
    expect(safe).toContain('scenarios/zombie-fencing.yaml');
    expect(safe).toContain('scenarios/replicated-random-faults.yaml');
    // Expects lost-write: a known-bad configuration, not a safe one.
    expect(safe).not.toContain('scenarios/unclean-election.yaml');
    expect(safe.filter((file) => file.includes('known-bugs'))).toEqual([]);
    for (const plan of all) {
      const { anomalies, stall } = plan.scenario.expect;
      const expected = plan.scenario.file.includes('/known-bugs/') || anomalies.length > 0 || stall;
      expect(safe.includes(plan.scenario.file), plan.scenario.file).toBe(!expected);
    }
  });

  it('refuses a sweep with no safe file', () => {
    const bugs = planSweep(
      ['scenarios/known-bugs/single-batch-dedup-window-fixed.yaml'],
      undefined,
    );
    expect(() => safePlans(bugs)).toThrow(UsageError);
  });
});
