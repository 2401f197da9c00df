/**
 * Goal: show that Kafka's fencing protects exactly-once in `scenarios/zombie-fencing.yaml`:
 * instance A pauses past its transaction.timeout.ms, the coordinator aborts its transaction with an
 * epoch bump (TransactionCoordinator.abortTimedOutTransactions), instance B initializes with the
 * same transactional.id (TransactionCoordinator.handleInitProducerId), and A's late requests are
 * fenced (KIP-588; TransactionManager), so none of A's records becomes visible. Method: seed 1 here
 * (fast tier); seeds 1..200 in `zombie_fencing.sweep.test.ts` (widened by SIM_SEEDS); for each run
 * collect every broken expectation as a line naming the seed, and assert the list is empty at the
 * end, so one failure shows all failing seeds. The expectations are read from the history (what A
 * and B saw) and the oracle (what the logs hold and which epochs the coordinator granted), never
 * from the checker alone.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { fencingProblems } from './zombie_fencing_checks';

describe('zombie-fencing.yaml', () => {
  it('fences A on seed 1: clean check, epochs e / e+1 / e+2, A aborted and invisible', () => {
    const scenario = loadScenario('scenarios/zombie-fencing.yaml');
    const problems = ['1'].flatMap((seed) =>
      fencingProblems(seed, runScenario(scenario, { seed })),
    );
    expect(problems).toEqual([]);
  });
});
