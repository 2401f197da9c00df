/**
 * The simulated network: a directed link per ordered pair of nodes, carrying one lane per
 * connection between them (`lanes.ts`), each delivering in FIFO order as one TCP connection does,
 * after a seeded per-message delay. Fault rules sit on top as
 * mechanism only: a rule matches a source, a target and a set of message kinds, and drops,
 * duplicates, delays or holds what it matches. Which rules exist, and when, is fault policy and
 * lives in `faults/`. Style rules 17 and 19.
 *
 * A `hold` with `onConnection` is what a network partition does to an open TCP connection: the
 * bytes stall (the sender's TCP keeps retransmitting them) and arrive in order once the rule is
 * removed, unless a node closes the connection first ({@link Network.closeConnection}), which
 * discards them, and with them whatever else is still on its way on that connection. A
 * `ConnectionReset` is an RST segment, which TCP never retransmits: such a hold drops it. A
 * plain `hold` keeps what it matches through closes and the sender's crash (a message delayed
 * in transit); released after its target restarted, the new process refuses it.
 */
import { assert, assertNever } from './assert';
import { BoundedMap, KERNEL_BOUNDS, pushWithin } from './bounds';
import type { Connection, Message } from './actor';
import type { NodeId, Ratio, TimeUs } from './ids';
import { Lanes, type LaneMap, type LaneStamp } from './lanes';
import { assertRatio, type Rng } from './rng';

/** The base delay model: uniform integer microseconds in [delayUsMin, delayUsMax]. */
export interface NetworkConfig {
  /** @default 500 */
  readonly delayUsMin: TimeUs;
  /** @default 2000 */
  readonly delayUsMax: TimeUs;
}

/** What a link rule does to the messages it matches. */
export type LinkEffect =
  | { readonly type: 'drop'; readonly chance: Ratio }
  | { readonly type: 'duplicate'; readonly chance: Ratio }
  | { readonly type: 'delay'; readonly delayUs: TimeUs }
  | {
      readonly type: 'hold';
      /**
       * The held messages are bytes stalled on their connection, as a network partition stalls
       * them: a close of the connection or a crash of the sender discards them, a reset (an
       * RST, never retransmitted) is dropped, and one held past its target's restart is refused.
       * Absent: kept whatever happens until the rule goes (a message delayed in transit).
       */
      readonly onConnection?: boolean;
    };

/**
 * A fault rule on the network. Absent `source`, `target` or `kinds` match everything.
 * @example
 * {
 *   source: 'b1',
 *   target: 'A',
 *   kinds: ['ProduceResponse'],
 *   effect: { type: 'drop', chance: ratio(1, 2) },
 * }
 */
export interface LinkRule {
  readonly source?: NodeId;
  readonly target?: NodeId;
  readonly kinds?: readonly string[];
  readonly effect: LinkEffect;
  /** The stream that decides `drop` and `duplicate` chances (a fork of `faults`). */
  readonly rng?: Rng;
  /** The rule affects only the first this many matching messages; absent: every one. */
  readonly matchesMax?: number;
}

/** Identifies an installed {@link LinkRule}. */
export type LinkRuleId = number;

/** A message the network decided to deliver, and when. */
export interface Delivery<M extends Message> {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly payload: M;
  readonly sentUs: TimeUs;
  readonly deliverUs: TimeUs;
  /** The target incarnation the message was sent to, when the sender gave one. */
  readonly targetIncarnation?: number | undefined;
  /** The connection lane and generation it went out on (a close discards it on arrival). */
  readonly lane: LaneStamp;
}

/** The most messages one hold rule may keep at once (see {@link KERNEL_BOUNDS}). */
export const HELD_MESSAGES_PER_RULE_MAX = KERNEL_BOUNDS.heldMessagesPerRule.max;

/** A message a hold rule keeps, with the target incarnation it was sent to (opaque here). */
export interface HeldMessage {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly payload: Message;
  readonly sentUs: TimeUs;
  readonly targetIncarnation?: number | undefined;
  /** Held by an `onConnection` rule: a close or the sender's crash discards it. */
  readonly onConnection?: boolean;
  readonly lane: LaneStamp;
}

interface InstalledRule {
  readonly rule: LinkRule;
  /** Messages the rule has affected so far. */
  matched: number;
  held: HeldMessage[];
}

/** The transport's own reset notice (see `actor.ts`): an RST, never retransmitted. */
const CONNECTION_RESET_KIND = 'ConnectionReset';

function matches(rule: LinkRule, source: NodeId, target: NodeId, kind: string): boolean {
  if (rule.source !== undefined && rule.source !== source) return false;
  if (rule.target !== undefined && rule.target !== target) return false;
  if (rule.kinds !== undefined && !rule.kinds.includes(kind)) return false;
  return true;
}

/** Decides, for each sent message, whether and when it arrives. */
export class Network {
  private readonly rules = new BoundedMap<LinkRuleId, InstalledRule>(KERNEL_BOUNDS.linkRules);
  /** FIFO order and generation of every connection's lanes. */
  private readonly lanes: Lanes;
  private nextRuleId = 1;
  /** Messages dropped by rules so far (for reports and tests). */
  droppedCount = 0;
  /** Messages discarded on arrival because their connection was closed meanwhile. */
  closedCount = 0;

  /** `laneMap` names each kind's connection; absent, a link is one connection (one lane). */
  constructor(
    private readonly config: NetworkConfig,
    private readonly rng: Rng,
    laneMap?: LaneMap,
  ) {
    assert(config.delayUsMin >= 0, 'delayUsMin must not be negative');
    assert(config.delayUsMin <= config.delayUsMax, 'delayUsMin must not exceed delayUsMax');
    this.lanes = new Lanes(laneMap);
  }

  /** Installs a rule and returns its id. */
  addRule(rule: LinkRule): LinkRuleId {
    if (rule.effect.type === 'drop' || rule.effect.type === 'duplicate') {
      assertRatio(rule.effect.chance);
      assert(rule.rng !== undefined, 'a drop or duplicate rule needs an rng');
    }
    const id = this.nextRuleId++;
    this.rules.set(id, { rule, held: [], matched: 0 });
    return id;
  }

  /** Messages link rules hold now, rule by rule in the order they were held (read-only). */
  heldMessages(): HeldMessage[] {
    return [...this.rules.values()].flatMap((installed) => installed.held);
  }

  /**
   * Removes a rule. Messages a `hold` rule kept are released in the order they were held: one
   * another hold rule still matches stays held there (the link is still cut), the others are
   * sent again now, FIFO per lane, and the caller schedules the returned deliveries.
   */
  removeRule(id: LinkRuleId, nowUs: TimeUs): Array<Delivery<Message>> {
    const installed = this.rules.get(id);
    assert(installed !== undefined, `no link rule ${id}`);
    this.rules.delete(id);
    const released: Array<Delivery<Message>> = [];
    for (const message of installed.held) {
      const other = this.holdingRule(message.source, message.target, message.payload.kind);
      if (other !== undefined) {
        other.matched += 1;
        pushWithin(KERNEL_BOUNDS.heldMessagesPerRule, other.held, message);
        continue;
      }
      const { source, target, payload, sentUs, targetIncarnation, lane } = message;
      const deliverUs = this.deliveryTime(source, target, payload.kind, lane, nowUs, 0);
      released.push({ source, target, payload, sentUs, deliverUs, targetIncarnation, lane });
    }
    return released;
  }

  /**
   * `a` closes its connection to `b`, as Kafka's NetworkClient does on a request timeout
   * (handleTimedOutRequests -> processTimeoutDisconnection -> Selector.close): the bytes of the
   * closed TCP connection are lost both ways. The connection is named by what travels on it: the
   * kinds `a` `sends` and the kinds it `receives` back, since two nodes may hold several
   * connections to each other. What a partition holds of it is discarded now. What `b` sends
   * back on it, already on its way or sent before it sees `a`'s next request, is discarded when
   * it would arrive (nobody reads it; the broker drops a response to a closed connection). What
   * `a` already sent and no partition holds still arrives, as data sent before a FIN does. The
   * next message opens a new lane, not behind the old one's bytes (`lanes.ts`). Returns how many
   * held messages were discarded.
   */
  closeConnection(a: NodeId, b: NodeId, connection: Connection): number {
    this.lanes.close(a, b, connection);
    const { sends, receives } = connection;
    return this.discardHeld(
      ({ source, target, payload, onConnection }) =>
        onConnection === true &&
        ((source === a && target === b && sends.includes(payload.kind)) ||
          (source === b && target === a && receives.includes(payload.kind))),
    );
  }

  /** True when a message goes to a client that closed its connection since: not delivered. */
  isClosed(source: NodeId, target: NodeId, lane: LaneStamp): boolean {
    return this.lanes.isClosed(source, target, lane);
  }

  /** A message reached its target: the server side of its connection learns its generation. */
  delivered(source: NodeId, target: NodeId, lane: LaneStamp): void {
    this.lanes.delivered(source, target, lane);
  }

  /** Discards what `node` sent that rules still hold: its process and connections are gone. */
  discardHeldFrom(node: NodeId): number {
    return this.discardHeld((message) => message.onConnection === true && message.source === node);
  }

  private discardHeld(doomed: (message: HeldMessage) => boolean): number {
    let discarded = 0;
    for (const installed of this.rules.values()) {
      if (installed.held.length === 0) continue;
      const kept = installed.held.filter((message) => !doomed(message));
      discarded += installed.held.length - kept.length;
      installed.held = kept;
    }
    return discarded;
  }

  /** The first hold rule with room that matches a message, if any. */
  private holdingRule(source: NodeId, target: NodeId, kind: string): InstalledRule | undefined {
    for (const installed of this.rules.values()) {
      const rule = installed.rule;
      if (rule.effect.type !== 'hold' || !matches(rule, source, target, kind)) continue;
      if (rule.matchesMax !== undefined && installed.matched >= rule.matchesMax) continue;
      return installed;
    }
    return undefined;
  }

  /**
   * Keeps `message` on `installed`. Released later, it still goes to the process it was sent to
   * (a restarted target refuses it, Simulation.executeOnNode). On a connection (a partition) it
   * is bytes a close or the sender's crash discards, and a reset is dropped, never held.
   */
  private hold(installed: InstalledRule, onConnection: boolean, message: HeldMessage): void {
    if (onConnection && message.payload.kind === CONNECTION_RESET_KIND) {
      this.droppedCount += 1;
      return;
    }
    const held = onConnection ? { ...message, onConnection: true } : message;
    pushWithin(KERNEL_BOUNDS.heldMessagesPerRule, installed.held, held);
  }

  /** Routes one sent message through the rules: zero, one or two deliveries. */
  route<M extends Message>(
    source: NodeId,
    target: NodeId,
    payload: M,
    nowUs: TimeUs,
    targetIncarnation?: number,
  ): Array<Delivery<M>> {
    let extraDelayUs = 0;
    let copies = 1;
    const lane = this.lanes.stamp(source, target, payload.kind);
    if (this.rules.size === 0) {
      const deliverUs = this.deliveryTime(source, target, payload.kind, lane, nowUs, 0);
      return [{ source, target, payload, sentUs: nowUs, deliverUs, targetIncarnation, lane }];
    }
    for (const installed of this.rules.values()) {
      const rule = installed.rule;
      if (!matches(rule, source, target, payload.kind)) continue;
      if (rule.matchesMax !== undefined && installed.matched >= rule.matchesMax) continue;
      installed.matched += 1;
      const effect = rule.effect;
      switch (effect.type) {
        case 'drop':
          if ((rule.rng as Rng).chance(effect.chance)) {
            this.droppedCount += 1;
            return [];
          }
          break;
        case 'duplicate':
          if ((rule.rng as Rng).chance(effect.chance)) copies = 2;
          break;
        case 'delay':
          extraDelayUs += effect.delayUs;
          break;
        case 'hold':
          this.hold(installed, effect.onConnection === true, {
            source,
            target,
            payload,
            sentUs: nowUs,
            targetIncarnation,
            lane,
          });
          return [];
        default:
          assertNever(effect, 'link effect');
      }
    }
    const deliveries: Array<Delivery<M>> = [];
    for (let copy = 0; copy < copies; copy++) {
      const deliverUs = this.deliveryTime(source, target, payload.kind, lane, nowUs, extraDelayUs);
      const sentUs = nowUs;
      deliveries.push({ source, target, payload, sentUs, deliverUs, targetIncarnation, lane });
    }
    return deliveries;
  }

  /**
   * FIFO per lane: a message never overtakes an earlier one on the same connection lane. A
   * reset waits behind every open lane of the link (it ends each of its connections).
   */
  private deliveryTime(
    source: NodeId,
    target: NodeId,
    kind: string,
    lane: LaneStamp,
    nowUs: TimeUs,
    extraDelayUs: TimeUs,
  ): TimeUs {
    const delayUs = this.rng.intInclusive(this.config.delayUsMin, this.config.delayUsMax);
    const readyUs = nowUs + delayUs + extraDelayUs;
    return this.lanes.deliveryTime(source, target, lane, readyUs, kind === CONNECTION_RESET_KIND);
  }
}
