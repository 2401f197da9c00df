/**
 * The growth section of `npm run bench`: {@link runGrowthBench}'s samples as table rows, with
 * the two ratios a reader checks for linearity (each about 1 when cost grows linearly).
 */
import type { BenchFigure } from './bench_table';
import { runGrowthBench, type DurationGrowthSample } from './growth_bench';

/** The scenario the growth check scales: the one the sweep section times. */
const GROWTH_SCENARIO = 'scenarios/zombie-fencing.yaml';
const SEEDS_PER_DURATION = 6;
const SEEDS_BASE = 8;

/** Extra CPU µs per extra event between two durations. */
function marginalUsPerEvent(from: DurationGrowthSample, to: DurationGrowthSample): number {
  return ((to.cpuMsPerRun - from.cpuMsPerRun) * 1000) / (to.eventsPerRun - from.eventsPerRun);
}

function durationFigures(samples: readonly DurationGrowthSample[]): BenchFigure[] {
  const rows = samples.flatMap((sample) => {
    const per = `${sample.scale}x run.duration.ms (${sample.simulatedSeconds.toFixed(0)} sim s)`;
    return [
      { name: `${per}: events per run`, value: sample.eventsPerRun, unit: 'events' },
      { name: `${per}: CPU time per run`, value: sample.cpuMsPerRun, unit: 'ms' },
      {
        name: `${per}: CPU time per simulated second`,
        value: sample.cpuUsPerSimulatedSecond,
        unit: 'µs / sim s',
      },
      { name: `${per}: CPU time per event`, value: sample.cpuUsPerEvent, unit: 'µs' },
    ];
  });
  const [one, two, four] = samples;
  if (one === undefined || two === undefined || four === undefined) return rows;
  const first = marginalUsPerEvent(one, two);
  const second = marginalUsPerEvent(two, four);
  return [
    ...rows,
    { name: 'extra CPU time per extra event, 1x to 2x', value: first, unit: 'µs' },
    { name: 'extra CPU time per extra event, 2x to 4x', value: second, unit: 'µs' },
    { name: '(2x to 4x) / (1x to 2x): 1 when linear', value: second / first, unit: 'ratio' },
    {
      name: 'CPU time per event, 4x / 1x: 1 or less when linear',
      value: four.cpuUsPerEvent / one.cpuUsPerEvent,
      unit: 'ratio',
    },
  ];
}

/** Runs the growth check on {@link GROWTH_SCENARIO}. */
export function growthSection(): readonly BenchFigure[] {
  const result = runGrowthBench(GROWTH_SCENARIO, {
    seedsPerDuration: SEEDS_PER_DURATION,
    seedsBase: SEEDS_BASE,
  });
  const durations = durationFigures(result.durations).map((figure) => ({
    ...figure,
    name: `${GROWTH_SCENARIO}, median of ${SEEDS_PER_DURATION} seeds, ${figure.name}`,
  }));
  const seeds = result.seeds.map((sample) => ({
    name: `${GROWTH_SCENARIO}, seeds 1..${sample.seedsCount} in one process: CPU time per seed`,
    value: sample.cpuMsPerSeed,
    unit: 'ms',
  }));
  const [fewest] = result.seeds;
  const most = result.seeds[result.seeds.length - 1];
  const seedRatio = (): BenchFigure[] => {
    if (fewest === undefined || most === undefined) return [];
    const counts = `${most.seedsCount} / ${fewest.seedsCount} seeds`;
    const value = most.cpuMsPerSeed / fewest.cpuMsPerSeed;
    return [{ name: `CPU time per seed, ${counts}: 1 when linear`, value, unit: 'ratio' }];
  };
  return [...durations, ...seeds, ...seedRatio()];
}
