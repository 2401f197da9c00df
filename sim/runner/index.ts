/** Runs scenarios: the phases of one run, its oracle and its report. */
export { buildWorld, runScenario, type RunOptions, type RunResult, type World } from './run';
export { buildReport, fencedClients } from './report';
export { LOCAL_EOS_SIM, eosSimCommand, reproduceCommand, shellWord } from './reproduce';
export type * from './report_types';
export type * from './metrics_types';
export type { MessageLogEntry } from './message_log';
export { EOS_SIM_VERSION, SEEDRANDOM_VERSION } from './version';
export {
  COVERAGE_CATEGORIES,
  coverageCategoryOf,
  runCoverage,
  sortedRecord,
  type CoverageCategory,
  type RunCoverage,
} from './coverage';
export {
  drawSwarm,
  recoveryBoundMs,
  SWARM_RECOVERY_MS_MAX,
  swarmLines,
  SWARM_FAULT_KINDS,
  type SwarmParameters,
} from './swarm';
export { exportScenarioYaml, realiseScenario } from './export_scenario';
export {
  ShrinkNotFailingError,
  foundKinds,
  shrinkScenario,
  sizeOf,
  type ScenarioSize,
  type ShrinkOptions,
  type ShrinkResult,
} from './shrink';
export { clusterState } from './cluster_state';
export type * from './cluster_state_types';
export { firstAnomalyMoment, replayTo, replayToFirstAnomaly, type ReplayResult } from './replay';
