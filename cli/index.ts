/**
 * The CLI's helpers: commands, seeds, exit codes and errors. `cli.ts` wires them to commander
 * (commander's only home, style rule 4) and is the only code that invents a seed.
 */
export {
  DEFAULT_OUT,
  SEED_TIMEOUT_MS_DEFAULT,
  mainJob,
  sweepCommand,
  type SweepCommandOptions,
} from './commands/sweep';
export { mergeCommand, type MergeCommandOptions } from './commands/report';
export { runCommand, type RunCommandOptions } from './commands/run';
export { checkCommand, type CheckCommandOptions } from './commands/check';
export { readHistoryFile, type HistoryInput } from './history_input';
export {
  REPORT_EXTENSIONS,
  chartLibrarySource,
  checkReportPaths,
  historyFileText,
  writeRunFiles,
  type RunFileOptions,
} from './report_files';
export { shrinkCommand, type ShrinkCommandOptions } from './commands/shrink';
export { scenariosCommand } from './commands/scenarios';
export { AUDIT_OUT_DEFAULT, AUDIT_SEEDS_DEFAULT, auditCommand } from './commands/audit';
export {
  MUTANT_SEED_TIMEOUT_MS_DEFAULT,
  mutantSettingsOf,
  mutantsCommand,
  searchMutantsOnPool,
  type MutantsCommandOptions,
} from './commands/mutants';
export {
  RUNS_FILE_NAME,
  TABLE_FILE_NAMES,
  openMutantOut,
  type MutantOut,
  type MutantSettings,
} from './mutant_runs';
export { compareRuns, firstDivergence, type Divergence } from './determinism';
export { UsageError, describeInternalError, errorMessage } from './errors';
export { OutputFileError } from './file_io';
export { EXIT_CODES, exitCodeForOutcome, exitCodeForSweep, isInputError } from './exit_codes';
export type { ExitCode } from './exit_codes';
export type { CliContext, CliIo, TextSink } from './io';
export { SWEEP_SEEDS_MAX, parseSeed, parseSeedRange, seedCount, seedsOf } from './seeds';
export type { SeedRange } from './seeds';
export { isInShard, parseShard, shardOf, shardSeedCount, shardSeeds, type Shard } from './shard';
export {
  RESULTS_FILE_NAME,
  canonicalJson,
  comparableLine,
  readResults,
  resultKey,
} from './results_file';
export { compareSeeds } from './sweep_tally';
export { LOCK_FILE_NAME, lockOut } from './out_lock';
export { npmWrapperChain, stopWhenWrapperDies } from './wrapper_watch';
export {
  lineScenarioOf,
  planSweep,
  runSweep,
  type SweepOptions,
  type SweepOutput,
  type SweepPlan,
} from './sweep';
export { SeedPool, type SeedPoolOptions, type SeedRequest } from './sweep_pool';
