/**
 * The classic group protocol at the coordinator after a member has joined (Kafka's
 * GroupCoordinator: prepareRebalance, onCompleteJoin, handleSyncGroup, handleHeartbeat,
 * handleLeaveGroup, onExpireHeartbeat; ClassicGroup). A rebalance parks every member's JoinGroup
 * until all have rejoined or the rebalance timeout (the largest `max.poll.interval.ms` of the
 * members) passes; an Empty group first waits `group.initial.rebalance.delay.ms`, extended while
 * new members arrive in generation 0 (InitialDelayedJoin). Completing the join phase removes the
 * dynamic members that did not rejoin and increments the generation. The leader's SyncGroup
 * assignment is written to `__consumer_offsets` with acks=all and handed to the members once
 * durable. Sessions: every heartbeat, join and sync restarts `session.timeout.ms`; a member whose
 * session ends (not parked in a join or sync) is removed and the group rebalances. New members get
 * Kafka's 5-minute NewMemberJoinTimeoutMs for their first join instead.
 */
import type { ActorContext } from '../../kernel';
import type {
  HeartbeatRequest,
  JoinGroupResponse,
  KafkaErrorCode,
  KafkaMessage,
  LeaveGroupRequest,
  SyncGroupRequest,
  SyncGroupResponse,
  TopicPartition,
} from '../protocol';
import type { ClassicGroup, GroupMember, GroupState } from './group_metadata';

type Ctx = ActorContext<KafkaMessage>;

/** Kafka's GroupCoordinator.NewMemberJoinTimeoutMs: a new member's first join deadline. */
export const NEW_MEMBER_JOIN_TIMEOUT_MS = 300_000;

/** The group coordinator's timers; `owner` lets the broker route them. */
export type GroupTimer =
  | { readonly owner: 'group'; readonly type: 'offset-expiration' }
  | {
      readonly owner: 'group';
      readonly type: 'session';
      readonly groupId: string;
      readonly memberId: string;
      readonly token: number;
    }
  | {
      readonly owner: 'group';
      readonly type: 'pending-member';
      readonly groupId: string;
      readonly memberId: string;
      readonly token: number;
    }
  | {
      readonly owner: 'group';
      readonly type: 'join';
      readonly groupId: string;
      readonly token: number;
      /** InitialDelayedJoin: what is left of the rebalance timeout after this delay, ms. */
      readonly remainingMs: number | null;
    }
  | {
      readonly owner: 'group';
      readonly type: 'load';
      readonly partition: number;
      readonly epoch: number;
    };

/** What the membership logic needs from its coordinator. */
export interface MembershipHost {
  /** `group.initial.rebalance.delay.ms`. */
  readonly initialRebalanceDelayMs: number;
  /**
   * Appends the group's metadata record (with these assignments) to its `__consumer_offsets`
   * partition with acks=all; `done` gets NONE or the SyncGroup-level error.
   */
  storeGroup(
    group: ClassicGroup,
    assignments: ReadonlyMap<string, readonly TopicPartition[]>,
    ctx: Ctx,
    done: (error: KafkaErrorCode) => void,
  ): void;
  /** True while `group` is the loaded object of its id (not unloaded or reloaded meanwhile). */
  isCurrent(group: ClassicGroup): boolean;
}

/** Kafka's storeGroup error mapping for the group metadata write. */
export function groupStoreErrorFor(appendError: KafkaErrorCode): KafkaErrorCode {
  switch (appendError) {
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'NOT_ENOUGH_REPLICAS':
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
      return 'NOT_COORDINATOR';
    case 'REQUEST_TIMED_OUT':
      return 'REBALANCE_IN_PROGRESS';
    default:
      return appendError;
  }
}

/** A JoinGroup answer with only an error (and the member id it concerns). */
export function joinError(error: KafkaErrorCode, memberId = ''): JoinGroupResponse {
  return {
    kind: 'JoinGroupResponse',
    correlationId: 0,
    error,
    generationId: -1,
    protocolName: null,
    leader: '',
    memberId,
    members: [],
  };
}

function syncAnswer(
  error: KafkaErrorCode,
  assignment: readonly TopicPartition[],
): SyncGroupResponse {
  return { kind: 'SyncGroupResponse', correlationId: 0, error, assignment };
}

/** The rebalance, sync, heartbeat, leave and session logic of one coordinator. */
export class GroupMembership {
  private tokens = 1;

  constructor(private readonly host: MembershipHost) {}

  /** Kafka's validateCurrentMember: FENCED_INSTANCE_ID, UNKNOWN_MEMBER_ID, or NONE. */
  validateMember(group: ClassicGroup, memberId: string, instanceId: string | null): KafkaErrorCode {
    if (instanceId !== null) {
      const current = group.staticMembers.get(instanceId);
      if (current === undefined) return 'UNKNOWN_MEMBER_ID';
      if (current !== memberId) return 'FENCED_INSTANCE_ID';
    }
    return group.members.has(memberId) ? 'NONE' : 'UNKNOWN_MEMBER_ID';
  }

  /** Restarts a member's session deadline (completeAndScheduleNextHeartbeatExpiration). */
  scheduleSession(group: ClassicGroup, member: GroupMember, timeoutMs: number, ctx: Ctx): void {
    if (member.sessionTimerId !== -1) ctx.cancelTimer(member.sessionTimerId);
    member.sessionToken = this.tokens++;
    member.sessionTimerId = ctx.setTimer(timeoutMs * 1000, {
      owner: 'group',
      type: 'session',
      groupId: group.groupId,
      memberId: member.memberId,
      token: member.sessionToken,
    } satisfies GroupTimer);
  }

  /** KIP-394: a member id handed out with MEMBER_ID_REQUIRED waits one session for its join. */
  addPendingMember(group: ClassicGroup, memberId: string, timeoutMs: number, ctx: Ctx): void {
    const token = this.tokens++;
    const timerId = ctx.setTimer(timeoutMs * 1000, {
      owner: 'group',
      type: 'pending-member',
      groupId: group.groupId,
      memberId,
      token,
    } satisfies GroupTimer);
    group.pendingMembers.set(memberId, { token, timerId });
  }

  /** The pending member joined (or left): its timer goes. */
  removePendingMember(group: ClassicGroup, memberId: string, ctx: Ctx): void {
    const pending = group.pendingMembers.get(memberId);
    if (pending === undefined) return;
    ctx.cancelTimer(pending.timerId);
    group.pendingMembers.delete(memberId);
  }

  onTimer(group: ClassicGroup, timer: GroupTimer, ctx: Ctx): void {
    if (timer.type === 'session') return this.onSessionTimer(group, timer, ctx);
    if (timer.type === 'pending-member') {
      if (group.pendingMembers.get(timer.memberId)?.token !== timer.token) return;
      group.pendingMembers.delete(timer.memberId);
      if (group.state === 'PreparingRebalance') this.tryCompleteJoin(group, ctx);
      return;
    }
    if (timer.type !== 'join' || timer.token !== group.joinToken) return;
    group.joinTimerId = -1;
    const remainingMs = timer.remainingMs;
    if (remainingMs !== null && group.newMemberAdded && remainingMs > 0) {
      // InitialDelayedJoin: members still arriving in generation 0 extend the wait.
      group.newMemberAdded = false;
      const delayMs = Math.min(this.host.initialRebalanceDelayMs, remainingMs);
      this.scheduleJoin(group, { delayMs, remainingMs: Math.max(remainingMs - delayMs, 0) }, ctx);
      return;
    }
    this.completeJoin(group, ctx);
  }

  /** Kafka's onExpireHeartbeat: a member parked in a join (not new) or a sync is kept. */
  private onSessionTimer(
    group: ClassicGroup,
    timer: Extract<GroupTimer, { type: 'session' }>,
    ctx: Ctx,
  ): void {
    const member = group.members.get(timer.memberId);
    if (member === undefined || member.sessionToken !== timer.token) return;
    member.sessionTimerId = -1;
    const keepAlive = member.awaitingJoin !== null ? !member.isNew : member.awaitingSync !== null;
    if (keepAlive) return;
    ctx.trace(`group ${group.groupId}: session of ${member.memberId} expired`);
    this.removeMember(group, member, ctx);
  }

  /** Stable, CompletingRebalance and Empty groups can start a rebalance (canRebalance). */
  maybePrepareRebalance(group: ClassicGroup, ctx: Ctx): void {
    const canRebalance = ['Stable', 'CompletingRebalance', 'Empty'].includes(group.state);
    if (canRebalance) this.prepareRebalance(group, ctx);
  }

  /** Kafka's prepareRebalance: parked syncs are told to rejoin; the join phase starts. */
  private prepareRebalance(group: ClassicGroup, ctx: Ctx): void {
    if (group.state === 'CompletingRebalance') {
      this.propagateAssignment(group, 'REBALANCE_IN_PROGRESS', ctx);
    }
    const initial = group.state === 'Empty';
    group.transitionTo('PreparingRebalance', ctx.nowUs());
    ctx.trace(`group ${group.groupId}: preparing rebalance after generation ${group.generationId}`);
    const rebalanceTimeoutMs = group.rebalanceTimeoutMs();
    if (!initial)
      return this.scheduleJoin(group, { delayMs: rebalanceTimeoutMs, remainingMs: null }, ctx);
    const delayMs = this.host.initialRebalanceDelayMs;
    const remainingMs = Math.max(rebalanceTimeoutMs - delayMs, 0);
    this.scheduleJoin(group, { delayMs, remainingMs }, ctx);
  }

  private scheduleJoin(
    group: ClassicGroup,
    wait: { delayMs: number; remainingMs: number | null },
    ctx: Ctx,
  ): void {
    if (group.joinTimerId !== -1) ctx.cancelTimer(group.joinTimerId);
    group.joinToken = this.tokens++;
    group.initialJoinDelay = wait.remainingMs !== null;
    group.joinTimerId = ctx.setTimer(wait.delayMs * 1000, {
      owner: 'group',
      type: 'join',
      groupId: group.groupId,
      token: group.joinToken,
      remainingMs: wait.remainingMs,
    } satisfies GroupTimer);
  }

  /** DelayedJoin.tryComplete: every member rejoined (never during the initial delay). */
  tryCompleteJoin(group: ClassicGroup, ctx: Ctx): void {
    if (group.state !== 'PreparingRebalance' || group.initialJoinDelay) return;
    if (group.hasAllMembersJoined()) this.completeJoin(group, ctx);
  }

  /**
   * Kafka's onCompleteJoin: dynamic members that did not rejoin are removed (static ones stay until
   * their session ends; if only they are left, the join phase waits another rebalance timeout), a
   * leader that did not rejoin hands over to one that did, the generation increments (ClassicGroup)
   * and every parked JoinGroup is answered; the leader alone gets the members and their
   * subscriptions. An empty group's new generation is written to the log at once.
   */
  completeJoin(group: ClassicGroup, ctx: Ctx): void {
    if (group.state !== 'PreparingRebalance') return;
    if (group.joinTimerId !== -1) ctx.cancelTimer(group.joinTimerId);
    group.joinTimerId = -1;
    group.joinToken = this.tokens++;
    group.initialJoinDelay = false;
    for (const member of [...group.members.values()]) {
      if (member.awaitingJoin !== null || member.groupInstanceId !== null) continue;
      if (member.sessionTimerId !== -1) ctx.cancelTimer(member.sessionTimerId);
      group.remove(member.memberId);
    }
    const joined = [...group.members.values()].find((member) => member.awaitingJoin !== null);
    if (joined === undefined && group.members.size > 0) {
      // Only static members that did not rejoin are left: Kafka waits another rebalance
      // timeout for their sessions to expire instead of completing without a leader.
      const delayMs = group.rebalanceTimeoutMs();
      return this.scheduleJoin(group, { delayMs, remainingMs: null }, ctx);
    }
    const leader = group.leaderId === null ? undefined : group.members.get(group.leaderId);
    if (leader?.awaitingJoin === null && joined !== undefined) group.leaderId = joined.memberId;
    group.initNextGeneration(ctx.nowUs());
    const state = group.state as GroupState;
    ctx.trace(`group ${group.groupId}: generation ${group.generationId} (${state})`);
    if (state === 'Empty') {
      this.host.storeGroup(group, new Map(), ctx, () => undefined);
      return;
    }
    for (const member of group.members.values()) {
      const respond = member.awaitingJoin;
      member.awaitingJoin = null;
      member.isNew = false;
      respond?.(group.joinResponseFor(member, true));
      this.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
    }
  }

  /** Answers every parked SyncGroup with `error` (and the member's assignment on NONE). */
  propagateAssignment(group: ClassicGroup, error: KafkaErrorCode, ctx: Ctx): void {
    for (const member of group.members.values()) {
      if (error !== 'NONE') member.assignment = [];
      const respond = member.awaitingSync;
      if (respond === null) continue;
      member.awaitingSync = null;
      respond(syncAnswer(error, member.assignment));
      this.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
    }
  }

  /**
   * SyncGroup (ClassicGroup). In CompletingRebalance the member waits; the leader's assignment is
   * written to the log and, once durable in the same generation, every member gets its part and
   * the group is Stable. A write error is handed to the waiting members and the group rebalances.
   */
  sync(
    group: ClassicGroup,
    request: SyncGroupRequest,
    ctx: Ctx,
    respond: (response: SyncGroupResponse) => void,
  ): void {
    if (group.state === 'Dead') return respond(syncAnswer('COORDINATOR_NOT_AVAILABLE', []));
    const invalid = this.validateMember(group, request.memberId, request.groupInstanceId);
    if (invalid !== 'NONE') return respond(syncAnswer(invalid, []));
    if (request.generationId !== group.generationId)
      return respond(syncAnswer('ILLEGAL_GENERATION', []));
    const member = group.members.get(request.memberId) as GroupMember;
    switch (group.state) {
      case 'Empty':
        return respond(syncAnswer('UNKNOWN_MEMBER_ID', []));
      case 'PreparingRebalance':
        return respond(syncAnswer('REBALANCE_IN_PROGRESS', []));
      case 'Stable':
        this.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
        return respond(syncAnswer('NONE', member.assignment));
      case 'CompletingRebalance':
        member.awaitingSync = respond;
        if (request.memberId === group.leaderId) this.storeAssignment(group, request, ctx);
    }
  }

  private storeAssignment(group: ClassicGroup, request: SyncGroupRequest, ctx: Ctx): void {
    const assignments = new Map<string, readonly TopicPartition[]>();
    for (const memberId of group.members.keys()) assignments.set(memberId, []);
    for (const entry of request.assignments) {
      if (assignments.has(entry.memberId)) assignments.set(entry.memberId, entry.partitions);
    }
    const generationId = group.generationId;
    this.host.storeGroup(group, assignments, ctx, (error) => {
      if (!this.host.isCurrent(group)) return;
      if (group.state !== 'CompletingRebalance' || group.generationId !== generationId) return;
      if (error !== 'NONE') {
        this.propagateAssignment(group, error, ctx);
        return this.maybePrepareRebalance(group, ctx);
      }
      for (const member of group.members.values()) {
        member.assignment = assignments.get(member.memberId) ?? [];
      }
      this.propagateAssignment(group, 'NONE', ctx);
      group.transitionTo('Stable', ctx.nowUs());
    });
  }

  /** Heartbeat (Kafka's handleHeartbeat): restarts the session; tells members to rejoin. */
  heartbeat(group: ClassicGroup, request: HeartbeatRequest, ctx: Ctx): KafkaErrorCode {
    if (group.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
    const invalid = this.validateMember(group, request.memberId, request.groupInstanceId);
    if (invalid !== 'NONE') return invalid;
    if (request.generationId !== group.generationId) return 'ILLEGAL_GENERATION';
    const member = group.members.get(request.memberId) as GroupMember;
    switch (group.state) {
      case 'Empty':
        return 'UNKNOWN_MEMBER_ID';
      case 'PreparingRebalance':
        this.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
        return 'REBALANCE_IN_PROGRESS';
      case 'CompletingRebalance':
      case 'Stable':
        this.scheduleSession(group, member, member.sessionTimeoutMs, ctx);
        return 'NONE';
    }
  }

  /**
   * LeaveGroup v3+ (Kafka's handleLeaveGroup): each leaving member is removed; an empty member
   * id with an instance id removes that static member (administrative removal). Returns the
   * first member error, or NONE.
   */
  leave(group: ClassicGroup, request: LeaveGroupRequest, ctx: Ctx): KafkaErrorCode {
    if (group.state === 'Dead') return 'COORDINATOR_NOT_AVAILABLE';
    const errors = request.members.map(({ memberId, groupInstanceId }): KafkaErrorCode => {
      if (memberId === '') {
        const current =
          groupInstanceId === null ? undefined : group.staticMembers.get(groupInstanceId);
        const member = current === undefined ? undefined : group.members.get(current);
        if (member === undefined) return 'UNKNOWN_MEMBER_ID';
        this.removeMember(group, member, ctx);
        return 'NONE';
      }
      if (group.pendingMembers.has(memberId)) {
        this.removePendingMember(group, memberId, ctx);
        if (group.state === 'PreparingRebalance') this.tryCompleteJoin(group, ctx);
        return 'NONE';
      }
      const invalid = this.validateMember(group, memberId, groupInstanceId);
      if (invalid !== 'NONE') return invalid;
      this.removeMember(group, group.members.get(memberId) as GroupMember, ctx);
      return 'NONE';
    });
    return errors.find((error) => error !== 'NONE') ?? 'NONE';
  }

  /** Kafka's removeMemberAndUpdateGroup: parked requests fail, then the group rebalances. */
  removeMember(group: ClassicGroup, member: GroupMember, ctx: Ctx): void {
    member.awaitingJoin?.(joinError('UNKNOWN_MEMBER_ID', member.memberId));
    member.awaitingJoin = null;
    member.awaitingSync?.(syncAnswer('UNKNOWN_MEMBER_ID', []));
    member.awaitingSync = null;
    if (member.sessionTimerId !== -1) ctx.cancelTimer(member.sessionTimerId);
    member.sessionTimerId = -1;
    group.remove(member.memberId);
    if (group.state === 'PreparingRebalance') return this.tryCompleteJoin(group, ctx);
    if (group.state === 'Stable' || group.state === 'CompletingRebalance') {
      this.prepareRebalance(group, ctx);
    }
  }

  /** The group leaves this coordinator: parked requests get NOT_COORDINATOR, timers stop. */
  unload(group: ClassicGroup, ctx: Ctx): void {
    for (const member of group.members.values()) {
      member.awaitingJoin?.(joinError('NOT_COORDINATOR', member.memberId));
      member.awaitingJoin = null;
      member.awaitingSync?.(syncAnswer('NOT_COORDINATOR', []));
      member.awaitingSync = null;
      if (member.sessionTimerId !== -1) ctx.cancelTimer(member.sessionTimerId);
    }
    for (const pending of group.pendingMembers.values()) ctx.cancelTimer(pending.timerId);
    if (group.joinTimerId !== -1) ctx.cancelTimer(group.joinTimerId);
  }
}
