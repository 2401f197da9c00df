/**
 * `eos-sim run <scenario> [--seed N] [--json] [--check-determinism] [--verbose] [--report F]...
 * [--history F] [--jepsen-history F] [--swarm] [--export-scenario F]`: replays one seed of one
 * scenario and writes the reports (`.md`, `.html`, `.json` by extension) and history files asked
 * for. The seed is the first line of output, always, so a run that dies still names its
 * universe; with `--swarm` the drawn swarm parameters follow on the next lines. With `--json`
 * these lines go to stderr, so stdout is the report alone (`… --json | jq .outcome`).
 * `--export-scenario` writes the realised scenario of the run (nemesis and swarm draws written
 * out) to a file. `--check-determinism` runs the seed twice and, when the runs differ, names the
 * first executed event where they part (exit 3). `--until` replays to a moment and prints the
 * cluster state instead (`run_until.ts`).
 */
import { writeOutputFile } from '../file_io';
import { BudgetExceededError } from '../../sim/kernel';
import { loadScenario, type ScenarioConfig } from '../../scenarios';
import {
  drawSwarm,
  exportScenarioYaml,
  runScenario,
  swarmLines,
  type RunResult,
  type SwarmParameters,
} from '../../sim/runner';
import { renderRunReport } from '../../reports';
import { compareRuns } from '../determinism';
import { describeInternalError, errorMessage } from '../errors';
import { EXIT_CODES, exitCodeForOutcome, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { checkOutputFile, checkOutputsApart } from '../output_paths';
import { checkReportPaths, writeRunFiles } from '../report_files';
import { parseSeed } from '../seeds';
import { untilCommand } from './run_until';
import { parseKafkaVersion } from '../kafka_version';

/** The parsed arguments of `eos-sim run`. */
export interface RunCommandOptions {
  /** Path of the scenario file. */
  readonly scenario: string;
  /** `--seed`; undefined to invent one. */
  readonly seed: string | undefined;
  /** `--json`: print the RunReport as JSON instead of the console view. @default false */
  readonly json: boolean;
  /** `--check-determinism`: run twice and compare. @default false */
  readonly checkDeterminism: boolean;
  /** `--verbose`: print the stack of an internal error. @default false */
  readonly verbose: boolean;
  /** `--report F` (repeatable): write a report, its format by extension. @default [] */
  readonly reports?: readonly string[];
  /** `--history F`: write the history file (docs/history.md). */
  readonly history?: string | undefined;
  /** `--jepsen-history F`: write the history in Jepsen's Kafka workload shape (EDN). */
  readonly jepsenHistory?: string | undefined;
  /** `--swarm`: draw fault kinds, rates and Kafka configs from the seed. @default false */
  readonly swarm?: boolean;
  /** `--export-scenario F`: write the realised scenario to F. */
  readonly exportScenario?: string | undefined;
  /**
   * `--until T|event:N|first-anomaly`: stop the run there and print the cluster as it stands
   * (see `cli/until.ts`) instead of the report; exit 0.
   */
  readonly until?: string | undefined;
  /** `--kafka-version V`: model release V instead of the file's `kafka.version`. */
  readonly kafkaVersion?: string | undefined;
}

/** A run that threw: the exit code has been decided and the error printed. */
interface RunFailed {
  readonly exitCode: ExitCode;
}

/**
 * Runs `eos-sim run` and returns its exit code.
 * @throws UsageError for a bad seed or an output path that cannot be written;
 * ScenarioInvalidError or ScenarioNotFoundError.
 * @example runCommand({ scenario: 'scenarios/zombie-fencing.yaml', seed: '7', json: false,
 *   checkDeterminism: false, verbose: false }, context) // 0
 */
export function runCommand(options: RunCommandOptions, context: CliContext): ExitCode {
  const seed = options.seed === undefined ? context.inventSeed() : parseSeed(options.seed);
  if (options.until !== undefined) return untilCommand(options, { seed, context });
  checkReportPaths(options.reports ?? []);
  checkOutputFiles(options);
  const kafkaVersion = parseKafkaVersion(options.kafkaVersion);
  const loaded = loadScenario(options.scenario, { kafkaVersion });
  const { stdout, stderr } = context.io;
  // With --json, stdout holds only the report; everything said along the way goes aside.
  const aside = options.json ? stderr : stdout;
  aside.write(`seed=${seed}\n`);
  const drawn = options.swarm === true ? drawSwarm(loaded, seed) : undefined;
  const scenario = drawn?.scenario ?? loaded;
  if (drawn !== undefined) aside.write(swarmLines(drawn.parameters).join('\n') + '\n');
  if (options.exportScenario !== undefined) {
    const text = exportScenarioYaml({ scenario, seed, swarm: drawn !== undefined });
    writeOutputFile(options.exportScenario, text);
    aside.write(`scenario written: ${options.exportScenario}\n`);
  }
  const first = runOnce({
    scenario,
    seed,
    options,
    context,
    ...(drawn === undefined ? {} : { swarm: drawn.parameters }),
  });
  if (!('report' in first)) return first.exitCode;
  stdout.write(
    options.json
      ? `${JSON.stringify(first.report, null, 2)}\n`
      : renderRunReport(first.report, { colour: context.colour }),
  );
  const written = writeRunFiles(first, {
    reports: options.reports ?? [],
    history: options.history,
    jepsenHistory: options.jepsenHistory,
  });
  for (const line of written) stderr.write(`${line}\n`);
  if (options.checkDeterminism) {
    const swarm = drawn === undefined ? {} : { swarm: drawn.parameters };
    const second = runOnce({ scenario, seed, options, context, ...swarm });
    if (!('report' in second)) return second.exitCode;
    const verdict = compareRuns(first, second);
    aside.write(verdict.text);
    if (!verdict.deterministic) return EXIT_CODES.nondeterminism;
  }
  return exitCodeForOutcome(first.report.outcome);
}

/**
 * Checks `--history`, `--jepsen-history`, `--export-scenario` and `--report` before the run: each
 * can be written, none is the scenario file, no two are one file.
 */
function checkOutputFiles(options: RunCommandOptions): void {
  const outputs: Array<readonly [string, string]> = [
    ...(options.reports ?? []).map((path) => ['--report', path] as const),
  ];
  if (options.history !== undefined) outputs.push(['--history', options.history]);
  if (options.jepsenHistory !== undefined) {
    outputs.push(['--jepsen-history', options.jepsenHistory]);
  }
  if (options.exportScenario !== undefined) {
    outputs.push(['--export-scenario', options.exportScenario]);
  }
  for (const [flag, path] of outputs) if (flag !== '--report') checkOutputFile(flag, path);
  checkOutputsApart(options.scenario, outputs);
}

/** One run; an error is printed with the seed and reproduce command and becomes an exit code. */
function runOnce(input: {
  scenario: ScenarioConfig;
  seed: string;
  options: RunCommandOptions;
  context: CliContext;
  swarm?: SwarmParameters;
}): RunResult | RunFailed {
  const { scenario, seed, options, context } = input;
  try {
    const swarm = input.swarm === undefined ? {} : { swarm: input.swarm };
    return runScenario(scenario, { seed, recordEventLog: options.checkDeterminism, ...swarm });
  } catch (error) {
    // The runner turns a budget overrun into an outcome; this catches one raised outside it.
    if (error instanceof BudgetExceededError) {
      context.io.stderr.write(`Budget exceeded: ${errorMessage(error)}\n`);
      return { exitCode: EXIT_CODES.budgetExceeded };
    }
    const described = { seed, file: scenario.file, verbose: options.verbose };
    context.io.stderr.write(describeInternalError(error, described));
    return { exitCode: EXIT_CODES.internal };
  }
}
