/** Runs scenarios: the phases of one run, its oracle and its report. */
export { runScenario, type RunOptions, type RunResult } from './run';
export { buildReport, fencedClients, reproduceCommand } from './report';
export type * from './report_types';
export { EOS_SIM_VERSION, SEEDRANDOM_VERSION } from './version';
export {
  COVERAGE_CATEGORIES,
  coverageCategoryOf,
  runCoverage,
  sortedRecord,
  type CoverageCategory,
  type RunCoverage,
} from './coverage';
