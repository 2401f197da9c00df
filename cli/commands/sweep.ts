/**
 * `eos-sim sweep <scenario|dir>... [--seeds A..B] [--workers N] [--shard K/N] [--out DIR]
 * [--resume] [--junit F] [--json] [--seed-timeout-ms MS] [--require-coverage a,b]` and the main
 * job (`eos-sim` with no arguments). A sweep runs on a worker pool, streams one line per seed to
 * `<out>/results.jsonl` and one console line per seed that did not pass, shows progress on
 * stderr, and ends with a summary; the main job prints one line per bundled scenario. Both exit
 * as {@link exitCodeForSweep} says.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { renderMainJobLine, renderSweepRunLine, renderSweepSummary } from '../../reports';
import type { SweepResultLine } from '../../reports';
import { EOS_SIM_VERSION } from '../../sim/runner';
import { artifactDir } from '../artifacts';
import { exitCodeForSweep, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { mainJobEnding } from '../main_job_next';
import { bundledScenarioDir } from '../paths';
import { interruptible } from '../interrupt';
import { createProgress } from '../progress';
import { RESULTS_FILE_NAME } from '../results_file';
import { parseSeedRange } from '../seeds';
import { WHOLE, parseShard } from '../shard';
import { checkOutputFile, makeOutputFolder } from '../output_paths';
import { planSweep, runSweep, safePlans } from '../sweep';
import { parseKafkaVersion } from '../kafka_version';
import { parseCoverageNames, parsePositiveInteger, summaryOf, writeJunit } from '../sweep_output';
import { sweepRunOf } from '../sweep_tally';

/** The parsed arguments of `eos-sim sweep`; strings are validated here. */
export interface SweepCommandOptions {
  /** Scenario files and directories. */
  readonly paths: readonly string[];
  /** `--seeds A..B`; undefined for each scenario's own `run.seeds`. */
  readonly seeds: string | undefined;
  /** `--json`: print the summary as JSON; per-seed lines go to stderr. @default false */
  readonly json: boolean;
  /** `--workers N`. @default os.availableParallelism() */
  readonly workers?: string | undefined;
  /** `--shard K/N`. @default the whole range */
  readonly shard?: string | undefined;
  /** `--out DIR`. @default {@link DEFAULT_OUT} */
  readonly out?: string | undefined;
  /** `--resume`: skip the seeds `<out>/results.jsonl` records. @default false */
  readonly resume?: boolean;
  /** `--junit F`: write JUnit XML to F. */
  readonly junit?: string | undefined;
  /** `--seed-timeout-ms MS`. @default {@link SEED_TIMEOUT_MS_DEFAULT} */
  readonly seedTimeoutMs?: string | undefined;
  /** `--require-coverage a,b`. */
  readonly requireCoverage?: string | undefined;
  /** `--swarm`: each seed draws fault kinds, rates and Kafka configs. @default false */
  readonly swarm?: boolean;
  /** `--kafka-version V`: every scenario models release V instead of its `kafka.version`. */
  readonly kafkaVersion?: string | undefined;
  /** `--safe`: only the files expecting no anomaly, outside `known-bugs/` (`safePlans`). */
  readonly safe?: boolean;
}

/** Where a sweep writes unless `--out` says otherwise (git-ignored). */
export const DEFAULT_OUT = '.eos-sim/sweep';
/** A seed's wall-clock budget unless `--seed-timeout-ms` says otherwise. */
export const SEED_TIMEOUT_MS_DEFAULT = 60_000;
/**
 * The main job's per-seed wall-clock budget: a hang guard, not a speed limit. One bundled
 * scenario (epoch-exhaustion-lost-endtxn-response, 32,770 transactions) needs about 100 s of
 * CPU per seed, more on a loaded machine, past the sweep default.
 */
const MAIN_JOB_SEED_TIMEOUT_MS = 600_000;
/** The most worker threads `--workers` accepts. */
const WORKERS_MAX = 1024;
/** The longest `--seed-timeout-ms`: a day. */
const SEED_TIMEOUT_MS_MAX = 86_400_000;
/** Failing seeds the main job lists under a scenario that did not meet its expectation. */
const MAIN_JOB_FAILURES_SHOWN = 3;

/** Whether CI is set to anything but an empty string, `0` or `false`. */
function inCi(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

/** The validated settings of a sweep. */
function settingsOf(options: SweepCommandOptions) {
  return {
    range: options.seeds === undefined ? undefined : parseSeedRange(options.seeds),
    kafkaVersion: parseKafkaVersion(options.kafkaVersion),
    workers:
      options.workers === undefined
        ? availableParallelism()
        : parsePositiveInteger('--workers', options.workers, WORKERS_MAX),
    shard: options.shard === undefined ? WHOLE : parseShard(options.shard),
    out: options.out ?? DEFAULT_OUT,
    seedTimeoutMs:
      options.seedTimeoutMs === undefined
        ? SEED_TIMEOUT_MS_DEFAULT
        : parsePositiveInteger('--seed-timeout-ms', options.seedTimeoutMs, SEED_TIMEOUT_MS_MAX),
    requireCoverage:
      options.requireCoverage === undefined ? [] : parseCoverageNames(options.requireCoverage),
  };
}

/**
 * Runs `eos-sim sweep` and returns its exit code.
 * @throws UsageError for bad flags, an --out or --junit that cannot be written;
 * ScenarioInvalidError or ScenarioNotFoundError.
 * @example await sweepCommand({ paths: ['scenarios'], seeds: '1..3', json: false }, context)
 */
export async function sweepCommand(
  options: SweepCommandOptions,
  context: CliContext,
): Promise<ExitCode> {
  const settings = settingsOf(options);
  const planned = planSweep(options.paths, settings.range, settings.kafkaVersion);
  const plans = options.safe === true ? safePlans(planned) : planned;
  makeOutputFolder('--out', settings.out);
  if (options.junit !== undefined) checkOutputFile('--junit', options.junit);
  const { stdout, stderr } = context.io;
  const lines = options.json ? stderr : stdout;
  const colour = options.json ? false : context.colour;
  const progress = createProgress(stderr, { ci: inCi() });
  const results = join(settings.out, RESULTS_FILE_NAME);
  const notice = { results, what: 'seeds', stderr, stop: () => progress.stop() };
  const output = await interruptible(
    () =>
      runSweep({
        plans,
        workers: settings.workers,
        shard: settings.shard,
        out: settings.out,
        resume: options.resume === true,
        seedTimeoutMs: settings.seedTimeoutMs,
        keepLines: options.junit !== undefined,
        swarm: options.swarm === true,
        onStart: (total, resumed) => progress.start(total, resumed, settings.workers),
        onLine: (line: SweepResultLine) => {
          if (line.outcome !== 'pass') {
            const text = renderSweepRunLine(sweepRunOf(line), { colour });
            if (lines === stderr) progress.log(text);
            else lines.write(`${text}\n`);
          }
          progress.update(line);
        },
      }),
    notice,
  ).finally(() => progress.stop());
  const summary = summaryOf({ ...output, requireCoverage: settings.requireCoverage });
  // The summary is printed before the JUnit file is written, so a failed write (a full device)
  // still leaves it on the screen; the write error then sets the exit code (73 or 74).
  printSweepSummary({ summary, options, context, out: settings.out });
  if (options.junit !== undefined) {
    const out = settings.out;
    writeJunit(options.junit, output.lines ?? [], (line) =>
      artifactDir(out, line.scenario, line.seed),
    );
  }
  return exitCodeForSweep(summary);
}

/** The sweep's summary on stdout: JSON, or the text summary and where the files are. */
function printSweepSummary(input: {
  readonly summary: ReturnType<typeof summaryOf>;
  readonly options: SweepCommandOptions;
  readonly context: CliContext;
  readonly out: string;
}): void {
  const { summary, options, context } = input;
  const { stdout } = context.io;
  const settings = { out: input.out };
  if (options.json) {
    stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    stdout.write(renderSweepSummary(summary, { colour: context.colour }));
    const where = `results: ${join(settings.out, RESULTS_FILE_NAME)}`;
    const artifacts = `artifacts of seeds that did not pass: ${settings.out}/<scenario>/<seed>/`;
    const junit = options.junit === undefined ? '' : `; JUnit: ${options.junit}`;
    stdout.write(`${where}; ${artifacts}${junit}\n`);
  }
}

/**
 * The main job: every bundled scenario over its own seed range on all cores, one line per
 * scenario, a verdict, the wall time and the next command to try. Writes no files. Returns the
 * exit code.
 * @example await main([]) // runs mainJob
 */
export async function mainJob(context: CliContext): Promise<ExitCode> {
  const startedMs = performance.now();
  const directory = bundledScenarioDir();
  const plans = planSweep([directory], undefined);
  const { stdout } = context.io;
  const { colour } = context;
  stdout.write(
    `eos-sim ${EOS_SIM_VERSION}: ${plans.length} bundled scenarios in ${directory}, ` +
      'each over its own seed range\n',
  );
  const output = await runSweep({
    plans,
    workers: availableParallelism(),
    shard: WHOLE,
    out: undefined,
    resume: false,
    seedTimeoutMs: MAIN_JOB_SEED_TIMEOUT_MS,
    keepLines: false,
  });
  const nameWidth = Math.max(...plans.map((plan) => plan.scenario.name.length));
  const sweeps = output.tallies.map((tally) => tally.summary());
  for (const sweep of sweeps) {
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
  const { seedsRun, workers } = output.timing;
  stdout.write(mainJobEnding({ wallMs: performance.now() - startedMs, seedsRun, workers, sweeps }));
  return exitCodeForSweep({ scenarios: sweeps });
}
