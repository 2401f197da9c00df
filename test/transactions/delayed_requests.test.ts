/**
 * Goal: cases BUG-02, BUG-03 and BUG-16 of ../shared/cases, each with the anomaly under the
 * vulnerable switches and the case's correct value under Kafka's current ones.
 * - BUG-02: a late Produce of an aborted transaction is committed by the next one (TV1, no
 *   verification): torn-transaction and zombie-write; under TV2 it is refused and C1 reads
 *   exactly T2's records at offsets 0..4.
 * - BUG-03: a delayed EndTxn(commit) commits part of a later transaction the client aborted
 *   (TV1): torn-transaction; under TV2 it is fenced and nothing of T2 shows.
 * - BUG-16: a stalled producer's batch meets a stale verification: INVALID_TXN_STATE (fatal)
 *   with the old check order, INVALID_PRODUCER_EPOCH (abortable, and the producer carries on)
 *   with KAFKA-19690's.
 * Method: seeds 1..3 of each scenario (SIM_SEEDS widens); values from the history and oracle.
 */
import { describe, expect, it } from 'vitest';
import { sweepSeeds } from '../seed_range';
import { finalValues, partitionOf, runCase, sentValues, txnErrors } from './case_helpers';
import { oracleRecords } from '../scenario/history_queries';

const SEEDS = sweepSeeds('1..3');

/** The values of one client's transactions, in order: [T1 values, T2 values, ...]. */
function transactionValues(run: ReturnType<typeof runCase>, client: string): number[][] {
  return run.history.flatMap((op) =>
    op.client === client && op.f === 'txn' && op.type === 'invoke'
      ? [op.value.sends.map((send) => send.value)]
      : [],
  );
}

describe('BUG-02 delayed-produce-next-transaction', () => {
  it.each(SEEDS)('seed %s, TV1 without verification: T1 committed with T2', (seed) => {
    const run = runCase('delayed-produce-next-transaction', seed);
    const [t1, t2] = transactionValues(run, 'PA');
    expect(txnErrors(run, 'PA')).toEqual(['REQUEST_TIMED_OUT', 'NONE']);
    // The client aborted T1, yet read_committed sees T1's records before T2's.
    expect(finalValues(run, 'read_committed', 'payments')).toEqual([...(t1 ?? []), ...(t2 ?? [])]);
    expect(run.report.check.anomalyTypes).toEqual(['torn-transaction', 'zombie-write']);
  });

  it.each(SEEDS)('seed %s, TV2 with verification: C1 reads exactly T2 at 0..4', (seed) => {
    const run = runCase('delayed-produce-next-transaction-tv2', seed);
    const [, t2] = transactionValues(run, 'PA');
    const payments = partitionOf(run, 'payments');
    expect(
      oracleRecords(payments)
        .slice(0, 5)
        .map((r) => [r.offset, r.value]),
    ).toEqual((t2 ?? []).map((value, offset) => [offset, value]));
    expect(finalValues(run, 'read_committed', 'payments')).toEqual(t2);
    expect(run.report.check.anomalyTypes).toEqual([]);
  });
});

describe('BUG-03 delayed-endtxn', () => {
  it.each(SEEDS)('seed %s, TV1: the stale commit tears T2', (seed) => {
    const run = runCase('delayed-endtxn', seed);
    const [t1, t2] = transactionValues(run, 'PA');
    const visible = new Set(finalValues(run, 'read_committed', 'orders'));
    expect((t1 ?? []).every((value) => visible.has(value))).toBe(true);
    const shown = (t2 ?? []).filter((value) => visible.has(value));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan((t2 ?? []).length);
    expect(run.report.check.anomalyTypes).toContain('torn-transaction');
  });

  it.each(SEEDS)('seed %s, TV2: the stale commit is fenced; T1 whole, T2 absent', (seed) => {
    const run = runCase('delayed-endtxn-tv2', seed);
    const [t1, t2] = transactionValues(run, 'PA');
    const visible = finalValues(run, 'read_committed', 'orders');
    expect([...visible].sort((a, b) => a - b)).toEqual([...(t1 ?? [])].sort((a, b) => a - b));
    expect((t2 ?? []).some((value) => visible.includes(value))).toBe(false);
    expect(txnErrors(run, 'PA')).toEqual(['NONE', 'NONE']);
    expect(run.report.check.anomalyTypes).toEqual([]);
  });
});

describe('BUG-16 pause-beyond-transaction-timeout', () => {
  it.each(SEEDS)('seed %s, old check order: INVALID_TXN_STATE kills A', (seed) => {
    const run = runCase('pause-beyond-transaction-timeout', seed);
    expect(txnErrors(run, 'A')).toEqual(['INVALID_TXN_STATE']);
    expect(run.report.check.anomalyTypes).toEqual(['fatal-txn-error']);
    const sent = sentValues(run, 'A');
    expect(finalValues(run, 'read_committed', 'orders').some((v) => sent.has(v))).toBe(false);
  });

  it.each(SEEDS)(
    'seed %s, KAFKA-19690: INVALID_PRODUCER_EPOCH, A aborts and carries on',
    (seed) => {
      const run = runCase('pause-beyond-transaction-timeout-fixed', seed);
      expect(txnErrors(run, 'A')).toEqual(['INVALID_PRODUCER_EPOCH', 'NONE']);
      const [t1, t2] = transactionValues(run, 'A');
      expect(finalValues(run, 'read_committed', 'orders')).toEqual(t2);
      expect(t1).toHaveLength(1);
      // The ABORT marker of the timed-out transaction at 0, T2's record at 1 with the new epoch.
      const orders = partitionOf(run, 'orders');
      expect(oracleRecords(orders)[0]).toMatchObject({
        offset: 0,
        control: 'ABORT',
        producerEpoch: 1,
      });
      expect(oracleRecords(orders)[1]).toMatchObject({
        offset: 1,
        value: t2?.[0],
        producerEpoch: 1,
      });
      expect(run.report.check.anomalyTypes).toEqual([]);
    },
  );
});
