/**
 * A fake broker for client-side consumer-group tests: it is the group coordinator, the transaction
 * coordinator and the leader of every partition, with just enough of each to drive the clients
 * deterministically. The group follows the classic protocol's rules (ClassicGroup): a first
 * JoinGroup without a member id is answered MEMBER_ID_REQUIRED (KIP-394); the join phase of an
 * empty group ends `initialRebalanceDelayUs` after the first join, a later one as soon as every
 * member rejoined; the first member to join a round leads it; heartbeats during a join phase get
 * REBALANCE_IN_PROGRESS; OffsetCommit and TxnOffsetCommit are validated as
 * GroupCoordinator.validateOffsetCommit says; transactional offsets stay pending per producer id
 * until EndTxn, and OffsetFetch with requireStable answers UNSTABLE_OFFSET_COMMIT while any is
 * pending (GroupMetadata.prepareTxnOffsetCommit). Partitions are empty (fetches return no batches;
 * ListOffsets answers 0 or the configured end offset). Every request is recorded with its arrival
 * time, and `scripted` makes the next requests of a kind fail with a chosen error.
 */
import type {
  GroupRequest,
  KafkaErrorCode,
  KafkaMessage,
  KafkaRequest,
  KafkaResponse,
  OffsetToCommit,
  TopicPartition,
} from '../../sim/actors';
import { partitionKey } from '../../sim/actors';
import type { Actor, ActorContext, Envelope, NodeId } from '../../sim/kernel';

type Ctx = ActorContext<KafkaMessage>;

/** A request as it arrived. */
export interface Arrival {
  readonly timeUs: number;
  readonly source: string;
  readonly request: KafkaRequest;
}

interface Member {
  readonly source: NodeId;
  readonly groupInstanceId: string | null;
  readonly topics: readonly string[];
}

type Waiting = { readonly source: NodeId; readonly correlationId: number };

/** The fake broker's group, its offsets and its one transactional producer. */
export class FakeGroupBroker implements Actor<KafkaMessage> {
  readonly arrivals: Arrival[] = [];
  /** The next requests of a kind are answered with these errors, first one first. */
  readonly scripted = new Map<string, KafkaErrorCode[]>();
  state: 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' = 'Empty';
  generationId = 0;
  readonly members = new Map<string, Member>();
  /** Committed offsets by `topic-partition`. */
  readonly committed = new Map<string, number>();
  /** Transactional offsets waiting for their transaction's end, by producer id. */
  readonly pendingOffsets = new Map<number, Map<string, number>>();
  /** ListOffsets(LATEST) answers, by `topic-partition` (0 when absent). */
  readonly logEndOffsets = new Map<string, number>();
  initialRebalanceDelayUs = 3000;
  /** How long a join phase waits for known members before dropping them (rebalance timeout). */
  rebalanceTimeoutUs = 300_000_000;
  private round = 0;
  private leader: string | null = null;
  private readonly joins = new Map<string, Waiting>();
  private readonly syncs = new Map<string, Waiting>();
  private readonly assignments = new Map<string, readonly TopicPartition[]>();
  private memberCount = 0;
  private joinTimer: number | null = null;
  private ctx: Ctx | null = null;

  onStart(ctx: Ctx): void {
    this.ctx = ctx;
  }

  onCrash(): void {}

  onTimer(payload: unknown): void {
    const timer = payload as { type: string; round: number };
    if (timer.round !== this.round || this.state !== 'PreparingRebalance') return;
    if (timer.type === 'initial-delay') this.joinTimer = null;
    this.completeJoin();
  }

  onMessage(envelope: Envelope<KafkaMessage>, ctx: Ctx): void {
    const request = envelope.payload as KafkaRequest;
    this.arrivals.push({ timeUs: ctx.nowUs(), source: envelope.source, request });
    const error = this.scripted.get(request.kind)?.shift();
    if (error !== undefined) return this.reply(envelope.source, errorResponse(request, error));
    const answer = this.handle(request, envelope.source);
    if (answer !== null) this.reply(envelope.source, answer);
  }

  /** The requests of one kind that arrived, in order. */
  requests<K extends KafkaRequest['kind']>(kind: K): Array<Extract<KafkaRequest, { kind: K }>> {
    return this.arrivals.flatMap(({ request }) =>
      request.kind === kind ? [request as Extract<KafkaRequest, { kind: K }>] : [],
    );
  }

  /** The kinds of the requests from `source`, in arrival order (metadata excluded). */
  kindsFrom(source: string): string[] {
    return this.arrivals.filter((a) => a.source === source).map((a) => a.request.kind);
  }

  private reply(target: NodeId, response: KafkaResponse): void {
    this.ctx?.send(target, response);
  }

  private handle(request: KafkaRequest, source: NodeId): KafkaResponse | null {
    const correlationId = request.correlationId;
    switch (request.kind) {
      case 'FindCoordinator':
        return { kind: 'FindCoordinatorResponse', correlationId, error: 'NONE', nodeId: 'b1' };
      case 'JoinGroup':
        return this.onJoinGroup(request, source);
      case 'SyncGroup':
        return this.onSyncGroup(request, source);
      case 'Heartbeat':
        return { kind: 'HeartbeatResponse', correlationId, error: this.heartbeatError(request) };
      case 'LeaveGroup':
        for (const member of request.members) this.members.delete(member.memberId);
        this.startRebalance();
        return { kind: 'LeaveGroupResponse', correlationId, error: 'NONE' };
      case 'OffsetCommit':
        return this.onOffsetCommit(request);
      case 'OffsetFetch':
        return this.onOffsetFetch(request);
      case 'TxnOffsetCommit':
        return this.onTxnOffsetCommit(request);
      default:
        return this.handleOther(request);
    }
  }

  /** The transaction coordinator and partition leader parts. */
  private handleOther(request: KafkaRequest): KafkaResponse | null {
    const correlationId = request.correlationId;
    switch (request.kind) {
      case 'InitProducerId':
        return {
          kind: 'InitProducerIdResponse',
          correlationId,
          error: 'NONE',
          producerId: 7,
          producerEpoch: 0,
        };
      case 'AddOffsetsToTxn':
        return { kind: 'AddOffsetsToTxnResponse', correlationId, error: 'NONE' };
      case 'EndTxn':
        this.endTransaction(request.producerId, request.committed);
        return {
          kind: 'EndTxnResponse',
          correlationId,
          error: 'NONE',
          producerId: request.transactionVersion === 2 ? request.producerId : -1,
          producerEpoch: request.transactionVersion === 2 ? request.producerEpoch + 1 : -1,
        };
      case 'ListOffsets':
        return {
          kind: 'ListOffsetsResponse',
          correlationId,
          partitions: request.partitions.map((tp) => ({
            topic: tp.topic,
            partition: tp.partition,
            error: 'NONE' as const,
            offset: tp.timestamp === -2 ? 0 : (this.logEndOffsets.get(partitionKey(tp)) ?? 0),
          })),
        };
      case 'Fetch':
        return {
          kind: 'FetchResponse',
          correlationId,
          partitions: request.partitions.map((tp) => {
            const end = this.logEndOffsets.get(partitionKey(tp)) ?? 0;
            return {
              topic: tp.topic,
              partition: tp.partition,
              error: 'NONE' as const,
              highWatermark: end,
              lastStableOffset: end,
              logStartOffset: 0,
              abortedTransactions: [],
              batches: [],
              divergingEpoch: null,
            };
          }),
        };
      default:
        return null;
    }
  }

  /** A transaction's end: its pending offsets become committed (COMMIT) or vanish (ABORT). */
  endTransaction(producerId: number, committed: boolean): void {
    const pending = this.pendingOffsets.get(producerId);
    this.pendingOffsets.delete(producerId);
    if (!committed || pending === undefined) return;
    for (const [key, offset] of pending) this.committed.set(key, offset);
  }

  private onJoinGroup(
    request: Extract<GroupRequest, { kind: 'JoinGroup' }>,
    source: NodeId,
  ): KafkaResponse | null {
    let memberId = request.memberId;
    if (memberId === '') {
      this.memberCount += 1;
      memberId = `${source}-${this.memberCount}`;
      return joinError(request.correlationId, 'MEMBER_ID_REQUIRED', memberId);
    }
    const topics = request.protocols[0]?.subscription.topics ?? [];
    this.members.set(memberId, { source, groupInstanceId: request.groupInstanceId, topics });
    this.joins.set(memberId, { source, correlationId: request.correlationId });
    if (this.leader === null || !this.joins.has(this.leader)) this.leader = memberId;
    if (this.state !== 'PreparingRebalance') this.startRebalance();
    if (this.joinTimer === null && [...this.members.keys()].every((m) => this.joins.has(m)))
      this.completeJoin();
    return null;
  }

  private startRebalance(): void {
    const wasEmpty = this.state === 'Empty';
    this.state = 'PreparingRebalance';
    this.round += 1;
    const round = this.round;
    for (const waiting of this.syncs.values())
      this.reply(waiting.source, syncAnswer(waiting.correlationId, 'REBALANCE_IN_PROGRESS', []));
    this.syncs.clear();
    if (this.members.size === 0) {
      this.generationId += 1;
      this.state = 'Empty';
      return;
    }
    const ctx = this.ctx;
    if (ctx === null) return;
    if (wasEmpty)
      this.joinTimer = ctx.setTimer(this.initialRebalanceDelayUs, { type: 'initial-delay', round });
    else ctx.setTimer(this.rebalanceTimeoutUs, { type: 'rebalance-timeout', round });
  }

  private completeJoin(): void {
    for (const memberId of [...this.members.keys()])
      if (!this.joins.has(memberId)) this.members.delete(memberId);
    this.generationId += 1;
    this.state = 'CompletingRebalance';
    const leader = this.leader as string;
    const members = [...this.members].map(([memberId, member]) => ({
      memberId,
      groupInstanceId: member.groupInstanceId,
      subscription: { topics: member.topics, ownedPartitions: [] },
    }));
    for (const [memberId, waiting] of this.joins) {
      this.reply(waiting.source, {
        kind: 'JoinGroupResponse',
        correlationId: waiting.correlationId,
        error: 'NONE',
        generationId: this.generationId,
        protocolName: 'range',
        leader,
        memberId,
        members: memberId === leader ? members : [],
      });
    }
    this.joins.clear();
  }

  private onSyncGroup(
    request: Extract<GroupRequest, { kind: 'SyncGroup' }>,
    source: NodeId,
  ): KafkaResponse | null {
    const correlationId = request.correlationId;
    const error = this.memberError(request.memberId, request.generationId);
    if (error !== 'NONE') return syncAnswer(correlationId, error, []);
    if (this.state === 'PreparingRebalance')
      return syncAnswer(correlationId, 'REBALANCE_IN_PROGRESS', []);
    if (this.state === 'Stable')
      return syncAnswer(correlationId, 'NONE', this.assignments.get(request.memberId) ?? []);
    this.syncs.set(request.memberId, { source, correlationId });
    if (request.memberId === this.leader) {
      this.assignments.clear();
      for (const { memberId, partitions } of request.assignments)
        this.assignments.set(memberId, partitions);
      this.state = 'Stable';
      for (const [memberId, waiting] of this.syncs)
        this.reply(
          waiting.source,
          syncAnswer(waiting.correlationId, 'NONE', this.assignments.get(memberId) ?? []),
        );
      this.syncs.clear();
    }
    return null;
  }

  private memberError(memberId: string, generationId: number): KafkaErrorCode {
    if (!this.members.has(memberId)) return 'UNKNOWN_MEMBER_ID';
    if (generationId !== this.generationId) return 'ILLEGAL_GENERATION';
    return 'NONE';
  }

  private heartbeatError(request: Extract<GroupRequest, { kind: 'Heartbeat' }>): KafkaErrorCode {
    const error = this.memberError(request.memberId, request.generationId);
    if (error !== 'NONE') return error;
    return this.state === 'PreparingRebalance' ? 'REBALANCE_IN_PROGRESS' : 'NONE';
  }

  private onOffsetCommit(request: Extract<GroupRequest, { kind: 'OffsetCommit' }>): KafkaResponse {
    let error: KafkaErrorCode = 'NONE';
    if (request.generationId >= 0 || request.memberId !== '') {
      error = this.memberError(request.memberId, request.generationId);
      if (error === 'NONE' && this.state === 'CompletingRebalance') error = 'REBALANCE_IN_PROGRESS';
    } else if (this.state !== 'Empty') error = 'ILLEGAL_GENERATION';
    if (error === 'NONE')
      for (const offset of request.offsets) this.committed.set(partitionKey(offset), offset.offset);
    return {
      kind: 'OffsetCommitResponse',
      correlationId: request.correlationId,
      results: results(request.offsets, error),
    };
  }

  private onOffsetFetch(request: Extract<GroupRequest, { kind: 'OffsetFetch' }>): KafkaResponse {
    const pendingKeys = new Set([...this.pendingOffsets.values()].flatMap((m) => [...m.keys()]));
    return {
      kind: 'OffsetFetchResponse',
      correlationId: request.correlationId,
      error: 'NONE',
      partitions: request.partitions.map((tp) => {
        const key = partitionKey(tp);
        const unstable = request.requireStable && pendingKeys.has(key);
        return {
          topic: tp.topic,
          partition: tp.partition,
          offset: unstable ? -1 : (this.committed.get(key) ?? -1),
          error: unstable ? ('UNSTABLE_OFFSET_COMMIT' as const) : ('NONE' as const),
        };
      }),
    };
  }

  /** GroupCoordinator.validateOffsetCommit for a classic group, in the table's order. */
  private onTxnOffsetCommit(
    request: Extract<GroupRequest, { kind: 'TxnOffsetCommit' }>,
  ): KafkaResponse {
    let error: KafkaErrorCode = 'NONE';
    const memberInfo =
      request.generationId >= 0 || request.memberId !== '' || request.groupInstanceId !== null;
    if (memberInfo && !(request.generationId < 0 && this.state === 'Empty'))
      error = this.memberError(request.memberId, request.generationId);
    if (error === 'NONE') {
      const pending = this.pendingOffsets.get(request.producerId) ?? new Map<string, number>();
      for (const offset of request.offsets) pending.set(partitionKey(offset), offset.offset);
      this.pendingOffsets.set(request.producerId, pending);
    }
    return {
      kind: 'TxnOffsetCommitResponse',
      correlationId: request.correlationId,
      results: results(request.offsets, error),
    };
  }
}

function results(offsets: readonly OffsetToCommit[], error: KafkaErrorCode) {
  return offsets.map((offset) => ({ topic: offset.topic, partition: offset.partition, error }));
}

function joinError(correlationId: number, error: KafkaErrorCode, memberId: string): KafkaResponse {
  return {
    kind: 'JoinGroupResponse',
    correlationId,
    error,
    generationId: -1,
    protocolName: null,
    leader: '',
    memberId,
    members: [],
  };
}

function syncAnswer(
  correlationId: number,
  error: KafkaErrorCode,
  assignment: readonly TopicPartition[],
): KafkaResponse {
  return { kind: 'SyncGroupResponse', correlationId, error, assignment };
}

/** A response of the request's kind carrying `error` (scripted failures). */
function errorResponse(request: KafkaRequest, error: KafkaErrorCode): KafkaResponse {
  const correlationId = request.correlationId;
  switch (request.kind) {
    case 'FindCoordinator':
      return { kind: 'FindCoordinatorResponse', correlationId, error, nodeId: '' };
    case 'JoinGroup':
      return joinError(correlationId, error, request.memberId);
    case 'SyncGroup':
      return syncAnswer(correlationId, error, []);
    case 'Heartbeat':
      return { kind: 'HeartbeatResponse', correlationId, error };
    case 'AddOffsetsToTxn':
      return { kind: 'AddOffsetsToTxnResponse', correlationId, error };
    case 'OffsetCommit':
      return {
        kind: 'OffsetCommitResponse',
        correlationId,
        results: results(request.offsets, error),
      };
    case 'TxnOffsetCommit':
      return {
        kind: 'TxnOffsetCommitResponse',
        correlationId,
        results: results(request.offsets, error),
      };
    case 'OffsetFetch':
      return { kind: 'OffsetFetchResponse', correlationId, error, partitions: [] };
    default:
      throw new Error(`No scripted error response for ${request.kind}`);
  }
}
