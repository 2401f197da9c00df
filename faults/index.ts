/**
 * Fault policy: the fault kinds (one module each, registered in `kinds/index.ts`), scripted
 * faults and the nemesis that runs them on kernel primitives, and the random nemesis.
 */
export { Nemesis } from './nemesis';
export {
  COORDINATOR_REF,
  GROUP_COORDINATOR_REF,
  LEADER_REF,
  parseTopicPartition,
  resolveNode,
  type ClusterView,
} from './cluster_view';
export * from './kinds';
export {
  drawDurationMs,
  drawRandomFaults,
  type RandomFaultKind,
  type RandomNemesisSpec,
} from './random_nemesis';
