/**
 * The consumer's line to its group coordinator (Java's AbstractCoordinator lookup and
 * ConsumerNetworkClient): FindCoordinator(keyType group) to a random broker, then group requests
 * to the node it names. A request that times out or whose connection resets fails, and the
 * coordinator is marked unknown, as Java's `markCoordinatorUnknown` disconnects: every other
 * request to that node fails too, and the next group request first finds the coordinator again.
 * Also a small delayed-action scheduler shared by the group code (backoffs, heartbeats).
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap, pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS, GROUP_COORDINATOR_CONNECTION } from '../protocol';
import type { GroupRequest, GroupResponse, KafkaMessage, KafkaResponse } from '../protocol';

type Ctx = ActorContext<KafkaMessage>;

/** A group request without its correlation id (the channel assigns one). */
export type GroupRequestBody = GroupRequest extends infer R
  ? R extends GroupRequest
    ? Omit<R, 'correlationId'>
    : never
  : never;

/** Timers of the consumer's group code: request timeouts and delayed actions. */
export type GroupTimer =
  | { readonly owner: 'consumer'; readonly type: 'group-timeout'; readonly correlationId: number }
  | { readonly owner: 'consumer'; readonly type: 'delayed'; readonly token: number };

/** What to do with the answer, or when there is none (timeout, reset, coordinator moved). */
export interface GroupRequestHandlers {
  onResponse(response: GroupResponse): void;
  onFailure(): void;
}

interface InFlight extends GroupRequestHandlers {
  readonly broker: NodeId;
  readonly timerId: number;
}

/** The channel's collaborators. */
export interface ChannelDeps {
  readonly ctx: Ctx;
  readonly brokers: readonly NodeId[];
  readonly groupId: string;
  readonly requestTimeoutMs: number;
  readonly retryBackoffMs: number;
  nextCorrelationId(): number;
}

/** Coordinator discovery, group requests and delayed actions of one consumer. */
export class CoordinatorChannel {
  /** The group coordinator's node, or null while unknown. */
  coordinator: NodeId | null = null;
  private finding: { correlationId: number; broker: NodeId; timerId: number } | null = null;
  private findRetryScheduled = false;
  private readonly waiting: Array<() => void> = [];
  private readonly inFlight = new BoundedMap<number, InFlight>(COLLECTION_BOUNDS.clientRequests);
  private readonly delayed = new BoundedMap<number, { action: () => void; timerId: number }>(
    COLLECTION_BOUNDS.clientRequests,
  );
  private tokens = 1;
  private closed = false;

  constructor(private readonly deps: ChannelDeps) {}

  /** Runs `action` now if the coordinator is known, else once FindCoordinator answers. */
  whenKnown(action: () => void): void {
    if (this.closed) return;
    if (this.coordinator !== null) return action();
    pushWithin(COLLECTION_BOUNDS.clientRequests, this.waiting, action);
    this.findCoordinator();
  }

  /**
   * Sends a group request to the known coordinator; `timeoutMs` overrides `request.timeout.ms`
   * (JoinGroup waits up to the rebalance timeout). Without a coordinator it fails at once.
   */
  send(body: GroupRequestBody, handlers: GroupRequestHandlers, timeoutMs?: number): void {
    const broker = this.coordinator;
    if (broker === null || this.closed) return handlers.onFailure();
    const correlationId = this.deps.nextCorrelationId();
    const timerId = this.deps.ctx.setTimer((timeoutMs ?? this.deps.requestTimeoutMs) * 1000, {
      owner: 'consumer',
      type: 'group-timeout',
      correlationId,
    } satisfies GroupTimer);
    this.inFlight.set(correlationId, { ...handlers, broker, timerId });
    this.deps.ctx.send(broker, { ...body, correlationId } as GroupRequest);
  }

  /** Runs `action` after `delayUs`; returns a token for {@link cancel}. */
  schedule(delayUs: number, action: () => void): number {
    const token = this.tokens++;
    const timerId = this.deps.ctx.setTimer(delayUs, {
      owner: 'consumer',
      type: 'delayed',
      token,
    } satisfies GroupTimer);
    this.delayed.set(token, { action, timerId });
    return token;
  }

  /** Cancels a scheduled action and its timer. */
  cancel(token: number | null): void {
    if (token === null) return;
    const delayed = this.delayed.get(token);
    if (delayed === undefined) return;
    this.delayed.delete(token);
    this.deps.ctx.cancelTimer(delayed.timerId);
  }

  /**
   * Java's `markCoordinatorUnknown`: drops the coordinator and fails every request in flight
   * to it; the next {@link whenKnown} looks it up again.
   */
  markUnknown(): void {
    const broker = this.coordinator;
    this.coordinator = null;
    if (broker === null) return;
    this.deps.ctx.trace(`consumer group ${this.deps.groupId}: coordinator ${broker} unknown`);
    // AbstractCoordinator.markCoordinatorUnknown disconnects, so no request stays in flight: what
    // a partition still holds of the connection is lost.
    this.deps.ctx.closeConnection(broker, GROUP_COORDINATOR_CONNECTION);
    for (const [correlationId, request] of [...this.inFlight]) {
      if (request.broker !== broker) continue;
      this.inFlight.delete(correlationId);
      this.deps.ctx.cancelTimer(request.timerId);
      request.onFailure();
    }
  }

  /** Stops everything: no more requests, scheduled actions or retries. */
  close(): void {
    this.closed = true;
    for (const token of [...this.delayed.keys()]) this.cancel(token);
    this.waiting.length = 0;
  }

  /** Takes a FindCoordinator or group response; false when it is not this channel's. */
  onResponse(response: KafkaResponse): boolean {
    if (response.kind === 'FindCoordinatorResponse') {
      if (this.finding?.correlationId !== response.correlationId) return false;
      this.deps.ctx.cancelTimer(this.finding.timerId);
      this.finding = null;
      if (response.error !== 'NONE') this.retryFind();
      else this.onCoordinatorFound(response.nodeId as NodeId);
      return true;
    }
    const request = this.inFlight.get(response.correlationId);
    if (request === undefined) return false;
    this.inFlight.delete(response.correlationId);
    this.deps.ctx.cancelTimer(request.timerId);
    request.onResponse(response as GroupResponse);
    return true;
  }

  onTimer(timer: GroupTimer): void {
    if (timer.type === 'delayed') {
      const delayed = this.delayed.get(timer.token);
      this.delayed.delete(timer.token);
      delayed?.action();
      return;
    }
    if (this.finding?.correlationId === timer.correlationId) {
      this.deps.ctx.closeConnection(this.finding.broker, GROUP_COORDINATOR_CONNECTION);
      this.finding = null;
      this.retryFind();
    } else if (this.inFlight.has(timer.correlationId)) {
      this.inFlight.get(timer.correlationId)?.onFailure();
      this.inFlight.delete(timer.correlationId);
      this.markUnknown();
    }
  }

  /** The connection to `peer` reset: a lookup there retries, the coordinator is unknown. */
  onConnectionReset(peer: NodeId): void {
    if (this.finding?.broker === peer) {
      this.deps.ctx.cancelTimer(this.finding.timerId);
      this.finding = null;
      this.retryFind();
    }
    if (this.coordinator === peer) this.markUnknown();
  }

  private findCoordinator(): void {
    if (this.finding !== null || this.findRetryScheduled || this.closed) return;
    const brokers = this.deps.brokers;
    const broker = brokers[this.deps.ctx.rng.intInclusive(0, brokers.length - 1)] as NodeId;
    const correlationId = this.deps.nextCorrelationId();
    const timerId = this.deps.ctx.setTimer(this.deps.requestTimeoutMs * 1000, {
      owner: 'consumer',
      type: 'group-timeout',
      correlationId,
    } satisfies GroupTimer);
    this.finding = { correlationId, broker, timerId };
    this.deps.ctx.send(broker, {
      kind: 'FindCoordinator',
      correlationId,
      key: this.deps.groupId,
      keyType: 'group',
    });
  }

  private retryFind(): void {
    this.findRetryScheduled = true;
    this.schedule(this.deps.retryBackoffMs * 1000, () => {
      this.findRetryScheduled = false;
      if (this.coordinator === null && this.waiting.length > 0) this.findCoordinator();
    });
  }

  private onCoordinatorFound(node: NodeId): void {
    this.coordinator = node;
    this.deps.ctx.trace(`consumer group ${this.deps.groupId}: coordinator ${node}`);
    const actions = this.waiting.splice(0);
    for (const action of actions) {
      if (this.coordinator === null) this.waiting.push(action);
      else action();
    }
    if (this.waiting.length > 0) this.findCoordinator();
  }
}
