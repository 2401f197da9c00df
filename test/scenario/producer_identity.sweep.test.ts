/**
 * Goal: the late answer of a paused coordinator is not a re-grant. Swarm seed 796 of
 * replicated-random-faults, exported as docs/findings/swarm-producer-identity-late-grant.yaml:
 * coordinator b2 writes producerEpoch 39 to `__transaction_state` under coordinator epoch 0 and is
 * GC-paused (10.355 s to 40 s; the drawn 10.293 s moved with linger.ms, see the file) before it
 * learns the record is replicated; b3 loads the record under coordinator epoch 1 and grants 40
 * and 41; b2 answers 39 on resume. Method: replay the seed and
 * require that b2's grant of 39 is reported after b3's grant of 41 (the premise still holds) and
 * that no invariant fires and the run passes.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner/run';

const FINDING = 'docs/findings/swarm-producer-identity-late-grant.yaml';

describe('swarm seed 796: a paused coordinator answers a decided epoch late', () => {
  it('keeps producer-identity-grows silent', () => {
    const { report, oracle } = runScenario(loadScenario(FINDING), {
      seed: '796',
      messageLog: false,
    });
    const grants = oracle.epochGrants.filter((grant) => grant.transactionalId === 'tx-random');
    const late = grants.findIndex((grant) => grant.producerEpoch === 39);
    const newer = grants.findIndex((grant) => grant.producerEpoch === 41);
    expect(newer).toBeGreaterThan(-1);
    expect(late).toBeGreaterThan(newer);
    expect(report.check.anomalyTypes).toEqual([]);
    expect(report.outcome).toBe('pass');
  });
});
