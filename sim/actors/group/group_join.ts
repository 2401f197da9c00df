/**
 * JoinGroup at the coordinator (Kafka's GroupCoordinator.handleJoinGroup, doNewMemberJoinGroup,
 * doCurrentMemberJoinGroup, doStaticMemberJoin; ClassicGroup). A dynamic member joining with an
 * empty member id gets MEMBER_ID_REQUIRED with an id the coordinator made (KIP-394) and joins again
 * with it. A static member (KIP-345) is admitted at once; if its `group.instance.id` is already
 * mapped, the new member id replaces the old one, whose parked requests are answered
 * FENCED_INSTANCE_ID; in a Stable group the replacement is written to the log and the member keeps
 * its assignment without a rebalance. A known member's rejoin starts or joins a rebalance, except a
 * follower with unchanged protocols in a Stable group or one that missed its answer in
 * CompletingRebalance, which gets the current generation back.
 */
import type { ActorContext } from '../../kernel';
import type {
  JoinGroupRequest,
  JoinGroupResponse,
  KafkaErrorCode,
  KafkaMessage,
  TopicPartition,
} from '../protocol';
import type { ClassicGroup, GroupMember, MemberProtocol } from './group_metadata';
import {
  NEW_MEMBER_JOIN_TIMEOUT_MS,
  joinError,
  type GroupMembership,
  type MembershipHost,
} from './group_membership';

type Ctx = ActorContext<KafkaMessage>;
type Respond = (response: JoinGroupResponse) => void;

/** What a join needs besides the group. */
export interface JoinDeps {
  readonly membership: GroupMembership;
  readonly host: MembershipHost;
  /** A fresh member id: `prefix` is the client's node id or the member's instance id. */
  newMemberId(group: ClassicGroup, prefix: string): string;
}

/** One JoinGroup for an existing (possibly just created, Empty) group. */
export function joinGroup(
  group: ClassicGroup,
  request: JoinGroupRequest & { readonly clientId: string },
  ctx: Ctx,
  deps: JoinDeps & { readonly respond: Respond },
): void {
  const { respond } = deps;
  if (group.state === 'Dead') return respond(joinError('COORDINATOR_NOT_AVAILABLE'));
  if (!group.supportsProtocols(request.protocols)) {
    return respond(joinError('INCONSISTENT_GROUP_PROTOCOL', request.memberId));
  }
  if (request.memberId !== '') return joinCurrentMember(group, request, ctx, deps);
  const prefix = request.groupInstanceId ?? request.clientId;
  const memberId = deps.newMemberId(group, prefix);
  if (request.groupInstanceId === null) {
    // KIP-394: the member must come back with the id.
    deps.membership.addPendingMember(group, memberId, request.sessionTimeoutMs, ctx);
    return respond(joinError('MEMBER_ID_REQUIRED', memberId));
  }
  const oldMemberId = group.staticMembers.get(request.groupInstanceId);
  if (oldMemberId === undefined)
    return addMemberAndRebalance(group, { request, memberId }, ctx, deps);
  replaceStaticMember(group, { request, oldMemberId, memberId }, ctx, deps);
}

function joinCurrentMember(
  group: ClassicGroup,
  request: JoinGroupRequest,
  ctx: Ctx,
  deps: JoinDeps & { readonly respond: Respond },
): void {
  const { respond, membership } = deps;
  const { memberId } = request;
  if (group.pendingMembers.has(memberId)) {
    return addMemberAndRebalance(group, { request, memberId }, ctx, deps);
  }
  const invalid = membership.validateMember(group, memberId, request.groupInstanceId);
  if (invalid !== 'NONE') return respond(joinError(invalid, memberId));
  const member = group.members.get(memberId) as GroupMember;
  const unchanged = sameProtocols(member.protocols, request.protocols);
  switch (group.state) {
    case 'PreparingRebalance':
      return updateMemberAndRebalance(group, { member, request }, ctx, deps);
    case 'CompletingRebalance':
      if (unchanged) return respond(group.joinResponseFor(member, true));
      return updateMemberAndRebalance(group, { member, request }, ctx, deps);
    case 'Stable':
      if (group.leaderId === memberId || !unchanged) {
        return updateMemberAndRebalance(group, { member, request }, ctx, deps);
      }
      return respond(group.joinResponseFor(member, false));
    case 'Empty':
    case 'Dead':
      return respond(joinError('UNKNOWN_MEMBER_ID', memberId));
  }
}

/** Kafka's addMemberAndRebalance: a new member parks its join; the group (re)balances. */
function addMemberAndRebalance(
  group: ClassicGroup,
  join: { request: JoinGroupRequest; memberId: string },
  ctx: Ctx,
  deps: JoinDeps & { readonly respond: Respond },
): void {
  const { request, memberId } = join;
  const { membership } = deps;
  const member: GroupMember = {
    memberId,
    groupInstanceId: request.groupInstanceId,
    sessionTimeoutMs: request.sessionTimeoutMs,
    rebalanceTimeoutMs: request.rebalanceTimeoutMs,
    protocols: request.protocols,
    assignment: [],
    awaitingJoin: deps.respond,
    awaitingSync: null,
    isNew: true,
    sessionToken: 0,
    sessionTimerId: -1,
  };
  if (group.state === 'PreparingRebalance' && group.generationId === 0) group.newMemberAdded = true;
  group.add(member);
  membership.removePendingMember(group, memberId, ctx);
  membership.scheduleSession(group, member, NEW_MEMBER_JOIN_TIMEOUT_MS, ctx);
  membership.maybePrepareRebalance(group, ctx);
  membership.tryCompleteJoin(group, ctx);
}

/** Kafka's updateMemberAndRebalance: the member's protocols and timeouts are refreshed. */
function updateMemberAndRebalance(
  group: ClassicGroup,
  update: { member: GroupMember; request: JoinGroupRequest },
  ctx: Ctx,
  deps: JoinDeps & { readonly respond: Respond },
): void {
  const { member, request } = update;
  member.protocols = request.protocols;
  member.sessionTimeoutMs = request.sessionTimeoutMs;
  member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
  member.awaitingJoin = deps.respond;
  deps.membership.maybePrepareRebalance(group, ctx);
  deps.membership.tryCompleteJoin(group, ctx);
}

/** KIP-345: a static member rejoined with a new member id; the old one is fenced. */
function replaceStaticMember(
  group: ClassicGroup,
  replace: { request: JoinGroupRequest; oldMemberId: string; memberId: string },
  ctx: Ctx,
  deps: JoinDeps & { readonly respond: Respond },
): void {
  const { request, oldMemberId, memberId } = replace;
  const instanceId = request.groupInstanceId as string;
  const old = group.members.get(oldMemberId) as GroupMember;
  old.awaitingJoin?.(joinError('FENCED_INSTANCE_ID', oldMemberId));
  old.awaitingJoin = null;
  old.awaitingSync?.({
    kind: 'SyncGroupResponse',
    correlationId: 0,
    error: 'FENCED_INSTANCE_ID',
    assignment: [],
  });
  old.awaitingSync = null;
  const member = group.replaceStaticMember(instanceId, oldMemberId, memberId);
  deps.membership.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
  if (group.state !== 'Stable' || !sameProtocols(member.protocols, request.protocols)) {
    return updateMemberAndRebalance(group, { member, request }, ctx, deps);
  }
  // A Stable group keeps its assignment: the new id is made durable, then answered.
  const assignments = new Map<string, readonly TopicPartition[]>(
    [...group.members.values()].map((each) => [each.memberId, each.assignment]),
  );
  const generationId = group.generationId;
  deps.host.storeGroup(group, assignments, ctx, (error: KafkaErrorCode) => {
    if (!deps.host.isCurrent(group) || group.generationId !== generationId) {
      return deps.respond(joinError('NOT_COORDINATOR', memberId));
    }
    if (error !== 'NONE') {
      // Kafka reverts the replacement when the write fails.
      if (group.members.has(memberId)) group.replaceStaticMember(instanceId, memberId, oldMemberId);
      return deps.respond(joinError(error, memberId));
    }
    deps.respond(group.joinResponseFor(member, false));
  });
}

function sameProtocols(
  current: readonly MemberProtocol[],
  requested: readonly MemberProtocol[],
): boolean {
  if (current.length !== requested.length) return false;
  return current.every((protocol, index) => {
    const other = requested[index];
    return (
      other !== undefined &&
      other.name === protocol.name &&
      other.subscription.topics.join(',') === protocol.subscription.topics.join(',')
    );
  });
}
