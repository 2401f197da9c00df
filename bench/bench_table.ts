/**
 * What `npm run bench` prints: one row per figure, and for a figure issue 16 sets an aim for,
 * the aim beside it, the ratio figure / aim and whether the aim is met. An aim is a bound in
 * the figure's own unit, either a floor (events/s, ratios) or a ceiling (seconds, megabytes).
 */

/** A bound issue 16 sets on a figure. */
export interface BenchAim {
  readonly value: number;
  /** `atLeast`: the figure meets the aim when ≥ value; `atMost`: when ≤ value. */
  readonly bound: 'atLeast' | 'atMost';
}

/** One measured number. */
export interface BenchFigure {
  /** What was measured, e.g. `kernel ping-pong`. */
  readonly name: string;
  readonly value: number;
  /** e.g. `events/s`, `ratio`, `sim s / wall s`. */
  readonly unit: string;
  readonly aim?: BenchAim;
}

/** The figures of one section, as printed and written to `bench/results.json`. */
export interface SectionResult {
  readonly title: string;
  readonly figures: readonly BenchFigure[];
}

/** The aims of issue 16's table, each in the unit of the figure it bounds. */
export const ISSUE_16_AIMS = {
  /** 10,000 zombie-fencing seeds with 2 workers, in seconds. */
  tenThousandSeedsSeconds: { value: 60, bound: 'atMost' },
  modelEventsPerSecond: { value: 1_000_000, bound: 'atLeast' },
  kernelToBare: { value: 0.3, bound: 'atLeast' },
  parallelEfficiency: { value: 0.95, bound: 'atLeast' },
  workerHeapMegabytes: { value: 100, bound: 'atMost' },
  checkerOpsPerSecond: { value: 1_000_000, bound: 'atLeast' },
  workedExampleWallMs: { value: 5000, bound: 'atMost' },
  workedExampleRssMegabytes: { value: 500, bound: 'atMost' },
} as const satisfies Record<string, BenchAim>;

/** `1234567` as `1_234_567`: locale-independent, like the numeric literals in the code. */
export function groupDigits(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

function formatNumber(value: number, unit: string): string {
  if (unit === 'ratio') return value.toFixed(4);
  // Small figures (seeds/s, µs per event) need their decimals; large ones read better grouped.
  if (Math.abs(value) < 10) return value.toFixed(2);
  return Math.abs(value) < 100 ? value.toFixed(1) : groupDigits(value);
}

function aimCells(figure: BenchFigure): readonly string[] {
  const aim = figure.aim;
  if (aim === undefined) return ['', '', ''];
  const met = aim.bound === 'atLeast' ? figure.value >= aim.value : figure.value <= aim.value;
  return [
    `${aim.bound === 'atLeast' ? '>=' : '<='} ${formatNumber(aim.value, figure.unit)}`,
    (figure.value / aim.value).toFixed(3),
    met ? 'yes' : 'no',
  ];
}

/** Prints every figure of `results` as one aligned table. */
export function printTable(results: readonly SectionResult[]): void {
  const rows = results.flatMap(({ title, figures }) =>
    figures.map((figure) => [
      title,
      figure.name,
      formatNumber(figure.value, figure.unit),
      figure.unit,
      ...aimCells(figure),
    ]),
  );
  const header = ['section', 'measure', 'value', 'unit', 'aim', 'value/aim', 'met'];
  const rightAligned = new Set([2, 4, 5]);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] as number;
        return rightAligned.has(column) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
