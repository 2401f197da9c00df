/**
 * The simulation kernel: one virtual clock, one event queue ordered by `(timeUs, seq)`, the
 * network, and the nodes with their lifecycle (running, paused, crashed; pauses and crashes are
 * counted holds that nest, see `node_holds.ts`). It runs events one at a time in a plain loop,
 * keeps a rolling hash of what it ran, and enforces the `eventsMax` budget. It knows nothing of
 * Kafka. Style rules 11, 12, 17 and 32.
 */
import { assert, assertNever } from './assert';
import type {
  Actor,
  ActorContext,
  ConnectionReset,
  CrashMode,
  Envelope,
  Message,
  TimerId,
} from './actor';
import { EventQueue } from './event_queue';
import type { NodeId, TimeUs } from './ids';
import { Network, type Delivery, type LinkRule, type LinkRuleId } from './network';
import type { LaneStamp } from './lanes';
import {
  NodeHolds,
  type HoldCounts,
  type LifecycleObservation,
  type NodeStatus,
} from './node_holds';
import { BudgetExceededError } from './budget';
import { BoundedMap, KERNEL_BOUNDS, pushWithin } from './bounds';
import { Rng } from './rng';
import { javaStringHash, TraceHash } from './trace_hash';
import {
  RunHaltedError,
  type DeliveryObservation,
  type HaltLimit,
  type MessageInFlight,
  type RunStop,
  type SimulationConfig,
  type StampedObservation,
} from './simulation_types';

export { BudgetExceededError };
export * from './simulation_types';

type KernelEvent =
  | {
      timeUs: TimeUs;
      seq: number;
      type: 'deliver';
      node: SimNode;
      incarnation: number;
      envelope: Envelope;
      lane: LaneStamp;
    }
  | {
      timeUs: TimeUs;
      seq: number;
      type: 'timer';
      node: SimNode;
      incarnation: number;
      timerId: TimerId;
      payload: unknown;
    }
  | { timeUs: TimeUs; seq: number; type: 'call'; label: string; run: () => void };

interface SimNode {
  readonly id: NodeId;
  readonly index: number;
  readonly actor: Actor;
  readonly ctx: ActorContext;
  /** Counted pause and crash holds; the node's status follows from them. */
  readonly holds: NodeHolds;
  /** The status last announced to the lifecycle observer. */
  status: NodeStatus;
  /** Bumped at every crash: events addressed to an older incarnation are dropped. */
  incarnation: number;
  /** Events that fell due while the node was paused, in the order they fell due. */
  deferred: KernelEvent[];
  /**
   * Events that {@link Simulation.resume} re-queued at the resume instant and that have not run
   * yet. Anything else due for the node at that instant waits behind them, so a message due
   * exactly at the resume time cannot overtake earlier messages on its link.
   */
  backlog: Set<KernelEvent>;
  activeTimers: Set<TimerId>;
  /** Added to the global clock when the node reads its time (clock skew). */
  clockSkewUs: TimeUs;
}

const TIMER_KIND_CODE = 1;

/** A deterministic discrete-event world. */
export class Simulation {
  readonly rootRng: Rng;
  readonly network: Network;
  private readonly queue: EventQueue<KernelEvent>;
  private readonly nodes = new BoundedMap<NodeId, SimNode>(KERNEL_BOUNDS.nodes);
  private readonly hash = new TraceHash();
  private readonly kindCodes = new BoundedMap<string, number>(KERNEL_BOUNDS.eventKinds);
  private readonly eventLog: string[] | undefined;
  private nowUsValue: TimeUs = 0;
  private seq = 0;
  private nextTimerId = 1;
  private eventsRunCount = 0;
  private haltLimit: HaltLimit | null = null;
  /** Receives trace lines when set (for `--trace`). */
  traceSink: ((line: string) => void) | undefined;
  /**
   * Called for every message handed to a running node, just before its `onMessage` (not for
   * messages dropped, refused or deferred by a pause until they are delivered). Mechanism only:
   * the runner uses it to keep a bounded log of deliveries for reports. It must not change any
   * state the simulation reads, so observing never changes a run.
   */
  deliveryObserver: ((delivery: DeliveryObservation) => void) | undefined;
  /** Called after a node handled a delivered message; may schedule events (fault triggers). */
  private readonly deliveryWatchers: Array<(delivery: DeliveryObservation) => void> = [];
  /**
   * Receives every observation an actor reports through `ctx.observe`, stamped with true time
   * and the event index. Mechanism only, like {@link deliveryObserver}: the runner builds the
   * oracle and checks invariants from it, and must not change any state the simulation reads.
   */
  stateObserver: ((stamped: StampedObservation) => void) | undefined;
  /** Called at every change of a node's status (observation only, like the delivery observer). */
  lifecycleObserver: ((change: LifecycleObservation) => void) | undefined;

  constructor(private readonly config: SimulationConfig) {
    this.rootRng = new Rng(config.seed);
    this.network = new Network(config.network, this.rootRng.fork('network'), config.lanes);
    this.queue = new EventQueue(config.eventsQueuedMax);
    this.eventLog = config.recordEventLog ? [] : undefined;
  }

  /** Virtual time now, in microseconds. */
  get nowUs(): TimeUs {
    return this.nowUsValue;
  }

  /** Events executed so far. */
  get eventsRun(): number {
    return this.eventsRunCount;
  }

  /** The rolling hash of every event executed so far, as 16 hex digits. */
  get eventHash(): string {
    return this.hash.hex();
  }

  /** One line per executed event, when `recordEventLog` is on. */
  get executedEvents(): readonly string[] {
    return this.eventLog ?? [];
  }

  /** Adds a node running `actor`; it starts at the current time. */
  addNode(id: NodeId, actor: Actor): void {
    assert(!this.nodes.has(id), `duplicate node id ${id}`);
    const node: SimNode = {
      id,
      index: this.nodes.size,
      actor,
      ctx: undefined as unknown as ActorContext,
      holds: new NodeHolds(),
      status: 'running',
      incarnation: 0,
      deferred: [],
      backlog: new Set(),
      activeTimers: new Set(),
      clockSkewUs: 0,
    };
    (node as { ctx: ActorContext }).ctx = this.contextFor(node);
    this.nodes.set(id, node);
    this.schedule(this.nowUsValue, `start ${id}`, () => actor.onStart(node.ctx));
  }

  /** Node ids in the order they were added. */
  nodeIds(): NodeId[] {
    return [...this.nodes.keys()];
  }

  /** The lifecycle state of a node. */
  status(id: NodeId): NodeStatus {
    return this.node(id).status;
  }

  /** The actor running on a node (for the runner's oracle; faults never use it). */
  actorOf(id: NodeId): Actor {
    return this.node(id).actor;
  }

  /** Runs `run` at `atUs` as a kernel event (scripted faults, workload phases). */
  schedule(atUs: TimeUs, label: string, run: () => void): void {
    assert(Number.isSafeInteger(atUs), 'schedule time must be an integer');
    assert(atUs >= this.nowUsValue, `cannot schedule in the past: ${atUs} < ${this.nowUsValue}`);
    this.queue.push({ timeUs: atUs, seq: this.seq++, type: 'call', label, run });
  }

  /** Adds a delivery watcher (see {@link deliveryWatchers}); fault triggers use it. */
  watchDeliveries(watcher: (delivery: DeliveryObservation) => void): void {
    pushWithin(KERNEL_BOUNDS.deliveryWatchers, this.deliveryWatchers, watcher);
  }

  /** The pause and crash holds a node is under now. */
  holdsOf(id: NodeId): HoldCounts {
    return this.node(id).holds.counts;
  }

  /** GC pause: nothing runs on the node until every pause ended (counted; `node_holds.ts`). */
  pause(id: NodeId): void {
    const node = this.node(id);
    node.holds.pause();
    this.settle(node);
  }

  /** Ends one pause; when the node is free, what fell due meanwhile runs now, in order. */
  resume(id: NodeId): void {
    const node = this.node(id);
    if (node.holds.resume()) this.settle(node);
  }

  /** Crashes a node: timers and inbound messages are lost. Counted: see `node_holds.ts`. */
  crash(id: NodeId, mode: CrashMode): void {
    const node = this.node(id);
    const effect = node.holds.crash(mode);
    node.incarnation += 1;
    node.deferred = [];
    node.backlog = new Set();
    node.activeTimers.clear();
    // Bytes its connections still had to send die with the process (or the machine).
    this.network.discardHeldFrom(node.id);
    this.settle(node);
    if (effect === 'none') return;
    node.actor.onCrash(effect === 'goes-down' ? mode : 'power-loss', this.nowUsValue);
    if (effect === 'goes-down' && mode === 'process') {
      // The OS of a crashed process resets its connections: every peer hears of it.
      for (const peer of this.nodes.values()) {
        if (peer !== node) this.sendConnectionReset(node, peer.id);
      }
    }
  }

  /** A reset from `from` to `to`, routed like any message (a partition drops it). */
  private sendConnectionReset(from: SimNode, to: NodeId): void {
    const reset: ConnectionReset = { kind: 'ConnectionReset', peer: from.id };
    this.send(from.id, to, reset);
  }

  /** Routes a message, stamped with the target's incarnation (held past a restart: refused). */
  private send(source: NodeId, target: NodeId, payload: Message): void {
    const { incarnation } = this.node(target);
    const deliveries = this.network.route(source, target, payload, this.nowUsValue, incarnation);
    for (const delivery of deliveries) this.enqueueDelivery(delivery);
  }

  /** Ends one crash of `mode`; once no hold is left, `onStart` runs with its durable state. */
  restart(id: NodeId, mode: CrashMode = 'process'): void {
    const node = this.node(id);
    if (node.holds.restart(mode)) this.settle(node);
  }

  /** Brings the node's status in line with its holds: restart, drain a pause, announce. */
  private settle(node: SimNode): void {
    const status = node.holds.status;
    if (status === node.status) return;
    const wasPaused = node.status === 'paused';
    if (node.status === 'crashed') {
      // Back up: whatever was sent while the node was down (held by a rule, or delayed past the
      // restart) was addressed to no process and is refused, like its old connections' bytes.
      node.incarnation += 1;
    }
    node.status = status;
    this.lifecycleObserver?.({ timeUs: this.nowUsValue, node: node.id, status });
    if (status !== 'running') return;
    if (node.holds.takeStart()) node.actor.onStart(node.ctx);
    if (!wasPaused) return;
    const deferred = node.deferred;
    node.deferred = [];
    node.backlog = new Set();
    for (const event of deferred) this.requeueNow(node, event);
  }

  /** Skews a node's clock by `skewUs` (what `ctx.nowUs()` returns on that node). */
  skewClock(id: NodeId, skewUs: TimeUs): void {
    this.node(id).clockSkewUs = skewUs;
  }

  /** Installs a network fault rule. */
  addLinkRule(rule: LinkRule): LinkRuleId {
    return this.network.addRule(rule);
  }

  /** Removes a network fault rule, delivering anything it held. */
  removeLinkRule(id: LinkRuleId): void {
    for (const delivery of this.network.removeRule(id, this.nowUsValue)) {
      this.enqueueDelivery(delivery);
    }
  }

  /**
   * From now on, {@link runUntil} throws {@link RunHaltedError} instead of running past `limit`
   * (a time: the clock is left at it; an event index: right after that event). Mechanism for
   * stopping a replay at a moment to inspect the actors; nothing else about the run changes.
   */
  haltAt(limit: HaltLimit): void {
    this.haltLimit = limit;
  }

  /**
   * Throws {@link RunHaltedError} when going on would pass the halt limit: running `next` (due
   * by `stopUs`), or moving the clock to `stopUs` when nothing is due by then.
   */
  private checkHalt(next: KernelEvent | undefined, stopUs: TimeUs): void {
    const limit = this.haltLimit;
    if (limit === null) return;
    const runsNext = next !== undefined && next.timeUs <= stopUs;
    if ('eventIndex' in limit) {
      if (!runsNext || this.eventsRunCount < limit.eventIndex) return;
      throw new RunHaltedError(`halted after event ${this.eventsRunCount}`);
    }
    if ((runsNext ? next.timeUs : stopUs) <= limit.timeUs) return;
    this.nowUsValue = Math.max(this.nowUsValue, limit.timeUs);
    throw new RunHaltedError(`halted at ${limit.timeUs} us`);
  }

  /**
   * Every message sent and not yet handed to its target: on its way through the network, held
   * by a link rule (a partition), or deferred at a paused node. Read-only, for inspection.
   */
  messagesInFlight(): MessageInFlight[] {
    const messages: MessageInFlight[] = [];
    for (const event of this.queue.values()) {
      if (event.type !== 'deliver' || event.incarnation !== event.node.incarnation) continue;
      if (this.onClosedLane(event)) continue;
      messages.push({ ...event.envelope, dueUs: event.timeUs, where: 'network' });
    }
    for (const node of this.nodes.values()) {
      for (const event of node.deferred) {
        if (event.type !== 'deliver' || this.onClosedLane(event)) continue;
        messages.push({ ...event.envelope, dueUs: null, where: 'deferred by a pause' });
      }
    }
    for (const held of this.network.heldMessages()) {
      if (this.network.isClosed(held.source, held.target, held.lane)) continue;
      messages.push({ ...held, dueUs: null, where: 'held by a link rule' });
    }
    return messages.sort(
      (a, b) => a.sentUs - b.sentUs || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
    );
  }

  /**
   * Runs events until the next one is later than `stopUs`, the queue is empty, or `stopWhen`
   * returns true after an event. The clock ends at `stopUs` unless a condition stopped it.
   * @throws RunHaltedError at the limit set by {@link haltAt}.
   */
  runUntil(stopUs: TimeUs, stopWhen?: () => boolean): RunStop {
    for (;;) {
      const next = this.queue.peek();
      this.checkHalt(next, stopUs);
      if (next === undefined) {
        this.nowUsValue = Math.max(this.nowUsValue, stopUs);
        return 'idle';
      }
      if (next.timeUs > stopUs) {
        // Never backwards: a stopUs earlier than now (after a 'condition' stop) leaves it.
        this.nowUsValue = Math.max(this.nowUsValue, stopUs);
        return 'time';
      }
      this.queue.pop();
      this.execute(next);
      if (stopWhen !== undefined && stopWhen()) return 'condition';
    }
  }

  private execute(event: KernelEvent): void {
    this.nowUsValue = event.timeUs;
    this.eventsRunCount += 1;
    if (this.eventsRunCount > this.config.eventsMax) {
      throw new BudgetExceededError(`Run exceeded eventsMax: ${this.config.eventsMax} events`);
    }
    switch (event.type) {
      case 'call':
        this.record(event, this.kindCode(event.label), -1);
        event.run();
        return;
      case 'deliver':
      case 'timer':
        this.executeOnNode(event);
        return;
      default:
        assertNever(event, 'kernel event');
    }
  }

  private executeOnNode(event: KernelEvent & { type: 'deliver' | 'timer' }): void {
    const node = event.node;
    if (event.type === 'deliver' && this.onClosedLane(event)) {
      // Its connection was closed after it was sent: the bytes are gone (`lanes.ts`).
      this.network.closedCount += 1;
      return;
    }
    if (node.status === 'crashed' || event.incarnation !== node.incarnation) {
      // A message reaching a dead process, or the old connection of a restarted one, is
      // refused: the sender's connection is reset (unless the machine itself is down).
      const refused = event.type === 'deliver' && event.envelope.payload.kind !== 'ConnectionReset';
      if (refused && node.holds.crashMode === 'process') {
        const source = this.nodes.get(event.envelope.source);
        if (source !== undefined) this.sendConnectionReset(node, source.id);
      }
      return;
    }
    const fromBacklog = node.backlog.size > 0 && node.backlog.delete(event);
    if (!fromBacklog && node.backlog.size > 0) {
      // A pause's backlog is still draining at this instant: wait behind it (FIFO per link).
      this.requeueNow(node, event);
      return;
    }
    if (node.status === 'paused') {
      pushWithin(KERNEL_BOUNDS.deferredPerNode, node.deferred, event);
      return;
    }
    if (event.type === 'deliver') {
      this.record(event, this.kindCode(event.envelope.payload.kind), node.index);
      const delivery = { timeUs: event.timeUs, envelope: event.envelope };
      this.deliveryObserver?.(delivery);
      this.network.delivered(event.envelope.source, event.envelope.target, event.lane);
      node.actor.onMessage(event.envelope, node.ctx);
      for (const watcher of this.deliveryWatchers) watcher(delivery);
    } else {
      if (!node.activeTimers.delete(event.timerId)) return;
      this.record(event, TIMER_KIND_CODE, node.index);
      node.actor.onTimer(event.payload, node.ctx);
    }
  }

  /** Queues `event` again at the current instant, behind everything already queued for it. */
  private requeueNow(node: SimNode, event: KernelEvent): void {
    const requeued = { ...event, timeUs: this.nowUsValue, seq: this.seq++ };
    node.backlog.add(requeued);
    this.queue.push(requeued);
  }

  private record(event: KernelEvent, kindCode: number, nodeIndex: number): void {
    this.hash.mix(event.timeUs);
    this.hash.mix(event.seq);
    this.hash.mix(kindCode);
    this.hash.mix(nodeIndex);
    if (this.eventLog !== undefined) {
      const what =
        event.type === 'call'
          ? event.label
          : event.type === 'deliver'
            ? `${event.envelope.payload.kind} ${event.envelope.source}>${event.node.id}`
            : `timer ${event.node.id}`;
      this.eventLog.push(
        `#${this.eventsRunCount} t=${event.timeUs}us seq=${event.seq} ${what} ` +
          `hash=${this.hash.hex()}`,
      );
    }
  }

  /** True when a queued delivery's connection was closed after it was sent. */
  private onClosedLane(event: KernelEvent & { type: 'deliver' }): boolean {
    return this.network.isClosed(event.envelope.source, event.envelope.target, event.lane);
  }

  private kindCode(kind: string): number {
    let code = this.kindCodes.get(kind);
    if (code === undefined) {
      code = javaStringHash(kind);
      this.kindCodes.set(kind, code);
    }
    return code;
  }

  private node(id: NodeId): SimNode {
    const node = this.nodes.get(id);
    // Every send looks a node up: build the message only when the check fails.
    if (node === undefined) assert(false, `unknown node ${id}`);
    return node;
  }

  private enqueueDelivery(delivery: Delivery<Message>): void {
    const target = this.node(delivery.target);
    if (target.status === 'crashed') {
      // Nothing listens on a crashed process: its OS refuses the connection at once.
      const refused =
        delivery.payload.kind !== 'ConnectionReset' && target.holds.crashMode === 'process';
      const source = this.nodes.get(delivery.source);
      if (refused && source !== undefined && source.status !== 'crashed') {
        this.sendConnectionReset(target, source.id);
      }
      return;
    }
    const envelope: Envelope = {
      source: delivery.source,
      target: delivery.target,
      payload: delivery.payload,
      sentUs: delivery.sentUs,
    };
    this.queue.push({
      timeUs: delivery.deliverUs,
      seq: this.seq++,
      type: 'deliver',
      node: target,
      incarnation: delivery.targetIncarnation ?? target.incarnation,
      envelope,
      lane: delivery.lane,
    });
  }

  private contextFor(node: SimNode): ActorContext {
    return {
      nodeId: node.id,
      rng: this.rootRng.fork(`node/${node.id}`),
      nowUs: () => this.nowUsValue + node.clockSkewUs,
      send: (target, payload) => this.send(node.id, target, payload),
      closeConnection: (peer, connection) =>
        this.network.closeConnection(node.id, this.node(peer).id, connection),
      setTimer: (delayUs, payload) => {
        if (!Number.isSafeInteger(delayUs) || delayUs < 0) {
          assert(false, `timer delay must be a non-negative integer: ${delayUs}`);
        }
        const timerId = this.nextTimerId++;
        node.activeTimers.add(timerId);
        this.queue.push({
          timeUs: this.nowUsValue + delayUs,
          seq: this.seq++,
          type: 'timer',
          node,
          incarnation: node.incarnation,
          timerId,
          payload,
        });
        return timerId;
      },
      cancelTimer: (timerId) => {
        node.activeTimers.delete(timerId);
      },
      trace: (text) => {
        if (this.traceSink !== undefined) this.traceSink(`${this.nowUsValue} ${node.id} ${text}`);
      },
      observe: (observation) => {
        this.stateObserver?.({
          timeUs: this.nowUsValue,
          eventIndex: this.eventsRunCount,
          node: node.id,
          observation,
        });
      },
    };
  }
}
