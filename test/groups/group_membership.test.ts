/**
 * Goal: pin the classic group protocol at the coordinator (ClassicGroup) to exact values: KIP-394
 * member ids, the generation after each rebalance (first member 1, second member 2, a session
 * expiry 3), the initial rebalance delay, heartbeat errors, LeaveGroup, and KIP-345 static
 * members fenced with FENCED_INSTANCE_ID. Method: three real brokers with a replicated
 * `__consumer_offsets` and test clients sending raw JoinGroup, SyncGroup, Heartbeat and
 * LeaveGroup requests; the network delay is fixed, so times are exact.
 */
import { describe, expect, it } from 'vitest';
import { CONSUMER_OFFSETS_TOPIC, ClusterMetadata } from '../../sim/actors';
import { DELAY_US, GroupCluster, IN0, IN1 } from './harness';
import { TestMember } from './members';

const GROUP = 'g';

describe('the coordinator of a group (ClassicGroup)', () => {
  it('is the leader of __consumer_offsets-(abs(javaHash(group.id)) % 50)', () => {
    // Java: "abc".hashCode() = 96354; 96354 % 50 = 4.
    const metadata = new ClusterMetadata(3, [], null, { numPartitions: 50, replicationFactor: 3 });
    expect(metadata.consumerOffsetsPartition('abc')).toEqual({
      topic: CONSUMER_OFFSETS_TOPIC,
      partition: 4,
    });
    expect(new ClusterMetadata(3, [], null).consumerOffsetsPartition('abc')).toBeNull();
  });

  it('is found with FindCoordinator keyType group', () => {
    const cluster = new GroupCluster();
    const partition = cluster.metadata.consumerOffsetsPartition(GROUP);
    if (partition === null) throw new Error('No __consumer_offsets');
    expect(cluster.findCoordinator('c1', GROUP, 'group')).toBe(
      cluster.metadata.leaderOf(partition),
    );
  });
});

describe('generations (ClassicGroup)', () => {
  it('count 1, 2, 3 for a first member, a second member, and a session expiry', () => {
    const cluster = new GroupCluster();
    const first = new TestMember(cluster, 'c1', GROUP);
    // KIP-394: the first join with an empty member id is answered with an id to use.
    const pending = first.startJoin();
    expect(first.memberId).toMatch(/^c1-b\d\.0\.1$/);
    // startJoin returns when the second JoinGroup has reached the coordinator.
    const joinArrivedUs = cluster.nowUs;
    cluster.runFor(10_000_000, () => pending() !== null);
    // An Empty group waits group.initial.rebalance.delay.ms (3000 ms) before completing.
    expect(cluster.nowUs).toBe(joinArrivedUs + 3_000_000 + DELAY_US);
    expect(pending()).toMatchObject({ error: 'NONE', generationId: 1, leader: first.memberId });
    expect(pending()?.members.map((member) => member.memberId)).toEqual([first.memberId]);
    expect(first.sync(new Map([[first.memberId, [IN0, IN1]]]))).toBe('NONE');
    expect(first.assignment).toEqual([IN0, IN1]);
    expect(cluster.group(GROUP)).toMatchObject({ state: 'Stable', generationId: 1 });

    // A second member: the first learns of the rebalance by heartbeat and rejoins.
    const second = new TestMember(cluster, 'c2', GROUP);
    const secondJoin = second.startJoin();
    expect(cluster.group(GROUP)?.state).toBe('PreparingRebalance');
    expect(first.heartbeat()).toBe('REBALANCE_IN_PROGRESS');
    const firstJoin = first.join();
    expect(firstJoin).toMatchObject({ error: 'NONE', generationId: 2, leader: first.memberId });
    expect(firstJoin.members).toHaveLength(2);
    expect(secondJoin()).toMatchObject({ error: 'NONE', generationId: 2, members: [] });
    const assignments = new Map([
      [first.memberId, [IN0]],
      [second.memberId, [IN1]],
    ]);
    // The follower's SyncGroup waits for the leader's assignment to be durable.
    const followerSync = second.startSync();
    expect(followerSync()).toBeNull();
    expect(first.sync(assignments)).toBe('NONE');
    cluster.advance(DELAY_US);
    expect(followerSync()).toBe('NONE');
    expect([first.assignment, second.assignment]).toEqual([[IN0], [IN1]]);
    expect(cluster.group(GROUP)).toMatchObject({ state: 'Stable', generationId: 2 });

    // The second member stops heartbeating: its 10 s session ends, the group rebalances.
    const errors = first.heartbeats(4);
    expect(errors).toEqual(['NONE', 'NONE', 'NONE', 'REBALANCE_IN_PROGRESS']);
    const rejoin = first.join();
    expect(rejoin).toMatchObject({ error: 'NONE', generationId: 3, leader: first.memberId });
    expect(rejoin.members.map((member) => member.memberId)).toEqual([first.memberId]);
    expect(second.heartbeat()).toBe('UNKNOWN_MEMBER_ID');
    expect(first.sync(new Map([[first.memberId, [IN0, IN1]]]))).toBe('NONE');
    expect(cluster.group(GROUP)).toMatchObject({ state: 'Stable', generationId: 3 });
  });
});

describe('heartbeats and LeaveGroup (ClassicGroup)', () => {
  it('answer ILLEGAL_GENERATION to an old generation and rebalance after a leave', () => {
    const cluster = new GroupCluster();
    const first = new TestMember(cluster, 'c1', GROUP);
    const second = new TestMember(cluster, 'c2', GROUP);
    const secondJoin = second.startJoin();
    expect(first.join().generationId).toBe(1);
    expect(secondJoin()?.generationId).toBe(1);
    const leader = first.memberId === cluster.group(GROUP)?.leader ? first : second;
    const follower = leader === first ? second : first;
    expect(
      leader.sync(
        new Map([
          [leader.memberId, [IN0]],
          [follower.memberId, [IN1]],
        ]),
      ),
    ).toBe('NONE');
    expect(follower.sync()).toBe('NONE');
    expect(follower.assignment).toEqual([IN1]);
    expect(cluster.group(GROUP)?.generationId).toBe(1);
    const answer = cluster.call(
      follower.client,
      follower.coordinator(),
      {
        kind: 'Heartbeat',
        groupId: GROUP,
        generationId: 0,
        memberId: follower.memberId,
        groupInstanceId: null,
      },
      { answer: 'HeartbeatResponse' },
    );
    expect(answer.error).toBe('ILLEGAL_GENERATION');
    const left = cluster.call(
      follower.client,
      follower.coordinator(),
      {
        kind: 'LeaveGroup',
        groupId: GROUP,
        members: [{ memberId: follower.memberId, groupInstanceId: null }],
      },
      { answer: 'LeaveGroupResponse' },
    );
    expect(left.error).toBe('NONE');
    expect(cluster.group(GROUP)?.state).toBe('PreparingRebalance');
    expect(leader.heartbeat()).toBe('REBALANCE_IN_PROGRESS');
    expect(leader.join()).toMatchObject({ error: 'NONE', generationId: 2 });
    expect(follower.heartbeat()).toBe('UNKNOWN_MEMBER_ID');
  });
});

describe('the rebalance timeout (ClassicGroup)', () => {
  it('removes a member that heartbeats but does not rejoin within max.poll.interval.ms', () => {
    const cluster = new GroupCluster();
    const options = { rebalanceTimeoutMs: 20_000 };
    const first = new TestMember(cluster, 'c1', GROUP, options);
    const second = new TestMember(cluster, 'c2', GROUP, options);
    const secondJoin = second.startJoin();
    first.join();
    expect(secondJoin()?.generationId).toBe(1);
    const leader = cluster.group(GROUP)?.leader === first.memberId ? first : second;
    const other = leader === first ? second : first;
    expect(
      leader.sync(
        new Map([
          [leader.memberId, [IN0]],
          [other.memberId, [IN1]],
        ]),
      ),
    ).toBe('NONE');
    expect(other.sync()).toBe('NONE');
    // A third member starts a rebalance; the leader rejoins, the other only heartbeats.
    const third = new TestMember(cluster, 'c3', GROUP, options);
    const thirdJoin = third.startJoin();
    // startJoin returns when the join has reached the coordinator: the rebalance starts then.
    const rebalanceStartUs = cluster.nowUs;
    const leaderJoin = leader.startJoin();
    const errors = other.heartbeats(6);
    cluster.runFor(10_000_000, () => leaderJoin() !== null);
    // The join phase ends at the rebalance timeout (20 s), without the silent member.
    expect(cluster.nowUs).toBe(rebalanceStartUs + 20_000_000 + DELAY_US);
    expect(leaderJoin()).toMatchObject({ error: 'NONE', generationId: 2 });
    expect(thirdJoin()).toMatchObject({ error: 'NONE', generationId: 2 });
    expect(errors).toEqual(Array(6).fill('REBALANCE_IN_PROGRESS'));
    expect(
      cluster
        .group(GROUP)
        ?.members.map((member) => member.memberId)
        .sort(),
    ).toEqual([leader.memberId, third.memberId].sort());
    expect(other.heartbeat()).toBe('UNKNOWN_MEMBER_ID');
  });
});

describe('static members (KIP-345, ClassicGroup)', () => {
  it('fence the replaced member id with FENCED_INSTANCE_ID, without a rebalance', () => {
    const cluster = new GroupCluster();
    const old = new TestMember(cluster, 'c1', GROUP, { instanceId: 'i1' });
    // A static member gets its id at once (no MEMBER_ID_REQUIRED).
    expect(old.join()).toMatchObject({ error: 'NONE', generationId: 1 });
    expect(old.memberId).toMatch(/^i1-b\d\.0\.1$/);
    expect(old.sync(new Map([[old.memberId, [IN0, IN1]]]))).toBe('NONE');
    // A new process with the same group.instance.id takes over the member.
    const replacement = new TestMember(cluster, 'c2', GROUP, { instanceId: 'i1' });
    expect(replacement.join()).toMatchObject({ error: 'NONE', generationId: 1 });
    expect(replacement.memberId).not.toBe(old.memberId);
    expect(cluster.group(GROUP)).toMatchObject({ state: 'Stable', generationId: 1 });
    expect(replacement.sync()).toBe('NONE');
    expect(replacement.assignment).toEqual([IN0, IN1]);
    expect(old.heartbeat()).toBe('FENCED_INSTANCE_ID');
    expect(old.sync()).toBe('FENCED_INSTANCE_ID');
    expect(replacement.heartbeat()).toBe('NONE');
  });
});
