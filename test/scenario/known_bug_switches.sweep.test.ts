/**
 * Goal: prove each historical bug switch both ways on its bundled pair under
 * `scenarios/known-bugs/`: the reproducer (the switch on, by its `kafka.version` or set in
 * `bugs:`) is caught with its expected anomaly kind on at least its `expect.detect.percent.min`
 * share of the seeds (or, for a stall, fails to converge on every seed) and meets every other
 * expectation on each seed; the fixed counterpart (the
 * release with the fix) meets every expectation on every seed: no anomaly, the fencing it
 * expects, a converged liveness check. Method: run each file over `sweepSeeds` (a modest default;
 * `SIM_SEEDS` widens it); a seed fails when its run outcome is not `pass`.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';

/** A bug's reproducer, its fixed counterpart, and the default seeds of each. */
interface BugPair {
  readonly bug: string;
  readonly reproducer: string;
  readonly fixed: string;
  readonly seeds: string;
}

const PAIRS: readonly BugPair[] = [
  {
    bug: 'KAFKA-6119',
    reproducer: 'scenarios/known-bugs/timeout-abort-without-fence.yaml',
    fixed: 'scenarios/known-bugs/timeout-abort-without-fence-fixed.yaml',
    seeds: '1..20',
  },
  {
    bug: 'KAFKA-7519',
    reproducer: 'scenarios/known-bugs/failed-expiration-keeps-pending-dead.yaml',
    fixed: 'scenarios/known-bugs/failed-expiration-keeps-pending-dead-fixed.yaml',
    seeds: '1..10',
  },
  {
    // Pre-KIP-211: a live group's offsets expire a minute after its last commit; a restart rereads.
    bug: 'KAFKA-4682',
    reproducer: 'scenarios/known-bugs/live-group-offsets-expire.yaml',
    fixed: 'scenarios/known-bugs/live-group-offsets-expire-fixed.yaml',
    seeds: '1..5',
  },
  {
    // v1 offset records reloaded after a coordinator move expire at once; the group reprocesses.
    bug: 'KAFKA-8069',
    reproducer: 'scenarios/known-bugs/offsets-expire-after-coordinator-reload.yaml',
    fixed: 'scenarios/known-bugs/offsets-expire-after-coordinator-reload-fixed.yaml',
    seeds: '1..5',
  },
  {
    // A clock step back of the coordinator between two transactions of one id: a stall.
    bug: 'KAFKA-8803',
    reproducer: 'scenarios/known-bugs/clock-step-back-stuck-add-partitions.yaml',
    fixed: 'scenarios/known-bugs/clock-step-back-stuck-add-partitions-fixed.yaml',
    seeds: '1..10',
  },
  {
    // A log directory failure at the leader answers the COMMIT marker KAFKA_STORAGE_ERROR.
    bug: 'KAFKA-9749',
    reproducer: 'scenarios/known-bugs/storage-error-marker-not-retried.yaml',
    fixed: 'scenarios/known-bugs/storage-error-marker-not-retried-fixed.yaml',
    seeds: '1..5',
  },
  {
    // initTransactions times out while P is cut off; the retry comes after the background answer.
    bug: 'KAFKA-13412',
    reproducer: 'scenarios/known-bugs/init-transactions-retry-after-answer.yaml',
    fixed: 'scenarios/known-bugs/init-transactions-retry-after-answer-fixed.yaml',
    seeds: '1..10',
  },
  {
    // A TxnOffsetCommit verification times out; 3.7.0 answers NETWORK_EXCEPTION, the client dies.
    bug: 'KAFKA-16386',
    reproducer: 'scenarios/known-bugs/txn-offset-commit-network-exception.yaml',
    fixed: 'scenarios/known-bugs/txn-offset-commit-network-exception-fixed.yaml',
    seeds: '1..5',
  },
  {
    bug: 'KAFKA-9144',
    reproducer: 'scenarios/known-bugs/marker-timestamp-early-producer-expiration.yaml',
    fixed: 'scenarios/known-bugs/marker-timestamp-early-producer-expiration-fixed.yaml',
    seeds: '1..10',
  },
  {
    // About 40,000 timeout scans a run (one every millisecond): a few seconds of CPU each.
    bug: 'KAFKA-9666',
    reproducer: 'scenarios/known-bugs/failed-fence-write-bumps-epoch.yaml',
    fixed: 'scenarios/known-bugs/failed-fence-write-bumps-epoch-fixed.yaml',
    seeds: '1..3',
  },
  {
    bug: 'redpanda-data/redpanda#3039',
    reproducer: 'scenarios/known-bugs/single-batch-dedup-window.yaml',
    fixed: 'scenarios/known-bugs/single-batch-dedup-window-fixed.yaml',
    seeds: '1..5',
  },
  {
    // An idle librdkafka producer's next sequence refused after its state expired: fatal.
    bug: 'redpanda-data/redpanda#22670',
    reproducer: 'scenarios/known-bugs/expired-producer-sequence-refused.yaml',
    fixed: 'scenarios/known-bugs/expired-producer-sequence-refused-fixed.yaml',
    seeds: '1..5',
  },
  {
    // librdkafka's bump after OUT_OF_ORDER_SEQUENCE_NUMBER behind a refused batch (produce-error).
    bug: 'confluentinc/librdkafka#4953',
    reproducer: 'scenarios/known-bugs/skipped-sequence-bump-rewrites-other-partition.yaml',
    fixed: 'scenarios/known-bugs/skipped-sequence-bump-rewrites-other-partition-fixed.yaml',
    seeds: '1..10',
  },
  {
    // A never-written log takes a second in-flight request first; the first spins until expiry.
    bug: 'KAFKA-15591',
    reproducer: 'scenarios/known-bugs/first-sequence-reordered-on-new-partition.yaml',
    fixed: 'scenarios/known-bugs/first-sequence-reordered-on-new-partition-fixed.yaml',
    seeds: '1..10',
  },
  {
    // librdkafka 1.8.0's mid-transaction InitProducerId fences its own transaction.
    bug: 'confluentinc/librdkafka#3575',
    reproducer: 'scenarios/known-bugs/mid-transaction-bump-fences-itself.yaml',
    fixed: 'scenarios/known-bugs/mid-transaction-bump-fences-itself-fixed.yaml',
    seeds: '1..10',
  },
  {
    // librdkafka 2.2.0 counts a timed-out batch as acknowledged: a later OOOS reads as rewound.
    bug: 'confluentinc/librdkafka#4438',
    reproducer: 'scenarios/known-bugs/possibly-persisted-rewound-sequence.yaml',
    fixed: 'scenarios/known-bugs/possibly-persisted-rewound-sequence-fixed.yaml',
    seeds: '1..10',
  },
  {
    // A held COMMIT of transaction 1 commits part of transaction 2 (same epoch under TV2).
    bug: 'KAFKA-19446',
    reproducer: 'scenarios/known-bugs/late-marker-ends-next-transaction.yaml',
    fixed: 'scenarios/known-bugs/late-marker-ends-next-transaction-fixed.yaml',
    seeds: '1..5',
  },
  {
    // A marker resent after its lost answer is refused: the transaction stays in PrepareCommit.
    bug: 'KAFKA-19999',
    reproducer: 'scenarios/known-bugs/resent-marker-refused-same-epoch.yaml',
    fixed: 'scenarios/known-bugs/resent-marker-refused-same-epoch-fixed.yaml',
    seeds: '1..5',
  },
  {
    // The Java client's bump after a failed batch rewrites a written, unacknowledged batch.
    bug: 'KAFKA-14034',
    reproducer: 'scenarios/known-bugs/failed-batch-bump-rewrites-in-flight.yaml',
    fixed: 'scenarios/known-bugs/failed-batch-bump-rewrites-in-flight-fixed.yaml',
    seeds: '1..10',
  },
  {
    // franz-go before v1.20.7 reuses the sequence of a batch answered after its append.
    bug: 'twmb/franz-go#1217',
    reproducer: 'scenarios/known-bugs/ambiguous-answer-sequence-reused.yaml',
    fixed: 'scenarios/known-bugs/ambiguous-answer-sequence-reused-fixed.yaml',
    seeds: '1..10',
  },
  {
    // sarama before 1.26.2 keeps a failed batch's sequence: every later batch is refused.
    bug: 'IBM/sarama#1661',
    reproducer: 'scenarios/known-bugs/failed-send-leaves-sequence-gap.yaml',
    fixed: 'scenarios/known-bugs/failed-send-leaves-sequence-gap-fixed.yaml',
    seeds: '1..5',
  },
  {
    // The TV2 abort after a timeout fence bumps again: from 32767 it overflows, the txn hangs.
    // Each run commits 32,766 transactions (about a minute of CPU), so one seed.
    bug: 'KAFKA-19367',
    reproducer: 'scenarios/known-bugs/timeout-fence-bumps-epoch-twice.yaml',
    fixed: 'scenarios/known-bugs/timeout-fence-bumps-epoch-twice-fixed.yaml',
    seeds: '1..1',
  },
  {
    // The producerId rotation at epoch 32766 is not in __transaction_state before 4.3: the
    // coordinator that reloads after a crash answers the retried EndTxn
    // INVALID_PRODUCER_ID_MAPPING. Each run commits 32,766 transactions, so one seed.
    bug: 'KAFKA-20310',
    reproducer: 'scenarios/known-bugs/rotation-forgotten-after-coordinator-reload.yaml',
    fixed: 'scenarios/known-bugs/rotation-forgotten-after-coordinator-reload-fixed.yaml',
    seeds: '1..1',
  },
  {
    // Before 3.7 the HW advanced over an ISR below min.insync.replicas: with ELR (4.5 with the
    // switch on) the elected ELR member lacks records the consumer already read.
    bug: 'KAFKA-15583',
    reproducer: 'scenarios/known-bugs/high-watermark-below-min-isr.yaml',
    fixed: 'scenarios/known-bugs/high-watermark-below-min-isr-fixed.yaml',
    seeds: '1..10',
  },
  {
    // lastProducerEpoch is not in __transaction_state before 4.4: after a failover the retried
    // InitProducerId of a bump whose answer was lost is PRODUCER_FENCED, fenced by no one.
    bug: 'KAFKA-20357',
    reproducer: 'scenarios/known-bugs/retried-bump-fenced-after-coordinator-reload.yaml',
    fixed: 'scenarios/known-bugs/retried-bump-fenced-after-coordinator-reload-fixed.yaml',
    seeds: '1..10',
  },
  {
    // A fence abort at epoch 32767 does not rotate the producerId before 4.3: the producer's
    // retried abort is handed 32767 and its next transaction hangs. 32,767 transactions a run.
    bug: 'KAFKA-20090',
    reproducer: 'scenarios/known-bugs/fence-abort-hands-out-exhausted-epoch.yaml',
    fixed: 'scenarios/known-bugs/fence-abort-hands-out-exhausted-epoch-fixed.yaml',
    seeds: '1..1',
  },
];

/** Runs `file` over `seeds`: the seeds whose outcome was not `pass`, and those with `kind`. */
function sweep(file: string, seeds: readonly string[], kind: string | undefined) {
  const scenario = loadScenario(file);
  const failed: string[] = [];
  let caught = 0;
  for (const seed of seeds) {
    const { report } = runScenario(scenario, { seed, messageLog: false });
    if (report.outcome !== 'pass') failed.push(`${seed}: ${report.outcome}`);
    const kinds = report.check.anomalyTypes as readonly string[];
    if (kind !== undefined && kinds.includes(kind)) caught += 1;
  }
  return { failed, caught, scenario };
}

describe('historical bug switches, reproducer and fixed counterpart', () => {
  for (const pair of PAIRS) {
    it(`${pair.bug}: ${pair.reproducer} is caught at its stated rate`, () => {
      const seeds = sweepSeeds(pair.seeds);
      const expected = loadScenario(pair.reproducer).expect;
      const kind = expected.anomalies[0];
      // A stall reproducer (expect.stall) passes a seed only when it fails to converge.
      expect(kind !== undefined || expected.stall).toBe(true);
      const result = sweep(pair.reproducer, seeds, kind);
      expect(result.failed).toEqual([]);
      if (kind === undefined) return;
      const percent = (100 * result.caught) / seeds.length;
      expect(percent).toBeGreaterThanOrEqual(result.scenario.expect.detectPercentMin);
    });

    it(`${pair.bug}: ${pair.fixed} is clean on every seed`, () => {
      const result = sweep(pair.fixed, sweepSeeds(pair.seeds), undefined);
      expect(result.scenario.expect.anomalies).toEqual([]);
      expect(result.failed).toEqual([]);
    });
  }
});
