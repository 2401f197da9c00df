/**
 * The sweep engine behind `eos-sim sweep` and the main job. It loads every scenario first (so an
 * invalid file stops the sweep before any run), picks this shard's seeds, skips the seeds
 * `results.jsonl` already records when resuming, and feeds the rest to a worker pool, keeping
 * one seed in flight per worker so the wall-clock budget of a seed starts when it runs. Each
 * result line is appended to `<out>/results.jsonl` the moment it arrives, then tallied. A seed's
 * line depends only on scenario, seed and build, and the tallies order by seed, so the summary
 * does not depend on the number of workers or on the shard.
 */
import { AppendFile, makeFolder } from './file_io';
import { join, resolve, sep } from 'node:path';
import { listScenarioFiles, loadScenario, type ScenarioConfig } from '../scenarios';
import type { SweepResultLine, SweepTiming } from '../reports';
import { clearScenarioArtifacts, scenarioFolderName } from './artifacts';
import { lockOut } from './out_lock';
import { UsageError } from './errors';
import type { LineScenario } from './result_lines';
import { RESULTS_FILE_NAME, ResultsWriter, readResults, resultKey } from './results_file';
import { isInShard, shardSeedCount, shardSeeds, type Shard } from './shard';
import { SeedPool, type SeedRequest } from './sweep_pool';
import { CoverageTally, ScenarioTally } from './sweep_tally';
import type { SeedRange } from './seeds';

/** One scenario and the seeds to run it with. */
export interface SweepPlan {
  readonly scenario: ScenarioConfig;
  readonly seeds: SeedRange;
}

/**
 * Loads every scenario file at `paths` (directories expanded recursively; a file named twice,
 * also as `a.yaml` and `./a.yaml`, runs once under its first spelling).
 * Each runs over `seeds`, or over its own `run.seeds` when `seeds` is undefined, and under
 * `kafkaVersion` (`--kafka-version`) instead of its own `kafka.version` when given.
 * @throws ScenarioInvalidError, ScenarioNotFoundError, or {@link UsageError} for no files or
 * two files with one scenario `name` (see {@link checkUniqueNames}).
 * @example planSweep(['scenarios'], { first: '1', last: '3' })
 */
export function planSweep(
  paths: readonly string[],
  seeds: SeedRange | undefined,
  kafkaVersion?: string,
): SweepPlan[] {
  const byResolved = new Map<string, string>();
  for (const file of paths.flatMap((path) => listScenarioFiles(path))) {
    if (!byResolved.has(resolve(file))) byResolved.set(resolve(file), file);
  }
  const files = [...byResolved.values()];
  if (files.length === 0) {
    throw new UsageError(`no scenario files (*.yaml, *.yml) found in: ${paths.join(', ')}`);
  }
  const plans = files.map((file) => {
    const scenario = loadScenario(file, { kafkaVersion });
    const own = { first: String(scenario.seeds.first), last: String(scenario.seeds.last) };
    return { scenario, seeds: seeds ?? own };
  });
  checkUniqueNames(plans);
  return plans;
}

/**
 * `--safe`: the scenarios Kafka's guarantee must hold for, whatever the faults: not a known-bug
 * file (a `known-bugs` folder), and expecting no anomaly and no stall. What is left is judged
 * by the guarantee model alone, so any "violates Kafka's guarantee" verdict there is a finding.
 * @throws {@link UsageError} when no plan is safe.
 * @example safePlans(planSweep(['scenarios'], undefined)).length
 */
export function safePlans(plans: readonly SweepPlan[]): SweepPlan[] {
  const safe = plans.filter(({ scenario }) => {
    const knownBug = resolve(scenario.file).split(sep).includes('known-bugs');
    return !knownBug && scenario.expect.anomalies.length === 0 && !scenario.expect.stall;
  });
  if (safe.length === 0) {
    throw new UsageError(
      '--safe: no safe scenario among the files given (known-bugs/ files, or ' +
        'ones expecting anomalies or a stall, are left out)',
    );
  }
  return safe;
}

/**
 * A failing seed's artifacts go to `<out>/<scenario name>/<seed>/`, and a fresh sweep clears
 * each name's folder: two files with one name would overwrite (or delete) each other's
 * artifacts, and the summary and JUnit could not tell them apart. A copied scenario that kept
 * its `name` is the usual cause.
 * @throws {@link UsageError} naming both files.
 */
function checkUniqueNames(plans: readonly SweepPlan[]): void {
  const fileOfName = new Map<string, string>();
  for (const { scenario } of plans) {
    const folder = scenarioFolderName(scenario.name);
    const other = fileOfName.get(folder);
    if (other !== undefined) {
      throw new UsageError(
        `${other} and ${scenario.file} have the same scenario name "${scenario.name}": ` +
          'their failing seeds would share one artifact folder; give each file its own name',
      );
    }
    fileOfName.set(folder, scenario.file);
  }
}

/** What a result line and a worker need to know about a planned scenario. */
export function lineScenarioOf(scenario: ScenarioConfig, swarm = false): LineScenario {
  return {
    ...(swarm ? { swarm } : {}),
    ...(scenario.kafkaVersionFromCommandLine ? { kafkaVersion: scenario.kafkaVersion } : {}),
    file: scenario.file,
    name: scenario.name,
    hash: scenario.hash,
    expected: scenario.expect.anomalies,
    allowed: scenario.expect.allowed,
    detectPercentMin: scenario.expect.detectPercentMin,
  };
}

/** Options of {@link runSweep}. */
export interface SweepOptions {
  readonly plans: readonly SweepPlan[];
  readonly workers: number;
  readonly shard: Shard;
  /** Where `results.jsonl` and artifacts go; undefined to write nothing (the main job). */
  readonly out: string | undefined;
  /** Skip seeds `<out>/results.jsonl` already records. @default false */
  readonly resume: boolean;
  readonly seedTimeoutMs: number;
  /** Keep every line in memory for the caller (for JUnit). @default false */
  readonly keepLines: boolean;
  /** Called once before any seed runs: seeds in this shard, and how many are already done. */
  readonly onStart?: (total: number, resumed: number) => void;
  /** Called for each line this invocation produced, as it arrives. */
  readonly onLine?: (line: SweepResultLine) => void;
  /** `--swarm`: every seed draws its swarm parameters. @default false */
  readonly swarm?: boolean;
}

/** What a sweep produced. */
export interface SweepOutput {
  /** One per plan, in plan order. */
  readonly tallies: readonly ScenarioTally[];
  readonly coverage: CoverageTally;
  /** Every line (resumed and new), when `keepLines`. */
  readonly lines: readonly SweepResultLine[] | undefined;
  readonly timing: SweepTiming;
}

/** The tallies of a sweep, one per plan, found by scenario file. */
function talliesOf(plans: readonly SweepPlan[]): Map<string, ScenarioTally> {
  return new Map(
    plans.map(({ scenario, seeds }) => [
      scenario.file,
      new ScenarioTally({
        scenario: scenario.name,
        file: scenario.file,
        seeds,
        expected: scenario.expect.anomalies,
        allowed: scenario.expect.allowed,
        detectPercentMin: scenario.expect.detectPercentMin,
      }),
    ]),
  );
}

/**
 * Prepares `out`: a fresh sweep empties `results.jsonl` and clears the planned scenarios' old
 * artifact folders; a resumed one reads the recorded lines of this sweep's scenarios and cuts off
 * a line a kill left unfinished. Returns the recorded lines by {@link resultKey}.
 * @throws {@link UsageError} when a recorded line came from a different version of a scenario.
 */
function prepareOut(options: SweepOptions, out: string): Map<string, SweepResultLine> {
  const path = join(out, RESULTS_FILE_NAME);
  const recorded = new Map<string, SweepResultLine>();
  if (!options.resume) {
    new AppendFile(path, { truncate: true }).close();
    for (const { scenario } of options.plans) clearScenarioArtifacts(out, scenario.name);
    return recorded;
  }
  const hashes = new Map(options.plans.map(({ scenario }) => [scenario.file, scenario.hash]));
  for (const line of readResults(path, { repair: true, missingOk: true }).lines) {
    const hash = hashes.get(line.file);
    if (hash === undefined) continue;
    if (hash !== line.hash) {
      throw new UsageError(
        `${path} holds results of another version of ${line.file}: ` +
          'sweep into another --out, or drop --resume to start over',
      );
    }
    if (!recorded.has(resultKey(line))) recorded.set(resultKey(line), line);
  }
  return recorded;
}

/** Every seed request of this shard that is not recorded yet, plan by plan, seed by seed. */
function* pendingRequests(input: {
  plans: readonly SweepPlan[];
  shard: Shard;
  out: string | undefined;
  recorded: ReadonlyMap<string, SweepResultLine>;
  swarm?: boolean;
}): Generator<SeedRequest> {
  for (const { scenario, seeds } of input.plans) {
    const lineScenario = lineScenarioOf(scenario, input.swarm === true);
    for (const seed of shardSeeds(seeds, input.shard)) {
      if (input.recorded.has(resultKey({ file: scenario.file, seed }))) continue;
      yield { scenario: lineScenario, seed, out: input.out };
    }
  }
}

/**
 * Runs a sweep on a worker pool and returns its tallies and timing. With `out`, it holds the
 * folder's lock (one sweep per folder) from before it reads `results.jsonl` until the last line.
 * @throws {@link UsageError} when another live sweep holds `out`, or when resuming from results
 * of another scenario version.
 * @example
 * const output = await runSweep({ plans, workers: 2, shard: WHOLE, out: '.eos-sim/sweep',
 *   resume: false, seedTimeoutMs: 60_000, keepLines: false });
 */
export async function runSweep(options: SweepOptions): Promise<SweepOutput> {
  if (options.out === undefined) return sweepLocked(options);
  makeFolder(options.out);
  const release = lockOut(options.out);
  try {
    return await sweepLocked(options);
  } finally {
    release();
  }
}

/** {@link runSweep} once `out`, if any, is locked. */
async function sweepLocked(options: SweepOptions): Promise<SweepOutput> {
  const startMs = performance.now();
  const tallies = talliesOf(options.plans);
  const coverage = new CoverageTally();
  const lines: SweepResultLine[] | undefined = options.keepLines ? [] : undefined;
  const add = (line: SweepResultLine): void => {
    tallies.get(line.file)?.add(line);
    coverage.add(line);
    lines?.push(line);
  };
  const { out } = options;
  const recorded = out === undefined ? new Map() : prepareOut(options, out);
  const seedsOfFile = new Map(options.plans.map(({ scenario, seeds }) => [scenario.file, seeds]));
  const resumed = [...recorded.values()].filter((line) => {
    const seeds = seedsOfFile.get(line.file);
    return seeds !== undefined && isInShard(line.seed, seeds, options.shard);
  });
  for (const line of resumed) add(line);
  const total = options.plans.reduce(
    (sum, plan) => sum + shardSeedCount(plan.seeds, options.shard),
    0,
  );
  options.onStart?.(total, resumed.length);
  const writer = out === undefined ? undefined : new ResultsWriter(join(out, RESULTS_FILE_NAME));
  const pool = new SeedPool({ workers: options.workers, seedTimeoutMs: options.seedTimeoutMs });
  let seedsRun = 0;
  try {
    const requests = pendingRequests({ ...options, recorded });
    const lane = async (): Promise<void> => {
      for (let next = requests.next(); next.done !== true; next = requests.next()) {
        const line = await pool.run(next.value);
        writer?.append(line);
        seedsRun += 1;
        add(line);
        options.onLine?.(line);
      }
    };
    await Promise.all(Array.from({ length: options.workers }, lane));
  } finally {
    writer?.close();
    await pool.destroy();
  }
  const wallMs = performance.now() - startMs;
  const timing: SweepTiming = {
    workers: options.workers,
    seedsRun,
    seedsResumed: resumed.length,
    wallMs: Math.round(wallMs),
    seedsPerSecond: wallMs === 0 ? 0 : (seedsRun * 1000) / wallMs,
    workerHeapPeakBytes: pool.workerHeapPeakBytes,
    processRssPeakBytes: process.resourceUsage().maxRSS * 1024,
  };
  return { tallies: [...tallies.values()], coverage, lines, timing };
}
