/**
 * One classic consumer group as its coordinator holds it (Kafka's GroupMetadata and
 * MemberMetadata; the new coordinator's ClassicGroup): the state with Kafka's table of
 * legal predecessors, the generation, the protocol, the leader, the members with their
 * subscriptions, assignments, session deadlines and the callbacks of their parked JoinGroup and
 * SyncGroup requests, the static-member map (KIP-345), the KIP-394 pending members, and the
 * group's offsets (OffsetStore). It knows nothing about the log; group_membership.ts drives it.
 */
import { assert } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type {
  GroupMemberRecord,
  GroupMetadataRecord,
  GroupSubscription,
  JoinGroupResponse,
  SyncGroupResponse,
  TopicPartition,
} from '../protocol';
import { OffsetStore } from './offset_store';

/** Kafka's GroupState names (classic protocol). */
export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

/** Kafka's GroupState.validPreviousStates, copied. */
export const VALID_PREVIOUS_GROUP_STATES: ReadonlyMap<GroupState, readonly GroupState[]> = new Map<
  GroupState,
  readonly GroupState[]
>([
  ['Empty', ['PreparingRebalance']],
  ['PreparingRebalance', ['Stable', 'CompletingRebalance', 'Empty']],
  ['CompletingRebalance', ['PreparingRebalance']],
  ['Stable', ['CompletingRebalance']],
  ['Dead', ['Stable', 'PreparingRebalance', 'CompletingRebalance', 'Empty', 'Dead']],
]);

/** The protocol type every consumer group uses. */
export const CONSUMER_PROTOCOL_TYPE = 'consumer';

/** One assignor a member supports, with its subscription. */
export interface MemberProtocol {
  readonly name: string;
  readonly subscription: GroupSubscription;
}

/** One member (Kafka's MemberMetadata). */
export interface GroupMember {
  memberId: string;
  readonly groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocols: readonly MemberProtocol[];
  assignment: readonly TopicPartition[];
  /** A parked JoinGroup, answered when the join phase completes. */
  awaitingJoin: ((response: JoinGroupResponse) => void) | null;
  /** A parked SyncGroup, answered when the leader's assignment is durable. */
  awaitingSync: ((response: SyncGroupResponse) => void) | null;
  /** Joined in the current join phase for the first time (Kafka's isNew). */
  isNew: boolean;
  /** Token of the member's live session timer (a fired timer with another token is stale). */
  sessionToken: number;
  /** Timer id of the live session timer, or -1. */
  sessionTimerId: number;
}

/** A classic group. */
export class ClassicGroup {
  state: GroupState = 'Empty';
  generationId = 0;
  protocolName: string | null = null;
  protocolType: string | null = null;
  leaderId: string | null = null;
  readonly members = new BoundedMap<string, GroupMember>(COLLECTION_BOUNDS.groupMembers);
  /** KIP-345: `group.instance.id` → current member id. */
  readonly staticMembers = new BoundedMap<string, string>(COLLECTION_BOUNDS.groupMembers);
  /** KIP-394: member ids handed out with MEMBER_ID_REQUIRED, awaiting their second join. */
  readonly pendingMembers = new BoundedMap<string, { token: number; timerId: number }>(
    COLLECTION_BOUNDS.groupMembers,
  );
  /** InitialDelayedJoin: a member joined during the initial delay of generation 0. */
  newMemberAdded = false;
  /** Token of the live join-phase timer; the timer's own token must match. */
  joinToken = 0;
  joinTimerId = -1;
  /** The live join-phase timer is an InitialDelayedJoin, which never completes early. */
  initialJoinDelay = false;
  readonly offsets = new OffsetStore();
  /**
   * GroupMetadata.currentStateTimestamp (KIP-211): when the group entered its state, or null
   * (a group never moved here, or loaded from a v1 metadata record). An Empty group's offsets
   * expire `offsets.retention.minutes` after it.
   */
  currentStateTimestampUs: number | null = null;

  constructor(readonly groupId: string) {}

  /** Moves to `next` at `nowUs`, asserting Kafka's legal predecessors. */
  transitionTo(next: GroupState, nowUs: number): void {
    const allowed = VALID_PREVIOUS_GROUP_STATES.get(next) ?? [];
    assert(
      allowed.includes(this.state),
      `group ${this.groupId}: illegal transition ${this.state} -> ${next}`,
    );
    this.state = next;
    this.currentStateTimestampUs = nowUs;
  }

  /** The first member added leads until it leaves. */
  add(member: GroupMember): void {
    if (this.members.size === 0) this.protocolType = CONSUMER_PROTOCOL_TYPE;
    this.members.set(member.memberId, member);
    if (member.groupInstanceId !== null)
      this.staticMembers.set(member.groupInstanceId, member.memberId);
    this.leaderId ??= member.memberId;
  }

  /** Removes a member; a removed leader hands over to the next member in join order. */
  remove(memberId: string): void {
    const member = this.members.get(memberId);
    if (member === undefined) return;
    this.members.delete(memberId);
    if (member.groupInstanceId !== null) this.staticMembers.delete(member.groupInstanceId);
    if (this.leaderId === memberId) this.leaderId = this.members.keys().next().value ?? null;
  }

  /**
   * KIP-345: a static member rejoined with a new member id: the old id is gone (its parked
   * requests are the caller's to fence), the new one inherits the rest.
   */
  replaceStaticMember(instanceId: string, oldMemberId: string, newMemberId: string): GroupMember {
    const member = this.members.get(oldMemberId);
    assert(member !== undefined, `static member ${instanceId} has no member ${oldMemberId}`);
    this.members.delete(oldMemberId);
    member.memberId = newMemberId;
    this.members.set(newMemberId, member);
    this.staticMembers.set(instanceId, newMemberId);
    if (this.leaderId === oldMemberId) this.leaderId = newMemberId;
    return member;
  }

  /** Every member has rejoined and no KIP-394 member is still on its way (hasAllMembersJoined). */
  hasAllMembersJoined(): boolean {
    const joined = [...this.members.values()].filter((member) => member.awaitingJoin !== null);
    return joined.length === this.members.size && this.pendingMembers.size === 0;
  }

  /** The largest rebalance timeout of the members (the join phase's deadline), ms. */
  rebalanceTimeoutMs(): number {
    let timeoutMs = 0;
    for (const member of this.members.values())
      timeoutMs = Math.max(timeoutMs, member.rebalanceTimeoutMs);
    return timeoutMs;
  }

  /** Kafka's supportsProtocols: an empty group takes any non-empty list; else one in common. */
  supportsProtocols(protocols: readonly MemberProtocol[]): boolean {
    if (this.members.size === 0) return protocols.length > 0;
    return protocols.some((protocol) =>
      [...this.members.values()].every((member) =>
        member.protocols.some((own) => own.name === protocol.name),
      ),
    );
  }

  /**
   * Kafka's selectProtocol: among the protocols every member supports, each member votes for its
   * first; the most votes win (ties to the name first in code-unit order).
   */
  selectProtocol(): string {
    const members = [...this.members.values()];
    const candidates = (members[0]?.protocols ?? [])
      .map((protocol) => protocol.name)
      .filter((name) => members.every((member) => member.protocols.some((p) => p.name === name)));
    assert(candidates.length > 0, `group ${this.groupId}: no protocol common to all members`);
    const votes = new Map<string, number>();
    for (const member of members) {
      const vote = member.protocols.find((protocol) => candidates.includes(protocol.name));
      if (vote !== undefined) votes.set(vote.name, (votes.get(vote.name) ?? 0) + 1);
    }
    const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return (ranked[0] as [string, number])[0];
  }

  /**
   * ClassicGroup: the join phase completed: the generation increments and the group goes to
   * CompletingRebalance with the members' common protocol, or to Empty when none is left.
   */
  initNextGeneration(nowUs: number): void {
    this.generationId += 1;
    if (this.members.size > 0) {
      this.protocolName = this.selectProtocol();
      this.transitionTo('CompletingRebalance', nowUs);
    } else {
      this.protocolName = null;
      this.transitionTo('Empty', nowUs);
    }
  }

  /** The member's subscription under the chosen protocol. */
  subscriptionOf(member: GroupMember): GroupSubscription {
    const chosen = member.protocols.find((protocol) => protocol.name === this.protocolName);
    return chosen?.subscription ?? member.protocols[0]?.subscription ?? noSubscription();
  }

  /**
   * The JoinGroupResponse of the current generation for `member`: the leader also gets every
   * member's subscription when `withMembers` (the end of a join phase), others an empty list.
   */
  joinResponseFor(member: GroupMember, withMembers: boolean): JoinGroupResponse {
    const leader = member.memberId === this.leaderId;
    return {
      kind: 'JoinGroupResponse',
      correlationId: 0,
      error: 'NONE',
      generationId: this.generationId,
      protocolName: this.protocolName,
      leader: this.leaderId ?? '',
      memberId: member.memberId,
      members:
        withMembers && leader
          ? [...this.members.values()].map((each) => ({
              memberId: each.memberId,
              groupInstanceId: each.groupInstanceId,
              subscription: this.subscriptionOf(each),
            }))
          : [],
    };
  }

  /**
   * The GroupMetadataValue written to `__consumer_offsets` (GroupMetadataManager.storeGroup):
   * v1, below `inter.broker.protocol.version` 2.1, has no current state timestamp.
   */
  toRecord(
    assignments: ReadonlyMap<string, readonly TopicPartition[]>,
    valueVersion: 1 | 3 = 3,
  ): GroupMetadataRecord {
    const members: GroupMemberRecord[] = [...this.members.values()].map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      sessionTimeoutMs: member.sessionTimeoutMs,
      rebalanceTimeoutMs: member.rebalanceTimeoutMs,
      subscription: this.subscriptionOf(member).topics,
      assignment: assignments.get(member.memberId) ?? [],
    }));
    return {
      type: 'group',
      groupId: this.groupId,
      value: {
        protocolType: this.protocolType ?? CONSUMER_PROTOCOL_TYPE,
        generationId: this.generationId,
        protocolName: this.protocolName,
        leader: this.leaderId,
        members,
        ...(valueVersion === 1 || this.currentStateTimestampUs === null
          ? {}
          : { currentStateTimestampUs: this.currentStateTimestampUs }),
      },
    };
  }
}

/** A member as restored from a GroupMetadataValue after a load (its session restarts). */
export function memberFromRecord(record: GroupMemberRecord, protocolName: string): GroupMember {
  return {
    memberId: record.memberId,
    groupInstanceId: record.groupInstanceId,
    sessionTimeoutMs: record.sessionTimeoutMs,
    rebalanceTimeoutMs: record.rebalanceTimeoutMs,
    protocols: [
      { name: protocolName, subscription: { topics: record.subscription, ownedPartitions: [] } },
    ],
    assignment: record.assignment,
    awaitingJoin: null,
    awaitingSync: null,
    isNew: false,
    sessionToken: 0,
    sessionTimerId: -1,
  };
}

function noSubscription(): GroupSubscription {
  return { topics: [], ownedPartitions: [] };
}
