/**
 * Growth benchmark: does a run's cost grow linearly? It runs one scenario, in this process, at
 * 1×, 2× and 4× its simulated duration (`run.duration.ms`, the workload phase) and over 1×, 2×
 * and 4× a number of seeds, and reports cost per simulated second, per event and per seed.
 *
 * A scenario's workload is fixed, so a longer run adds steady background work (consumer polls,
 * follower fetches) on top of a fixed part: cost is `fixed + rate × duration`. Cost per simulated
 * second therefore falls as the duration grows; what shows linearity is the marginal cost, the
 * extra time per extra event from 1× to 2× and from 2× to 4×, which are equal when nothing grows
 * faster than the run. Over seeds, a worker runs one seed after another, so time per seed stays
 * the same when nothing builds up between seeds (caches, leaked state).
 *
 * Cost is CPU time (`process.cpuUsage`, user + system), not wall time: on a shared machine the
 * wall time of a phase depends on who else runs, its CPU time much less. The three durations of
 * one seed run one after another, so drift in the machine's load reaches every scale alike, and
 * each figure is a median over the seeds.
 */
import { loadScenario } from '../scenarios';
import { runScenario } from '../sim/runner';
import type { ScenarioConfig } from '../scenarios';
import { median } from './median';

/** The cost of one scale of the scenario's duration, medians over the seeds. */
export interface DurationGrowthSample {
  readonly scale: number;
  readonly simulatedSeconds: number;
  readonly eventsPerRun: number;
  readonly cpuMsPerRun: number;
  /** CPU µs per simulated second of the whole run (workload, heal, probe, final reads). */
  readonly cpuUsPerSimulatedSecond: number;
  readonly cpuUsPerEvent: number;
}

/** The cost of one seed count run back to back in one process. */
export interface SeedGrowthSample {
  readonly seedsCount: number;
  readonly cpuMsTotal: number;
  readonly cpuMsPerSeed: number;
}

/** The figures of the growth benchmark. */
export interface GrowthBenchResult {
  readonly file: string;
  readonly durations: readonly DurationGrowthSample[];
  readonly seeds: readonly SeedGrowthSample[];
}

/** Runs before timing starts, so the JIT has compiled the hot paths. */
const WARM_UP_RUNS = 3;

/** The scales both checks use. */
export const GROWTH_SCALES = [1, 2, 4] as const;

function withDurationScaled(scenario: ScenarioConfig, scale: number): ScenarioConfig {
  return { ...scenario, durationMs: scenario.durationMs * scale };
}

interface TimedRun {
  readonly cpuMs: number;
  readonly events: number;
  readonly simUs: number;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function timeRun(scenario: ScenarioConfig, seed: number): TimedRun {
  const start = process.cpuUsage();
  const { report } = runScenario(scenario, { seed: String(seed) });
  return { cpuMs: cpuMsSince(start), events: report.eventsRun, simUs: report.simulatedUs };
}

function durationSample(scale: number, runs: readonly TimedRun[]): DurationGrowthSample {
  return {
    scale,
    simulatedSeconds: median(runs.map((run) => run.simUs)) / 1_000_000,
    eventsPerRun: median(runs.map((run) => run.events)),
    cpuMsPerRun: median(runs.map((run) => run.cpuMs)),
    cpuUsPerSimulatedSecond: median(runs.map((run) => (run.cpuMs * 1e9) / run.simUs)),
    cpuUsPerEvent: median(runs.map((run) => (run.cpuMs * 1000) / run.events)),
  };
}

/**
 * Each seed at every scale in turn, so load drift reaches the scales alike; the order rotates
 * from seed to seed, so the garbage one run leaves for the next run's collector is not always
 * charged to the same scale.
 */
function durationSamples(base: ScenarioConfig, seedsCount: number): DurationGrowthSample[] {
  const scaled = GROWTH_SCALES.map((scale) => withDurationScaled(base, scale));
  const runs = GROWTH_SCALES.map((): TimedRun[] => []);
  for (let seed = 1; seed <= seedsCount; seed++) {
    for (let turn = 0; turn < scaled.length; turn++) {
      const index = (seed + turn) % scaled.length;
      runs[index]?.push(timeRun(scaled[index] as ScenarioConfig, seed));
    }
  }
  return GROWTH_SCALES.map((scale, index) => durationSample(scale, runs[index] ?? []));
}

function seedSample(scenario: ScenarioConfig, seedsCount: number): SeedGrowthSample {
  const start = process.cpuUsage();
  for (let seed = 1; seed <= seedsCount; seed++) runScenario(scenario, { seed: String(seed) });
  const cpuMsTotal = cpuMsSince(start);
  return { seedsCount, cpuMsTotal, cpuMsPerSeed: cpuMsTotal / seedsCount };
}

/**
 * Runs `file` at each of {@link GROWTH_SCALES} times its duration (seeds 1..`seedsPerDuration`
 * each) and over each scale times `seedsBase` seeds, after a few warm-up runs.
 */
export function runGrowthBench(
  file: string,
  sizes: { readonly seedsPerDuration: number; readonly seedsBase: number },
): GrowthBenchResult {
  const scenario = loadScenario(file);
  for (let seed = 0; seed < WARM_UP_RUNS; seed++) {
    runScenario(scenario, { seed: String(1_000_000 + seed) });
  }
  return {
    file,
    durations: durationSamples(scenario, sizes.seedsPerDuration),
    seeds: GROWTH_SCALES.map((scale) => seedSample(scenario, scale * sizes.seedsBase)),
  };
}
