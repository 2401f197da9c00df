/**
 * Goal: a group coordinator failover rebuilds the group from `__consumer_offsets`
 * (GroupMetadataManager.partitionFor; GroupMetadata.prepareTxnOffsetCommit): the new leader of the
 * group's partition loads the generation, leader, members and assignments of the last group
 * metadata record, the committed offsets (plain and transactional), and the transactional offsets
 * whose marker is not in the log yet, which stay pending until the COMMIT marker reaches the new
 * leader; the restored members' sessions restart, so a member that stays silent expires and the
 * generation moves on from the stored one. Method: real brokers; the coordinator's broker crashes
 * (process crash) and the controller elects another leader for the partition after the broker
 * session timeout.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_LOG_LOAD_US } from '../../sim/actors';
import type { NodeId } from '../../sim/kernel';
import { GroupCluster, IN0, IN1 } from './harness';
import { TestMember, TestProducer, fetchOffsets } from './members';

const GROUP = 'g';

/**
 * A Stable group of two members at generation 1 on b1, a plain commit of IN1 (4), a committed
 * transaction for IN0 (7) and an open one (12, pending).
 */
function groupWithOffsets(): {
  cluster: GroupCluster;
  leader: TestMember;
  follower: TestMember;
  producer: TestProducer;
  fetch: (stable: boolean) => string[];
} {
  const cluster = new GroupCluster();
  const first = new TestMember(cluster, 'c1', GROUP);
  const second = new TestMember(cluster, 'c2', GROUP);
  const secondJoin = second.startJoin();
  expect(first.join().generationId).toBe(1);
  expect(secondJoin()?.generationId).toBe(1);
  const leader = cluster.group(GROUP)?.leader === first.memberId ? first : second;
  const follower = leader === first ? second : first;
  const assignments = new Map([
    [leader.memberId, [IN0]],
    [follower.memberId, [IN1]],
  ]);
  expect(leader.sync(assignments)).toBe('NONE');
  expect(follower.sync()).toBe('NONE');
  const coordinator = first.coordinator();
  expect(coordinator).toBe('b1');
  // A plain commit of IN1, a committed transaction for IN0, then one left open.
  const plain = cluster.call(
    follower.client,
    coordinator,
    {
      kind: 'OffsetCommit',
      groupId: GROUP,
      generationId: 1,
      memberId: follower.memberId,
      groupInstanceId: null,
      offsets: [{ ...IN1, offset: 4 }],
    },
    { answer: 'OffsetCommitResponse' },
  );
  expect(plain.results.map((result) => result.error)).toEqual(['NONE']);
  const producer = new TestProducer(cluster, 'c3', 'tx1');
  expect(producer.initProducerId()).toBe('NONE');
  const metadata = { generationId: 1, memberId: leader.memberId, instanceId: null };
  const commitIn0 = (offset: number): string[] => {
    expect(producer.addOffsetsToTxn(GROUP)).toBe('NONE');
    const offsets = [{ ...IN0, offset }];
    return producer
      .txnOffsetCommit({ groupId: GROUP, offsets, member: metadata }, coordinator)
      .map((result) => result.error);
  };
  expect(commitIn0(7)).toEqual(['NONE']);
  expect(producer.endTxn(true)).toBe('NONE');
  cluster.advance(2_000_000);
  expect(commitIn0(12)).toEqual(['NONE']);
  const fetch = (stable: boolean): string[] =>
    fetchOffsets(cluster, { client: 'c3', groupId: GROUP, partitions: [IN0, IN1], stable });
  expect(fetch(true)).toEqual(['UNSTABLE_OFFSET_COMMIT:-1', 'NONE:4']);

  return { cluster, leader, follower, producer, fetch };
}

describe('group coordinator failover', () => {
  it('rebuilds generation, members, committed and pending offsets from the log', () => {
    const { cluster, leader, follower, producer, fetch } = groupWithOffsets();
    cluster.sim.crash('b1' as NodeId, 'process');
    cluster.advance(8_000_000);
    const successor = leader.coordinator();
    expect(successor).not.toBe('b1');
    expect(cluster.group(GROUP)).toMatchObject({
      state: 'Stable',
      generationId: 1,
      leader: leader.memberId,
      // Join order: the leader joined first.
      members: [
        { memberId: leader.memberId, assignment: [IN0] },
        { memberId: follower.memberId, assignment: [IN1] },
      ],
      committed: [
        { ...IN1, offset: 4 },
        { ...IN0, offset: 7 },
      ],
      pendingProducers: [producer.producerId],
    });
    // The pending offset of the open transaction stays invisible on the new coordinator.
    expect(fetch(true)).toEqual(['UNSTABLE_OFFSET_COMMIT:-1', 'NONE:4']);
    expect(fetch(false)).toEqual(['NONE:7', 'NONE:4']);
    expect(leader.heartbeat()).toBe('NONE');
    expect(follower.heartbeat()).toBe('NONE');
    // The COMMIT marker reaches the new leader: the pending offset becomes the committed one.
    expect(producer.endTxn(true)).toBe('NONE');
    cluster.advance(3_000_000);
    expect(fetch(true)).toEqual(['NONE:12', 'NONE:4']);

    // Sessions restarted at the load: the silent follower expires, the leader rejoins alone.
    const errors = leader.heartbeats(4);
    // The follower's last heartbeat was about 3 s before the first of these: it expires 10 s
    // after it, between the second and the third.
    expect(errors).toEqual(['NONE', 'NONE', 'REBALANCE_IN_PROGRESS', 'REBALANCE_IN_PROGRESS']);
    expect(leader.join()).toMatchObject({ error: 'NONE', generationId: 2 });
    expect(cluster.group(GROUP)?.members.map((member) => member.memberId)).toEqual([
      leader.memberId,
    ]);
  });

  it('answers NOT_COORDINATOR elsewhere and COORDINATOR_LOAD_IN_PROGRESS while loading', () => {
    const cluster = new GroupCluster();
    const member = new TestMember(cluster, 'c1', GROUP);
    member.join();
    expect(member.sync(new Map([[member.memberId, [IN0, IN1]]]))).toBe('NONE');
    const partition = cluster.metadata.consumerOffsetsPartition(GROUP)?.partition ?? -1;
    const fetchFrom = (target: string): string => {
      const answer = cluster.call(
        'c2',
        target,
        { kind: 'OffsetFetch', groupId: GROUP, partitions: [IN0], requireStable: true },
        { answer: 'OffsetFetchResponse' },
      );
      return answer.error;
    };
    expect(fetchFrom('b2')).toBe('NOT_COORDINATOR');
    cluster.sim.crash('b1' as NodeId, 'process');
    // Run until a broker has started loading the partition, then ask it at once.
    const loading = (): string | undefined =>
      [...cluster.brokers].find(([, broker]) =>
        broker.groupCoordinator
          .ownedPartitions()
          .some((owned) => owned.partition === partition && owned.loading),
      )?.[0];
    cluster.sim.runUntil(cluster.nowUs + 20_000_000, () => loading() !== undefined);
    const successor = loading();
    if (successor === undefined) throw new Error('No broker took over the partition');
    expect(fetchFrom(successor)).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    cluster.advance(GROUP_LOG_LOAD_US);
    expect(fetchFrom(successor)).toBe('NONE');
    expect(cluster.group(GROUP)).toMatchObject({ state: 'Stable', generationId: 1 });
  });
});
