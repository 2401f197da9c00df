/**
 * The tables at the end of a sweep summary: every scenario with every anomaly kind and failing
 * outcome it produced and the lowest seeds that did (to replay first), the protocol-state
 * coverage of the whole sweep, the `--require-coverage` verdicts, and the wall-clock figures.
 * Pure: strings in, strings out.
 */
import type { Palette } from './console';
import type { CoverageCount, RequiredCoverage, SweepSummary, SweepTiming } from './sweep_types';
import { SWEEP_OUTCOMES } from './sweep_types';
import { renderTable } from './text_layout';

/**
 * One row per scenario and anomaly kind, then per failing outcome other than `fail` (whose
 * cause is the anomaly rows or an unmet expectation), with the lowest seeds of each.
 * @example renderAnomalyTable(summary, palette(false)).join('\n')
 */
export function renderAnomalyTable(summary: SweepSummary, style: Palette): string[] {
  const rows: string[][] = [];
  for (const sweep of summary.scenarios) {
    const before = rows.length;
    for (const count of sweep.anomalyCounts) {
      rows.push([
        sweep.scenario,
        count.kind,
        String(count.seeds),
        String(count.anomalies),
        count.expected ? 'yes' : 'NO',
        count.firstSeeds.join(', '),
      ]);
    }
    for (const outcome of SWEEP_OUTCOMES) {
      const seeds = sweep.outcomeFirstSeeds[outcome];
      if (outcome === 'pass' || outcome === 'fail' || seeds === undefined) continue;
      const count = String(sweep.outcomes[outcome]);
      rows.push([sweep.scenario, `outcome ${outcome}`, count, count, 'NO', seeds.join(', ')]);
    }
    if (rows.length === before) rows.push([sweep.scenario, '(none)', '', '', '', '']);
  }
  const [header = '', ...body] = renderTable({
    header: ['scenario', 'anomaly or outcome', 'seeds', 'count', 'allowed', 'first seeds'],
    rows,
    alignRight: [false, false, true, true, false, false],
  });
  return [style.bold('anomalies by scenario'), style.dim(header), ...body];
}

/**
 * The coverage table: each item reached, with the seeds that reached it and its occurrences.
 * @example renderCoverageTable(summary.coverage ?? [], palette(false)).join('\n')
 */
export function renderCoverageTable(coverage: readonly CoverageCount[], style: Palette): string[] {
  if (coverage.length === 0) return [`${style.bold('protocol-state coverage')}: nothing recorded`];
  const [header = '', ...body] = renderTable({
    header: ['category', 'item', 'seeds', 'occurrences'],
    rows: coverage.map(({ item, seeds, occurrences }) => {
      const split = item.indexOf(':');
      return [item.slice(0, split), item.slice(split + 1), String(seeds), String(occurrences)];
    }),
    alignRight: [false, false, true, true],
  });
  return [style.bold('protocol-state coverage'), style.dim(header), ...body];
}

/**
 * One line per `--require-coverage` name.
 * @example renderRequiredCoverage([{ name: 'fault:pause', reached: true }], palette(false))
 * // ['required coverage: fault:pause reached']
 */
export function renderRequiredCoverage(
  required: readonly RequiredCoverage[],
  style: Palette,
): string[] {
  return required.map(
    ({ name, reached }) =>
      `required coverage: ${name} ${reached ? style.good('reached') : style.bad('NEVER reached')}`,
  );
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1_048_576)} MB`;
}

/**
 * The wall-clock line: time, workers, seeds per second, memory.
 * @example renderTiming(timing) // 'wall 12.3 s · 2 workers · 160 seeds run (81.3 seeds/s) · …'
 */
export function renderTiming(timing: SweepTiming): string {
  const resumed = timing.seedsResumed === 0 ? '' : `, ${timing.seedsResumed} resumed`;
  return [
    `wall ${(timing.wallMs / 1000).toFixed(1)} s`,
    `${timing.workers} worker${timing.workers === 1 ? '' : 's'}`,
    `${timing.seedsRun} seeds run${resumed} (${timing.seedsPerSecond.toFixed(1)} seeds/s)`,
    `peak heap per worker ${megabytes(timing.workerHeapPeakBytes)}`,
    `process peak RSS ${megabytes(timing.processRssPeakBytes)}`,
  ].join(' · ');
}
