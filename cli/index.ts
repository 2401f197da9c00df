/**
 * The CLI's helpers: commands, seeds, exit codes and errors. `cli.ts` wires them to commander
 * (commander's only home, style rule 4) and is the only code that invents a seed.
 */
export { mainJob, sweepCommand, type SweepCommandOptions } from './commands/sweep';
export { runCommand, type RunCommandOptions } from './commands/run';
export { scenariosCommand } from './commands/scenarios';
export { compareRuns, firstDivergence, type Divergence } from './determinism';
export { UsageError, describeInternalError, errorMessage } from './errors';
export { EXIT_CODES, exitCodeForOutcome, exitCodeForSweep, isInputError } from './exit_codes';
export type { ExitCode } from './exit_codes';
export type { CliContext, CliIo, TextSink } from './io';
export { SWEEP_SEEDS_MAX, parseSeed, parseSeedRange, seedCount, seedsOf } from './seeds';
export type { SeedRange } from './seeds';
