/**
 * Scenario benchmark: runs a bundled scenario over a fixed set of seeds and reports the median
 * model events per wall-clock second and simulated seconds per wall-clock second. Each seed is
 * one sample; the median damps the noise of a shared machine.
 */
import { performance } from 'node:perf_hooks';
import { loadScenario } from '../scenarios';
import { runScenario } from '../sim/runner';
import { median } from './median';

/** Medians over the seeds of one scenario. */
export interface ScenarioBenchResult {
  readonly file: string;
  readonly seedsCount: number;
  readonly eventsPerSecond: number;
  readonly simulatedSecondsPerWallSecond: number;
  readonly wallMsPerRun: number;
  readonly eventsPerRun: number;
  /** Wall-clock µs per model event: the inverse of events/s, per seed. */
  readonly wallUsPerEvent: number;
}

/** Runs `file` for seeds 1..seedsCount after one warm-up run. */
export function runScenarioBench(file: string, seedsCount: number): ScenarioBenchResult {
  const scenario = loadScenario(file);
  runScenario(scenario, { seed: '0' });
  const eventRates: number[] = [];
  const simulatedRates: number[] = [];
  const wallMs: number[] = [];
  const events: number[] = [];
  const usPerEvent: number[] = [];
  for (let seed = 1; seed <= seedsCount; seed++) {
    const startMs = performance.now();
    const { report } = runScenario(scenario, { seed: String(seed) });
    const elapsedMs = performance.now() - startMs;
    eventRates.push(report.eventsRun / (elapsedMs / 1000));
    simulatedRates.push(report.simulatedUs / 1_000_000 / (elapsedMs / 1000));
    wallMs.push(elapsedMs);
    events.push(report.eventsRun);
    usPerEvent.push((elapsedMs * 1000) / report.eventsRun);
  }
  return {
    file,
    seedsCount,
    eventsPerSecond: median(eventRates),
    simulatedSecondsPerWallSecond: median(simulatedRates),
    wallMsPerRun: median(wallMs),
    eventsPerRun: median(events),
    wallUsPerEvent: median(usPerEvent),
  };
}
