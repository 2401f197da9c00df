/**
 * Goal: prove KAFKA-13091's switch both ways on its bundled pair. The bug makes no anomaly of
 * the history: its damage is a transaction aborted by the coordinator's timeout and a producer
 * fenced while the cluster was healthy (b1 alone in the ISR of orders-0, min.insync.replicas 1).
 * So the reproducer (3.0) must meet every expectation, `expect.fenced: [A]` among them, on at
 * least its `expect.detect.percent.min` share of the seeds, and the fixed counterpart (3.1, the
 * same faults and workload) must pass with nobody fenced and no anomaly on every seed.
 * Method: run each file over a small seed range (`SIM_SEEDS` widens it); the pair must differ in
 * `kafka.version` (and the texts) only.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { brokerApartFromVersion } from '../harness/pair_settings';
import { sweepSeeds } from '../seed_range';

const REPRODUCER = 'scenarios/known-bugs/isr-shrink-leaves-high-watermark.yaml';
const FIXED = 'scenarios/known-bugs/isr-shrink-leaves-high-watermark-fixed.yaml';
const SEEDS = '1..10';

describe('KAFKA-13091: the HW after AlterPartition, reproducer and fixed counterpart', () => {
  it('the pair differs in the switch, not in the faults or the workload', () => {
    const bad = loadScenario(REPRODUCER);
    const good = loadScenario(FIXED);
    expect([bad.bugs['KAFKA-13091'], good.bugs['KAFKA-13091']]).toEqual([true, false]);
    const withoutLines = (faults: typeof bad.faults) =>
      faults.map((fault) => ({ ...fault, line: 0 }));
    expect(withoutLines(good.faults)).toEqual(withoutLines(bad.faults));
    expect(good.clients).toEqual(bad.clients);
    // Settings whose defaults follow kafka.version, which a pair may differ in, aside.
    expect(brokerApartFromVersion(good.broker)).toEqual(brokerApartFromVersion(bad.broker));
  });

  it(`${REPRODUCER}: A is fenced by the timeout abort at the stated rate`, () => {
    const scenario = loadScenario(REPRODUCER);
    const seeds = sweepSeeds(SEEDS);
    let fenced = 0;
    for (const seed of seeds) {
      const { report } = runScenario(scenario, { seed, messageLog: false });
      expect(
        report.check.anomalies.map((anomaly) => anomaly.message),
        `seed ${seed}`,
      ).toEqual([]);
      if (report.outcome === 'pass' && report.fencedClients.includes('A')) fenced += 1;
    }
    const percent = (100 * fenced) / seeds.length;
    expect(percent).toBeGreaterThanOrEqual(scenario.expect.detectPercentMin);
  });

  it(`${FIXED}: nobody is fenced and every run passes`, () => {
    const scenario = loadScenario(FIXED);
    for (const seed of sweepSeeds(SEEDS)) {
      const { report } = runScenario(scenario, { seed, messageLog: false });
      expect(report.outcome, `seed ${seed}`).toBe('pass');
      expect(report.fencedClients, `seed ${seed}`).toEqual([]);
      expect(report.check.anomalies, `seed ${seed}`).toEqual([]);
    }
  });
});
