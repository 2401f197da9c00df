/**
 * Lanes: the FIFO order and the lifetime of each connection between two nodes. Two nodes may
 * hold several connections to each other (a client gives each of its components its own), and
 * TCP keeps order within one connection only: a message stalled on one connection does not hold
 * back another. Which connection a message travels on is not the kernel's business: the code
 * that builds the world passes a {@link LaneMap} from message kind to connection name (absent:
 * every message of a link shares one lane, the link's FIFO order of a single connection).
 *
 * A connection is opened by its client, so it is named by (client, server, name), and it has
 * two lanes, one each way. Each close of the connection by its client starts a new generation:
 * the next message opens a fresh lane that is not behind the old one's bytes (the new socket has
 * its own sequence space), and what the server sends on the old generation, already on its way
 * or sent later, is discarded when it would be delivered: nobody reads it any more. This is
 * Kafka's NetworkClient on a request timeout (handleTimedOutRequests ->
 * processTimeoutDisconnection -> Selector.close: the channel and its unread bytes go, the next
 * request connects anew), and the broker's SocketServer Processor, which drops a response whose
 * connection is gone (sendResponse on a channel that is no longer open). What the client had
 * already put on the wire still reaches the server and is read there, as TCP delivers the data
 * sent before a FIN: a request delayed in transit arrives after its client gave up on it (the
 * EndTxn of KAFKA-17754). Bytes a partition stalls are the sender's to retransmit; a close
 * discards those (`Network.closeConnection`).
 *
 * The server answers on the generation it last received a request on: the kernel does not pair
 * responses with requests, so a response to an old request sent after the new connection's first
 * request arrived travels on the new connection (the client ignores it by correlation id).
 */
import { BoundedMap, KERNEL_BOUNDS } from './bounds';
import type { Connection } from './actor';
import type { NodeId, TimeUs } from './ids';

/** The connection a message kind travels on: its name and which end sends the kind. */
export interface LaneOfKind {
  /** Names the connection: kinds with the same name share it (and its FIFO order). */
  readonly connection: string;
  /** True for what the client sends (requests), false for what the server sends back. */
  readonly fromClient: boolean;
}

/** Maps a message kind to its connection; undefined: the link's shared default lane. */
export type LaneMap = (kind: string) => LaneOfKind | undefined;

/** Which lane and generation a message was sent on (opaque outside the kernel). */
export interface LaneStamp {
  /** 0 is the link's default lane (never closed); connections are numbered from 1. */
  readonly lane: number;
  readonly fromClient: boolean;
  readonly generation: number;
}

/** A kind's connection with the lane number the kernel gave its name. */
interface NumberedLane extends LaneOfKind {
  readonly lane: number;
}

/** The default lane of a link: kinds the lane map does not name. */
const DEFAULT_STAMP: LaneStamp = { lane: 0, fromClient: true, generation: 0 };

/** What one directed pair (a, b) keeps. */
interface LinkLanes {
  /** The latest delivery time per lane slot (lane * 2, + 1 for the server's direction). */
  readonly lastUs: Map<number, TimeUs>;
  /** The generation each `lastUs` entry belongs to (an older one does not hold a lane back). */
  readonly lastGeneration: Map<number, number>;
  /** Connections with a as client and b as server: the current generation per lane. */
  readonly generation: Map<number, number>;
  /** The same connections: the generation b last received a message of a on (b's side). */
  readonly serverGeneration: Map<number, number>;
}

/** The lanes of every link, their FIFO order and their generations. */
export class Lanes {
  private readonly links = new BoundedMap<NodeId, Map<NodeId, LinkLanes>>(KERNEL_BOUNDS.nodes);
  private readonly laneNumbers = new BoundedMap<string, number>(KERNEL_BOUNDS.lanes);
  /** Per kind: its lane number and direction, or null for the default lane. */
  private readonly kinds = new BoundedMap<string, NumberedLane | null>(KERNEL_BOUNDS.eventKinds);

  constructor(private readonly laneMap: LaneMap | undefined) {}

  /** The lane and generation a message of `kind` from `source` to `target` goes out on. */
  stamp(source: NodeId, target: NodeId, kind: string): LaneStamp {
    const of = this.laneOf(kind);
    if (of === undefined) return DEFAULT_STAMP;
    const generation = of.fromClient
      ? (this.link(source, target).generation.get(of.lane) ?? 0)
      : (this.link(target, source).serverGeneration.get(of.lane) ?? 0);
    return { lane: of.lane, fromClient: of.fromClient, generation };
  }

  /**
   * The delivery time of a message on `stamp`'s lane: `readyUs`, or later if an earlier message
   * of the same lane and generation arrives later (FIFO). `behindAll` (a reset: it ends every
   * connection of the link) waits behind every open lane of the link.
   */
  deliveryTime(
    source: NodeId,
    target: NodeId,
    stamp: LaneStamp,
    readyUs: TimeUs,
    behindAll: boolean,
  ): TimeUs {
    const link = this.link(source, target);
    const slot = stamp.lane * 2 + (stamp.fromClient ? 0 : 1);
    let earliest = 0;
    if (behindAll) {
      for (const [other, lastUs] of link.lastUs) {
        if (this.isOpen(source, target, other, link.lastGeneration.get(other) ?? 0)) {
          earliest = Math.max(earliest, lastUs);
        }
      }
    } else if (link.lastGeneration.get(slot) === stamp.generation) {
      earliest = link.lastUs.get(slot) ?? 0;
    }
    const deliverUs = Math.max(readyUs, earliest);
    link.lastUs.set(slot, deliverUs);
    link.lastGeneration.set(slot, stamp.generation);
    return deliverUs;
  }

  /**
   * True when the message goes to a client that closed its connection after the message went
   * out on it: nobody reads it. A client's own message is never closed here (see above).
   */
  isClosed(source: NodeId, target: NodeId, stamp: LaneStamp): boolean {
    if (stamp.lane === 0 || stamp.fromClient) return false;
    const current = this.link(target, source).generation.get(stamp.lane) ?? 0;
    return stamp.generation < current;
  }

  /** True when the message's connection has a newer generation than the one it went out on. */
  private isStale(source: NodeId, target: NodeId, stamp: LaneStamp): boolean {
    if (stamp.lane === 0) return false;
    const [client, server] = stamp.fromClient ? [source, target] : [target, source];
    return stamp.generation < (this.link(client, server).generation.get(stamp.lane) ?? 0);
  }

  /** A message was handed to `target`: a client's message tells the server its generation. */
  delivered(source: NodeId, target: NodeId, stamp: LaneStamp): void {
    if (stamp.lane === 0 || !stamp.fromClient) return;
    const seen = this.link(source, target).serverGeneration;
    if ((seen.get(stamp.lane) ?? 0) < stamp.generation) seen.set(stamp.lane, stamp.generation);
  }

  /**
   * `client` closes its connection to `server` named by the kinds it `sends` and `receives`:
   * every lane those kinds travel on starts a new generation. Returns how many lanes closed.
   */
  close(client: NodeId, server: NodeId, { sends, receives }: Connection): number {
    const closing = new Set<number>();
    for (const kind of sends) {
      const of = this.laneOf(kind);
      if (of?.fromClient === true) closing.add(of.lane);
    }
    for (const kind of receives) {
      const of = this.laneOf(kind);
      if (of?.fromClient === false) closing.add(of.lane);
    }
    const generations = this.link(client, server).generation;
    for (const lane of closing) generations.set(lane, (generations.get(lane) ?? 0) + 1);
    return closing.size;
  }

  /** Whether a slot's last generation is still the open one (slot = lane * 2 + direction). */
  private isOpen(source: NodeId, target: NodeId, slot: number, generation: number): boolean {
    const lane = slot >> 1;
    return !this.isStale(source, target, { lane, fromClient: (slot & 1) === 0, generation });
  }

  private laneOf(kind: string): NumberedLane | undefined {
    if (this.laneMap === undefined) return undefined;
    let of = this.kinds.get(kind);
    if (of === undefined) {
      of = this.numbered(this.laneMap(kind));
      this.kinds.set(kind, of);
    }
    return of ?? undefined;
  }

  /** Numbers a connection name in the order names are first seen (deterministic per run). */
  private numbered(named: LaneOfKind | undefined): NumberedLane | null {
    if (named === undefined) return null;
    let lane = this.laneNumbers.get(named.connection);
    if (lane === undefined) {
      lane = this.laneNumbers.size + 1;
      this.laneNumbers.set(named.connection, lane);
    }
    return { ...named, lane };
  }

  private link(source: NodeId, target: NodeId): LinkLanes {
    let targets = this.links.get(source);
    if (targets === undefined) {
      targets = new BoundedMap(KERNEL_BOUNDS.nodes);
      this.links.set(source, targets);
    }
    let link = targets.get(target);
    if (link === undefined) {
      link = {
        lastUs: new Map(),
        lastGeneration: new Map(),
        generation: new Map(),
        serverGeneration: new Map(),
      };
      targets.set(target, link);
    }
    return link;
  }
}
