/**
 * The sweep engine behind `eos-sim sweep` and the main job: load every scenario first (so an
 * invalid file stops the sweep before any run), then run each scenario over its seed range, one
 * seed after another, and tally outcomes, anomaly kinds and detection rates. A run that throws
 * is an `internal-error` result, not the end of the sweep: the sweep goes on and reports it with
 * its reproduce command. Sequential for now; a worker pool can replace the loop without
 * changing the results, because each seed's result depends only on scenario and seed.
 */
import { BudgetExceededError } from '../sim/kernel';
import { listScenarioFiles, loadScenario, type ScenarioConfig } from '../scenarios';
import { reproduceCommand, runScenario } from '../runner';
import type { ScenarioSweep, SweepOutcome, SweepRun } from '../reports';
import { UsageError, errorMessage } from './errors';
import { seedsOf, type SeedRange } from './seeds';

/** The first failing runs a scenario's summary keeps. */
export const FAILURES_KEPT_MAX = 10;

/** One scenario and the seeds to run it with. */
export interface SweepPlan {
  readonly scenario: ScenarioConfig;
  readonly seeds: SeedRange;
}

/**
 * Loads every scenario file at `paths` (directories expanded recursively, duplicates dropped).
 * Each runs over `seeds`, or over its own `run.seeds` when `seeds` is undefined.
 * @throws ScenarioInvalidError, ScenarioNotFoundError, or {@link UsageError} for no files.
 * @example planSweep(['scenarios'], { first: '1', last: '3' })
 */
export function planSweep(paths: readonly string[], seeds: SeedRange | undefined): SweepPlan[] {
  const files = [...new Set(paths.flatMap((path) => listScenarioFiles(path)))];
  if (files.length === 0) {
    throw new UsageError(`no scenario files (*.yaml, *.yml) found in: ${paths.join(', ')}`);
  }
  return files.map((file) => {
    const scenario = loadScenario(file);
    const own = { first: String(scenario.seeds.first), last: String(scenario.seeds.last) };
    return { scenario, seeds: seeds ?? own };
  });
}

/** One seed's result, with the anomaly counts the tally needs. */
interface SeedResult {
  readonly run: SweepRun;
  readonly anomalyCounts: ReadonlyArray<{ readonly kind: string; readonly count: number }>;
}

/** Runs one seed; a thrown error becomes an `internal-error` (or `budget-exceeded`) result. */
function runSeed(scenario: ScenarioConfig, seed: string): SeedResult {
  const base = { scenario: scenario.name, file: scenario.file, seed };
  try {
    const { report } = runScenario(scenario, { seed });
    const run: SweepRun = {
      ...base,
      outcome: report.outcome,
      anomalyTypes: report.check.anomalyTypes,
      unexpectedAnomalyTypes: report.unexpectedAnomalyTypes,
      unmetExpectations: report.expectations.filter((item) => !item.met).map((item) => item.name),
      reproduce: report.reproduce,
      ...(report.error === undefined ? {} : { error: report.error }),
    };
    return { run, anomalyCounts: report.check.anomalyCounts };
  } catch (error) {
    const outcome: SweepOutcome =
      error instanceof BudgetExceededError ? 'budget-exceeded' : 'internal-error';
    const run: SweepRun = {
      ...base,
      outcome,
      anomalyTypes: [],
      unexpectedAnomalyTypes: [],
      unmetExpectations: [],
      reproduce: reproduceCommand(scenario.file, seed),
      error: `${outcome === 'internal-error' ? 'Internal error: ' : ''}${errorMessage(error)}`,
    };
    return { run, anomalyCounts: [] };
  }
}

/** Counts one scenario's runs as they come in. */
class ScenarioTally {
  private readonly outcomes: Record<SweepOutcome, number> = {
    pass: 0,
    fail: 0,
    liveness: 0,
    'budget-exceeded': 0,
    'internal-error': 0,
  };
  private readonly kinds = new Map<string, { seeds: number; anomalies: number }>();
  private readonly failures: SweepRun[] = [];
  private failureCount = 0;
  private seedsRun = 0;

  constructor(private readonly plan: SweepPlan) {}

  add(result: SeedResult): void {
    this.seedsRun += 1;
    this.outcomes[result.run.outcome] += 1;
    for (const { kind, count } of result.anomalyCounts) {
      const tally = this.kinds.get(kind) ?? { seeds: 0, anomalies: 0 };
      tally.seeds += 1;
      tally.anomalies += count;
      this.kinds.set(kind, tally);
    }
    if (result.run.outcome !== 'pass') {
      this.failureCount += 1;
      if (this.failures.length < FAILURES_KEPT_MAX) this.failures.push(result.run);
    }
  }

  summary(): ScenarioSweep {
    const { scenario, seeds } = this.plan;
    const expected = new Set(scenario.expect.anomalies);
    const percentMin = scenario.expect.detectPercentMin;
    const detection = scenario.expect.anomalies.map((kind) => {
      const seedsDetected = this.kinds.get(kind)?.seeds ?? 0;
      const met = seedsDetected * 100 >= percentMin * this.seedsRun;
      return { kind, seedsDetected, seedsRun: this.seedsRun, percentMin, met };
    });
    const anomalyCounts = [...this.kinds]
      .map(([kind, tally]) => ({ kind, ...tally, expected: expected.has(kind) }))
      .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    return {
      scenario: scenario.name,
      file: scenario.file,
      seeds,
      seedsRun: this.seedsRun,
      outcomes: { ...this.outcomes },
      anomalyCounts,
      detection,
      failures: [...this.failures],
      failureCount: this.failureCount,
      expectationMet: this.failureCount === 0 && detection.every((rate) => rate.met),
    };
  }
}

/**
 * Runs `plan.scenario` over `plan.seeds`, calling `onRun` after every seed (for streaming
 * lines), and returns the scenario's summary.
 * @example
 * const sweep = sweepScenario(plan, (run) => { if (run.outcome !== 'pass') print(run); });
 */
export function sweepScenario(plan: SweepPlan, onRun: (run: SweepRun) => void): ScenarioSweep {
  const tally = new ScenarioTally(plan);
  for (const seed of seedsOf(plan.seeds)) {
    const result = runSeed(plan.scenario, seed);
    tally.add(result);
    onRun(result.run);
  }
  return tally.summary();
}
