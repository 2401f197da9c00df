/**
 * Goal: `scenarios/coordinator-failover.yaml`
 * (TransactionStateManager.loadTransactionsForTxnTopicPartition): the coordinator's broker crashes
 * while a transaction is in PrepareCommit with its markers not yet delivered. The new leader of the
 * __transaction_state partition loads the log, finds the transaction in PrepareCommit and sends its
 * markers under the new coordinator epoch; the transaction completes exactly once and the producer
 * carries on. Method: seeds 1..3 (SIM_SEEDS widens); the coordinator's own trace lines (which
 * broker loaded which partition), the history and the oracle's logs.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { transactionStatePartitionFor } from '../../sim/actors';
import { sweepSeeds } from '../seed_range';
import { finalValues, txnErrors } from './case_helpers';

const SEEDS = sweepSeeds('1..3');
const CRASH_US = 5_500_000;

describe('coordinator-failover.yaml', () => {
  it.each(SEEDS)('seed %s: the PrepareCommit transaction completes once', (seed) => {
    const scenario = loadScenario('scenarios/coordinator-failover.yaml');
    const trace: string[] = [];
    const run = runScenario(scenario, { seed, trace: (line) => trace.push(line) });
    const partition = transactionStatePartitionFor('orders-tx', 50);
    // Another broker loaded the id's partition after the crash and found the transaction.
    const crashed = run.history.flatMap((op) =>
      op.f === 'nemesis' && op.value.fault === 'coordinator-failover' && op.value.phase === 'start'
        ? [/\((b\d+)\)$/.exec(op.value.description)?.[1]]
        : [],
    );
    const takeover = trace.find((line) =>
      line.endsWith(`loaded __transaction_state-${partition}: 1 ids, 1 in Prepare*`),
    );
    const [atUs, broker] = takeover?.split(' ') ?? [];
    expect(Number(atUs)).toBeGreaterThan(CRASH_US);
    expect(crashed).toHaveLength(1);
    expect(broker).not.toBe(crashed[0]);
    // The transaction answered just before the crash, and every later one, committed once.
    const commits = run.history.flatMap((op) =>
      op.client === 'P' && op.f === 'txn' && op.type === 'ok' && op.value.commit ? [op] : [],
    );
    const before = commits.filter((op) => op.timeUs < CRASH_US);
    const after = commits.filter((op) => op.timeUs > CRASH_US);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(10);
    expect(txnErrors(run, 'P').every((error) => error === 'NONE')).toBe(true);
    const visible = finalValues(run, 'read_committed', 'orders');
    const committed = commits.flatMap((op) => op.value.sends.map((send) => send.value));
    expect([...visible].sort((a, b) => a - b)).toEqual([...committed].sort((a, b) => a - b));
    expect(run.report.check.anomalyTypes).toEqual([]);
  });
});
