/**
 * Goal: swarm seed 60 of `scenarios/replicated-random-faults.yaml` converges. The idempotent
 * producer P (max.in.flight.requests.per.connection=1) had a retry of events-2 waiting out its
 * backoff, stamped on P's clock while P's clock ran 9.7 s ahead (a clock-skew fault); the last
 * retry timer fired while the partition still had a request in flight, and when that answer came
 * the skew had ended, the retry was not yet due on P's clock, and no timer was armed. The sender
 * slept for 200 s with 91 records queued behind the retry, past delivery.timeout.ms, until the
 * liveness probe's send woke it: liveness, a model bug. Kafka's Sender never sleeps past a waiting
 * batch (RecordAccumulator.ready returns the time left as the poll timeout of Sender.runOnce); the
 * model's sender now re-arms its wakeup after every pass. Method: replay the seed under swarm
 * (about 20 s) and require a pass, with the cluster settling soon after the 40 s workload.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

describe('swarm seed 60 of replicated-random-faults', () => {
  it('a retry held back by a clock that went back still wakes its sender', () => {
    const file = 'scenarios/replicated-random-faults.yaml';
    const { scenario, parameters } = drawSwarm(loadScenario(file), '60');
    const { report } = runScenario(scenario, { seed: '60', swarm: parameters, messageLog: false });
    expect(report.check.anomalyTypes).toEqual([]);
    expect(report.outcome).toBe('pass');
    const heal = report.phases.find((phase) => phase.name === 'heal');
    expect(heal?.toUs).toBeLessThan(60_000_000);
  });
});
