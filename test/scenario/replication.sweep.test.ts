/**
 * Goal: each replication misconfiguration of Appendix A (A4 acks=1, A6 unclean election, A8
 * pre-KIP-101 truncation) loses acknowledged writes, with the oracle saying why, while its safe
 * counterpart loses nothing; and the safe configuration stays clean under random broker faults.
 * Method: sweep seeds of the bundled scenario pairs. The default ranges are small so CI stays
 * fast; `SIM_SEEDS=1..200` (bad) or `SIM_SEEDS=1..500` (safe) runs the full sweeps.
 * A bad configuration must show `lost-write` on at least half of its seeds, every lost write
 * classified by the truncation that removed it; a safe one must show no anomaly at all.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';

/** Bad configuration → the truncation classification its lost writes must carry. */
const BAD = [
  ['scenarios/acks-1-leader-crash.yaml', 'truncated-after-clean-election'],
  ['scenarios/unclean-election.yaml', 'truncated-after-unclean-election'],
  ['scenarios/hw-truncation-double-failover.yaml', 'truncated-by-legacy-hw-truncation'],
  // Not a misconfiguration but Kafka before KIP-966: the last ISR member is re-elected.
  ['scenarios/last-replica-standing-no-elr.yaml', 'lost-on-power-loss'],
  // Kafka with ELR: the replica that kept the records left the ELR after a process crash, and
  // the controller elects the power-lost last known leader (KIP-966's last resort).
  ['scenarios/last-known-leader-power-loss.yaml', 'truncated-after-unclean-election'],
] as const;

const SAFE = [
  'scenarios/acks-all-leader-crash.yaml',
  'scenarios/unclean-election-disabled.yaml',
  'scenarios/epoch-truncation-double-failover.yaml',
  'scenarios/zombie-fencing-replicated.yaml',
  'scenarios/replicated-random-faults.yaml',
  'scenarios/last-replica-standing-elr.yaml',
] as const;

describe('replication misconfigurations lose acknowledged writes (A4, A6, A8)', () => {
  for (const [file, classification] of BAD) {
    it(`${file}: lost-write on at least half the seeds, classified ${classification}`, () => {
      const scenario = loadScenario(file);
      const seeds = sweepSeeds('1..8');
      let detected = 0;
      for (const seed of seeds) {
        const { report } = runScenario(scenario, { seed });
        expect(report.unexpectedAnomalyTypes, `seed ${seed}`).toEqual([]);
        const lost = report.check.anomalies.filter((anomaly) => anomaly.kind === 'lost-write');
        if (lost.length === 0) continue;
        detected += 1;
        expect(lost.map((anomaly) => anomaly.classification)).toContain(classification);
      }
      expect(detected * 2).toBeGreaterThanOrEqual(seeds.length);
    });
  }
});

describe('the safe counterparts lose nothing', () => {
  for (const file of SAFE) {
    it(`${file}: no anomaly and converged on every seed`, () => {
      const scenario = loadScenario(file);
      for (const seed of sweepSeeds('1..5')) {
        const { report } = runScenario(scenario, { seed });
        expect(
          report.check.anomalies.map((anomaly) => anomaly.message),
          `seed ${seed}`,
        ).toEqual([]);
        expect(report.outcome, `seed ${seed}: ${report.liveness.detail}`).toBe('pass');
      }
    });
  }
});
