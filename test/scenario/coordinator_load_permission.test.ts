/**
 * Goal: the coordinator-loaded-uncommitted permission (a coordinator answered from a
 * `__transaction_state` record it loaded above the high watermark, and a clean election then
 * truncated the record) permits a hanging transaction and the records it holds back, only on the
 * partitions that record listed and only as held back: a lost write of another classification,
 * or on another partition, still violates Kafka's guarantee, and without such a truncation the
 * permission is not granted.
 * Method: hand-built check results and replication facts on the bundled safe scenario
 * (replicated-random-faults swarm seed 32 is the end-to-end case, in swarm500_findings).
 */
import { describe, expect, it } from 'vitest';
import { groupAnomalies, type Anomaly, type CheckResult } from '../../sim/checker';
import type { OracleTruncation } from '../../sim/history';
import { loadScenario } from '../../scenarios';
import { judgeAnomalies } from '../../sim/runner/guarantee_verdicts';
import { kafkaPermissions } from '../../sim/runner/kafka_guarantee';

const scenario = loadScenario('scenarios/replicated-random-faults.yaml');

const TRUNCATED: OracleTruncation = {
  timeUs: 34_935_256,
  topic: '__transaction_state',
  partition: 12,
  broker: 'b2',
  toOffset: 31,
  reason: 'diverging-epoch',
  removed: [],
  loadedTransactions: [
    {
      transactionalId: 'tx-random',
      producerId: 1000,
      producerEpoch: 7,
      state: 'Ongoing',
      partitions: [
        { topic: 'events', partition: 1 },
        { topic: 'events', partition: 2 },
      ],
      loadedBy: 'b2',
      loadedUs: 22_441_163,
    },
  ],
};

function lostWrite(partition: number, classification: string): Anomaly {
  return {
    kind: 'lost-write',
    message: 'value 184 held back',
    topic: 'events',
    partition,
    value: 184,
    classification,
    activeFaults: [],
  };
}

function checked(found: readonly Anomaly[]): CheckResult {
  const kinds = [...new Set(found.map((anomaly) => anomaly.kind))].sort();
  return {
    valid: found.length === 0,
    anomalyTypes: kinds,
    anomalies: [...found],
    anomalyCounts: kinds.map((kind) => ({
      kind,
      count: found.filter((anomaly) => anomaly.kind === kind).length,
    })),
    anomalyGroups: groupAnomalies(found),
    checkerErrors: [],
  };
}

function verdictOf(found: Anomaly, truncations: readonly OracleTruncation[]) {
  const permissions = kafkaPermissions({
    scenario,
    faults: [{ kind: 'crash', description: 'crash of b3 for 8000 ms' }],
    replication: { elections: [], truncations },
  });
  return judgeAnomalies(checked([found]), permissions, scenario.expect)[0];
}

describe('a coordinator answered from a loaded record a clean election truncated', () => {
  it('permits records held back by the last stable offset on a partition the record listed', () => {
    const verdict = verdictOf(lostWrite(2, 'held-back-by-last-stable-offset'), [TRUNCATED]);
    expect(verdict).toMatchObject({
      verdict: 'permitted',
      coveredBy: 'kafka:coordinator-loaded-uncommitted',
    });
    expect(verdict?.label).toContain(
      "tx-random's Ongoing record [events-1, events-2] in __transaction_state-12, " +
        'loaded by coordinator b2 at 22.441163 s, truncated on b2 at 34.935256 s',
    );
  });

  it('a held-back record on a partition the record did not list violates the guarantee', () => {
    const verdict = verdictOf(lostWrite(0, 'held-back-by-last-stable-offset'), [TRUNCATED]);
    expect(verdict).toMatchObject({ verdict: 'violates', coveredBy: '' });
  });

  it('a lost write of another classification still violates the guarantee', () => {
    const verdict = verdictOf(lostWrite(2, 'never-written'), [TRUNCATED]);
    expect(verdict).toMatchObject({ verdict: 'violates', coveredBy: '' });
  });

  it('the same truncation without a loaded record grants nothing', () => {
    const { loadedTransactions: _, ...plain } = TRUNCATED;
    const verdict = verdictOf(lostWrite(2, 'held-back-by-last-stable-offset'), [plain]);
    expect(verdict).toMatchObject({ verdict: 'violates', coveredBy: '' });
  });
});
