/**
 * Goal: swarm mode draws legal, reproducible parameters, keeps what the guarantee rests on,
 * still catches the known bugs, and finds nothing on the safe configuration. Method: draw the
 * swarm of fixed seeds and check every drawn config against Kafka's constraints; run the
 * known-bug scenarios under swarm over a small seed range and require a detection; run the safe
 * replicated scenario under swarm over `sweepSeeds('1..5')` (opt-in wider with `SIM_SEEDS`,
 * e.g. `SIM_SEEDS=1..1000`) and require no anomaly that violates Kafka's guarantee (the
 * guarantee model permits Kafka's own, e.g. `epoch-bump-duplicate`, or a loss after a power
 * loss before KIP-966) and a converged liveness check on every seed.
 */
import { describe, expect, it } from 'vitest';
import { listScenarioFiles, loadScenario } from '../../scenarios';
import { SWARM_FAULT_KINDS, drawSwarm, runScenario } from '../../sim/runner';
import { sweepSeeds } from '../seed_range';
import { SLOW_SCENARIOS } from '../golden/bundled_scenarios';

const SAFE = 'scenarios/replicated-random-faults.yaml';

describe('drawSwarm', () => {
  it('is a function of the seed, and seeds differ', () => {
    const base = loadScenario(SAFE);
    expect(drawSwarm(base, '7')).toEqual(drawSwarm(base, '7'));
    expect(drawSwarm(base, '7').parameters).not.toEqual(drawSwarm(base, '8').parameters);
  });

  it('draws legal configs and keeps what the guarantee rests on', () => {
    for (const file of listScenarioFiles('scenarios')) {
      const base = loadScenario(file);
      for (const seed of ['1', '2', '3', '4', '5']) {
        const { scenario, parameters } = drawSwarm(base, seed);
        expect(parameters.kinds.length).toBeGreaterThan(0);
        for (const kind of parameters.kinds) expect(SWARM_FAULT_KINDS).toContain(kind);
        expect(scenario.network.delayUsMax).toBeGreaterThanOrEqual(scenario.network.delayUsMin);
        expect(scenario.broker.minInsyncReplicas).toBe(base.broker.minInsyncReplicas);
        expect(scenario.broker.uncleanLeaderElectionEnable).toBe(
          base.broker.uncleanLeaderElectionEnable,
        );
        expect(scenario.bugs).toEqual(base.bugs);
        expect(scenario.faults).toEqual(base.faults);
        scenario.clients.forEach((client, index) => {
          const before = base.clients[index];
          if (client.role !== 'producer' || before?.role !== 'producer') return;
          const settings = client.settings;
          expect(settings.acks).toBe(before.settings.acks);
          expect(settings.enableIdempotence).toBe(before.settings.enableIdempotence);
          expect(settings.deliveryTimeoutMs).toBeGreaterThanOrEqual(settings.requestTimeoutMs);
          expect(settings.transactionTimeoutMs).toBeLessThanOrEqual(
            scenario.broker.transactionMaxTimeoutMs,
          );
          expect(settings.maxInFlightRequestsPerConnection).toBeLessThanOrEqual(5);
        });
      }
    }
  });
});

/**
 * Read-process-write pipelines are left out for now: under the swarm's fault rates the group
 * spends most of the fault phase rebalancing, so the pipeline commits a handful of transactions
 * and a misuse that needs traffic (no rewind, stale offsets) is seldom exercised. Tracked as an
 * open finding of issue 6; their plain detection is tested in test/pipeline/misuse.sweep.test.ts.
 */
function isPipelineScenario(file: string): boolean {
  return loadScenario(file).clients.some((client) => client.role === 'pipeline');
}

/**
 * Known bugs whose reproducer is an exact ordering that swarm's drawn delays and timeouts undo:
 * KAFKA-16352 needs the held WriteTxnMarkers responses of the old coordinator epoch to arrive
 * after the reloaded coordinator resent its markers (caught on 10 of 10 plain seeds, 0 of 8
 * swarm seeds). KAFKA-19446 needs the held COMMIT of one transaction released inside the next
 * transaction's window on the partition, which the 30 s marker request timeout and the workload
 * pace place (caught on 50 of 50 plain seeds, 0 of 8 swarm seeds, whose drawn delays and
 * timeouts move both). Their plain detection is pinned by each scenario's own expectation.
 */
const ORDERING_REPRODUCERS: ReadonlySet<string> = new Set([
  'scenarios/known-bugs/stuck-prepare-commit-after-reload.yaml',
  'scenarios/known-bugs/late-marker-ends-next-transaction.yaml',
]);

describe('known bugs under swarm', () => {
  for (const file of listScenarioFiles('scenarios/known-bugs')) {
    // Runs of minutes each (epoch exhaustion) are proven by known_bug_switches.sweep.test.ts.
    if (isPipelineScenario(file) || SLOW_SCENARIOS.has(file)) continue;
    if (ORDERING_REPRODUCERS.has(file)) continue;
    it(`${file} is caught under swarm on some seed of 1..8 if it is caught without`, () => {
      const base = loadScenario(file);
      const kind = base.expect.anomalies[0] as string;
      const caught = { plain: 0, swarm: 0 };
      for (const seed of ['1', '2', '3', '4', '5', '6', '7', '8']) {
        const plain = runScenario(base, { seed }).report.check.anomalyTypes as readonly string[];
        if (plain.includes(kind)) caught.plain += 1;
        const { scenario, parameters } = drawSwarm(base, seed);
        const report = runScenario(scenario, { seed, swarm: parameters }).report;
        if ((report.check.anomalyTypes as readonly string[]).includes(kind)) caught.swarm += 1;
      }
      if (caught.plain > 0) expect(caught.swarm).toBeGreaterThan(0);
    });
  }
});

describe('the safe configuration under swarm', () => {
  it(`${SAFE}: no anomaly it does not allow, and a converged liveness check on every seed`, () => {
    const base = loadScenario(SAFE);
    const failures: string[] = [];
    for (const seed of sweepSeeds('1..5')) {
      const { scenario, parameters } = drawSwarm(base, seed);
      const report = runScenario(scenario, { seed, swarm: parameters }).report;
      if (report.unexpectedAnomalyTypes.length > 0 || !report.liveness.converged) {
        const kinds = report.unexpectedAnomalyTypes.join(',');
        failures.push(`${seed}: ${kinds} ${report.liveness.detail}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
