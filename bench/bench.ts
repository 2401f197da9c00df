/**
 * `npm run bench`: runs every benchmark section, prints one table and writes
 * `bench/results.json`. Benchmarks measure wall-clock speed, so they run here and never as
 * timed tests. Sections run one after another, so the sweep section's workers have the machine
 * to themselves. To add a section (scenario events/s, simulated seconds per wall second), write a
 * function that returns {@link BenchFigure}s and add it to {@link BENCH_SECTIONS}.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCheckerBench } from './checker_bench';
import { runKernelBench } from './kernel_bench';
import { runScenarioBench } from './scenario_bench';
import { runSweepBench } from './sweep_bench';
import { WORKED_EXAMPLE, runWorkedExampleBench } from './worked_example_bench';

/** One measured number. */
export interface BenchFigure {
  /** What was measured, e.g. `kernel ping-pong`. */
  readonly name: string;
  readonly value: number;
  /** e.g. `events/s`, `ratio`, `sim s / wall s`. */
  readonly unit: string;
}

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
    { name: 'kernel / bare', value: result.kernelToBareRatio, unit: 'ratio' },
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
      { name: `${per}: model events`, value: result.eventsPerSecond, unit: 'events/s' },
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
  const [one] = result.runs;
  return [
    ...result.runs.map((run) => ({
      name: `${per}, ${run.workers} worker${run.workers === 1 ? '' : 's'}`,
      value: run.seedsPerSecond,
      unit: 'seeds/s',
    })),
    {
      name: 'wall time per seed with 1 worker',
      value: one === undefined ? 0 : 1000 / one.seedsPerSecond,
      unit: 'ms',
    },
    {
      name: 'parallel efficiency: (seeds/s with 2) / (2 x with 1)',
      value: result.parallelEfficiency,
      unit: 'ratio',
    },
    {
      name: 'peak memory per worker (largest V8 heap of one worker)',
      value: megabytes(Math.max(...result.runs.map((run) => run.workerHeapPeakBytes))),
      unit: 'MB',
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
    return [
      { name: `${what}: wall time (${per})`, value: sample.wallMs, unit: 'ms' },
      { name: `${what}: events`, value: sample.eventsRun, unit: 'events' },
      { name: `${what}: peak RSS`, value: megabytes(sample.rssPeakBytes), unit: 'MB' },
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
  { title: 'Worked example', run: workedExampleSection },
];

/** `1234567` as `1_234_567`: locale-independent, like the numeric literals in the code. */
function groupDigits(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

function formatValue(figure: BenchFigure): string {
  if (figure.unit === 'ratio') return figure.value.toFixed(4);
  // Small rates (seeds/s) need their decimals; large ones read better grouped.
  return figure.value < 100 ? figure.value.toFixed(1) : groupDigits(figure.value);
}

interface SectionResult {
  readonly title: string;
  readonly figures: readonly BenchFigure[];
}

function printTable(results: readonly SectionResult[]): void {
  const rows = results.flatMap(({ title, figures }) =>
    figures.map((figure) => [title, figure.name, formatValue(figure), figure.unit]),
  );
  const header = ['section', 'measure', 'value', 'unit'];
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] as number;
        return column === 2 ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

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
