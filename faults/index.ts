/** Fault policy: scripted faults and the nemesis that runs them on kernel primitives. */
export { Nemesis } from './nemesis';
export {
  COORDINATOR_REF,
  LEADER_REF,
  parseTopicPartition,
  resolveNode,
  type ClusterView,
} from './cluster_view';
export {
  describeFault,
  faultEndMs,
  type BridgeFault,
  type ClockSkewFault,
  type CoordinatorFailoverFault,
  type CrashFault,
  type FaultKind,
  type LinkFault,
  type PartitionFault,
  type PauseFault,
  type ScriptedFault,
  type SplitFault,
  type UncleanElectionFault,
} from './fault_types';
export {
  RANDOM_FAULT_KINDS,
  drawDurationMs,
  drawRandomFaults,
  type RandomFaultKind,
  type RandomNemesisSpec,
} from './random_nemesis';
