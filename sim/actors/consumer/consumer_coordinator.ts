/**
 * Group membership of a subscribed consumer, as Java's classic ConsumerCoordinator and
 * AbstractCoordinator run it (ClassicGroup): FindCoordinator(group), JoinGroup
 * (a first join with an empty member id is answered MEMBER_ID_REQUIRED with the id to use,
 * KIP-394), the leader computes the assignment with the RangeAssignor, SyncGroup hands every member
 * its partitions. Eager protocol: before every join the member revokes all its partitions (after an
 * auto-commit of the consumed positions) and calls the rebalance listener. Heartbeats run every
 * `heartbeat.interval.ms` while the member is in a generation; REBALANCE_IN_PROGRESS asks for a
 * rejoin at the next poll, ILLEGAL_GENERATION and UNKNOWN_MEMBER_ID reset the generation and the
 * member id, FENCED_INSTANCE_ID is fatal, coordinator errors find the coordinator again. A member
 * whose application does not poll within `max.poll.interval.ms` leaves the group, as Java's
 * heartbeat thread makes it.
 */
import type { ActorContext } from '../../kernel';
import { pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type {
  JoinGroupResponse,
  KafkaErrorCode,
  KafkaMessage,
  SyncGroupResponse,
  TopicPartition,
} from '../protocol';
import { NO_GENERATION, UNKNOWN_MEMBER_ID } from '../protocol';
import type { ConsumerGroupMetadata, ResolvedConsumerConfig } from './consumer_config';
import type { CoordinatorChannel } from './coordinator_channel';
import { RANGE_ASSIGNOR_NAME, rangeAssign } from './range_assignor';

/** Java's MemberState, plus FATAL after FENCED_INSTANCE_ID or an unexpected error. */
export type MemberState =
  'UNJOINED' | 'PREPARING_REBALANCE' | 'COMPLETING_REBALANCE' | 'STABLE' | 'FATAL';

/**
 * The application's ConsumerRebalanceListener. `onPartitionsRevoked` runs before every join
 * (eager protocol) while the member still holds the partitions and its generation, so the
 * application may finish its work or commit; the consumer sends JoinGroup only after `done()`.
 * `onPartitionsLost` replaces it when the generation is already gone (the commit would be
 * rejected); like Java's default method, it falls back to `onPartitionsRevoked`. Neither is
 * called with an empty list. `onPartitionsAssigned` runs after SyncGroup, before positions are
 * fetched.
 */
export interface RebalanceListener {
  onPartitionsRevoked(partitions: readonly TopicPartition[], done: () => void): void;
  onPartitionsAssigned(partitions: readonly TopicPartition[]): void;
  onPartitionsLost?(partitions: readonly TopicPartition[], done: () => void): void;
}

/** What the membership needs from the consumer around it. */
export interface MembershipHost {
  readonly ctx: ActorContext<KafkaMessage>;
  readonly config: ResolvedConsumerConfig;
  readonly channel: CoordinatorChannel;
  /** Partition counts of the topics, for the leader's assignment. */
  partitionCounts(topics: readonly string[]): Map<string, number>;
  /** The partitions currently assigned. */
  assignment(): TopicPartition[];
  /** Replaces the assignment; positions of partitions no longer assigned are dropped. */
  setAssignment(partitions: readonly TopicPartition[]): void;
  /** Commits the consumed positions (auto-commit before a rebalance), then calls `done`. */
  autoCommitBeforeRebalance(done: () => void): void;
  /** The membership changed (joined, needs a rejoin, failed): a waiting poll may go on. */
  onGroupChange(): void;
}

/** Backoff-free rejoin errors (Java's joinGroupIfNeeded `continue`s on them). */
const IMMEDIATE_REJOIN = new Set<KafkaErrorCode>([
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'MEMBER_ID_REQUIRED',
]);

/** Java's `JOIN_GROUP_TIMEOUT_LAPSE`: JoinGroup may wait the rebalance timeout plus this. */
const JOIN_GROUP_TIMEOUT_LAPSE_MS = 5000;

/**
 * How long a JoinGroup may wait for its answer, in ms: the rebalance timeout
 * (`max.poll.interval.ms`) plus JOIN_GROUP_TIMEOUT_LAPSE
 * (AbstractCoordinator.sendJoinGroupRequest).
 * @example joinGroupTimeoutMs({ maxPollIntervalMs: 300000 }) // 305000
 */
export function joinGroupTimeoutMs(config: { readonly maxPollIntervalMs: number }): number {
  return config.maxPollIntervalMs + JOIN_GROUP_TIMEOUT_LAPSE_MS;
}

/** The membership of one consumer in its group. */
export class ConsumerCoordinator {
  state: MemberState = 'UNJOINED';
  generationId = NO_GENERATION;
  memberId = UNKNOWN_MEMBER_ID;
  /** Error that made the member FATAL (FENCED_INSTANCE_ID, INCONSISTENT_GROUP_PROTOCOL, ...). */
  fatalError: KafkaErrorCode | null = null;
  /** Generations this member completed, in order (for tests and traces). */
  readonly generations: number[] = [];
  private topics: readonly string[] = [];
  private listener: RebalanceListener | null = null;
  private rejoinNeeded = true;
  private joining = false;
  private joinPrepared = false;
  private metadata: ConsumerGroupMetadata;
  private heartbeatToken: number | null = null;
  private heartbeatInFlight = false;
  private lastHeartbeatReceivedUs = 0;
  private pollTimeoutToken: number | null = null;
  private lastPollActivityUs = 0;
  private closed = false;

  constructor(private readonly host: MembershipHost) {
    this.metadata = this.resetMetadata();
  }

  private get groupId(): string {
    return this.host.config.groupId as string;
  }

  /** Sets the subscription; a change asks for a rejoin. */
  subscribe(topics: readonly string[], listener: RebalanceListener | null): void {
    this.topics = [...topics];
    this.listener = listener;
    this.requestRejoin('subscription changed');
  }

  /** `groupMetadata()`: the identity of the last completed generation, or the reset one. */
  groupMetadata(): ConsumerGroupMetadata {
    return this.metadata;
  }

  /** Stable in a generation with nothing pending: the assignment is current. */
  get stable(): boolean {
    return this.state === 'STABLE' && !this.rejoinNeeded;
  }

  /**
   * Java's `ensureActiveGroup`, called by poll: starts the join if needed. True when the member
   * is stable; false while joining (poll then returns nothing) or after a fatal error.
   */
  ensureActiveGroup(): boolean {
    if (this.closed || this.state === 'FATAL') return false;
    if (this.stable) return true;
    if (this.joining) return false;
    this.joining = true;
    this.host.channel.whenKnown(() => this.joinStep());
    return false;
  }

  /**
   * The application polled (or a poll ended): restarts the `max.poll.interval.ms` clock. One
   * check timer at a time, moved forward when it fires early: the kernel keeps cancelled timers
   * queued until their time, so a new 300 s timer per poll would pile up.
   */
  onPollActivity(): void {
    this.lastPollActivityUs = this.host.ctx.nowUs();
    if (this.pollTimeoutToken === null)
      this.schedulePollCheck(this.host.config.maxPollIntervalMs * 1000);
  }

  private schedulePollCheck(delayUs: number): void {
    this.pollTimeoutToken = this.host.channel.schedule(delayUs, () => this.onPollTimeout());
  }

  /** Marks the member for a rejoin at the next poll (Java's `requestRejoin`). */
  requestRejoin(reason: string): void {
    if (!this.rejoinNeeded) this.host.ctx.trace(`consumer rejoin needed: ${reason}`);
    this.rejoinNeeded = true;
    this.host.onGroupChange();
  }

  /**
   * Java's `resetStateAndGeneration`: generation -1, member id '' and UNJOINED; the next poll
   * joins as a new member (the old partitions are then reported lost).
   */
  resetGeneration(reason: string): void {
    this.host.ctx.trace(`consumer reset generation ${this.generationId}: ${reason}`);
    this.generationId = NO_GENERATION;
    this.memberId = UNKNOWN_MEMBER_ID;
    if (this.state !== 'FATAL') this.state = 'UNJOINED';
    this.metadata = this.resetMetadata();
    this.stopHeartbeats();
    this.requestRejoin(reason);
  }

  /** FENCED_INSTANCE_ID or an unexpected group error: the consumer is unusable. */
  fail(error: KafkaErrorCode): void {
    this.host.ctx.trace(`consumer fatal group error ${error}`);
    this.fatalError = error;
    this.state = 'FATAL';
    this.joining = false;
    this.stopHeartbeats();
    this.host.onGroupChange();
  }

  /**
   * Java's `maybeLeaveGroup`: a dynamic member in a generation sends LeaveGroup (static members
   * stay until their session expires, KIP-345); either way the generation is reset.
   */
  leaveGroup(reason: string): void {
    const dynamic = this.host.config.groupInstanceId === null;
    const inGroup = this.state !== 'UNJOINED' && this.memberId !== UNKNOWN_MEMBER_ID;
    if (dynamic && inGroup && this.host.channel.coordinator !== null) {
      this.host.channel.send(
        {
          kind: 'LeaveGroup',
          groupId: this.groupId,
          members: [{ memberId: this.memberId, groupInstanceId: null }],
        },
        { onResponse: () => undefined, onFailure: () => undefined },
      );
    }
    if (this.state !== 'FATAL') this.resetGeneration(`leaving the group: ${reason}`);
  }

  /**
   * `close()` for a member (Java's `onLeavePrepare` and `maybeLeaveGroup`): auto-commit, the
   * listener's revocation, LeaveGroup, then no more heartbeats or poll clock; `done` follows.
   */
  close(done: () => void): void {
    if (this.closed) return done();
    const finish = (): void => {
      if (this.state !== 'FATAL') this.leaveGroup('the consumer is being closed');
      this.closed = true;
      this.joining = false;
      this.stopHeartbeats();
      this.host.channel.cancel(this.pollTimeoutToken);
      done();
    };
    if (this.state === 'FATAL' || this.joinPrepared) return finish();
    this.onJoinPrepare(finish);
  }

  private onPollTimeout(): void {
    this.pollTimeoutToken = null;
    if (this.closed || this.state === 'FATAL') return;
    const dueUs = this.lastPollActivityUs + this.host.config.maxPollIntervalMs * 1000;
    const nowUs = this.host.ctx.nowUs();
    if (nowUs < dueUs) return this.schedulePollCheck(dueUs - nowUs);
    if (this.state === 'UNJOINED') return;
    this.leaveGroup('consumer poll timeout has expired (max.poll.interval.ms)');
  }

  /** One step of the join: the eager revocation once, then JoinGroup. */
  private joinStep(): void {
    if (this.closed || this.state === 'FATAL') return;
    if (this.joinPrepared) return this.sendJoinGroup();
    this.onJoinPrepare(() => {
      this.joinPrepared = true;
      this.host.channel.whenKnown(() => this.sendJoinGroup());
    });
  }

  /** Java's `onJoinPrepare` (eager): auto-commit, then revoke (or lose) every partition. */
  private onJoinPrepare(done: () => void): void {
    const generationValid =
      this.generationId !== NO_GENERATION && this.memberId !== UNKNOWN_MEMBER_ID;
    const revoke = (): void => {
      const partitions = this.host.assignment();
      const finish = (): void => {
        this.host.setAssignment([]);
        done();
      };
      const listener = this.listener;
      if (listener === null || partitions.length === 0) return finish();
      if (generationValid) listener.onPartitionsRevoked(partitions, finish);
      else if (listener.onPartitionsLost !== undefined)
        listener.onPartitionsLost(partitions, finish);
      else listener.onPartitionsRevoked(partitions, finish);
    };
    if (this.host.config.enableAutoCommit && generationValid)
      this.host.autoCommitBeforeRebalance(revoke);
    else revoke();
  }

  private sendJoinGroup(): void {
    if (this.closed || this.state === 'FATAL') return;
    this.state = 'PREPARING_REBALANCE';
    this.stopHeartbeats();
    const config = this.host.config;
    this.host.channel.send(
      {
        kind: 'JoinGroup',
        groupId: this.groupId,
        sessionTimeoutMs: config.sessionTimeoutMs,
        rebalanceTimeoutMs: config.maxPollIntervalMs,
        memberId: this.memberId,
        groupInstanceId: config.groupInstanceId,
        protocols: [
          {
            name: RANGE_ASSIGNOR_NAME,
            subscription: { topics: this.topics, ownedPartitions: [] },
          },
        ],
      },
      {
        onResponse: (response) => {
          if (response.kind === 'JoinGroupResponse') this.onJoinGroupResponse(response);
        },
        onFailure: () => this.retryJoin(true),
      },
      joinGroupTimeoutMs(config),
    );
  }

  private onJoinGroupResponse(response: JoinGroupResponse): void {
    if (this.closed || this.state === 'FATAL') return;
    const error = response.error;
    if (error === 'NONE') {
      this.generationId = response.generationId;
      this.memberId = response.memberId;
      this.state = 'COMPLETING_REBALANCE';
      this.lastHeartbeatReceivedUs = this.host.ctx.nowUs();
      this.startHeartbeats();
      const isLeader = response.leader === response.memberId;
      this.sendSyncGroup(isLeader ? this.assign(response) : []);
      return;
    }
    if (error === 'MEMBER_ID_REQUIRED') this.memberId = response.memberId;
    else if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION')
      this.resetGeneration(`JoinGroup answered ${error}`);
    this.onGroupError(error, 'JoinGroup');
  }

  /** The leader's RangeAssignor run over the members of the JoinGroup response. */
  private assign(
    response: JoinGroupResponse,
  ): Array<{ memberId: string; partitions: TopicPartition[] }> {
    const members = response.members.map((member) => ({
      memberId: member.memberId,
      groupInstanceId: member.groupInstanceId,
      topics: member.subscription.topics,
    }));
    const topics = [...new Set(members.flatMap((member) => member.topics))];
    const assignment = rangeAssign(members, this.host.partitionCounts(topics));
    return [...assignment].map(([memberId, partitions]) => ({ memberId, partitions }));
  }

  private sendSyncGroup(
    assignments: ReadonlyArray<{ memberId: string; partitions: TopicPartition[] }>,
  ): void {
    const generationId = this.generationId;
    this.host.channel.send(
      {
        kind: 'SyncGroup',
        groupId: this.groupId,
        generationId,
        memberId: this.memberId,
        groupInstanceId: this.host.config.groupInstanceId,
        assignments,
      },
      {
        onResponse: (response) => {
          if (response.kind === 'SyncGroupResponse')
            this.onSyncGroupResponse(response, generationId);
        },
        onFailure: () => this.retryJoin(true),
      },
    );
  }

  private onSyncGroupResponse(response: SyncGroupResponse, generationId: number): void {
    if (this.closed || this.state === 'FATAL') return;
    const error = response.error;
    if (error === 'NONE' && generationId !== this.generationId) return this.retryJoin(false);
    if (error !== 'NONE') {
      if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION')
        this.resetGeneration(`SyncGroup answered ${error}`);
      return this.onGroupError(error, 'SyncGroup');
    }
    this.state = 'STABLE';
    this.rejoinNeeded = false;
    this.joining = false;
    this.joinPrepared = false;
    pushWithin(COLLECTION_BOUNDS.generations, this.generations, generationId);
    this.metadata = {
      groupId: this.groupId,
      generationId,
      memberId: this.memberId,
      groupInstanceId: this.host.config.groupInstanceId,
    };
    const partitions = response.assignment.filter((tp) => this.topics.includes(tp.topic));
    const count = partitions.length;
    this.host.ctx.trace(`consumer joined generation ${generationId} as ${this.memberId}: ${count}`);
    this.host.setAssignment(partitions);
    this.listener?.onPartitionsAssigned(partitions);
    this.host.onGroupChange();
  }

  /** JoinGroup/SyncGroup errors: rejoin now, after a backoff, or fail (Java's handlers). */
  private onGroupError(error: KafkaErrorCode, api: string): void {
    if (IMMEDIATE_REJOIN.has(error)) return this.retryJoin(false);
    if (error === 'COORDINATOR_NOT_AVAILABLE' || error === 'NOT_COORDINATOR') {
      this.host.channel.markUnknown();
      return this.retryJoin(true);
    }
    if (error === 'COORDINATOR_LOAD_IN_PROGRESS') return this.retryJoin(true);
    this.host.ctx.trace(`consumer ${api} failed: ${error}`);
    this.fail(error);
  }

  private retryJoin(backoff: boolean): void {
    if (this.closed || this.state === 'FATAL') return;
    this.joining = true;
    this.stopHeartbeats();
    const rejoin = (): void => this.host.channel.whenKnown(() => this.joinStep());
    if (!backoff) return rejoin();
    this.host.channel.schedule(this.host.config.retryBackoffMs * 1000, rejoin);
  }

  private startHeartbeats(): void {
    this.stopHeartbeats();
    this.heartbeatToken = this.host.channel.schedule(
      this.host.config.heartbeatIntervalMs * 1000,
      () => this.heartbeatTick(),
    );
  }

  private stopHeartbeats(): void {
    this.host.channel.cancel(this.heartbeatToken);
    this.heartbeatToken = null;
  }

  /** The heartbeat thread's loop body: lookup, session check, then one Heartbeat. */
  private heartbeatTick(): void {
    this.heartbeatToken = null;
    if (this.state !== 'COMPLETING_REBALANCE' && this.state !== 'STABLE') return;
    const config = this.host.config;
    const channel = this.host.channel;
    let nextUs = config.heartbeatIntervalMs * 1000;
    if (channel.coordinator === null) {
      // Java resets the session timer when FindCoordinator succeeds (AbstractCoordinator's
      // FindCoordinatorResponseHandler): otherwise a member back from a long pause would mark
      // the new coordinator unknown at once, for ever, and never learn it was removed.
      channel.whenKnown(() => {
        this.lastHeartbeatReceivedUs = this.host.ctx.nowUs();
      });
      nextUs = config.retryBackoffMs * 1000;
    } else if (
      this.host.ctx.nowUs() - this.lastHeartbeatReceivedUs >
      config.sessionTimeoutMs * 1000
    ) {
      // Java: no answer within the session timeout means the coordinator is gone.
      channel.markUnknown();
      nextUs = config.retryBackoffMs * 1000;
    } else if (!this.heartbeatInFlight) {
      this.sendHeartbeat();
    }
    this.heartbeatToken = channel.schedule(nextUs, () => this.heartbeatTick());
  }

  private sendHeartbeat(): void {
    const generationId = this.generationId;
    this.heartbeatInFlight = true;
    this.host.channel.send(
      {
        kind: 'Heartbeat',
        groupId: this.groupId,
        generationId,
        memberId: this.memberId,
        groupInstanceId: this.host.config.groupInstanceId,
      },
      {
        onResponse: (response) => {
          this.heartbeatInFlight = false;
          if (response.kind === 'HeartbeatResponse')
            this.onHeartbeatResponse(response.error, generationId);
        },
        onFailure: () => {
          this.heartbeatInFlight = false;
        },
      },
    );
  }

  private onHeartbeatResponse(error: KafkaErrorCode, generationId: number): void {
    if (this.closed || this.state === 'FATAL') return;
    if (error === 'NONE' || error === 'REBALANCE_IN_PROGRESS')
      this.lastHeartbeatReceivedUs = this.host.ctx.nowUs();
    if (generationId !== this.generationId) return; // an answer about an older generation
    switch (error) {
      case 'NONE':
      case 'COORDINATOR_LOAD_IN_PROGRESS':
        return;
      case 'REBALANCE_IN_PROGRESS':
        if (this.state === 'STABLE') this.requestRejoin('Heartbeat answered REBALANCE_IN_PROGRESS');
        return;
      case 'ILLEGAL_GENERATION':
      case 'UNKNOWN_MEMBER_ID':
        return this.resetGeneration(`Heartbeat answered ${error}`);
      case 'FENCED_INSTANCE_ID':
        return this.fail(error);
      case 'COORDINATOR_NOT_AVAILABLE':
      case 'NOT_COORDINATOR':
        return this.host.channel.markUnknown();
      default:
        this.host.ctx.trace(`consumer heartbeat error ${error}`);
    }
  }

  private resetMetadata(): ConsumerGroupMetadata {
    return {
      groupId: this.host.config.groupId ?? '',
      generationId: NO_GENERATION,
      memberId: UNKNOWN_MEMBER_ID,
      groupInstanceId: this.host.config.groupInstanceId,
    };
  }
}
