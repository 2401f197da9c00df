/**
 * Goal: case BUG-01 of ../shared/cases reproduced three ways. Without KIP-890 verification the
 * held Produce opens a transaction no coordinator will close: the last stable offset of
 * payments-0 stays at 1, the read_committed consumer stalls there while the read_uncommitted one
 * and the other partition flow, and hanging-transaction names the producerId, epoch, partition
 * and first offset. With Kafka's defaults the late batch is refused. With an operator's
 * find-hanging and abort (KIP-664) the last stable offset advances and the records show.
 * Method: seeds 1..3 of each scenario (SIM_SEEDS widens), exact values from the oracle's final
 * partition state and the history; swarm seeds 132 and 227 (500-seed sweep) for the operator's
 * outcomes a report prints when its abort did not end the hanging transaction.
 */
import { describe, expect, it } from 'vitest';
import { sweepSeeds } from '../seed_range';
import {
  finalValues,
  operatorResults,
  partitionOf,
  polledValues,
  runCase,
  sentValues,
} from './case_helpers';
import { oracleRecords } from '../scenario/history_queries';
import { loadScenario } from '../../scenarios';
import { renderRunReport } from '../../reports';
import { drawSwarm, runScenario, type RunReport } from '../../sim/runner';

const SEEDS = sweepSeeds('1..3');

describe('hanging-transaction.yaml (BUG-01, no verification, TV1)', () => {
  it.each(SEEDS)(
    'seed %s: LSO pinned at 1, C1 stalls, C2 and audit flow, anomaly named',
    (seed) => {
      const run = runCase('hanging-transaction', seed);
      const payments = partitionOf(run, 'payments');
      const pa = [...sentValues(run, 'PA')];
      // ABORT marker at 0 (the aborted transaction), PA's stale batch opens a transaction at 1.
      expect(oracleRecords(payments)[0]?.control).toBe('ABORT');
      expect(oracleRecords(payments)[1]).toMatchObject({
        offset: 1,
        producerEpoch: 0,
        value: pa[0],
      });
      expect(payments.lastStableOffset).toBe(1);
      expect(payments.highWatermark).toBe(payments.logEndOffset);
      expect(payments.highWatermark).toBeGreaterThan(50);
      const pn = [...sentValues(run, 'PN')];
      const pnOnPayments = oracleRecords(payments).filter(
        (r) => r.value !== null && pn.includes(r.value),
      );
      expect(pnOnPayments.length).toBeGreaterThan(0);
      // C1 (read_committed) never gets past the pinned offset on payments, but reads audit.
      expect(polledValues(run, 'C1', 'payments')).toEqual([]);
      expect(polledValues(run, 'C1', 'audit').length).toBeGreaterThan(0);
      // C2 (read_uncommitted) reads PN's records on payments and PA's stale batch.
      expect(polledValues(run, 'C2', 'payments')).toEqual(
        expect.arrayContaining(pnOnPayments.map((r) => r.value)),
      );
      const hanging = run.report.check.anomalies.filter((a) => a.kind === 'hanging-transaction');
      expect(hanging).toHaveLength(1);
      expect(hanging[0]).toMatchObject({
        topic: 'payments',
        partition: 0,
        offset: 1,
        producerId: oracleRecords(payments)[1]?.producerId,
        producerEpoch: 0,
        transactionalId: 'pa',
      });
    },
  );
});

describe('hanging-transaction-verified.yaml (BUG-01 under current defaults)', () => {
  it.each(SEEDS)('seed %s: the late batch is refused; C1 reads every PN record', (seed) => {
    const run = runCase('hanging-transaction-verified', seed);
    const payments = partitionOf(run, 'payments');
    const pa = sentValues(run, 'PA');
    expect(oracleRecords(payments).some((r) => r.value !== null && pa.has(r.value))).toBe(false);
    expect(payments.openTransactions).toEqual([]);
    expect(payments.lastStableOffset).toBe(payments.highWatermark);
    const onLog = oracleRecords(payments).flatMap((r) => (r.value === null ? [] : [r.value]));
    expect(finalValues(run, 'read_committed', 'payments')).toEqual(onLog);
    expect(run.report.check.anomalyTypes).toEqual([]);
  });
});

describe('hanging-transaction-operator-abort.yaml (BUG-01 repaired with KIP-664)', () => {
  it.each(SEEDS)('seed %s: find-hanging names it, abort unpins the LSO', (seed) => {
    const run = runCase('hanging-transaction-operator-abort', seed);
    const payments = partitionOf(run, 'payments');
    const [described, found, aborted] = operatorResults(run);
    expect(described).toMatch(
      /payments-0: producerId \d+ epoch 0 coordinatorEpoch \d+ currentTransactionStartOffset 1/,
    );
    expect(found).toMatch(
      /hanging: payments-0 producerId \d+ epoch 0 from offset 1 \(pa is \w+ without payments-0\)/,
    );
    expect(aborted).toMatch(
      /WriteTxnMarkers\(ABORT\) for producerId \d+ epoch 0 at payments-0 from offset 1: NONE/,
    );
    expect(payments.openTransactions).toEqual([]);
    expect(payments.lastStableOffset).toBe(payments.highWatermark);
    const pa = sentValues(run, 'PA');
    const pn = sentValues(run, 'PN');
    const committed = finalValues(run, 'read_committed', 'payments');
    expect(committed.some((value) => pa.has(value))).toBe(false);
    const pnOnLog = oracleRecords(payments).filter((r) => r.value !== null && pn.has(r.value));
    expect(committed).toEqual(pnOnLog.map((r) => r.value));
    expect(run.report.check.anomalyTypes).toEqual([]);
  });
});

/**
 * Swarm seeds of the 500-seed sweep that end with the hanging transaction Kafka permits after a
 * truncated marker: the report says what the operator did and why its abort did not end it.
 */
describe('hanging-transaction-operator-abort.yaml under swarm: the failed abort explained', () => {
  function swarmRun(seed: string): RunReport {
    const scenario = loadScenario('scenarios/hanging-transaction-operator-abort.yaml');
    const drawn = drawSwarm(scenario, seed);
    return runScenario(drawn.scenario, { seed, swarm: drawn.parameters }).report;
  }

  it('seed 132: find-hanging got no DescribeProducersResponse, so nothing was aborted', () => {
    const report = swarmRun('132');
    const timedOut =
      'Failed to describe producers for 1 partitions: payments-0 REQUEST_TIMED_OUT: no answer ' +
      'within request.timeout.ms=30000, or the connection closed first';
    expect(report.operatorOutcomes).toEqual([
      {
        timeUs: 100_002_659,
        description:
          'kafka-transactions describe-producers --topic payments --partition 0: payments-0: ' +
          'REQUEST_TIMED_OUT: no answer within request.timeout.ms=30000, or the connection ' +
          'closed first',
      },
      {
        timeUs: 115_003_609,
        description: `kafka-transactions find-hanging --topic payments: ${timedOut}`,
      },
      {
        timeUs: 120_001_912,
        description:
          `kafka-transactions abort --topic payments: nothing to abort: ` +
          `find-hanging: ${timedOut}`,
      },
    ]);
    expect(report.check.anomalyTypes).toContain('hanging-transaction');
    expect(renderRunReport(report, { colour: false })).toContain(
      `at 120.001912 s kafka-transactions abort`,
    );
  });

  it('seed 227: the late batch was written 44.8 s before the abort, under the 60 s timeout', () => {
    const [, found, aborted] = swarmRun('227').operatorOutcomes ?? [];
    expect(found?.description).toBe(
      'kafka-transactions find-hanging --topic payments: no hanging transactions (passed over: ' +
        'producerId 0 at payments-0 from offset 1 last wrote 39809 ms ago, not over ' +
        '--max-transaction-timeout 60000 ms)',
    );
    expect(aborted?.description).toBe(
      'kafka-transactions abort --topic payments: nothing to abort: find-hanging: no hanging ' +
        'transactions (passed over: producerId 0 at payments-0 from offset 1 last wrote ' +
        '44809 ms ago, not over --max-transaction-timeout 60000 ms)',
    );
  });
});
