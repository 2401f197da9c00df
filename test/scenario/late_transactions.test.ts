/**
 * Goal: the run report shows Kafka's PartitionsWithLateTransactionsCount (KIP-664;
 * ReplicaManager.lateTransactionsCount over ProducerStateManager.hasLateTransaction) with exact
 * values on a hanging transaction (case BUG-01): the leader of payments-0 counts it from the
 * first millisecond more than transaction.max.timeout.ms (60 s) + 5 minutes after the hanging
 * transaction's last write, and stops at the operator's ABORT marker. Method: run seed 1 of the
 * bundled late-transaction-metric scenario (fixed 1 ms network delay) for its report, and
 * simulate hanging-transaction.yaml alone for its 130 s (the gauge stays 0) and on to 400 s (it
 * turns 1 and stays so).
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner';
import { buildWorld } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';

/** The gauge in the run report of seed 1. */
function reportedGauge(file: string) {
  const scenario = loadScenario(file);
  return runScenario(scenario, { seed: '1', messageLog: false }).report.metrics.lateTransactions;
}

/**
 * hanging-transaction.yaml, seed 1, simulated alone (no checks, no report): the gauge after its
 * 130 s and after 400 s, and when PA's hanging batch was appended to payments-0's leader.
 */
function hangingTransaction() {
  const world = buildWorld(loadScenario('scenarios/hanging-transaction.yaml'), { seed: '1' });
  world.sim.runUntil(130_000_000);
  const at130s = world.lateTransactions.result(world.sim.nowUs);
  world.sim.runUntil(400_000_000);
  const at400s = world.lateTransactions.result(world.sim.nowUs);
  const hanging = world.observed
    .replica('payments', 0, 'b1')
    .batches.find((batch) => batch.baseOffset === 1);
  return { at130s, at400s, hangingAppendUs: hanging?.appendUs };
}

describe('PartitionsWithLateTransactionsCount in the run report', () => {
  it('turns 1 at 380.002 s on the hanging transaction and 0 at the operator abort', () => {
    // PA's held Produce lands at 20.001 s: late once now - 20001 ms > 360000 ms. The operator's
    // ABORT marker (kafka-transactions.sh abort at 390 s) is written at 390.009 s.
    expect(reportedGauge('scenarios/late-transaction-metric.yaml')).toEqual({
      thresholdMs: 360_000,
      firstNonZeroUs: 380_002_000,
      max: 1,
      maxAtUs: 380_002_000,
      atEnd: 0,
      intervals: [
        {
          broker: 'b1',
          topic: 'payments',
          partition: 0,
          producerId: 2000,
          fromUs: 380_002_000,
          toUs: 390_009_000,
        },
      ],
    });
  });

  it('stays 0 in hanging-transaction.yaml for its 130 s, then turns 1 for good', () => {
    const { at130s, at400s, hangingAppendUs } = hangingTransaction();
    expect(at130s).toMatchObject({ firstNonZeroUs: null, max: 0, atEnd: 0, intervals: [] });
    // PA's held batch (producerId 0) opened the hanging transaction at offset 1 at 20.000737 s
    // (the hold ends at 20 s): late from the first millisecond more than 360000 ms later.
    expect(hangingAppendUs).toBe(20_000_737);
    expect(at400s).toEqual({
      thresholdMs: 360_000,
      firstNonZeroUs: 380_001_000,
      max: 1,
      maxAtUs: 380_001_000,
      atEnd: 1,
      intervals: [
        {
          broker: 'b1',
          topic: 'payments',
          partition: 0,
          producerId: 0,
          fromUs: 380_001_000,
          toUs: null,
        },
      ],
    });
  });
});
