/**
 * `eos-sim sweep <scenario|dir>... [--seeds A..B] [--json]` and the main job (`eos-sim` with no
 * arguments): many seeds of many scenarios. A sweep streams one line per seed that did not pass
 * and ends with a summary; the main job prints one line per bundled scenario. Both exit as
 * {@link exitCodeForSweep} says.
 */
import { renderMainJobLine, renderSweepRunLine, renderSweepSummary } from '../../reports';
import type { ScenarioSweep, SweepRun } from '../../reports';
import { EOS_SIM_VERSION } from '../../runner';
import { exitCodeForSweep, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { bundledScenarioDir } from '../paths';
import { parseSeedRange } from '../seeds';
import { planSweep, sweepScenario } from '../sweep';

/** The parsed arguments of `eos-sim sweep`. */
export interface SweepCommandOptions {
  /** Scenario files and directories. */
  readonly paths: readonly string[];
  /** `--seeds A..B`; undefined for each scenario's own `run.seeds`. */
  readonly seeds: string | undefined;
  /** `--json`: print the summary as JSON; per-seed lines go to stderr. @default false */
  readonly json: boolean;
}

/** Failing seeds the main job lists under a scenario that did not meet its expectation. */
const MAIN_JOB_FAILURES_SHOWN = 3;

/**
 * Runs `eos-sim sweep` and returns its exit code.
 * @throws UsageError for bad `--seeds`; ScenarioInvalidError or ScenarioNotFoundError.
 * @example sweepCommand({ paths: ['scenarios'], seeds: '1..3', json: false }, context)
 */
export function sweepCommand(options: SweepCommandOptions, context: CliContext): ExitCode {
  const range = options.seeds === undefined ? undefined : parseSeedRange(options.seeds);
  const plans = planSweep(options.paths, range);
  const { stdout, stderr } = context.io;
  const lines = options.json ? stderr : stdout;
  const colour = options.json ? false : context.colour;
  const onRun = (run: SweepRun): void => {
    if (run.outcome !== 'pass') lines.write(`${renderSweepRunLine(run, { colour })}\n`);
  };
  const summary = { scenarios: plans.map((plan) => sweepScenario(plan, onRun)) };
  stdout.write(
    options.json
      ? `${JSON.stringify(summary, null, 2)}\n`
      : renderSweepSummary(summary, { colour: context.colour }),
  );
  return exitCodeForSweep(summary);
}

/**
 * The main job: every bundled scenario over its own seed range, one line per scenario, and a
 * verdict. Returns the exit code.
 * @example await main([]) // runs mainJob
 */
export function mainJob(context: CliContext): ExitCode {
  const directory = bundledScenarioDir();
  const plans = planSweep([directory], undefined);
  const { stdout } = context.io;
  const { colour } = context;
  stdout.write(
    `eos-sim ${EOS_SIM_VERSION}: ${plans.length} bundled scenarios in ${directory}, ` +
      'each over its own seed range\n',
  );
  const nameWidth = Math.max(...plans.map((plan) => plan.scenario.name.length));
  const sweeps: ScenarioSweep[] = [];
  for (const plan of plans) {
    const sweep = sweepScenario(plan, () => undefined);
    sweeps.push(sweep);
    stdout.write(`${renderMainJobLine(sweep, { colour, nameWidth })}\n`);
    for (const run of sweep.failures.slice(0, MAIN_JOB_FAILURES_SHOWN)) {
      stdout.write(`  ${renderSweepRunLine(run, { colour })}\n`);
    }
  }
  const unmet = sweeps.filter((sweep) => !sweep.expectationMet).length;
  stdout.write(
    unmet === 0
      ? `every expectation met in ${plans.length} scenarios\n`
      : `expectations NOT met in ${unmet} of ${plans.length} scenarios: ` +
          'see `eos-sim sweep <file>` for details\n',
  );
  return exitCodeForSweep({ scenarios: sweeps });
}
