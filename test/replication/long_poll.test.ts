/**
 * Goal: show a consumer's long poll as Kafka's ReplicaManager.fetchMessages and DelayedFetch do it:
 * a fetch that finds fewer than MinBytes bytes below the high watermark is parked; it is answered
 * as soon as the bytes between its fetch offset and the high watermark reach MinBytes, or when
 * MaxWaitMs runs out, and the answer is read at completion (data and high watermark as of then,
 * not as of arrival). Method: the 3-broker harness (RF 3, min.insync.replicas 2, a fixed 1 ms
 * network delay); the test client sends raw consumer Fetch requests to the leader b1 and one
 * acks=all produce; the test asserts the exact answer and its arrival time.
 */
import { describe, expect, it } from 'vitest';
import type { FetchResponse } from '../../sim/actors';
import { Cluster, lazy, recordsOf } from './cluster_harness';

const D = 1000;
const FETCH_US = 1_000_000;
const PRODUCE_US = 1_200_000;
/** The produce reaches b1; the followers, parked at the LEO, get it one delay later. */
const APPEND_US = PRODUCE_US + D;
/** Both followers fetch again from offset 1: the leader's HW becomes 1 (high_watermark.test). */
const HW_US = APPEND_US + 2 * D;

/** Runs one consumer fetch (and optionally a produce) and returns its answer and arrival time. */
function longPoll(fetch: { maxWaitMs: number; minBytes: number }, produce: boolean) {
  return lazy(() => {
    const cluster = new Cluster();
    let correlationId = -1;
    cluster.at(FETCH_US, () => {
      correlationId = cluster.client.fetch('b1', {
        fetchOffset: 0,
        isolationLevel: 'read_uncommitted',
        currentLeaderEpoch: 0,
        ...fetch,
      });
    });
    if (produce) cluster.produceAt(PRODUCE_US, { target: 'b1', acks: -1, values: [7] });
    cluster.runTo(3_000_000);
    const received = cluster.client.answer(correlationId);
    const message = received?.message as FetchResponse | undefined;
    const partition = message?.partitions[0];
    return {
      timeUs: received?.timeUs,
      answer:
        partition === undefined
          ? undefined
          : [partition.error, partition.highWatermark, recordsOf(partition.batches)].join(':'),
    };
  });
}

describe('consumer long poll (fetch.max.wait.ms, fetch.min.bytes; DelayedFetch)', () => {
  it('a fetch with nothing to read is answered empty when fetch.max.wait.ms runs out', () => {
    const run = longPoll({ maxWaitMs: 500, minBytes: 1 }, false)();
    expect(run).toEqual({ timeUs: FETCH_US + D + 500_000 + D, answer: 'NONE:0:' });
  });

  it('a parked fetch is answered when the high watermark passes a batch, with that HW', () => {
    const run = longPoll({ maxWaitMs: 500, minBytes: 1 }, true)();
    expect(run).toEqual({ timeUs: HW_US + D, answer: 'NONE:1:0=7' });
  });

  it('below fetch.min.bytes (76 < 100 bytes) it waits it out and answers the data then', () => {
    const run = longPoll({ maxWaitMs: 500, minBytes: 100 }, true)();
    expect(run).toEqual({ timeUs: FETCH_US + D + 500_000 + D, answer: 'NONE:1:0=7' });
  });

  it('fetch.max.wait.ms 0 answers at once, without waiting', () => {
    const run = longPoll({ maxWaitMs: 0, minBytes: 1 }, true)();
    expect(run).toEqual({ timeUs: FETCH_US + 2 * D, answer: 'NONE:0:' });
  });
});
