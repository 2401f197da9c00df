/**
 * Goal: the guarantee model permits a fatal-txn-error only for the reason it states. The
 * end-txn-race permission (transaction version 2 with faults; KAFKA-20785) covers
 * INVALID_TXN_STATE only: an INVALID_PRODUCER_ID_MAPPING, an idempotent producer's
 * OUT_OF_ORDER_SEQUENCE_NUMBER or a self-fence under the same faults still violates Kafka's
 * guarantee. INVALID_PRODUCER_ID_MAPPING after `__transaction_state` lost the id's record
 * (classification `transaction-log-truncated`) is permitted by the data-loss permission of the
 * fault that lost it (here a power loss, placed on the internal topic, so on every partition).
 * Method: hand-built check results judged against the permissions of the bundled
 * coordinator-failover scenario (transaction version 2) with ELR off.
 */
import { describe, expect, it } from 'vitest';
import { groupAnomalies, type Anomaly, type CheckResult } from '../../sim/checker';
import type { OracleTruncation } from '../../sim/history';
import { loadScenario, type ScenarioConfig } from '../../scenarios';
import { judgeAnomalies } from '../../sim/runner/guarantee_verdicts';
import { kafkaPermissions, type HappenedFault } from '../../sim/runner/kafka_guarantee';

const base = loadScenario('scenarios/coordinator-failover.yaml');
const scenario: ScenarioConfig = {
  ...base,
  protocol: { ...base.protocol, eligibleLeaderReplicasVersion: 0 },
};
const CRASH: HappenedFault = { kind: 'crash', description: 'crash of b2 for 3000 ms' };
const POWER_LOSS: HappenedFault = { kind: 'crash', description: 'power loss of b2 for 4000 ms' };

const LOST_STATE_RECORD: OracleTruncation = {
  timeUs: 12_000_000,
  topic: '__transaction_state',
  partition: 48,
  broker: 'b2',
  toOffset: 3,
  reason: 'power-loss',
  removed: [
    {
      offset: 3,
      value: 0,
      producerId: -1,
      producerEpoch: -1,
      sequence: -1,
      isTransactional: false,
      appendUs: 11_000_000,
    },
  ],
  transactionalIds: ['orders-tx'],
};

function fatal(classification: string): Anomaly {
  return {
    kind: 'fatal-txn-error',
    message: `fatal ${classification}`,
    classification,
    activeFaults: [],
  };
}

function verdictOf(found: Anomaly, faults: HappenedFault[], truncations: OracleTruncation[]) {
  const check: CheckResult = {
    valid: false,
    anomalyTypes: ['fatal-txn-error'],
    anomalies: [found],
    anomalyCounts: [{ kind: 'fatal-txn-error', count: 1 }],
    anomalyGroups: groupAnomalies([found]),
    checkerErrors: [],
  };
  const permissions = kafkaPermissions({
    scenario,
    faults,
    replication: { elections: [], truncations },
  });
  return judgeAnomalies(check, permissions, scenario.expect)[0];
}

describe('fatal-txn-error permissions name their error', () => {
  it('end-txn-race permits INVALID_TXN_STATE under transaction version 2 with faults', () => {
    expect(verdictOf(fatal('INVALID_TXN_STATE'), [CRASH], [])).toMatchObject({
      verdict: 'permitted',
      coveredBy: 'kafka:end-txn-race',
    });
  });

  it('but not another fatal error under the same faults', () => {
    for (const other of [
      'INVALID_PRODUCER_ID_MAPPING',
      'OUT_OF_ORDER_SEQUENCE_NUMBER',
      'self-fence',
    ]) {
      expect(verdictOf(fatal(other), [CRASH], [])).toMatchObject({ verdict: 'violates' });
    }
  });

  it('an unknown producerId after a power loss took its record is the power loss', () => {
    const verdict = verdictOf(
      fatal('transaction-log-truncated'),
      [POWER_LOSS],
      [LOST_STATE_RECORD],
    );
    expect(verdict).toMatchObject({ verdict: 'permitted', coveredBy: 'kafka:power-loss' });
    // The same classification with no loss in the run has nothing to permit it.
    expect(verdictOf(fatal('transaction-log-truncated'), [CRASH], [])).toMatchObject({
      verdict: 'violates',
    });
  });
});
