/**
 * Goal: prove `eos-sim mutants` finds a switch the checkers catch and names its kind, and that
 * a catch is only counted when the same seed without the switch passes. Method: search the
 * test-only mutation `partition.skip.producer.epoch.check` (stale-epoch batches accepted) on
 * transactions-random-faults.yaml's bases over a few seeds; require a catch with a kind, and
 * rerun the catching seed without the switch to see it pass.
 */
import { describe, expect, it } from 'vitest';
import { genericBases, searchMutant } from '../../cli/mutants';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';
import { sweepSeeds } from '../seed_range';

const BASE = 'scenarios/transactions-random-faults.yaml';

describe('eos-sim mutants search', () => {
  it('catches the stale-epoch mutation, and the catching seed passes without it', () => {
    const bases = genericBases(loadScenario(BASE));
    const result = searchMutant('partition.skip.producer.epoch.check', bases, sweepSeeds('1..10'));
    expect(result.caught).toBe(true);
    expect(result.kind).not.toBeNull();
    const base = bases.find((candidate) => candidate.label === result.base);
    expect(base).toBeDefined();
    if (base === undefined || result.seed === null) return;
    const { scenario, parameters } = drawSwarm(base.scenario, result.seed);
    const control = runScenario(scenario, { seed: result.seed, swarm: parameters });
    expect(control.report.outcome).toBe('pass');
  });
});
