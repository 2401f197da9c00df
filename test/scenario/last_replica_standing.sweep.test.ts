/**
 * Goal: the random nemesis finds the Last Replica Standing loss of Kafka before KIP-966 without a
 * scripted sequence, and the loss it finds is one eligible leader replicas prevent.
 * Method: run the bundled random-faults scenario (power-loss among its random kinds) at Kafka 4.0,
 * a release before ELR is on by default, over a small seed budget; on each seed that loses an
 * acknowledged write to a power-loss truncation, run the same seed, and so the same drawn faults,
 * with `eligible.leader.replicas.version: 1`. At least one seed must lose writes before ELR and
 * none with it. Since partitions hold bytes on open connections (TCP) instead of dropping them,
 * seed 31 is the first such seed (seeds-to-first-catch 31; it was seed 1 before); over 1..40,
 * seeds 31 and 34 are ELR-preventable losses, and 10 more lose writes to a power loss with ELR
 * too (two brokers losing power within the unflushed window, or the last known leader elected).
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';

const FILE = 'scenarios/power-loss-random-no-elr.yaml';

describe('the random nemesis finds the pre-ELR Last Replica Standing loss', () => {
  it(`${FILE} at Kafka 4.0: a power-loss lost write that ELR prevents on the same seed`, () => {
    const beforeElr = loadScenario(FILE, { kafkaVersion: '4.0' });
    expect(beforeElr.protocol.eligibleLeaderReplicasVersion).toBe(0);
    expect(beforeElr.nemesis?.kinds).toContain('power-loss');
    const withElr = {
      ...beforeElr,
      protocol: { ...beforeElr.protocol, eligibleLeaderReplicasVersion: 1 },
    };
    const caught: string[] = [];
    for (const seed of sweepSeeds('31..34')) {
      const { report } = runScenario(beforeElr, { seed });
      expect(report.unexpectedAnomalyTypes, `seed ${seed}`).toEqual([]);
      const lost = report.check.anomalies.filter((anomaly) => anomaly.kind === 'lost-write');
      if (!lost.some((anomaly) => anomaly.classification === 'lost-on-power-loss')) continue;
      const elr = runScenario(withElr, { seed }).report;
      const lostWithElr = elr.check.anomalies.filter((anomaly) => anomaly.kind === 'lost-write');
      if (lostWithElr.length === 0) caught.push(seed);
    }
    expect(caught.length, 'seeds whose pre-ELR loss ELR prevents').toBeGreaterThan(0);
  });
});
