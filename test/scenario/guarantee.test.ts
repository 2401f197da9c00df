/**
 * Goal: Kafka's guarantee is derived from the configuration and the faults that happened, each
 * permission with its reason and source; a kind is permitted only when every anomaly of it is;
 * bug switches withdraw the permissions of what they cause; scripted expectations under swarm
 * are dropped, with why, exactly when the draw breaks their premise. Method: the guarantee
 * model and the swarm filter on bundled scenarios with hand-made faults and check results.
 */
import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../sim/checker';
import type { OracleElection, OracleTruncation } from '../../sim/history';
import { loadScenario, type ScenarioConfig } from '../../scenarios';
import { judgeAnomalies } from '../../sim/runner/guarantee_verdicts';
import { kafkaPermissions, type HappenedFault } from '../../sim/runner/kafka_guarantee';
import { swarmExpectations } from '../../sim/runner/swarm_expectations';

const SAFE = 'scenarios/replicated-random-faults.yaml';
const POWER_LOSS: HappenedFault = { kind: 'crash', description: 'power loss of b1 for 4000 ms' };
const CRASH: HappenedFault = { kind: 'crash', description: 'crash of b1 for 4000 ms' };

function ids(scenario: ScenarioConfig, faults: readonly HappenedFault[]): string[] {
  return kafkaPermissions({ scenario, faults }).map((permission) => permission.id);
}

function withElr(scenario: ScenarioConfig, version: 0 | 1 = 1): ScenarioConfig {
  const protocol = { ...scenario.protocol, eligibleLeaderReplicasVersion: version };
  return { ...scenario, protocol };
}

/** The cluster before KIP-966 (ELR is on by default from Kafka 4.1). */
function withoutElr(scenario: ScenarioConfig): ScenarioConfig {
  return withElr(scenario, 0);
}

/** A check result holding only `duplicate` anomalies with these classification counts. */
function duplicates(
  classifications: Record<string, number>,
  kind: 'duplicate' | 'epoch-bump-duplicate' | 'fatal-txn-error' = 'duplicate',
): CheckResult {
  const count = Object.values(classifications).reduce((sum, value) => sum + value, 0);
  return {
    valid: false,
    anomalyTypes: [kind],
    anomalies: [],
    anomalyCounts: [{ kind, count }],
    classificationCounts: Object.entries(classifications).map(([classification, n]) => ({
      kind,
      classification,
      count: n,
    })),
    checkerErrors: [],
  };
}

describe('kafkaPermissions', () => {
  it('the safe configuration without faults permits only the idempotent epoch bump', () => {
    expect(ids(loadScenario(SAFE), [])).toEqual(['idempotent-epoch-bump']);
  });

  it('a process crash permits the commit race of transaction version 2, not data loss', () => {
    expect(ids(loadScenario(SAFE), [CRASH])).toEqual(['idempotent-epoch-bump', 'end-txn-race']);
  });

  it('a power loss without ELR permits loss, naming the setting that prevents it', () => {
    const scenario = withoutElr(loadScenario(SAFE));
    const permissions = kafkaPermissions({ scenario, faults: [POWER_LOSS] });
    const loss = permissions.find((permission) => permission.id === 'power-loss');
    expect(loss?.kinds).toContain('lost-write');
    expect(loss?.because).toContain('Last Replica Standing');
    expect(loss?.because).toContain('eligible.leader.replicas.version=1 (KIP-966');
    expect(loss?.source).toContain('KIP-966');
  });

  it('with ELR one power loss permits nothing, as many as min.insync.replicas do', () => {
    const scenario = withElr(loadScenario(SAFE));
    expect(ids(scenario, [POWER_LOSS])).not.toContain('power-loss');
    expect(ids(scenario, [POWER_LOSS, POWER_LOSS])).toContain('power-loss');
  });

  describe('the last known leader (KIP-966) back from a power loss', () => {
    const scenario = withElr(loadScenario(SAFE));
    const cut = (broker: string, timeUs: number): OracleTruncation => ({
      timeUs,
      topic: 'orders',
      partition: 0,
      broker,
      toOffset: 0,
      reason: 'power-loss',
      removed: [],
    });
    const elected = (rule: OracleElection['rule'], timeUs = 9_000_000): OracleElection => ({
      timeUs,
      topic: 'orders',
      partition: 0,
      leader: 'b2',
      leaderEpoch: 3,
      kind: 'unclean',
      ...(rule === undefined ? {} : { rule }),
    });
    const permitted = (elections: OracleElection[], truncations: OracleTruncation[]) =>
      kafkaPermissions({ scenario, faults: [POWER_LOSS], replication: { elections, truncations } })
        .filter((permission) => permission.id === 'last-known-leader')
        .map((permission) => permission.setting);

    it('permits loss once that broker is elected by the rule after losing its tail', () => {
      const [setting] = permitted([elected('last-known-leader')], [cut('b2', 5_000_000)]);
      expect(setting).toBe(
        "eligible.leader.replicas.version=1: b2 elected orders-0's last known leader at " +
          '9000000us after a power loss',
      );
    });

    it('permits nothing for another broker, a later power loss, or another rule', () => {
      expect(permitted([elected('last-known-leader')], [cut('b1', 5_000_000)])).toEqual([]);
      expect(permitted([elected('last-known-leader')], [cut('b2', 9_500_000)])).toEqual([]);
      expect(permitted([elected('elr')], [cut('b2', 5_000_000)])).toEqual([]);
      expect(permitted([elected(undefined)], [cut('b2', 5_000_000)])).toEqual([]);
    });
  });

  it('acks=1 permits loss only once a fault happened', () => {
    const scenario = loadScenario('scenarios/acks-1-leader-crash.yaml');
    expect(ids(scenario, [])).toEqual(['idempotence-off']);
    expect(ids(scenario, [CRASH])).toEqual(['acks', 'idempotence-off']);
  });

  it('a bug switch withdraws the permissions of the kinds it causes', () => {
    const scenario = loadScenario('scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml');
    const held: HappenedFault = { kind: 'hold', description: 'hold Produce A -> b1 for 3000 ms' };
    const permissions = kafkaPermissions({ scenario, faults: [held, POWER_LOSS] });
    expect(permissions.length).toBeGreaterThan(0);
    for (const permission of permissions) {
      expect(permission.kinds).not.toContain('zombie-write');
      expect(permission.kinds).not.toContain('torn-transaction');
    }
  });
});

describe('judgeAnomalies', () => {
  const scenario = withoutElr(loadScenario(SAFE));
  const permissions = kafkaPermissions({ scenario, faults: [POWER_LOSS] });

  it('permits a duplicate that data loss explains', () => {
    const [verdict] = judgeAnomalies(
      duplicates({ 'written-once': 2 }),
      permissions,
      scenario.expect,
    );
    expect(verdict).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:power-loss' });
    expect(verdict?.label).toMatch(/^permitted by Kafka under this configuration, because /);
  });

  it('a kind is a violation as soon as one of its anomalies is not permitted', () => {
    const check = duplicates({ 'written-once': 2, 'written-twice': 1 });
    const [verdict] = judgeAnomalies(check, permissions, scenario.expect);
    expect(verdict).toMatchObject({ verdict: 'violates', expectedBy: null, coveredBy: '' });
    expect(verdict?.label).toBe("violates Kafka's guarantee");
  });

  it('a violation the scenario expects is labelled so', () => {
    const expect_ = { anomalies: ['duplicate'], allowed: [] };
    const [verdict] = judgeAnomalies(duplicates({ 'written-twice': 1 }), [], expect_);
    expect(verdict).toMatchObject({ verdict: 'violates', expectedBy: 'expect.anomalies' });
  });
});

describe('producer state expiry during retries (producer.id.expiration.ms)', () => {
  const scenario = loadScenario('scenarios/producer-id-expiration.yaml');
  const permissions = kafkaPermissions({ scenario, faults: [] });

  it('is permitted only for copies an expiry separates, with the documented reason', () => {
    const permission = permissions.find((candidate) => candidate.id === 'producer-id-expiration');
    expect(permission?.setting).toBe(
      'producer.id.expiration.ms=5000 below delivery.timeout.ms (P 120000)',
    );
    expect(permission?.source).toContain('producer.id.expiration.ms');
    const separated = duplicates({ 'written-after-producer-expired': 2 });
    const [permitted] = judgeAnomalies(separated, permissions, scenario.expect);
    expect(permitted).toMatchObject({ coveredBy: 'kafka:producer-id-expiration' });
    const [violates] = judgeAnomalies(duplicates({ 'written-twice': 1 }), permissions, {
      anomalies: [],
      allowed: [],
    });
    expect(violates).toMatchObject({ verdict: 'violates' });
  });

  it('is not granted when no producer retries longer than the expiry', () => {
    expect(ids(loadScenario(SAFE), [CRASH])).not.toContain('producer-id-expiration');
  });
});

describe('a librdkafka head-of-line batch refused behind a reordered first batch', () => {
  const none = { anomalies: [], allowed: [] };

  it('is permitted for librdkafka with requests in flight, and only that classification', () => {
    const scenario = loadScenario(
      'scenarios/known-bugs/possibly-persisted-rewound-sequence-fixed.yaml',
    );
    const permissions = kafkaPermissions({ scenario, faults: [] });
    const reordered = duplicates({ 'first-batch-taken-out-of-order': 1 }, 'fatal-txn-error');
    const [permitted] = judgeAnomalies(reordered, permissions, none);
    expect(permitted).toMatchObject({ coveredBy: 'kafka:first-batch-reordered' });
    // confluentinc/librdkafka#4438's refusal, not next in line for the broker, stays a violation.
    const plain = duplicates({ OUT_OF_ORDER_SEQUENCE_NUMBER: 1 }, 'fatal-txn-error');
    expect(judgeAnomalies(plain, permissions, none)[0]).toMatchObject({ verdict: 'violates' });
  });

  it('is not granted for the Java client', () => {
    expect(ids(loadScenario(SAFE), [CRASH])).not.toContain('first-batch-reordered');
  });
});

describe('scripted expectations under swarm', () => {
  const base = loadScenario('scenarios/zombie-fencing.yaml');

  function drawnWith(transactionTimeoutMs: number, kinds: string[]): ScenarioConfig {
    const clients = base.clients.map((client) =>
      client.role === 'producer' && client.name === 'A'
        ? { ...client, settings: { ...client.settings, transactionTimeoutMs } }
        : client,
    );
    const nemesis = { kinds, targets: ['b1', 'A'] } as unknown as ScenarioConfig['nemesis'];
    return { ...base, clients, nemesis };
  }

  it('keeps expect.fenced while the pause still outlasts the drawn transaction.timeout.ms', () => {
    const kept = swarmExpectations(base, drawnWith(12_000, ['pause', 'partition']));
    expect(kept.dropped).toEqual([]);
    expect(kept.scenario.expect.fenced).toEqual(['A']);
  });

  it('drops it, saying why, when the drawn timeout is no longer shorter than the pause', () => {
    const kept = swarmExpectations(base, drawnWith(25_000, ['pause']));
    expect(kept.scenario.expect.fenced).toEqual([]);
    expect(kept.dropped).toEqual([
      'expect.fenced A dropped: the drawn A.transaction.timeout.ms=25000 is no longer shorter ' +
        "than A's scripted 25000 ms pause",
    ]);
  });

  it('drops it when the swarm may crash A, whose restart initializes again', () => {
    const kept = swarmExpectations(base, drawnWith(10_000, ['crash']));
    expect(kept.scenario.expect.fenced).toEqual([]);
    expect(kept.dropped[0]).toContain('the swarm may crash A');
  });
});

describe("KAFKA-14034's proposed fix (apache/kafka#13796) leaves the out-of-order bump", () => {
  const fixed = {
    ...loadScenario(SAFE),
    bugs: { ...loadScenario(SAFE).bugs, 'KAFKA-14034': false },
  };
  const permissions = kafkaPermissions({ scenario: fixed, faults: [] });

  it('a rewrite after OUT_OF_ORDER_SEQUENCE_NUMBER stays permitted with the fix', () => {
    const check = duplicates({ 'rewritten-after-out-of-order-bump': 1 }, 'epoch-bump-duplicate');
    const [verdict] = judgeAnomalies(check, permissions, fixed.expect);
    expect(verdict).toMatchObject({
      verdict: 'permitted',
      coveredBy: 'kafka:idempotent-out-of-order-bump',
    });
  });

  it('a rewrite after a failed batch violates with the fix: that bump waits', () => {
    const check = duplicates({ 'rewritten-after-failed-batch-bump': 1 }, 'epoch-bump-duplicate');
    const [verdict] = judgeAnomalies(check, permissions, fixed.expect);
    expect(verdict).toMatchObject({ verdict: 'violates' });
  });

  it('both routes are permitted with the bug, as every release has it', () => {
    const scenario = loadScenario(SAFE);
    const check = duplicates(
      { 'rewritten-after-failed-batch-bump': 1, 'rewritten-after-out-of-order-bump': 1 },
      'epoch-bump-duplicate',
    );
    const [verdict] = judgeAnomalies(
      check,
      kafkaPermissions({ scenario, faults: [] }),
      scenario.expect,
    );
    expect(verdict).toMatchObject({
      verdict: 'permitted',
      coveredBy: 'kafka:idempotent-epoch-bump',
    });
  });
});
