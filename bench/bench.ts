/**
 * `npm run bench`: runs every benchmark section, prints one table and writes
 * `bench/results.json`. Benchmarks measure wall-clock speed, so they run here and never as
 * timed tests. Sections run one after another, so the sweep section's workers have the machine
 * to themselves. To add a section (scenario events/s, simulated seconds per wall second), write a
 * function that returns {@link BenchFigure}s and add it to {@link BENCH_SECTIONS}.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ISSUE_16_AIMS,
  groupDigits,
  printTable,
  type BenchFigure,
  type SectionResult,
} from './bench_table';
import { runCheckerBench } from './checker_bench';
import { growthSection } from './growth_section';
import { runKernelBench } from './kernel_bench';
import { runMutantsBench } from './mutants_bench';
import { runScenarioBench } from './scenario_bench';
import { runSweepBench } from './sweep_bench';
import { WORKED_EXAMPLE, runWorkedExampleBench } from './worked_example_bench';

/** A group of figures measured together. */
export interface BenchSection {
  readonly title: string;
  readonly run: () => readonly BenchFigure[] | Promise<readonly BenchFigure[]>;
}

function kernelSection(): readonly BenchFigure[] {
  const result = runKernelBench();
  const per = `median of ${result.repetitionsCount} x ${groupDigits(result.eventsCount)} events`;
  return [
    { name: `bare binary heap (${per})`, value: result.bareEventsPerSecond, unit: 'events/s' },
    { name: `kernel ping-pong (${per})`, value: result.kernelEventsPerSecond, unit: 'events/s' },
    {
      name: 'kernel / bare',
      value: result.kernelToBareRatio,
      unit: 'ratio',
      aim: ISSUE_16_AIMS.kernelToBare,
    },
  ];
}

/** The reference scenarios whose speed the benchmark reports. */
const REFERENCE_SCENARIOS = [
  'scenarios/zombie-fencing.yaml',
  'scenarios/zombie-fencing-replicated.yaml',
  'scenarios/retry-duplicates.yaml',
  'scenarios/replicated-random-faults.yaml',
];

function scenarioSection(): readonly BenchFigure[] {
  return REFERENCE_SCENARIOS.flatMap((file) => {
    const result = runScenarioBench(file, 20);
    const per = `${file}, median of ${result.seedsCount} seeds`;
    return [
      {
        name: `${per}: model events`,
        value: result.eventsPerSecond,
        unit: 'events/s',
        aim: ISSUE_16_AIMS.modelEventsPerSecond,
      },
      { name: `${per}: events per seed`, value: result.eventsPerRun, unit: 'events' },
      { name: `${per}: wall time per event`, value: result.wallUsPerEvent, unit: 'µs' },
      {
        name: `${per}: simulated time`,
        value: result.simulatedSecondsPerWallSecond,
        unit: 'sim s / wall s',
      },
      { name: `${per}: wall time per run`, value: result.wallMsPerRun, unit: 'ms' },
    ];
  });
}

/** The scenario the sweep section runs, and how many seeds each pool size times, in batches. */
const SWEEP_SCENARIO = 'scenarios/zombie-fencing.yaml';
const SWEEP_SEEDS = 300;
const SWEEP_BATCHES = 5;

async function sweepSection(): Promise<readonly BenchFigure[]> {
  const result = await runSweepBench(SWEEP_SCENARIO, {
    seedsCount: SWEEP_SEEDS,
    batchesCount: SWEEP_BATCHES,
  });
  const batch = SWEEP_SEEDS / SWEEP_BATCHES;
  const per = `${SWEEP_SCENARIO}, median of ${SWEEP_BATCHES} batches of ${batch} seeds`;
  const megabytes = (bytes: number): number => bytes / 1_048_576;
  const [one, two] = result.runs;
  return [
    ...result.runs.map((run) => ({
      name: `${per}, ${run.workers} worker${run.workers === 1 ? '' : 's'}`,
      value: run.seedsPerSecond,
      unit: 'seeds/s',
    })),
    {
      name: '10,000 seeds with 2 workers, at that rate',
      value: two === undefined ? 0 : 10_000 / two.seedsPerSecond,
      unit: 's',
      aim: ISSUE_16_AIMS.tenThousandSeedsSeconds,
    },
    {
      name: 'wall time per seed with 1 worker',
      value: one === undefined ? 0 : 1000 / one.seedsPerSecond,
      unit: 'ms',
    },
    {
      name: 'parallel efficiency: (seeds/s with 2) / (2 x with 1)',
      value: result.parallelEfficiency,
      unit: 'ratio',
      aim: ISSUE_16_AIMS.parallelEfficiency,
    },
    {
      name: 'peak memory per worker (largest V8 heap of one worker)',
      value: megabytes(Math.max(...result.runs.map((run) => run.workerHeapPeakBytes))),
      unit: 'MB',
      aim: ISSUE_16_AIMS.workerHeapMegabytes,
    },
    {
      name: 'process peak RSS (main thread and all workers)',
      value: megabytes(result.processRssPeakBytes),
      unit: 'MB',
    },
  ];
}

/** The history the checker section checks, and for how long. */
const CHECKER_SCENARIO = 'scenarios/zombie-fencing.yaml';
const CHECKER_SPAN_MS = 3000;

function checkerSection(): readonly BenchFigure[] {
  const result = runCheckerBench(CHECKER_SCENARIO, CHECKER_SPAN_MS);
  const per = `${CHECKER_SCENARIO} seed 1 (${groupDigits(result.historyOpsCount)} ops)`;
  return [
    {
      name: `checkHistory on ${per}, ${result.repetitionsCount} repetitions`,
      value: result.opsPerSecond,
      unit: 'history ops/s',
      aim: ISSUE_16_AIMS.checkerOpsPerSecond,
    },
  ];
}

/** Child runs per mode of the worked example (each full run takes minutes). */
const WORKED_EXAMPLE_REPETITIONS = 3;

function workedExampleSection(): readonly BenchFigure[] {
  const result = runWorkedExampleBench(WORKED_EXAMPLE_REPETITIONS);
  const megabytes = (bytes: number): number => bytes / 1_048_576;
  const per = `median of ${result.repetitionsCount} runs, seed 1`;
  return (['workloadOnly', 'full'] as const).flatMap((mode) => {
    const sample = result[mode];
    const what =
      mode === 'full'
        ? `${WORKED_EXAMPLE} as the CLI runs it (final reads, oracle, check)`
        : `${WORKED_EXAMPLE} workload phase only, as its test drives it`;
    const full = mode === 'full';
    return [
      {
        name: `${what}: wall time (${per})`,
        value: sample.wallMs,
        unit: 'ms',
        ...(full ? { aim: ISSUE_16_AIMS.workedExampleWallMs } : {}),
      },
      { name: `${what}: events`, value: sample.eventsRun, unit: 'events' },
      {
        name: `${what}: peak RSS`,
        value: megabytes(sample.rssPeakBytes),
        unit: 'MB',
        ...(full ? { aim: ISSUE_16_AIMS.workedExampleRssMegabytes } : {}),
      },
      {
        name: `${what}: V8 heap committed at the end`,
        value: megabytes(sample.heapCommittedBytes),
        unit: 'MB',
      },
      {
        name: `${what}: V8 heap used at the end`,
        value: megabytes(sample.heapUsedBytes),
        unit: 'MB',
      },
    ];
  });
}

/** Seeds and workers of the mutants section: a short budget (minutes on two cores). */
const MUTANTS_SEEDS = 5;
const MUTANTS_WORKERS = 2;

function mutantsSection(): Promise<readonly BenchFigure[]> {
  return runMutantsBench(MUTANTS_SEEDS, MUTANTS_WORKERS);
}

// ============================================================================================
// BENCHMARK SECTIONS. Add further sections here, in the order they should print, e.g.
//   { title: 'Scenarios', run: scenarioSection },          // events/s per scenario file
//   { title: 'Simulated time', run: simulatedTimeSection }, // simulated s per wall-clock s
// ============================================================================================
/** Every section `npm run bench` runs, in order. */
export const BENCH_SECTIONS: readonly BenchSection[] = [
  { title: 'Kernel overhead', run: kernelSection },
  { title: 'Reference scenarios', run: scenarioSection },
  { title: 'Sweep', run: sweepSection },
  { title: 'Checker', run: checkerSection },
  { title: 'Growth', run: growthSection },
  { title: 'Worked example', run: workedExampleSection },
  { title: 'Mutants', run: mutantsSection },
];

/**
 * The sections to run: all of them, or those whose title starts with one of the arguments
 * (`npm run bench -- sweep checker` runs the sweep and checker sections only).
 */
function chosenSections(args: readonly string[]): readonly BenchSection[] {
  const wanted = args.map((arg) => arg.toLowerCase());
  if (wanted.length === 0) return BENCH_SECTIONS;
  return BENCH_SECTIONS.filter((section) =>
    wanted.some((prefix) => section.title.toLowerCase().startsWith(prefix)),
  );
}

async function main(): Promise<void> {
  const results: SectionResult[] = [];
  for (const section of chosenSections(process.argv.slice(2))) {
    results.push({ title: section.title, figures: await section.run() });
  }
  printTable(results);
  const report = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    sections: results,
  };
  const target = fileURLToPath(new URL('results.json', import.meta.url));
  writeFileSync(target, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${target}`);
}

await main();
