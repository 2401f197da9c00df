/**
 * The public shapes of the simulation kernel (`simulation.ts`): its settings, why a run stopped,
 * what it reports of messages in flight, deliveries and observations.
 */
import type { Envelope, Message, Observation } from './actor';
import type { NodeId, TimeUs } from './ids';
import type { LaneMap } from './lanes';
import type { NetworkConfig } from './network';

/** Why {@link Simulation.runUntil} returned. */
export type RunStop = 'time' | 'idle' | 'condition';

/**
 * Thrown by {@link Simulation.runUntil} at the limit set with {@link Simulation.haltAt}: the run
 * stops between two events, with every actor's state as the last executed event left it.
 */
export class RunHaltedError extends Error {
  readonly code = 'SIM_RUN_HALTED';
  constructor(message: string) {
    super(message);
    this.name = 'RunHaltedError';
  }
}

/**
 * Where {@link Simulation.haltAt} stops a run: after every event at or before `timeUs`, or after
 * the event numbered `eventIndex` (events are numbered from 1 in execution order).
 */
export type HaltLimit = { readonly timeUs: TimeUs } | { readonly eventIndex: number };

/** A message sent and not yet handed to its target ({@link Simulation.messagesInFlight}). */
export interface MessageInFlight {
  readonly source: NodeId;
  readonly target: NodeId;
  readonly payload: Message;
  readonly sentUs: TimeUs;
  /** When it is due; null while a network fault holds it or a pause defers it. */
  readonly dueUs: TimeUs | null;
  readonly where: 'network' | 'held by a link rule' | 'deferred by a pause';
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
  /**
   * Which connection each message kind travels on (FIFO lanes, closes: `lanes.ts`). Absent: a
   * link between two nodes is one connection.
   */
  readonly lanes?: LaneMap;
}

/** One message delivered to a node, as {@link Simulation.deliveryObserver} sees it. */
export interface DeliveryObservation {
  /** Virtual time of the delivery, in microseconds. */
  readonly timeUs: TimeUs;
  readonly envelope: Envelope;
}

/**
 * An actor's observation as {@link Simulation.stateObserver} sees it, stamped by the kernel: the
 * true virtual time (a node's clock skew does not enter it) and the index of the event that was
 * running, 1-based (the value of {@link Simulation.eventsRun} during that event).
 */
export interface StampedObservation {
  readonly timeUs: TimeUs;
  readonly eventIndex: number;
  /** The node that reported it. */
  readonly node: NodeId;
  readonly observation: Observation;
}
