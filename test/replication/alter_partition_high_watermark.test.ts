/**
 * Goal: prove KAFKA-13091's switch both ways. With AlterIsr (KIP-497, 2.7) a leader's ISR shrink
 * is asynchronous: the controller's answer carries the smaller ISR. From 3.1
 * (Partition.handleAlterIsrResponse, apache/kafka#11245) the leader then tries to advance the
 * high watermark, so an acks=all produce that only the removed followers held back is answered;
 * in 2.7 to 3.0 nothing did, and the produce waited until its timeout (or the next append).
 * Method: a 3-broker cluster (1 ms network delay, min.insync.replicas 1, replica.lag.time.max.ms
 * 10 s, so b1 checks its ISR every 5 s); record 0 replicated at 1 s, both followers cut off from
 * b1 at 2 s (they keep their controller sessions, so no fence), an acks=all produce with a 30 s
 * timeout at 3 s, and another at 40 s.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, lazy } from './cluster_harness';

const D = 1000;

function shrinkWithWaitingProduce(highWatermarkAfterAlterPartition: boolean) {
  const cluster = new Cluster({ minInsyncReplicas: 1, highWatermarkAfterAlterPartition });
  cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
  cluster.at(2_000_000, () => {
    cluster.cut({ from: 'b1', to: 'b2', bothWays: true });
    cluster.cut({ from: 'b1', to: 'b3', bothWays: true });
  });
  const waiting = cluster.produceAt(3_000_000, {
    target: 'b1',
    acks: -1,
    values: [11],
    timeoutMs: 30_000,
  });
  const afterShrink = cluster.snapshotAt(20_000_000, 'b1');
  const next = cluster.produceAt(40_000_000, { target: 'b1', acks: -1, values: [12] });
  cluster.runTo(45_000_000);
  return { cluster, waiting, afterShrink, next };
}

describe('KAFKA-13091: the ISR shrinks to the leader under a waiting acks=all produce', () => {
  const fixed = lazy(() => shrinkWithWaitingProduce(true));
  const buggy = lazy(() => shrinkWithWaitingProduce(false));

  it('the shrink is the same either way: b1 proposes ISR [b1] at its 15 s check', () => {
    for (const run of [fixed(), buggy()]) {
      expect(run.cluster.arrivals('AlterPartition b1>controller')).toEqual([15_000_000 + D]);
      expect(run.cluster.replica('b1').isr).toEqual(['b1']);
    }
  });

  it('with the fix (3.1) the answer moves the HW and the produce is answered at once', () => {
    const { waiting, afterShrink } = fixed();
    const answer = waiting();
    expect(answer).toMatchObject({ error: 'NONE', baseOffset: 1 });
    expect(answer?.timeUs).toBeLessThan(15_000_000 + 5 * D);
    expect(afterShrink()).toMatchObject({ isr: ['b1'], logEndOffset: 2, highWatermark: 2 });
  });

  it('before it (2.7 to 3.0) the HW stays until the produce times out; an append moves it', () => {
    const { cluster, waiting, afterShrink, next } = buggy();
    expect(afterShrink()).toMatchObject({ isr: ['b1'], logEndOffset: 2, highWatermark: 1 });
    expect(waiting()).toEqual({
      timeUs: 33_000_000 + 2 * D,
      error: 'REQUEST_TIMED_OUT',
      baseOffset: -1,
    });
    expect(next()).toMatchObject({ error: 'NONE', baseOffset: 2 });
    expect(cluster.replica('b1').log.highWatermark).toBe(3);
  });
});
