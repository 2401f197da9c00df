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
import {
  Network,
  type Delivery,
  type LinkRule,
  type LinkRuleId,
  type NetworkConfig,
} from './network';
import { NodeHolds, type HoldCounts, type NodeStatus } from './node_holds';
import { Rng } from './rng';
import { TraceHash } from './trace_hash';

/** Why {@link Simulation.runUntil} returned. */
export type RunStop = 'time' | 'idle' | 'condition';

/** Thrown when a run exceeds `eventsMax`; the CLI maps it to exit code 4. */
export class BudgetExceededError extends Error {
  readonly code = 'SIM_BUDGET_EXCEEDED';
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

/** Kernel settings for one run. */
export interface SimulationConfig {
  /** The root seed; every stream is forked from it. */
  readonly seed: string;
  readonly network: NetworkConfig;
  /** Budget on executed events. @default 20_000_000 */
  readonly eventsMax: number;
  /** Bound on queued events (a runaway actor trips it). @default 1_000_000 */
  readonly eventsQueuedMax: number;
  /**
   * Keep one line per executed event, to locate the first divergence of two runs.
   * @default false
   */
  readonly recordEventLog: boolean;
}

/** One message delivered to a node, as {@link Simulation.deliveryObserver} sees it. */
export interface DeliveryObservation {
  /** Virtual time of the delivery, in microseconds. */
  readonly timeUs: TimeUs;
  readonly envelope: Envelope;
}

/** A node's status changed, as {@link Simulation.lifecycleObserver} sees it. */
export interface LifecycleObservation {
  readonly timeUs: TimeUs;
  readonly node: NodeId;
  readonly status: NodeStatus;
}

type KernelEvent =
  | {
      timeUs: TimeUs;
      seq: number;
      type: 'deliver';
      node: SimNode;
      incarnation: number;
      envelope: Envelope;
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
  private readonly nodes = new Map<NodeId, SimNode>();
  private readonly hash = new TraceHash();
  private readonly kindCodes = new Map<string, number>();
  private readonly eventLog: string[] | undefined;
  private nowUsValue: TimeUs = 0;
  private seq = 0;
  private nextTimerId = 1;
  private eventsRunCount = 0;
  /** Receives trace lines when set (for `--trace`). */
  traceSink: ((line: string) => void) | undefined;
  /**
   * Called for every message handed to a running node, just before its `onMessage` (not for
   * messages dropped, refused or deferred by a pause until they are delivered). Mechanism only:
   * the runner uses it to keep a bounded log of deliveries for reports. It must not change any
   * state the simulation reads, so observing never changes a run.
   */
  deliveryObserver: ((delivery: DeliveryObservation) => void) | undefined;
  /** Called at every change of a node's status (observation only, like the delivery observer). */
  lifecycleObserver: ((change: LifecycleObservation) => void) | undefined;

  constructor(private readonly config: SimulationConfig) {
    this.rootRng = new Rng(config.seed);
    this.network = new Network(config.network, this.rootRng.fork('network'));
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

  /** The pause and crash holds a node is under now. */
  holdsOf(id: NodeId): HoldCounts {
    return this.node(id).holds.counts;
  }

  /**
   * GC pause: nothing runs on the node; messages and timers that fall due wait until the
   * matching {@link resume}, while the rest of the cluster keeps going. Pauses are counted: the
   * node runs again only when every pause has ended (and no crash holds it).
   */
  pause(id: NodeId): void {
    const node = this.node(id);
    node.holds.pause();
    this.settle(node);
  }

  /**
   * Ends one pause (nothing when none holds the node). When the node is free, what fell due
   * meanwhile runs now, in the order it fell due, and before anything else due for the node at
   * this instant (so each link stays FIFO); a process restarted while paused starts first.
   */
  resume(id: NodeId): void {
    const node = this.node(id);
    if (node.holds.resume()) this.settle(node);
  }

  /**
   * Crashes a node: its timers and in-flight inbound messages are lost. Crashes are counted (see
   * `node_holds.ts`): a crash of a node already down only adds a hold, except that a first power
   * loss since the process last ran still loses its unflushed tail.
   */
  crash(id: NodeId, mode: CrashMode): void {
    const node = this.node(id);
    const effect = node.holds.crash(mode);
    node.incarnation += 1;
    node.deferred = [];
    node.backlog = new Set();
    node.activeTimers.clear();
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
    for (const delivery of this.network.route(from.id, to, reset, this.nowUsValue)) {
      this.enqueueDelivery(delivery);
    }
  }

  /**
   * Ends one crash of `mode` (nothing when none of that mode holds the node). When no crash and
   * no pause holds it any more, `onStart` runs again with its durable state.
   */
  restart(id: NodeId, mode: CrashMode = 'process'): void {
    const node = this.node(id);
    if (node.holds.restart(mode)) this.settle(node);
  }

  /** Brings the node's status in line with its holds: restart, drain a pause, announce. */
  private settle(node: SimNode): void {
    const status = node.holds.status;
    if (status === node.status) return;
    const wasPaused = node.status === 'paused';
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
   * Runs events until the next one is later than `stopUs`, the queue is empty, or `stopWhen`
   * returns true after an event. The clock ends at `stopUs` unless a condition stopped it.
   */
  runUntil(stopUs: TimeUs, stopWhen?: () => boolean): RunStop {
    for (;;) {
      const next = this.queue.peek();
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
      node.deferred.push(event);
      return;
    }
    if (event.type === 'deliver') {
      this.record(event, this.kindCode(event.envelope.payload.kind), node.index);
      this.deliveryObserver?.({ timeUs: event.timeUs, envelope: event.envelope });
      node.actor.onMessage(event.envelope, node.ctx);
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

  private kindCode(kind: string): number {
    let code = this.kindCodes.get(kind);
    if (code === undefined) {
      code = 0;
      for (let i = 0; i < kind.length; i++) code = (Math.imul(31, code) + kind.charCodeAt(i)) | 0;
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
      incarnation: target.incarnation,
      envelope,
    });
  }

  private contextFor(node: SimNode): ActorContext {
    return {
      nodeId: node.id,
      rng: this.rootRng.fork(`node/${node.id}`),
      nowUs: () => this.nowUsValue + node.clockSkewUs,
      send: (target, payload) => {
        this.node(target);
        for (const delivery of this.network.route(node.id, target, payload, this.nowUsValue)) {
          this.enqueueDelivery(delivery);
        }
      },
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
    };
  }
}
