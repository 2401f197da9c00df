/**
 * Goal: prove the replication-side bug switches both ways on their bundled pairs under
 * `scenarios/known-bugs/`: the reproducer (the switch on by its `kafka.version`) meets every
 * expectation on each seed and shows its expected anomaly kind on at least its
 * `expect.detect.percent.min` share of the seeds; the fixed counterpart (the release with the
 * fix, same faults) shows no anomaly, permitted or not, beyond the ones its faults cause without
 * the bug (`fixedMayShow`: the unclean elections' losses of KAFKA-6361's pair), and converges on
 * every seed.
 * Method: run each file over a small seed range (`SIM_SEEDS` widens it); the fixed counterpart
 * must also be the same scenario with only `kafka.version` (and the texts) changed, so the pair
 * differs in the switch and nothing else that matters.
 *
 * KAFKA-6361's truncation can leave b2's log end offset inside one of b1's batches; b2's next
 * fetch is then refused (UnexpectedAppendOffsetException) and b2 stops replicating: at 1.1 its
 * fetcher thread for b1 dies, and with the switch forced on at 2.3 (KIP-461) only the partition
 * fails. Either way b2 appends nothing more and drops out of the ISR.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { brokerApartFromVersion } from '../harness/pair_settings';
import { sweepSeeds } from '../seed_range';

/** A bug's reproducer, its fixed counterpart, and the default seeds of each. */
interface BugPair {
  readonly bug: 'KAFKA-7128' | 'KAFKA-6361' | 'KAFKA-7395';
  readonly reproducer: string;
  readonly fixed: string;
  readonly seeds: string;
  /** Kinds the fixed counterpart's faults cause without the bug. */
  readonly fixedMayShow: readonly string[];
}

const PAIRS: readonly BugPair[] = [
  {
    bug: 'KAFKA-7128',
    reproducer: 'scenarios/known-bugs/isr-join-below-leader-epoch-start.yaml',
    fixed: 'scenarios/known-bugs/isr-join-below-leader-epoch-start-fixed.yaml',
    seeds: '1..6',
    fixedMayShow: [],
  },
  {
    bug: 'KAFKA-6361',
    reproducer: 'scenarios/known-bugs/divergence-after-two-unclean-elections.yaml',
    fixed: 'scenarios/known-bugs/divergence-after-two-unclean-elections-fixed.yaml',
    seeds: '1..4',
    // Two unclean elections lose acknowledged records whatever the truncation rule.
    fixedMayShow: ['lost-write'],
  },
  {
    bug: 'KAFKA-7395',
    reproducer: 'scenarios/known-bugs/zombie-fetch-after-same-leader-epoch.yaml',
    fixed: 'scenarios/known-bugs/zombie-fetch-after-same-leader-epoch-fixed.yaml',
    seeds: '1..4',
    // The zombie leader's acks=1 records are truncated whatever the fetch rules.
    fixedMayShow: ['lost-write'],
  },
];

describe('KAFKA-6361: a fetch that starts inside a batch stops the follower (seed 1)', () => {
  const reproducer = 'scenarios/known-bugs/divergence-after-two-unclean-elections.yaml';
  const cases = [
    { version: undefined, scope: 'fetcher' },
    { version: '2.3', scope: 'partition' },
  ] as const;
  for (const { version, scope } of cases) {
    it(`at ${version ?? '1.1'} the ${scope} fails and b2 never appends again`, () => {
      const loaded = loadScenario(reproducer, { kafkaVersion: version });
      const scenario = { ...loaded, bugs: { ...loaded.bugs, 'KAFKA-6361': true } };
      const { report, oracle } = runScenario(scenario, { seed: '1', messageLog: false });
      const failures = report.fetchFailures ?? [];
      expect(failures.map((f) => [f.broker, f.leader, f.error, f.scope])).toEqual([
        ['b2', 'b1', 'UnexpectedAppendOffsetException', scope],
      ]);
      const [failure] = failures;
      expect(failure?.firstOffset).toBeLessThan(failure?.logEndOffset ?? 0);
      const b2 = oracle.partitions[0]?.replicas?.find((replica) => replica.broker === 'b2');
      expect([b2?.logEndOffset, b2?.inSyncReplica]).toEqual([failure?.logEndOffset, false]);
    });
  }
});

describe('replication bug switches, reproducer and fixed counterpart', () => {
  for (const pair of PAIRS) {
    it(`${pair.bug}: the pair differs in the switch, not in the faults or the workload`, () => {
      const bad = loadScenario(pair.reproducer);
      const good = loadScenario(pair.fixed);
      expect([bad.bugs[pair.bug], good.bugs[pair.bug]]).toEqual([true, false]);
      // A fault records the line of its list item; the descriptions differ in length.
      const withoutLines = (faults: typeof bad.faults) =>
        faults.map((fault) => ({ ...fault, line: 0 }));
      expect(withoutLines(good.faults)).toEqual(withoutLines(bad.faults));
      expect(good.clients).toEqual(bad.clients);
      // Settings whose defaults follow kafka.version, which a pair may differ in, aside.
      expect(brokerApartFromVersion(good.broker)).toEqual(brokerApartFromVersion(bad.broker));
    });

    it(`${pair.bug}: ${pair.reproducer} is caught at its stated rate`, () => {
      const scenario = loadScenario(pair.reproducer);
      const kind = scenario.expect.anomalies[0];
      expect(kind).toBeDefined();
      const seeds = sweepSeeds(pair.seeds);
      let caught = 0;
      for (const seed of seeds) {
        const { report } = runScenario(scenario, { seed, messageLog: false });
        expect(report.outcome, `seed ${seed}`).toBe('pass');
        if ((report.check.anomalyTypes as readonly string[]).includes(kind as string)) caught += 1;
      }
      expect((100 * caught) / seeds.length).toBeGreaterThanOrEqual(
        scenario.expect.detectPercentMin,
      );
    });

    it(`${pair.bug}: ${pair.fixed} has no anomaly of the bug on any seed`, () => {
      const scenario = loadScenario(pair.fixed);
      for (const seed of sweepSeeds(pair.seeds)) {
        const { report } = runScenario(scenario, { seed, messageLog: false });
        const found = report.check.anomalies
          .filter((anomaly) => !pair.fixedMayShow.includes(anomaly.kind))
          .map((anomaly) => anomaly.message);
        expect(found, `seed ${seed}`).toEqual([]);
        expect(report.outcome, `seed ${seed}`).toBe('pass');
      }
    });
  }
});
