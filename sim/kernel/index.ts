/**
 * The simulation kernel's public API: virtual time, the event loop, seeded randomness, the
 * network and node lifecycle. It imports nothing outside `sim/kernel/`.
 */
export {
  AssertionError,
  InvariantError,
  assert,
  assertNever,
  assertSafeInteger,
  invariant,
} from './assert';
export {
  BoundedMap,
  BoundedSet,
  CollectionBoundExceededError,
  KERNEL_BOUNDS,
  checkBound,
  pushWithin,
  type CollectionBound,
} from './bounds';
export type {
  Actor,
  ActorContext,
  Connection,
  ConnectionReset,
  CrashMode,
  Envelope,
  Message,
  Observation,
  TimerId,
} from './actor';
export { EventQueue, type QueuedEvent } from './event_queue';
export { nodeId, ratio, US_PER_MS, type NodeId, type Ratio, type TimeUs } from './ids';
export type { Delivery, LinkEffect, LinkRule, LinkRuleId, NetworkConfig } from './network';
export type { LaneMap, LaneOfKind } from './lanes';
export type { HoldCounts, LifecycleObservation, NodeStatus } from './node_holds';
export { Rng, assertRatio } from './rng';
export {
  BudgetExceededError,
  RunHaltedError,
  Simulation,
  type DeliveryObservation,
  type HaltLimit,
  type MessageInFlight,
  type RunStop,
  type SimulationConfig,
  type StampedObservation,
} from './simulation';
export { TraceHash, javaStringHash } from './trace_hash';
