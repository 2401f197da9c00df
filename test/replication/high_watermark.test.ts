/**
 * Goal: show the high watermark moving fetch round by fetch round Kafka's Partition (fetchRecords,
 * maybeIncrementLeaderHW, checkEnoughReplicasReachOffset) and
 * ReplicaFetcherThread.processPartitionData do it: the leader learns a follower's new log end
 * offset only from that follower's next fetch, so its HW passes a batch only once every ISR
 * follower has fetched again; each follower learns that HW one fetch later still
 * (ReplicaFetcherThread.processPartitionData); an acks=all produce is answered only after the
 * leader's HW passed its batch. Method: a 3-broker cluster (RF 3, min.insync.replicas 2, seed 1)
 * with a fixed 1 ms network delay; one client sends raw Produce requests at fixed times; the test
 * reads every replica's HW change times and, from the kernel's event log, when each Fetch reached
 * the leader, and asserts exact microseconds. `replica.fetch.wait.max.ms` is 500 ms.
 */
import { describe, expect, it } from 'vitest';
import { nodeId } from '../../sim/kernel';
import { Cluster, lazy } from './cluster_harness';

const D = 1000;
const FETCH_WAIT_US = 500_000;
const SEND_US = 1_000_000;
/** When the leader receives the produce. */
const APPEND_US = SEND_US + D;

/** The first element of `times` after `afterUs`. */
function firstAfter(times: readonly number[], afterUs: number): number | undefined {
  return times.find((time) => time > afterUs);
}

describe('one batch, acks=all, b3 fetching 4 ms slower than b2', () => {
  const EXTRA_US = 4000;
  const leaderHwUs = APPEND_US + 2 * D + EXTRA_US;
  const run = lazy(() => {
    const cluster = new Cluster();
    cluster.sim.addLinkRule({
      source: nodeId('b3'),
      target: nodeId('b1'),
      kinds: ['Fetch'],
      effect: { type: 'delay', delayUs: EXTRA_US },
    });
    const answer = cluster.produceAt(SEND_US, { target: 'b1', acks: -1, values: [7] });
    cluster.runTo(3_000_000);
    return { cluster, answer };
  });

  it('every follower parked at the LEO gets the batch in the answer to its waiting fetch', () => {
    const { cluster } = run();
    expect(firstAfter(cluster.arrivals('FetchResponse b1>b2'), SEND_US)).toBe(APPEND_US + D);
    expect(firstAfter(cluster.arrivals('FetchResponse b1>b3'), SEND_US)).toBe(APPEND_US + D);
  });

  it('the leader HW stays 0 at b2 next fetch and becomes 1 at b3 next fetch', () => {
    const { cluster } = run();
    const b2Reports = firstAfter(cluster.arrivals('Fetch b2>b1'), APPEND_US);
    const b3Reports = firstAfter(cluster.arrivals('Fetch b3>b1'), APPEND_US);
    expect(b2Reports).toBe(APPEND_US + 2 * D);
    expect(b3Reports).toBe(leaderHwUs);
    expect(cluster.replica('b1').log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: leaderHwUs, offset: 1 },
    ]);
  });

  it('the produce is answered NONE at offset 0 only after the leader HW passed the batch', () => {
    const { answer } = run();
    expect(answer()).toEqual({ timeUs: leaderHwUs + D, error: 'NONE', baseOffset: 0 });
  });

  it('each follower HW becomes 1 one fetch later, when its waiting fetch is answered', () => {
    const { cluster } = run();
    // The fetch that reported the LEO found nothing new and waited replica.fetch.wait.max.ms;
    // its answer carries the HW sampled then.
    const b2HwUs = APPEND_US + 2 * D + FETCH_WAIT_US + D;
    const b3HwUs = leaderHwUs + FETCH_WAIT_US + D;
    expect(cluster.replica('b2').log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: b2HwUs, offset: 1 },
    ]);
    expect(cluster.replica('b3').log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: b3HwUs, offset: 1 },
    ]);
    expect(firstAfter(cluster.arrivals('FetchResponse b1>b2'), APPEND_US + D)).toBe(b2HwUs);
    expect(firstAfter(cluster.arrivals('FetchResponse b1>b3'), APPEND_US + D)).toBe(b3HwUs);
  });

  it('every replica ends with the batch at offset 0 and HW 1', () => {
    const { cluster } = run();
    for (const id of ['b1', 'b2', 'b3']) {
      expect(cluster.records(id)).toEqual(['0=7']);
      expect(cluster.replica(id).log.highWatermark).toBe(1);
    }
  });
});

describe('two batches 100 µs apart, symmetric followers: one HW step per fetch round', () => {
  // Round 1: the parked fetches return batch 0 at once; both followers fetch again at offset 1
  // (arriving 2 ms after the append) and get batch 1. Round 2 reports offset 2, 2 ms later.
  const round1Us = APPEND_US + 2 * D;
  const round2Us = round1Us + 2 * D;
  const run = lazy(() => {
    const cluster = new Cluster();
    const first = cluster.produceAt(SEND_US, { target: 'b1', acks: -1, values: [1] });
    const second = cluster.produceAt(SEND_US + 100, { target: 'b1', acks: -1, values: [2] });
    cluster.runTo(3_000_000);
    return { cluster, first, second };
  });

  it('the followers report offsets 1 and 2 on consecutive rounds', () => {
    const { cluster } = run();
    for (const follower of ['b2', 'b3']) {
      const fetches = cluster.arrivals(`Fetch ${follower}>b1`).filter((t) => t > APPEND_US);
      expect(fetches.slice(0, 2)).toEqual([round1Us, round2Us]);
    }
  });

  it('the leader HW is 1 after round 1 and 2 after round 2', () => {
    const { cluster, first, second } = run();
    expect(cluster.replica('b1').log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: round1Us, offset: 1 },
      { timeUs: round2Us, offset: 2 },
    ]);
    expect(first()).toEqual({ timeUs: round1Us + D, error: 'NONE', baseOffset: 0 });
    expect(second()).toEqual({ timeUs: round2Us + D, error: 'NONE', baseOffset: 1 });
  });

  it('the followers see HW 0 through round 1 and jump to 2 one fetch after round 2', () => {
    const { cluster } = run();
    // Each answer carries the HW sampled before the fetch that carried it moved it
    // (Partition.fetchRecords).
    for (const follower of ['b2', 'b3']) {
      expect(cluster.replica(follower).log.highWatermarkChanges).toEqual([
        { timeUs: 0, offset: 0 },
        { timeUs: round2Us + FETCH_WAIT_US + D, offset: 2 },
      ]);
    }
  });
});
