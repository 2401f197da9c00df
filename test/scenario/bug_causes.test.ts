/**
 * Goal: an anomaly of a kind a switched-on bug's mechanism makes is labelled as caused by that
 * switch (its id and source) and, in the bug's reproducer (a file demanding one of its kinds),
 * expected, so known-bug files need no hand-typed `allowed`; the
 * same kind with the switch off, and a kind the bug does not make with it on, still violate
 * Kafka's guarantee unexpected; a switched-on bug withdraws its kinds from the permissions the
 * configuration grants, not from one its fault's own truncation placed. Method: hand-built check
 * results judged against the permissions and bug causes of bundled scenarios.
 */
import { describe, expect, it } from 'vitest';
import { groupAnomalies, type Anomaly, type CheckResult } from '../../sim/checker';
import type { OracleTruncation } from '../../sim/history';
import { loadScenario, type BugId, type ScenarioConfig } from '../../scenarios';
import { bugCauses } from '../../sim/runner/bug_causes';
import { judgeAnomalies } from '../../sim/runner/guarantee_verdicts';
import { kafkaPermissions, type HappenedFault } from '../../sim/runner/kafka_guarantee';

const DEDUP_BUG: BugId = 'redpanda-data/redpanda#3039';
const DEDUP_FILE = 'scenarios/known-bugs/single-batch-dedup-window.yaml';
const DROP: HappenedFault = { kind: 'drop', description: 'drop ProduceResponse to P' };
const POWER_LOSS: HappenedFault = { kind: 'crash', description: 'power loss of b3 for 4000 ms' };

function withBug(scenario: ScenarioConfig, id: BugId, on: boolean): ScenarioConfig {
  return { ...scenario, bugs: { ...scenario.bugs, [id]: on } };
}

function anomaly(kind: Anomaly['kind'], classification: string, topic = 'payments'): Anomaly {
  const message = `${kind} of value 7`;
  return { kind, message, topic, partition: 0, value: 7, classification, activeFaults: [] };
}

/** What checkHistory returns for these anomalies. */
function checked(...found: Anomaly[]): CheckResult {
  const kinds = [...new Set(found.map((one) => one.kind))].sort();
  return {
    valid: false,
    anomalyTypes: kinds,
    anomalies: found,
    anomalyCounts: kinds.map((kind) => ({
      kind,
      count: found.filter((one) => one.kind === kind).length,
    })),
    anomalyGroups: groupAnomalies(found),
    checkerErrors: [],
  };
}

function judge(scenario: ScenarioConfig, check: CheckResult, faults = [DROP]) {
  const permissions = kafkaPermissions({ scenario, faults });
  return judgeAnomalies(check, permissions, scenario.expect, bugCauses(scenario, faults));
}

describe('a kind a switched-on bug makes', () => {
  const scenario = loadScenario(DEDUP_FILE);
  const twice = checked(anomaly('duplicate', 'written-twice'));

  it('is labelled as caused by the switch, with its source, and expected', () => {
    const [verdict] = judge(scenario, twice);
    expect(verdict).toMatchObject({
      kind: 'duplicate',
      verdict: 'violates',
      expectedBy: 'bug-switch',
      causedBy: { id: DEDUP_BUG },
      coveredBy: `bug:${DEDUP_BUG}`,
    });
    expect(verdict?.causedBy?.source).toMatch(/^redpanda-data\/redpanda#3039, fix #3077/);
    expect(verdict?.label).toBe(
      "violates Kafka's guarantee: caused by bug switch redpanda-data/redpanda#3039, which " +
        `this configuration turns on (${verdict?.causedBy?.source ?? ''}); expected with the ` +
        "bug's other symptoms",
    );
  });

  it('is labelled but not expected in a file that demands none of the bug kinds', () => {
    const quiet = { ...scenario, expect: { ...scenario.expect, anomalies: [] } };
    const [verdict] = judge(quiet, twice);
    expect(verdict).toMatchObject({ expectedBy: null, causedBy: { id: DEDUP_BUG }, coveredBy: '' });
    expect(verdict?.label).toMatch(/^violates Kafka's guarantee: caused by bug switch redpanda/);
  });

  it('with the switch off violates the guarantee, unexpected', () => {
    const [verdict] = judge(withBug(scenario, DEDUP_BUG, false), twice);
    expect(verdict).toMatchObject({ verdict: 'violates', expectedBy: null, coveredBy: '' });
    expect(verdict?.causedBy).toBeUndefined();
    expect(verdict?.label).toBe("violates Kafka's guarantee");
  });

  it('the switch on does not excuse a kind its mechanism does not make', () => {
    const [verdict] = judge(scenario, checked(anomaly('lost-write', 'lost-on-power-loss')));
    expect(verdict).toMatchObject({ kind: 'lost-write', verdict: 'violates', expectedBy: null });
    expect(verdict?.causedBy).toBeUndefined();
  });

  it('a kind the scenario expects names the bug too', () => {
    const [verdict] = judge(scenario, checked(anomaly('epoch-bump-duplicate', 'rewritten')));
    expect(verdict).toMatchObject({ expectedBy: 'expect.anomalies', causedBy: { id: DEDUP_BUG } });
    expect(verdict?.label).toMatch(/known to break it; caused by bug switch redpanda/);
  });

  it('a switch that kafka.version turns on counts as one the file sets', () => {
    const old = loadScenario('scenarios/known-bugs/timeout-abort-without-fence.yaml');
    expect(bugCauses(old, [DROP]).find((cause) => cause.id === 'KAFKA-6119')?.kinds).toEqual([
      'torn-transaction',
      'lost-write',
    ]);
    const [verdict] = judge(old, checked(anomaly('torn-transaction', 'part-aborted', 'orders')));
    expect(verdict).toMatchObject({ expectedBy: 'bug-switch', causedBy: { id: 'KAFKA-6119' } });
  });
});

describe('which permissions a switched-on bug withdraws its kinds from', () => {
  it('every permission the configuration alone grants (idempotence-off)', () => {
    const plain = loadScenario('scenarios/acks-1-leader-crash.yaml');
    const ids = (scenario: ScenarioConfig) =>
      kafkaPermissions({ scenario, faults: [DROP] }).map((permission) => permission.id);
    expect(ids(plain)).toContain('idempotence-off');
    expect(ids(withBug(plain, DEDUP_BUG, true))).not.toContain('idempotence-off');
  });

  it('not a data-loss permission its fault placed: there Kafka permits the kind anyway', () => {
    const safe = loadScenario('scenarios/replicated-random-faults.yaml');
    const scenario = withBug(
      { ...safe, protocol: { ...safe.protocol, eligibleLeaderReplicasVersion: 0 } },
      DEDUP_BUG,
      true,
    );
    const cut: OracleTruncation = {
      timeUs: 36_000_000,
      topic: 'events',
      partition: 0,
      broker: 'b3',
      toOffset: 40,
      reason: 'power-loss',
      removed: [
        {
          offset: 40,
          value: 7,
          producerId: 1,
          producerEpoch: 0,
          sequence: 40,
          isTransactional: false,
          appendUs: 31_000_000,
        },
      ],
    };
    const check = checked(anomaly('duplicate', 'written-once', 'events'));
    const replication = { truncations: [cut], elections: [] };
    const placed = kafkaPermissions({ scenario, faults: [POWER_LOSS], replication });
    const [permitted] = judgeAnomalies(
      check,
      placed,
      scenario.expect,
      bugCauses(scenario, [POWER_LOSS]),
    );
    expect(permitted).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:power-loss' });
    // Without the oracle's truncations the power loss is placed nowhere: withdrawn.
    const unplaced = kafkaPermissions({ scenario, faults: [POWER_LOSS] });
    const [bugs] = judgeAnomalies(
      check,
      unplaced,
      scenario.expect,
      bugCauses(scenario, [POWER_LOSS]),
    );
    expect(bugs).toMatchObject({ verdict: 'violates', causedBy: { id: DEDUP_BUG } });
  });
});

describe('a bug that acts only through one fault kind (KAFKA-9749, log-dir-failure)', () => {
  // 2.0.1 has KAFKA-9749; the file writes with acks=1, whose lost-write Kafka permits.
  const old = loadScenario('scenarios/known-bugs/zombie-fetch-after-same-leader-epoch.yaml');
  const lost = checked(anomaly('lost-write', 'acknowledged-then-lost', 'orders'));

  it('without a failed log directory it neither causes a kind nor withdraws a permission', () => {
    expect(bugCauses(old, [DROP]).map((cause) => cause.id)).not.toContain('KAFKA-9749');
    const [verdict] = judge(old, lost);
    expect(verdict).toMatchObject({ kind: 'lost-write', verdict: 'permitted' });
  });

  it("with one the lost-write is the bug switch's, expected and not permitted", () => {
    const failed = { kind: 'log-dir-failure', description: 'log directory failure of b1' };
    expect(bugCauses(old, [failed]).map((cause) => cause.id)).toContain('KAFKA-9749');
    const [verdict] = judge(old, lost, [failed]);
    expect(verdict).toMatchObject({ verdict: 'violates', causedBy: { id: 'KAFKA-9749' } });
  });
});
