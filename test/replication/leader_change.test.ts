/**
 * Goal: pin the truncation offset after a clean leader change (KIP-101; Partition.makeLeader;
 * AbstractFetcherThread.getOffsetTruncationState; PartitionChangeBuilder.electAnyLeader): records
 * the old leader appended with acks=1 and no follower fetched are cut exactly at the offset where
 * the new leader's epoch began, and replaced by the new leader's records; plus the epoch fencing of
 * consumer fetches after the change (Partition.fetchRecords) and the end offset a client sees while
 * a new leader's HW is still below its epoch start (UnifiedLog.read). Method: a 3-broker cluster
 * (seed 1, 1 ms network delay, session timeout 6 s); drop rules cut the followers off the leader,
 * the leader crashes and restarts on a fixed schedule, and the test asserts the controller's
 * election record, the returning broker's truncation record (offset, reason, removed records),
 * every replica's log, and raw Fetch and ListOffsets answers.
 */
import { describe, expect, it } from 'vitest';
import { nodeId, type LinkRuleId } from '../../sim/kernel';
import { Cluster, lazy, recordsOf } from './cluster_harness';

/**
 * 0-1 replicated at 1 s; at 2 s b2 and b3 are cut off b1; b1 appends 2 and 3 (acks=1) at 3 s;
 * b1 crashes at 4.5 s (last heartbeat at 4 s), is fenced at 10.5 s and b2 is elected with epoch
 * 1 from its LEO 2; the cut heals at 11 s; b2 appends 30 at offset 2 (acks=all) at 12 s; b1
 * restarts at 13 s and follows b2.
 */
function staleLeaderReturns(leaderEpochTruncation: boolean) {
  const cluster = new Cluster({ leaderEpochTruncation });
  let cuts: LinkRuleId[] = [];
  cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10, 11] });
  cluster.at(2_000_000, () => {
    cuts = [
      ...cluster.cut({ from: 'b1', to: 'b2', bothWays: true }),
      ...cluster.cut({ from: 'b1', to: 'b3', bothWays: true }),
    ];
  });
  const unreplicated = [
    cluster.produceAt(3_000_000, { target: 'b1', acks: 1, values: [20] }),
    cluster.produceAt(3_100_000, { target: 'b1', acks: 1, values: [21] }),
  ];
  cluster.at(4_500_000, () => cluster.sim.crash(nodeId('b1'), 'process'));
  cluster.at(11_000_000, () => cluster.heal(cuts));
  const newRecord = cluster.produceAt(12_000_000, { target: 'b2', acks: -1, values: [30] });
  const beforeRestart = cluster.snapshotAt(12_900_000, 'b1');
  const reads = [
    cluster.fetchAt(12_500_000, { target: 'b2', fetchOffset: 0, currentLeaderEpoch: 1 }),
    cluster.fetchAt(12_500_000, { target: 'b2', fetchOffset: 0, currentLeaderEpoch: 0 }),
    cluster.fetchAt(12_500_000, { target: 'b2', fetchOffset: 0, currentLeaderEpoch: 2 }),
    cluster.fetchAt(12_500_000, { target: 'b3', fetchOffset: 0, currentLeaderEpoch: -1 }),
    cluster.fetchAt(12_500_000, { target: 'b3', fetchOffset: 0, currentLeaderEpoch: 0 }),
  ];
  cluster.at(13_000_000, () => cluster.sim.restart(nodeId('b1')));
  cluster.runTo(20_000_000);
  return { cluster, unreplicated, newRecord, beforeRestart, reads };
}

/** The script with leader-epoch truncation, run once for the two suites that read it. */
const epochRun = lazy(() => staleLeaderReturns(true));

describe('a leader with unreplicated acks=1 records comes back after a clean election', () => {
  const run = epochRun;

  it('b1 acknowledged offsets 2 and 3 that only it holds', () => {
    const { unreplicated, beforeRestart } = run();
    expect(unreplicated.map((answer) => answer()?.baseOffset)).toEqual([2, 3]);
    expect(beforeRestart()).toMatchObject({ logEndOffset: 4, highWatermark: 2 });
  });

  it('the controller elects b2 cleanly with epoch 1, its epoch starting at its LEO 2', () => {
    const { cluster, newRecord } = run();
    expect(cluster.elections()).toEqual([
      {
        timeUs: 10_500_000,
        topic: 'events',
        partition: 0,
        leader: 'b2',
        leaderEpoch: 1,
        kind: 'clean',
      },
    ]);
    expect(cluster.replica('b2').leaderEpochStartOffset).toBe(2);
    expect(newRecord()).toMatchObject({ error: 'NONE', baseOffset: 2 });
  });

  it('b1 truncates exactly to 2, where epoch 1 began, dropping offsets 2 and 3', () => {
    const { cluster } = run();
    const truncations = cluster.replica('b1').truncations;
    expect(truncations).toHaveLength(1);
    const [truncation] = truncations;
    expect(truncation?.toOffset).toBe(2);
    expect(truncation?.reason).toBe('diverging-epoch');
    expect(recordsOf(truncation?.removed ?? [])).toEqual(['2=20', '3=21']);
    // Restart at 13 s; registration and metadata take 2 ms, the diverging fetch 2 ms more.
    expect(truncation?.timeUs).toBe(13_004_000);
  });

  it('every replica ends with the new leader history, epoch caches equal', () => {
    const { cluster } = run();
    for (const id of ['b1', 'b2', 'b3']) {
      expect(cluster.records(id)).toEqual(['0=10', '1=11', '2=30']);
      expect(cluster.replica(id).log.epochCache.all).toEqual([
        { epoch: 0, startOffset: 0 },
        { epoch: 1, startOffset: 2 },
      ]);
    }
    expect(cluster.replica('b2').truncations).toEqual([]);
    expect(cluster.replica('b3').truncations).toEqual([]);
    expect(cluster.partitionState().isr).toEqual(['b2', 'b3', 'b1']);
  });
});

describe('epoch fencing of consumer fetches after the election (Partition.fetchRecords)', () => {
  const run = epochRun;

  it('the new leader serves epoch 1, fences epoch 0, does not know epoch 2', () => {
    const [current, stale, future] = run().reads;
    expect(current?.()).toBe('NONE:3:0=10,1=11,2=30');
    expect(stale?.()).toBe('FENCED_LEADER_EPOCH:-1:');
    expect(future?.()).toBe('UNKNOWN_LEADER_EPOCH:-1:');
  });

  it('a follower refuses a consumer fetch without an epoch: consumers read from the leader', () => {
    // Without client metadata (KIP-392 rack awareness, not modelled) Kafka reads consumer
    // fetches only from the leader (ReplicaManager: fetchOnlyFromLeader).
    expect(run().reads[3]?.()).toBe('NOT_LEADER_OR_FOLLOWER:-1:');
  });

  it('a follower fences a stale-epoch consumer fetch', () => {
    // Kafka checks the request's currentLeaderEpoch against the replica's before anything else
    // (Partition.getLocalLog: checkCurrentLeaderEpoch), leader or follower
    // (Partition.fetchRecords), so a consumer with stale metadata (epoch 0) is told to refresh.
    expect(run().reads[4]?.()).toBe('FENCED_LEADER_EPOCH:-1:');
  });
});

describe('the same script with legacy truncation (pre-KIP-101)', () => {
  it('b1 truncates to its own HW 2 on becoming follower: here the same offset', () => {
    const { cluster } = staleLeaderReturns(false);
    const [truncation] = cluster.replica('b1').truncations;
    expect(truncation?.reason).toBe('high-watermark');
    expect(truncation?.toOffset).toBe(2);
    expect(recordsOf(truncation?.removed ?? [])).toEqual(['2=20', '3=21']);
    expect(cluster.records('b1')).toEqual(['0=10', '1=11', '2=30']);
  });
});

describe('ListOffsets(LATEST) while the new leader HW is below its epoch start', () => {
  /**
   * Record 0 is acknowledged at 1.004 s with b1's HW 1, but b1 crashes at 1.2 s, before its
   * followers learn HW 1 (at about 1.5 s). b2 is elected at 6.5 s with LEO 1 and HW 0; b2 and
   * b3 are cut off from each other, so b2's HW stays 0 below its epoch start 1.
   */
  const run = lazy(() => {
    const cluster = new Cluster();
    const acked = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
    const fromOldLeader = cluster.listLatestAt(1_100_000, 'b1');
    cluster.at(1_200_000, () => cluster.sim.crash(nodeId('b1'), 'process'));
    cluster.at(1_300_000, () => cluster.cut({ from: 'b2', to: 'b3', bothWays: true }));
    const fromNewLeader = cluster.listLatestAt(8_000_000, 'b2');
    cluster.runTo(9_000_000);
    return { cluster, acked, fromOldLeader, fromNewLeader };
  });

  it('the new leader keeps its own HW 0 below its epoch start offset 1', () => {
    const { cluster, acked, fromOldLeader } = run();
    expect(acked()).toMatchObject({ error: 'NONE', baseOffset: 0 });
    expect(fromOldLeader()).toBe('NONE:1');
    expect(cluster.elections().map((e) => `${e.kind}:${e.leader}:${e.leaderEpoch}`)).toEqual([
      'clean:b2:1',
    ]);
    const b2 = cluster.replica('b2');
    expect([b2.role, b2.leaderEpochStartOffset, b2.log.highWatermark]).toEqual(['leader', 1, 0]);
  });

  it('ListOffsets(LATEST) answers OFFSET_NOT_AVAILABLE while HW < the epoch start', () => {
    // Kafka (Partition.fetchOffsetForTimestamp, KIP-207) refuses a client's LATEST lookup while
    // HW < leaderEpochStartOffset, so a client never sees the end offset move back from 1 to 0.
    const { fromNewLeader } = run();
    expect(fromNewLeader()).toBe('OFFSET_NOT_AVAILABLE:-1');
  });
});
