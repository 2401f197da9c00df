/**
 * Goal: a classic group moves only along Kafka's GroupState table, the generation increments
 * each time the join phase completes (also into Empty), and the protocol is the one every member
 * supports with the most first-choice votes. Method: a ClassicGroup driven by hand.
 */
import { describe, expect, it } from 'vitest';
import { AssertionError } from '../../kernel';
import { ClassicGroup, VALID_PREVIOUS_GROUP_STATES, type GroupMember } from './group_metadata';

function member(memberId: string, protocols: string[]): GroupMember {
  return {
    memberId,
    groupInstanceId: null,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 30_000,
    protocols: protocols.map((name) => ({
      name,
      subscription: { topics: ['in'], ownedPartitions: [] },
    })),
    assignment: [],
    awaitingJoin: null,
    awaitingSync: null,
    isNew: false,
    sessionToken: 0,
    sessionTimerId: -1,
  };
}

describe('ClassicGroup', () => {
  it("follows Kafka's table of legal predecessors", () => {
    expect(VALID_PREVIOUS_GROUP_STATES.get('Stable')).toEqual(['CompletingRebalance']);
    const group = new ClassicGroup('g');
    expect(() => group.transitionTo('Stable', 0)).toThrow(AssertionError);
    group.transitionTo('PreparingRebalance', 0);
    expect(() => group.transitionTo('Stable', 0)).toThrow(AssertionError);
  });

  it('increments the generation when the join phase completes, into Empty too', () => {
    const group = new ClassicGroup('g');
    group.add(member('m1', ['range']));
    group.transitionTo('PreparingRebalance', 0);
    group.initNextGeneration(0);
    expect([group.state, group.generationId, group.protocolName]).toEqual([
      'CompletingRebalance',
      1,
      'range',
    ]);
    group.transitionTo('PreparingRebalance', 0);
    group.remove('m1');
    group.initNextGeneration(0);
    expect([group.state, group.generationId, group.protocolName]).toEqual(['Empty', 2, null]);
  });

  it('selects the common protocol with the most first-choice votes', () => {
    const group = new ClassicGroup('g');
    group.add(member('m1', ['roundrobin', 'range']));
    group.add(member('m2', ['range', 'roundrobin']));
    group.add(member('m3', ['range']));
    expect(group.selectProtocol()).toBe('range');
    expect(group.supportsProtocols([member('m4', ['sticky']).protocols[0]!])).toBe(false);
  });

  it('hands the leadership to the next member in join order', () => {
    const group = new ClassicGroup('g');
    group.add(member('m1', ['range']));
    group.add(member('m2', ['range']));
    expect(group.leaderId).toBe('m1');
    group.remove('m1');
    expect(group.leaderId).toBe('m2');
  });
});
