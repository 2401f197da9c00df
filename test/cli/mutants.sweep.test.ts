/**
 * Goal: prove `eos-sim mutants` finds a switch the checkers catch and names its kind, that a
 * catch is only counted when the same seed without the switch passes, and that every base the
 * switches are tried on is clean without any switch. Method: search the test-only mutation
 * `partition.skip.producer.epoch.check` (stale-epoch batches accepted) on
 * transactions-random-faults.yaml's bases over a few seeds with real runs in this thread;
 * require a catch with a kind, and rerun the catching seed without the switch to see it pass.
 * Then run each base (the librdkafka ones included) without any switch over seeds 1..5 in swarm
 * mode: every run must pass, or a catch on that base could be the base's own failure.
 */
import { describe, expect, it } from 'vitest';
import { inProcessRunner, searchMutants } from '../../cli/mutant_search';
import { controlBases, genericBases } from '../../cli/mutants';
import { BUG_IDS, loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';
import { sweepSeeds } from '../seed_range';

const BASE = 'scenarios/transactions-random-faults.yaml';

describe('eos-sim mutants search', () => {
  const bases = genericBases(loadScenario(BASE));

  it('catches the stale-epoch mutation, and the catching seed passes without it', async () => {
    const output = await searchMutants({
      ids: ['partition.skip.producer.epoch.check'],
      bases,
      seeds: sweepSeeds('1..10'),
      run: inProcessRunner(bases),
      concurrency: 1,
    });
    const [result] = output.results;
    expect(result?.caught).toBe(true);
    expect(result?.kind).not.toBeNull();
    const base = bases.find((candidate) => candidate.label === result?.base);
    expect(base).toBeDefined();
    if (base === undefined || result?.seed == null) return;
    const { scenario, parameters } = drawSwarm(base.scenario, result.seed);
    const control = runScenario(scenario, { seed: result.seed, swarm: parameters });
    expect(control.report.outcome).toBe('pass');
  });

  it('tries the switches on bases that are clean without any switch', () => {
    for (const base of controlBases(BUG_IDS, bases)) {
      for (const seed of sweepSeeds('1..5')) {
        const { scenario, parameters } = drawSwarm(base.scenario, seed);
        const { report } = runScenario(scenario, { seed, swarm: parameters, messageLog: false });
        expect({ base: base.label, seed, outcome: report.outcome }).toEqual({
          base: base.label,
          seed,
          outcome: 'pass',
        });
      }
    }
  });
});
