/**
 * The contract between the kernel and the code it runs. An actor is the behaviour of one
 * simulated process (a broker, a client). It sees the world only through its
 * {@link ActorContext}: it can send messages, set and cancel timers, read the virtual clock and
 * draw from its own random stream. Handlers are synchronous and run to completion; there is no
 * async code in the kernel or in actors. Style rules 11 and 18.
 */
import type { NodeId, TimeUs } from './ids';
import type { Rng } from './rng';

/** Every message names its kind, e.g. Kafka's API name `'Produce'` or `'ProduceResponse'`. */
export interface Message {
  readonly kind: string;
}

/**
 * What the transport tells a node when its connection to `peer` was reset: the peer's process
 * crashed (its OS resets every connection) or refused a connection after the crash. Power loss
 * and network partitions send nothing: peers only notice by timeouts, as over real TCP (a reset
 * sent into a partition is lost, like an RST segment).
 */
export interface ConnectionReset {
  readonly kind: 'ConnectionReset';
  readonly peer: NodeId;
}

/** A connection between two nodes, named by the message kinds each way (`closeConnection`). */
export interface Connection {
  readonly sends: readonly string[];
  readonly receives: readonly string[];
}

/** A message in flight or delivered, with its endpoints and the virtual time it was sent. */
export interface Envelope<M extends Message = Message> {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly payload: M;
  readonly sentUs: TimeUs;
}

/**
 * Something an actor reports that happened inside it (a high watermark moved, a marker was
 * written), for the oracle outside the model. The kernel knows only that it has a `kind`; the
 * actors define the kinds and their fields.
 */
export interface Observation {
  readonly kind: string;
}

/** Identifies a timer set by {@link ActorContext.setTimer}. */
export type TimerId = number;

/**
 * How a node went down. `process` is a process crash: the OS page cache survives, so everything
 * written is kept. `power-loss` also drops what was never flushed to disk.
 */
export type CrashMode = 'process' | 'power-loss';

/** What an actor may do. Nothing else reaches it: no history, no other actor's state. */
export interface ActorContext<M extends Message = Message> {
  /** This node's id. */
  readonly nodeId: NodeId;
  /** This node's own random stream, forked from the root seed by its node id. */
  readonly rng: Rng;
  /** Virtual time now, in microseconds (this node's clock, including any injected skew). */
  nowUs(): TimeUs;
  /** Sends `payload` to `target` over the simulated network. */
  send(target: NodeId, payload: M): void;
  /**
   * Closes this node's connection to `peer`, named by the message kinds it `sends` there and
   * `receives` back: what a partition holds of it, either way, and what the peer sends back on
   * it are discarded instead of arriving; what this node already sent still arrives (data sent
   * before a FIN), and the next message opens a fresh connection (`lanes.ts`; without a lane map
   * only held messages go). The caller fails its own requests on it; the peer is told nothing
   * (its side learns at its next read or timeout).
   */
  closeConnection(peer: NodeId, connection: Connection): void;
  /** Fires `onTimer(payload)` after `delayUs` (late if the node is paused then). */
  setTimer(delayUs: TimeUs, payload: unknown): TimerId;
  /** Cancels a timer; cancelling a fired or unknown timer does nothing. */
  cancelTimer(timerId: TimerId): void;
  /** Writes one line to the run's trace, when tracing is on. */
  trace(text: string): void;
  /**
   * Reports an observation. The kernel stamps it with the true virtual time (no skew) and the
   * index of the event running now, and hands it to the observer; it never changes the run.
   */
  observe(observation: Observation): void;
}

/** The behaviour of one simulated process. */
export interface Actor<M extends Message = Message> {
  /** Called when the node boots and again after every restart. */
  onStart(ctx: ActorContext<M>): void;
  /** Called for every delivered message. */
  onMessage(envelope: Envelope<M>, ctx: ActorContext<M>): void;
  /** Called when a timer set through the context fires. */
  onTimer(payload: unknown, ctx: ActorContext<M>): void;
  /** Called when the node crashes at `nowUs`: drop volatile state, keep what `mode` keeps. */
  onCrash(mode: CrashMode, nowUs: TimeUs): void;
}
