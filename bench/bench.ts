/**
 * `npm run bench`: runs every benchmark section, prints one table and writes
 * `bench/results.json`. Benchmarks measure wall-clock speed, so they run here and never as
 * timed tests. To add a section (scenario events/s, simulated seconds per wall second), write a
 * function that returns {@link BenchFigure}s and add it to {@link BENCH_SECTIONS}.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runKernelBench } from './kernel_bench';
import { runScenarioBench } from './scenario_bench';

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
  readonly run: () => readonly BenchFigure[];
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
const REFERENCE_SCENARIOS = ['scenarios/zombie-fencing.yaml', 'scenarios/retry-duplicates.yaml'];

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

// ============================================================================================
// BENCHMARK SECTIONS. Add further sections here, in the order they should print, e.g.
//   { title: 'Scenarios', run: scenarioSection },          // events/s per scenario file
//   { title: 'Simulated time', run: simulatedTimeSection }, // simulated s per wall-clock s
// ============================================================================================
/** Every section `npm run bench` runs, in order. */
export const BENCH_SECTIONS: readonly BenchSection[] = [
  { title: 'Kernel overhead', run: kernelSection },
  { title: 'Reference scenarios', run: scenarioSection },
];

/** `1234567` as `1_234_567`: locale-independent, like the numeric literals in the code. */
function groupDigits(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

function formatValue(figure: BenchFigure): string {
  return figure.unit === 'ratio' ? figure.value.toFixed(4) : groupDigits(figure.value);
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

function main(): void {
  const results: SectionResult[] = BENCH_SECTIONS.map((section) => ({
    title: section.title,
    figures: section.run(),
  }));
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

main();
