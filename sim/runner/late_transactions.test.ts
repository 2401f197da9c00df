/**
 * Goal: pin the PartitionsWithLateTransactionsCount rule (ProducerStateManager.hasLateTransaction,
 * ReplicaManager.lateTransactionsCount; KIP-664) on hand-built observations: a leader partition
 * is late from the first millisecond with `now - lastTimestamp > transaction.max.timeout.ms + 5
 * min` of the oldest open transaction's producer; a write by that producer resets it, a marker
 * that closes it ends it, a follower never counts, and the count sums the brokers.
 * Method: an ObservedCluster and a LateTransactionTracker fed stamped observations in order,
 * with transaction.max.timeout.ms 1000 (a threshold of 301000 ms).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaObservation, LogBatch } from '../actors';
import { nodeId } from '../kernel';
import { LateTransactionTracker } from './late_transactions';
import { ObservedCluster } from './observed_cluster';

const THRESHOLD_US = 301_000_000;

function batch(offset: number, producerId: number, appendUs: number, control?: 'ABORT'): LogBatch {
  return {
    baseOffset: offset,
    lastOffset: offset,
    producerId,
    producerEpoch: 0,
    baseSequence: control === undefined ? offset : -1,
    isTransactional: true,
    values: control === undefined ? [offset] : [],
    appendUs,
    leaderEpoch: 0,
    ...(control === undefined ? {} : { control, coordinatorEpoch: 0 }),
  };
}

function world() {
  const observed = new ObservedCluster();
  const tracker = new LateTransactionTracker(1000);
  let eventIndex = 0;
  const feed = (timeUs: number, observation: KafkaObservation): void => {
    const stamped = { timeUs, eventIndex: ++eventIndex, node: nodeId('b1'), observation };
    observed.observe(stamped);
    tracker.afterObservation(stamped, observed);
  };
  const ref = (broker: string) => ({ broker, topic: 't', partition: 0 });
  const lead = (timeUs: number, broker: string): void =>
    feed(timeUs, { kind: 'LeaderEpochStarted', ...ref(broker), leaderEpoch: 0 });
  const append = (timeUs: number, broker: string, appended: LogBatch): void =>
    feed(timeUs, {
      kind: appended.control === undefined ? 'BatchAppended' : 'MarkerWritten',
      ...ref(broker),
      origin: 'leader',
      batch: appended,
    } as KafkaObservation);
  return { tracker, lead, append };
}

describe('PartitionsWithLateTransactionsCount (hasLateTransaction)', () => {
  it('turns 1 at the first millisecond past the threshold, and 0 at the marker', () => {
    const { tracker, lead, append } = world();
    lead(0, 'b1');
    append(2_000_500, 'b1', batch(0, 7, 2_000_500));
    append(400_000_000, 'b1', batch(1, 7, 400_000_000, 'ABORT'));
    const gauge = tracker.result(500_000_000);
    // Written at 2000 ms: late once now - 2000 > 301000, from 303001 ms.
    expect(gauge).toEqual({
      thresholdMs: 301_000,
      firstNonZeroUs: 303_001_000,
      max: 1,
      maxAtUs: 303_001_000,
      atEnd: 0,
      intervals: [
        { broker: 'b1', topic: 't', partition: 0, producerId: 7, fromUs: 303_001_000, toUs: 4e8 },
      ],
    });
  });

  it('restarts the clock at each write of the oldest producer; other producers do not', () => {
    const { tracker, lead, append } = world();
    lead(0, 'b1');
    append(1_000_000, 'b1', batch(0, 7, 1_000_000));
    append(2_000_000, 'b1', batch(1, 8, 2_000_000));
    append(100_000_000, 'b1', batch(2, 7, 100_000_000));
    append(200_000_000, 'b1', batch(3, 8, 200_000_000));
    const gauge = tracker.result(100_000_000 + THRESHOLD_US + 1000);
    expect(gauge.firstNonZeroUs).toBe(100_000_000 + THRESHOLD_US + 1000);
    expect(gauge.atEnd).toBe(1);
    expect(gauge.intervals[0]?.toUs).toBeNull();
    expect(tracker.result(100_000_000 + THRESHOLD_US).firstNonZeroUs).toBeNull();
  });

  it('counts leaders only, and sums the brokers', () => {
    const { tracker, lead, append } = world();
    lead(0, 'b1');
    append(1_000_000, 'b1', batch(0, 7, 1_000_000));
    append(1_000_000, 'b2', batch(0, 7, 1_000_000));
    expect(tracker.result(400_000_000).max).toBe(1);
    // b2 takes over as well (a deposed leader that does not know yet still counts).
    lead(350_000_000, 'b2');
    const gauge = tracker.result(400_000_000);
    expect([gauge.max, gauge.maxAtUs, gauge.atEnd]).toEqual([2, 350_000_000, 2]);
  });
});
