/**
 * Goal: the KafkaConsumer joins, rebalances and leaves its group as Java's classic
 * ConsumerCoordinator does (ClassicGroup), and takes its positions from the group's committed
 * offsets (GroupMetadata.prepareTxnOffsetCommit). Method: consumers run in the kernel against the
 * fake group coordinator with a fixed 1 ms network delay; each test asserts the exact request
 * sequence with arrival times, generations, member ids, assignments, listener calls and positions.
 */
import { describe, expect, it } from 'vitest';
import { partitionKey } from '../../sim/actors';
import { GroupWorld, groupConfig, type GroupClient } from './group_harness';

const IN0 = { topic: 'in', partition: 0 };

/** `kind@time` of every request from `source` except fetches (one per poll). */
function timeline(world: GroupWorld, source: string): string[] {
  return world.broker.arrivals
    .filter((a) => a.source === source && a.request.kind !== 'Fetch')
    .map((a) => `${a.request.kind}@${a.timeUs}`);
}

function positions(client: GroupClient): string[] {
  const consumer = client.consumer;
  if (consumer === null) return [];
  return consumer.assignment().map((tp) => `${partitionKey(tp)}=${consumer.position(tp)}`);
}

function startMember(world: GroupWorld, name: string, atUs: number, config = groupConfig()) {
  const client = world.client(name, { consumer: config });
  world.at(atUs, () => {
    client.subscribe(['in']);
    client.startPolling();
  });
  return client;
}

describe('joining a group', () => {
  it('rejoins with the MEMBER_ID_REQUIRED id, leads, and starts from committed offsets', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-0', 5);
    const a = startMember(world, 'A', 0);
    world.runTo(20_000);
    expect(timeline(world, 'A')).toEqual([
      'FindCoordinator@1000',
      'JoinGroup@3000',
      'JoinGroup@5000',
      'SyncGroup@10000',
      'OffsetFetch@12000',
      'ListOffsets@14000',
    ]);
    const joins = world.broker.requests('JoinGroup');
    expect(joins.map((join) => join.memberId)).toEqual(['', 'A-1']);
    expect(joins[1]?.rebalanceTimeoutMs).toBe(300_000);
    expect(joins[1]?.sessionTimeoutMs).toBe(45_000);
    expect(joins[1]?.protocols).toEqual([
      { name: 'range', subscription: { topics: ['in'], ownedPartitions: [] } },
    ]);
    const [sync] = world.broker.requests('SyncGroup');
    expect(sync?.generationId).toBe(1);
    expect(sync?.assignments).toEqual([
      { memberId: 'A-1', partitions: [0, 1, 2].map((partition) => ({ topic: 'in', partition })) },
    ]);
    expect(world.broker.requests('OffsetFetch')[0]?.requireStable).toBe(true);
    // in-0 from its committed offset, the others by auto.offset.reset=earliest.
    expect(positions(a)).toEqual(['in-0=5', 'in-1=0', 'in-2=0']);
    expect(a.listenerCalls).toEqual(['assigned@11000:in-0,in-1,in-2']);
    expect(a.polls[0]).toEqual({ timeUs: 17_000, records: 0 });
    expect(a.consumer?.groupMetadata()).toEqual({
      groupId: 'g',
      generationId: 1,
      memberId: 'A-1',
      groupInstanceId: null,
    });
  });

  it('delivers nothing while joining: each poll ends after its 100 ms timeout', () => {
    const world = new GroupWorld();
    world.broker.initialRebalanceDelayUs = 250_000;
    const a = startMember(world, 'A', 0);
    world.runTo(300_000);
    // The join completes at 255 ms; polls waited 100 ms each until then.
    expect(a.polls.slice(0, 3)).toEqual([
      { timeUs: 100_000, records: 0 },
      { timeUs: 210_000, records: 0 },
      { timeUs: 264_000, records: 0 },
    ]);
    expect(world.broker.arrivals.find((a) => a.request.kind === 'Fetch')?.timeUs).toBe(263_000);
  });
});

describe('rebalancing', () => {
  it('revokes everything on REBALANCE_IN_PROGRESS, rejoins, and splits the range', () => {
    const world = new GroupWorld();
    const a = startMember(world, 'A', 0);
    const b = startMember(world, 'B', 50_000);
    world.runTo(3_100_000);
    // A learns of the rebalance from its first heartbeat, 3 s after its JoinGroup answer.
    expect(timeline(world, 'A').slice(6)).toEqual([
      'Heartbeat@3010000',
      'JoinGroup@3016000',
      'SyncGroup@3018000',
      'OffsetFetch@3020000',
      'ListOffsets@3022000',
    ]);
    expect(world.broker.requests('JoinGroup').map((join) => join.memberId)).toEqual([
      '',
      'A-1',
      '',
      'B-2',
      'A-1',
    ]);
    expect(a.listenerCalls).toEqual([
      'assigned@11000:in-0,in-1,in-2',
      'revoked@3015000:in-0,in-1,in-2',
      'assigned@3019000:in-0,in-1',
    ]);
    expect(b.listenerCalls).toEqual(['assigned@3019000:in-2']);
    expect(a.consumer?.group?.generations).toEqual([1, 2]);
    expect(b.consumer?.group?.generations).toEqual([2]);
    expect(b.consumer?.groupMetadata().memberId).toBe('B-2');
  });

  it('drops its generation on ILLEGAL_GENERATION from OffsetCommit and rejoins as new', () => {
    const world = new GroupWorld();
    // The coordinator drops A-1, which never rejoins, 50 ms into the next join phase.
    world.broker.rebalanceTimeoutUs = 50_000;
    const a = startMember(world, 'A', 0);
    const results: string[] = [];
    world.at(100_000, () => {
      world.broker.scripted.set('OffsetCommit', ['ILLEGAL_GENERATION']);
      a.consumer?.commitSync([{ ...IN0, offset: 3 }], (error) => results.push(error));
    });
    world.runTo(130_000);
    expect(results).toEqual(['ILLEGAL_GENERATION']);
    expect(world.broker.requests('OffsetCommit')[0]).toMatchObject({
      generationId: 1,
      memberId: 'A-1',
    });
    world.runTo(200_000);
    // The next poll (111 ms) reports the old partitions lost, not revoked: the generation that
    // owned them is gone. A-2's join phase waits 50 ms for A-1 before dropping it.
    expect(a.listenerCalls.slice(1)).toEqual([
      'lost@111000:in-0,in-1,in-2',
      'assigned@167000:in-0,in-1,in-2',
    ]);
    expect(world.broker.requests('JoinGroup').map((join) => join.memberId)).toEqual([
      '',
      'A-1',
      '',
      'A-2',
    ]);
    expect(a.consumer?.groupMetadata()).toMatchObject({ generationId: 2, memberId: 'A-2' });
  });

  it('commitSync succeeds with the current generation and the offsets become committed', () => {
    const world = new GroupWorld();
    const a = startMember(world, 'A', 0);
    const results: string[] = [];
    world.at(100_000, () =>
      a.consumer?.commitSync([{ ...IN0, offset: 9 }], (error) => results.push(error)),
    );
    world.runTo(150_000);
    expect(results).toEqual(['NONE']);
    expect(world.broker.committed.get('in-0')).toBe(9);
  });
});

describe('auto-commit (enable.auto.commit)', () => {
  it('commits the positions at the first poll after each interval and before rejoining', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-0', 5);
    const config = groupConfig({ enableAutoCommit: true, autoCommitIntervalMs: 50 });
    startMember(world, 'A', 0, config);
    startMember(world, 'B', 200_000, groupConfig());
    world.runTo(3_100_000);
    const commits = world.broker.arrivals.filter((x) => x.request.kind === 'OffsetCommit');
    expect(commits.slice(0, 2).map((x) => x.timeUs)).toEqual([52_000, 112_000]);
    expect(world.broker.requests('OffsetCommit')[0]).toMatchObject({
      generationId: 1,
      memberId: 'A-1',
      offsets: [
        { topic: 'in', partition: 0, offset: 5 },
        { topic: 'in', partition: 1, offset: 0 },
        { topic: 'in', partition: 2, offset: 0 },
      ],
    });
    // Before revoking for the rebalance, A commits synchronously, then sends JoinGroup.
    const rejoin = timeline(world, 'A').filter((entry) => entry.startsWith('JoinGroup'))[2];
    const index = timeline(world, 'A').indexOf(rejoin ?? '');
    expect(timeline(world, 'A').slice(index - 2, index + 1)).toEqual([
      'Heartbeat@3010000',
      'OffsetCommit@3016000',
      'JoinGroup@3018000',
    ]);
  });
});

describe('leaving and failing', () => {
  it('leaves the group when the application does not poll within max.poll.interval.ms', () => {
    const world = new GroupWorld();
    const a = startMember(world, 'A', 0, groupConfig({ maxPollIntervalMs: 1000 }));
    world.at(50_000, () => {
      a.polling = false;
    });
    world.runTo(2_000_000);
    const lastPollUs = a.polls.at(-1)?.timeUs ?? -1;
    expect(lastPollUs).toBe(41_000);
    const leave = world.broker.arrivals.find((arrival) => arrival.request.kind === 'LeaveGroup');
    expect(leave?.timeUs).toBe(lastPollUs + 1_000_000 + 1000);
    expect(leave?.request).toMatchObject({ members: [{ memberId: 'A-1', groupInstanceId: null }] });
    expect(a.consumer?.groupMetadata()).toMatchObject({ generationId: -1, memberId: '' });
    // Polling again joins as a new member.
    world.at(2_000_000, () => a.startPolling());
    world.runTo(2_100_000);
    expect(a.consumer?.groupMetadata()).toMatchObject({ memberId: 'A-2', generationId: 3 });
    expect(a.listenerCalls).toEqual([
      'assigned@11000:in-0,in-1,in-2',
      'lost@2000000:in-0,in-1,in-2',
      'assigned@2009000:in-0,in-1,in-2',
    ]);
  });

  it('sends LeaveGroup on close after revoking its partitions', () => {
    const world = new GroupWorld();
    const a = startMember(world, 'A', 0);
    let closedUs = -1;
    world.at(100_000, () => a.consumer?.close(() => (closedUs = world.sim.nowUs)));
    world.runTo(200_000);
    expect(closedUs).toBe(100_000);
    expect(a.listenerCalls.at(-1)).toBe('revoked@100000:in-0,in-1,in-2');
    expect(timeline(world, 'A').at(-1)).toBe('LeaveGroup@101000');
    expect(world.broker.members.size).toBe(0);
  });

  it('treats FENCED_INSTANCE_ID on a heartbeat as fatal', () => {
    const world = new GroupWorld();
    world.broker.scripted.set('Heartbeat', ['FENCED_INSTANCE_ID']);
    const a = startMember(world, 'A', 0, groupConfig({ groupInstanceId: 'i-1' }));
    const results: string[] = [];
    world.runTo(3_100_000);
    expect(a.consumer?.group?.state).toBe('FATAL');
    expect(a.consumer?.group?.fatalError).toBe('FENCED_INSTANCE_ID');
    world.at(3_100_000, () =>
      a.consumer?.commitSync([{ ...IN0, offset: 1 }], (error) => results.push(error)),
    );
    world.runTo(6_500_000);
    expect(results).toEqual(['FENCED_INSTANCE_ID']);
    expect(timeline(world, 'A').slice(6)).toEqual(['Heartbeat@3010000']);
    expect(a.polls.at(-1)?.records).toBe(0);
  });

  it('finds the coordinator again after NOT_COORDINATOR on JoinGroup', () => {
    const world = new GroupWorld();
    world.broker.scripted.set('JoinGroup', ['NOT_COORDINATOR']);
    startMember(world, 'A', 0);
    world.runTo(200_000);
    expect(timeline(world, 'A').slice(0, 6)).toEqual([
      'FindCoordinator@1000',
      'JoinGroup@3000',
      'FindCoordinator@105000',
      'JoinGroup@107000',
      'JoinGroup@109000',
      'SyncGroup@114000',
    ]);
  });
});

describe('positions from committed offsets (requireStable)', () => {
  it('retries UNSTABLE_OFFSET_COMMIT every retry.backoff.ms until the marker lands', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-0', 5);
    world.broker.pendingOffsets.set(9, new Map([['in-0', 8]]));
    const a = startMember(world, 'A', 0);
    world.at(350_000, () => world.broker.endTransaction(9, true));
    world.runTo(500_000);
    const fetches = world.broker.arrivals.filter((x) => x.request.kind === 'OffsetFetch');
    expect(fetches.map((x) => x.timeUs)).toEqual([12_000, 114_000, 216_000, 318_000, 420_000]);
    expect(positions(a)).toEqual(['in-0=8', 'in-1=0', 'in-2=0']);
    expect(a.polls.filter((poll) => poll.timeUs < 420_000).every((p) => p.records === 0)).toBe(
      true,
    );
  });

  it('with requireStable off takes the old committed offset at once (BUG-19 misuse)', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-0', 5);
    world.broker.pendingOffsets.set(9, new Map([['in-0', 8]]));
    const a = startMember(world, 'A', 0, groupConfig({ requireStable: false }));
    world.runTo(50_000);
    expect(world.broker.requests('OffsetFetch').map((fetch) => fetch.requireStable)).toEqual([
      false,
    ]);
    expect(positions(a)).toEqual(['in-0=5', 'in-1=0', 'in-2=0']);
  });

  it('committed() returns the committed offsets and omits partitions without one', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-1', 4);
    const a = startMember(world, 'A', 0);
    const answers: string[] = [];
    world.at(100_000, () =>
      a.consumer?.committed([IN0, { topic: 'in', partition: 1 }], (error, offsets) =>
        answers.push(`${error} ${[...offsets].map(([k, v]) => `${k}=${v}`).join(',')}`),
      ),
    );
    world.runTo(150_000);
    expect(answers).toEqual(['NONE in-1=4']);
  });
});
