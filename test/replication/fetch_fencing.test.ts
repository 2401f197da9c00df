/**
 * Goal: prove the leader side of KAFKA-7395's switch both ways. From 2.1 (KIP-320,
 * apache/kafka#5661) a Fetch carries the sender's current leader epoch and the leader refuses
 * another one: an older epoch is FENCED_LEADER_EPOCH, a newer one UNKNOWN_LEADER_EPOCH. Before
 * it (0.11 to 2.0) the request had no such field and the leader served whoever asked.
 * Method: a 3-broker cluster (1 ms network delay), two records replicated at 1 s, then at 2 s
 * Fetches to the leader b1 (leader epoch 0) claiming epochs 0 and 4.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster_harness';

function fetchesWithEpochs(fetchFencedByLeaderEpoch: boolean) {
  const cluster = new Cluster({ fetchFencedByLeaderEpoch });
  cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10, 11] });
  const current = cluster.fetchAt(2_000_000, {
    target: 'b1',
    fetchOffset: 0,
    currentLeaderEpoch: 0,
  });
  const ahead = cluster.fetchAt(2_000_000, { target: 'b1', fetchOffset: 0, currentLeaderEpoch: 4 });
  cluster.runTo(3_000_000);
  return { current: current(), ahead: ahead() };
}

describe('KAFKA-7395: a Fetch that names another leader epoch', () => {
  it('is refused from 2.1 (UNKNOWN_LEADER_EPOCH for a newer epoch)', () => {
    expect(fetchesWithEpochs(true)).toEqual({
      current: 'NONE:2:0=10,1=11',
      ahead: 'UNKNOWN_LEADER_EPOCH:-1:',
    });
  });

  it('is served before it, like any other', () => {
    expect(fetchesWithEpochs(false)).toEqual({
      current: 'NONE:2:0=10,1=11',
      ahead: 'NONE:2:0=10,1=11',
    });
  });
});
