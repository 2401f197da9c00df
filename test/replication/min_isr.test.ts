/**
 * Goal: pin acks and min.insync.replicas (Partition.checkEnoughReplicasReachOffset) and the ISR
 * shrink that feeds them (Replica.updateFetchStateOrThrow, Partition.maybeShrinkIsr;
 * PartitionChangeBuilder.build): once the ISR is the leader alone with min.insync.replicas 2, an
 * acks=all produce is refused with NOT_ENOUGH_REPLICAS and nothing is appended, while an acks=1
 * produce is appended and answered NONE but (3.7+) stays above the HW; a produce waiting when the
 * ISR shrinks ends in NOT_ENOUGH_REPLICAS_AFTER_APPEND under the pre-3.7 HW rule and in
 * REQUEST_TIMED_OUT under the 3.7+ rule. Method: a 3-broker cluster (seed 1, 1 ms network delay,
 * replica.lag.time.max.ms 10 s so the leader checks its ISR every 5 s, session timeout 6 s); the
 * followers are cut off from the leader by drop rules or crashed, and the test asserts exact
 * answers, offsets and the times the ISR changed.
 */
import { describe, expect, it } from 'vitest';
import { nodeId } from '../../sim/kernel';
import { Cluster, lazy } from './cluster_harness';

const D = 1000;

/**
 * Record 0 is replicated (acks=all) at 1 s; at 2 s both followers are cut off from b1; at 3 s a
 * produce (acks=1, or acks=all with a 30 s timeout) appends offset 1, which the followers never
 * fetch. They were last caught up at about 2 s, so the leader's ISR check at 15 s (not the one
 * at 10 s) proposes ISR [b1]. Later produces go to b1 at 16 s (acks=all) and 17 s (acks=1).
 */
function partitionedFollowers(options: { strict: boolean; acksAt3s: 1 | -1 }) {
  const cluster = new Cluster({ strictMinIsrHighWatermark: options.strict });
  const first = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
  cluster.at(2_000_000, () => {
    cluster.cut({ from: 'b1', to: 'b2', bothWays: true });
    cluster.cut({ from: 'b1', to: 'b3', bothWays: true });
  });
  const waiting = cluster.produceAt(3_000_000, {
    target: 'b1',
    acks: options.acksAt3s,
    values: [11],
    timeoutMs: 30_000,
  });
  const beforeShrink = cluster.snapshotAt(14_000_000, 'b1');
  const allAcks = cluster.produceAt(16_000_000, { target: 'b1', acks: -1, values: [12] });
  const afterRefusal = cluster.snapshotAt(16_500_000, 'b1');
  const oneAck = cluster.produceAt(17_000_000, { target: 'b1', acks: 1, values: [13] });
  const latest = cluster.listLatestAt(18_000_000, 'b1');
  cluster.runTo(40_000_000);
  return { cluster, first, waiting, beforeShrink, allAcks, afterRefusal, oneAck, latest };
}

describe('followers partitioned away, 3.7+ HW rule', () => {
  const run = lazy(() => partitionedFollowers({ strict: true, acksAt3s: 1 }));

  it('the leader shrinks the ISR to itself at its 15 s check, without a new leader epoch', () => {
    const { cluster, beforeShrink } = run();
    expect(beforeShrink()?.isr).toEqual(['b1', 'b2', 'b3']);
    expect(cluster.arrivals('AlterPartition b1>controller')).toEqual([15_000_000 + D]);
    const state = cluster.partitionState();
    expect([state.leader, state.leaderEpoch, state.partitionEpoch]).toEqual(['b1', 0, 1]);
    expect(state.isr).toEqual(['b1']);
    expect(cluster.replica('b1').isr).toEqual(['b1']);
  });

  it('acks=all is refused with NOT_ENOUGH_REPLICAS and nothing is appended', () => {
    const { allAcks, afterRefusal } = run();
    expect(allAcks()).toEqual({
      timeUs: 16_000_000 + 2 * D,
      error: 'NOT_ENOUGH_REPLICAS',
      baseOffset: -1,
    });
    expect(afterRefusal()).toMatchObject({ logEndOffset: 2, highWatermark: 1 });
  });

  it('acks=1 is appended and answered NONE, but the HW stays below it', () => {
    const { cluster, first, waiting, oneAck, latest } = run();
    expect(first()).toMatchObject({ error: 'NONE', baseOffset: 0 });
    expect(waiting()).toEqual({ timeUs: 3_000_000 + 2 * D, error: 'NONE', baseOffset: 1 });
    expect(oneAck()).toEqual({ timeUs: 17_000_000 + 2 * D, error: 'NONE', baseOffset: 2 });
    expect(cluster.records('b1')).toEqual(['0=10', '1=11', '2=13']);
    expect(cluster.replica('b1').log.highWatermarkChanges.map((c) => c.offset)).toEqual([0, 1]);
    expect(latest()).toBe('NONE:1');
  });
});

describe('followers partitioned away, pre-3.7 HW rule', () => {
  const run = lazy(() => partitionedFollowers({ strict: false, acksAt3s: 1 }));

  it('acks=all is still refused, but acks=1 records become visible with the ISR of one', () => {
    const { cluster, allAcks, oneAck, latest } = run();
    expect(allAcks()).toMatchObject({ error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1 });
    expect(oneAck()).toMatchObject({ error: 'NONE', baseOffset: 2 });
    expect(cluster.replica('b1').log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: 1_000_000 + 3 * D, offset: 1 },
      { timeUs: 15_000_000 + 2 * D, offset: 2 },
      { timeUs: 17_000_000 + D, offset: 3 },
    ]);
    expect(latest()).toBe('NONE:3');
  });
});

describe('an acks=all produce waiting while the ISR shrinks below min.insync.replicas', () => {
  it('pre-3.7: the HW passes it at the shrink and it ends NOT_ENOUGH_REPLICAS_AFTER_APPEND', () => {
    const { cluster, waiting } = partitionedFollowers({ strict: false, acksAt3s: -1 });
    const shrinkCommittedUs = 15_000_000 + 2 * D;
    expect(waiting()).toEqual({
      timeUs: shrinkCommittedUs + D,
      error: 'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
      baseOffset: -1,
    });
    // The data is in the log and, under the old rule, visible.
    expect(cluster.records('b1').slice(0, 2)).toEqual(['0=10', '1=11']);
    expect(cluster.replica('b1').log.highWatermarkChanges[2]).toEqual({
      timeUs: shrinkCommittedUs,
      offset: 2,
    });
  });

  it('3.7+: the HW never passes it, so it times out with its record in the log', () => {
    const { cluster, waiting } = partitionedFollowers({ strict: true, acksAt3s: -1 });
    expect(waiting()).toEqual({
      timeUs: 3_000_000 + D + 30_000_000 + D,
      error: 'REQUEST_TIMED_OUT',
      baseOffset: -1,
    });
    expect(cluster.records('b1')).toEqual(['0=10', '1=11', '2=13']);
    expect(cluster.replica('b1').log.highWatermark).toBe(1);
  });
});

describe('followers crashed: the controller removes them from the ISR', () => {
  const run = lazy(() => {
    const cluster = new Cluster();
    const first = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
    cluster.at(2_500_000, () => {
      cluster.sim.crash(nodeId('b2'), 'process');
      cluster.sim.crash(nodeId('b3'), 'process');
    });
    const before = cluster.snapshotAt(8_400_000, 'b1');
    const allAcks = cluster.produceAt(10_000_000, { target: 'b1', acks: -1, values: [11] });
    const oneAck = cluster.produceAt(11_000_000, { target: 'b1', acks: 1, values: [12] });
    cluster.runTo(12_000_000);
    return { cluster, first, before, allAcks, oneAck };
  });

  it('fences both 6 s after their last heartbeat (2 s) and leaves ISR [b1]', () => {
    const { cluster, before } = run();
    expect(before()?.isr).toEqual(['b1', 'b2', 'b3']);
    // Session checks run every 500 ms: 8.5 s is the first more than 6 s after 2.001 s.
    expect(cluster.arrivals('PartitionChange controller>b1')).toEqual([8_501_000, 8_501_000]);
    const state = cluster.partitionState();
    expect(state).toMatchObject({ leader: 'b1', leaderEpoch: 0, partitionEpoch: 2, isr: ['b1'] });
    expect(cluster.elections()).toEqual([]);
  });

  it('acks=all gets NOT_ENOUGH_REPLICAS, acks=1 is appended without moving the HW', () => {
    const { cluster, allAcks, oneAck } = run();
    expect(allAcks()).toMatchObject({ error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1 });
    expect(oneAck()).toMatchObject({ error: 'NONE', baseOffset: 1 });
    expect(cluster.records('b1')).toEqual(['0=10', '1=12']);
    expect(cluster.replica('b1').log.highWatermark).toBe(1);
  });
});

describe('ISR shrink timing (Partition.fetchRecords; Replica.updateFetchStateOrThrow)', () => {
  it('the expiry of a parked follower fetch does not count as a second fetch', () => {
    // b2's last fetch reaches b1 at 4.519 s with offset 0 = leader LEO (caught up then) and waits
    // 500 ms. Kafka records a follower's progress once per fetch request (a DelayedFetch
    // completes with updateFetchState = false), so the append at 6 s leaves b2 last caught up at
    // 4.519 s and the ISR check at 15 s (10.481 s later) drops it; re-recording the fetch at its
    // expiry (5.019 s) would keep b2 in the ISR until the check at 20 s.
    const cluster = new Cluster({ minInsyncReplicas: 1 });
    cluster.at(4_600_000, () => cluster.cut({ from: 'b1', to: 'b2', bothWays: true }));
    cluster.produceAt(6_000_000, { target: 'b1', acks: 1, values: [1] });
    cluster.runTo(25_000_000);
    expect(cluster.arrivals('Fetch b2>b1').filter((t) => t > 4_100_000)).toEqual([4_519_000]);
    expect(cluster.arrivals('AlterPartition b1>controller')).toEqual([15_000_000 + D]);
  });
});
