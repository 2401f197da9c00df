/**
 * Goal: the RangeAssignor gives exactly Kafka's assignments (apache/kafka RangeAssignor and its
 * tests): per topic, partitions in order cut into contiguous ranges over the subscribed members
 * sorted by member id (static members first, by instance id), the first members taking one extra.
 * Method: hand-computed assignments for uneven counts, several topics, partial subscriptions,
 * more members than partitions, and static members.
 */
import { describe, expect, it } from 'vitest';
import { rangeAssign, type TopicPartition } from '../../sim/actors';

const member = (memberId: string, topics: string[], groupInstanceId: string | null = null) => ({
  memberId,
  groupInstanceId,
  topics,
});

/** The assignment as `member: t-0,t-1` lines, for exact comparison. */
function render(assignment: Map<string, TopicPartition[]>): string[] {
  return [...assignment].map(
    ([memberId, tps]) => `${memberId}: ${tps.map((tp) => `${tp.topic}-${tp.partition}`).join(',')}`,
  );
}

describe('rangeAssign', () => {
  it('gives the first members one extra partition of each topic (7 partitions, 3 members)', () => {
    const members = [member('c', ['t']), member('a', ['t']), member('b', ['t'])];
    expect(render(rangeAssign(members, new Map([['t', 7]])))).toEqual([
      'a: t-0,t-1,t-2',
      'b: t-3,t-4',
      'c: t-5,t-6',
    ]);
  });

  it('assigns each topic on its own, so the extras pile up on the first member', () => {
    const members = [member('m1', ['x', 'y']), member('m2', ['x', 'y'])];
    const counts = new Map([
      ['x', 3],
      ['y', 3],
    ]);
    expect(render(rangeAssign(members, counts))).toEqual(['m1: x-0,x-1,y-0,y-1', 'm2: x-2,y-2']);
  });

  it('splits a topic only among its subscribers', () => {
    const members = [member('a', ['x']), member('b', ['x', 'y']), member('c', ['y'])];
    const counts = new Map([
      ['x', 2],
      ['y', 5],
    ]);
    expect(render(rangeAssign(members, counts))).toEqual([
      'a: x-0',
      'b: x-1,y-0,y-1,y-2',
      'c: y-3,y-4',
    ]);
  });

  it('leaves the last members empty when there are more members than partitions', () => {
    const members = [member('a', ['t']), member('b', ['t']), member('c', ['t'])];
    expect(render(rangeAssign(members, new Map([['t', 2]])))).toEqual(['a: t-0', 'b: t-1', 'c: ']);
  });

  it('orders static members by instance id ahead of dynamic ones', () => {
    const members = [member('a', ['t']), member('z', ['t'], 'i-2'), member('y', ['t'], 'i-1')];
    expect(render(rangeAssign(members, new Map([['t', 4]])))).toEqual([
      'y: t-0,t-1',
      'z: t-2',
      'a: t-3',
    ]);
  });

  it('skips a topic whose partition count is unknown', () => {
    const members = [member('a', ['t', 'unknown'])];
    expect(render(rangeAssign(members, new Map([['t', 1]])))).toEqual(['a: t-0']);
  });
});
