/**
 * Goal: a data-loss permission covers an anomaly only on the partitions its fault could have
 * affected (a power loss only where a replica lost its unflushed tail, an unclean election only
 * on the partition it elected, acks=1 only where the weak-acks producer wrote), every anomaly is
 * judged (not only the examples the cap keeps), and a kind is permitted only when each of its
 * anomalies is covered. Method: hand-built check results and replication facts on the bundled
 * safe scenario with ELR off; and the real checker's groups of a hand-built anomaly list.
 */
import { describe, expect, it } from 'vitest';
import { groupAnomalies, type Anomaly, type CheckResult } from '../../sim/checker';
import type { OracleElection, OracleTruncation } from '../../sim/history';
import { loadScenario, type ScenarioConfig } from '../../scenarios';
import { judgeAnomalies } from '../../sim/runner/guarantee_verdicts';
import { kafkaPermissions, type HappenedFault } from '../../sim/runner/kafka_guarantee';
import type { ReplicationFacts } from '../../sim/runner/fault_scope';

const SAFE = 'scenarios/replicated-random-faults.yaml';
const POWER_LOSS: HappenedFault = { kind: 'crash', description: 'power loss of b3 for 4000 ms' };

function withoutElr(scenario: ScenarioConfig): ScenarioConfig {
  return { ...scenario, protocol: { ...scenario.protocol, eligibleLeaderReplicasVersion: 0 } };
}

/** b3 lost the unflushed tail of its events-0 replica (b3 holds no replica of events-1). */
const POWER_LOSS_ON_EVENTS_0: OracleTruncation = {
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

function facts(
  truncations: readonly OracleTruncation[],
  elections: readonly OracleElection[] = [],
): ReplicationFacts {
  return { truncations, elections };
}

function lostWrite(partition: number, value: number): Anomaly {
  return {
    kind: 'lost-write',
    message: `value ${value} lost`,
    topic: 'events',
    partition,
    value,
    classification: 'lost-on-power-loss',
    activeFaults: [],
  };
}

/** What checkHistory returns for these anomalies, with the examples capped at `cap`. */
function checked(found: readonly Anomaly[], cap = 20): CheckResult {
  const kinds = [...new Set(found.map((anomaly) => anomaly.kind))].sort();
  return {
    valid: found.length > 0 ? false : true,
    anomalyTypes: kinds,
    anomalies: kinds.flatMap((kind) => found.filter((a) => a.kind === kind).slice(0, cap)),
    anomalyCounts: kinds.map((kind) => ({
      kind,
      count: found.filter((anomaly) => anomaly.kind === kind).length,
    })),
    anomalyGroups: groupAnomalies(found),
    checkerErrors: [],
  };
}

describe('a power loss permits loss only where it lost a tail', () => {
  const scenario = withoutElr(loadScenario(SAFE));
  const permissions = kafkaPermissions({
    scenario,
    faults: [POWER_LOSS],
    replication: facts([POWER_LOSS_ON_EVENTS_0]),
  });

  it('permits a lost write on the partition whose replica lost its unflushed tail', () => {
    const [verdict] = judgeAnomalies(checked([lostWrite(0, 7)]), permissions, scenario.expect);
    expect(verdict).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:power-loss' });
    expect(verdict?.label).toContain('on events-0');
  });

  it('a lost write on a partition the broker does not replicate violates the guarantee', () => {
    const [verdict] = judgeAnomalies(checked([lostWrite(1, 9)]), permissions, scenario.expect);
    expect(verdict).toMatchObject({ verdict: 'violates', expectedBy: null, coveredBy: '' });
    expect(verdict?.label).toBe("violates Kafka's guarantee");
    expect(verdict?.outsideScope).toEqual({ count: 1, partitions: ['events-1'] });
  });

  it('one anomaly outside the scope, behind the example cap, makes the kind a violation', () => {
    const found = [...Array.from({ length: 5 }, (_, i) => lostWrite(0, i)), lostWrite(1, 99)];
    const [verdict] = judgeAnomalies(checked(found, 2), permissions, scenario.expect);
    expect(verdict).toMatchObject({ verdict: 'violates', count: 6 });
    expect(verdict?.outsideScope).toEqual({ count: 1, partitions: ['events-1'] });
  });

  it('a power loss that removed nothing (every batch flushed) permits no loss at all', () => {
    const flushed = { ...POWER_LOSS_ON_EVENTS_0, removed: [] };
    const ids = kafkaPermissions({ scenario, faults: [POWER_LOSS], replication: facts([flushed]) });
    expect(ids.map((permission) => permission.id)).not.toContain('power-loss');
  });

  it('a tail lost on __transaction_state reaches every partition', () => {
    const internal = { ...POWER_LOSS_ON_EVENTS_0, topic: '__transaction_state' };
    const reach = kafkaPermissions({
      scenario,
      faults: [POWER_LOSS],
      replication: facts([internal]),
    });
    const [verdict] = judgeAnomalies(checked([lostWrite(1, 9)]), reach, scenario.expect);
    expect(verdict).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:power-loss' });
  });
});

describe('other data-loss permissions are scoped to where their fault was', () => {
  it('a forced unclean election of events-0 permits loss on events-0 only', () => {
    const scenario = loadScenario(SAFE);
    const unclean: OracleElection = {
      timeUs: 5_000_000,
      topic: 'events',
      partition: 0,
      leader: 'b2',
      leaderEpoch: 3,
      kind: 'unclean',
    };
    const permissions = kafkaPermissions({
      scenario,
      faults: [
        { kind: 'unclean-election', description: 'forced unclean leader election of events-0' },
      ],
      replication: facts([], [unclean]),
    });
    const judged = (partition: number) =>
      judgeAnomalies(checked([lostWrite(partition, 1)]), permissions, scenario.expect)[0];
    expect(judged(0)).toMatchObject({ coveredBy: 'kafka:forced-unclean-election' });
    expect(judged(2)?.verdict).toBe('violates');
  });

  it('acks=1 permits loss only on the partitions the weak-acks producer wrote', () => {
    const scenario = loadScenario('scenarios/acks-1-leader-crash.yaml');
    const crash: HappenedFault = { kind: 'crash', description: 'crash of b1 for 4000 ms' };
    const producer = scenario.clients.find((client) => client.role === 'producer');
    const topic = producer?.workload.topics[0] ?? 'orders';
    const history = [
      {
        index: 0,
        timeUs: 1000,
        type: 'ok' as const,
        process: `${producer?.name ?? 'P'}#0`,
        client: producer?.name ?? 'P',
        f: 'send' as const,
        value: { send: { topic, partition: 0, value: 1 } },
      },
    ];
    const permissions = kafkaPermissions({ scenario, faults: [crash], history });
    const lost = (partition: number): Anomaly => ({ ...lostWrite(partition, 1), topic });
    const judged = (partition: number) =>
      judgeAnomalies(checked([lost(partition)]), permissions, scenario.expect)[0];
    expect(judged(0)).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:acks' });
    expect(judged(5)?.verdict).toBe('violates');
  });
});

describe('groupAnomalies', () => {
  it('counts every anomaly per kind, classification and partitions involved', () => {
    const torn: Anomaly = {
      kind: 'torn-transaction',
      message: 'torn',
      topic: 'events',
      partition: 2,
      classification: 'partly-committed',
      transactionRecords: [
        { topic: 'events', partition: 2, offset: null, value: 1, fate: 'absent' },
        { topic: 'events', partition: 0, offset: 4, value: 2, fate: 'visible' },
      ],
      activeFaults: [],
    };
    expect(groupAnomalies([lostWrite(0, 1), lostWrite(0, 2), lostWrite(1, 3), torn])).toEqual([
      {
        kind: 'lost-write',
        classification: 'lost-on-power-loss',
        partitions: [{ topic: 'events', partition: 0 }],
        count: 2,
      },
      {
        kind: 'lost-write',
        classification: 'lost-on-power-loss',
        partitions: [{ topic: 'events', partition: 1 }],
        count: 1,
      },
      {
        kind: 'torn-transaction',
        classification: 'partly-committed',
        partitions: [
          { topic: 'events', partition: 0 },
          { topic: 'events', partition: 2 },
        ],
        count: 1,
      },
    ]);
  });
});
