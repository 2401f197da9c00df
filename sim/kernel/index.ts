/**
 * The simulation kernel's public API: virtual time, the event loop, seeded randomness, the
 * network and node lifecycle. It imports nothing outside `sim/kernel/`.
 */
export { AssertionError, assert, assertNever, assertSafeInteger, maybe } from './assert';
export type {
  Actor,
  ActorContext,
  ConnectionReset,
  CrashMode,
  Envelope,
  Message,
  TimerId,
} from './actor';
export { EventQueue, type QueuedEvent } from './event_queue';
export { nodeId, msToUs, ratio, US_PER_MS, type NodeId, type Ratio, type TimeUs } from './ids';
export type { Delivery, LinkEffect, LinkRule, LinkRuleId, NetworkConfig } from './network';
export type { HoldCounts, NodeStatus } from './node_holds';
export { Rng, assertRatio } from './rng';
export {
  BudgetExceededError,
  Simulation,
  type DeliveryObservation,
  type LifecycleObservation,
  type RunStop,
  type SimulationConfig,
} from './simulation';
export { TraceHash, javaStringHash } from './trace_hash';
