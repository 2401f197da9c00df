/**
 * Text views of a sweep: the line printed for each seed that did not pass (as it happens), the
 * summary at the end (outcomes, counts per anomaly kind, detection rates of expected anomalies
 * against `expect.detectPercentMin`, the first failing seeds with reproduce commands), and the
 * one line per scenario of the main job. The tables after the per-scenario blocks (anomalies by
 * scenario with their first seeds, coverage, timing) are in `sweep_tables.ts`. Pure: strings
 * in, strings out; colour comes through a {@link Palette} from `console.ts`, chalk's only home.
 */
import { outcomeLabel, palette, type Palette } from './console';
import type { DetectionRate, ScenarioSweep, SweepRun, SweepSummary } from './sweep_types';
import { SWEEP_OUTCOMES } from './sweep_types';
import {
  renderAnomalyTable,
  renderCoverageTable,
  renderRequiredCoverage,
  renderTiming,
} from './sweep_tables';
import { percentFloor, plural } from './text_layout';
import { printable } from './terminal_text';

/** Options of the sweep renderers. */
export interface SweepRenderOptions {
  /** ANSI colour; false when stdout is not a TTY or `NO_COLOR` is set. */
  readonly colour: boolean;
}

/**
 * The line for one seed that did not pass: outcome, scenario, seed, anomaly kinds, reproduce.
 * @example
 * renderSweepRunLine(run, { colour: false })
 * // 'FAIL zombie-fencing seed=3: zombie-write · ' +
 * //   'npx --offline --no-install eos-sim run scenarios/… --seed 3'
 */
export function renderSweepRunLine(run: SweepRun, options: SweepRenderOptions): string {
  const style = palette(options.colour);
  const details: string[] = [];
  if (run.anomalyTypes.length > 0) details.push(run.anomalyTypes.join(', '));
  if (run.error !== undefined) details.push(run.error);
  if (run.anomalyTypes.length === 0 && run.error === undefined) {
    details.push(...run.unmetExpectations.map((name) => `not met: ${name}`));
  }
  const detail = details.length === 0 ? '' : `: ${details.join('; ')}`;
  const label = outcomeLabel(run.outcome, style);
  return `${label} ${run.scenario} seed=${run.seed}${detail} · ${run.reproduce}`;
}

/** `pass 18, fail 2`: the outcomes that occurred, in {@link SWEEP_OUTCOMES} order. */
function renderOutcomes(sweep: ScenarioSweep, style: Palette): string {
  const parts = SWEEP_OUTCOMES.filter((outcome) => sweep.outcomes[outcome] > 0).map(
    (outcome) => `${outcomeLabel(outcome, style).toLowerCase()} ${sweep.outcomes[outcome]}`,
  );
  return parts.length === 0 ? 'no runs' : parts.join(', ');
}

/** `zombie-write 19/20 seeds (95%, min 90%): met`. */
function renderDetection(rate: DetectionRate, style: Palette): string {
  const percent = percentFloor(rate.seedsDetected, rate.seedsRun);
  const verdict = rate.met ? style.good('met') : style.bad('NOT met');
  const ratio = `${rate.seedsDetected}/${rate.seedsRun} seeds`;
  return `${rate.kind} ${ratio} (${percent}%, min ${rate.percentMin}%): ${verdict}`;
}

/** What one cover of a kind means, in the words run reports use. */
function renderCover(cover: string, style: Palette): string {
  if (cover.startsWith('kafka:')) return `permitted by Kafka (${cover.slice('kafka:'.length)})`;
  if (cover === 'kafka') return 'permitted (older result line)';
  if (cover === 'expect.anomalies')
    return "violates Kafka's guarantee, expected (expect.anomalies)";
  if (cover === 'expect.allowed') return "violates Kafka's guarantee, accepted (expect.allowed)";
  if (cover.startsWith('bug:')) {
    return `violates Kafka's guarantee, caused by bug switch ${cover.slice('bug:'.length)}`;
  }
  return style.bad("violates Kafka's guarantee, NOT allowed here");
}

function renderExpectationVerdict(sweep: ScenarioSweep, style: Palette): string {
  return sweep.expectationMet ? style.good('expectation met') : style.bad('expectation NOT met');
}

function renderScenarioSweep(sweep: ScenarioSweep, style: Palette): string[] {
  const range = `seeds ${sweep.seeds.first}..${sweep.seeds.last}`;
  const lines = [style.bold(`${printable(sweep.scenario)} (${printable(sweep.file)}) · ${range}`)];
  lines.push(`  outcomes: ${renderOutcomes(sweep, style)}`);
  if (sweep.anomalyCounts.length === 0) lines.push('  anomalies: none');
  for (const count of sweep.anomalyCounts) {
    const anomalies = plural(count.anomalies, 'anomaly', 'anomalies');
    lines.push(`  anomalies: ${count.kind} in ${plural(count.seeds, 'seed')}, ${anomalies}`);
    for (const [cover, seeds] of Object.entries(count.coveredBy)) {
      lines.push(`    ${renderCover(cover, style)}: ${plural(seeds, 'seed')}`);
    }
  }
  for (const rate of sweep.detection) lines.push(`  detection: ${renderDetection(rate, style)}`);
  if (sweep.failures.length > 0) {
    const more = sweep.failureCount - sweep.failures.length;
    lines.push(`  first failing seeds${more > 0 ? ` (${more} more not shown)` : ''}:`);
    for (const run of sweep.failures) {
      lines.push(`    ${renderSweepRunLine(run, { colour: false })}`);
    }
  }
  lines.push(`  ${renderExpectationVerdict(sweep, style)}`);
  return lines;
}

/**
 * The summary of a sweep, one block per scenario and a total line. Ends with a newline.
 * @example process.stdout.write(renderSweepSummary(summary, { colour: false }))
 */
export function renderSweepSummary(summary: SweepSummary, options: SweepRenderOptions): string {
  const style = palette(options.colour);
  const blocks = summary.scenarios.map((sweep) => renderScenarioSweep(sweep, style).join('\n'));
  const runs = summary.scenarios.reduce((total, sweep) => total + sweep.seedsRun, 0);
  const unmet = summary.scenarios.filter((sweep) => !sweep.expectationMet).length;
  const verdict =
    unmet === 0
      ? style.good('every expectation met')
      : style.bad(`expectations NOT met in ${plural(unmet, 'scenario')}`);
  const coverageUnmet = (summary.requiredCoverage ?? []).filter((item) => !item.reached).length;
  const coverageVerdict =
    coverageUnmet === 0 ? '' : `; ${style.bad(`required coverage NOT reached: ${coverageUnmet}`)}`;
  const total = `total: ${plural(summary.scenarios.length, 'scenario')}, ${plural(runs, 'run')}`;
  const tables = [
    renderAnomalyTable(summary, style),
    ...(summary.coverage === undefined ? [] : [renderCoverageTable(summary.coverage, style)]),
  ].map((lines) => lines.join('\n'));
  const tail = [
    ...renderRequiredCoverage(summary.requiredCoverage ?? [], style),
    ...(summary.timing === undefined ? [] : [renderTiming(summary.timing)]),
    `${total}: ${verdict}${coverageVerdict}`,
  ];
  return [style.bold('sweep summary'), ...blocks, ...tables, ...tail, ''].join('\n');
}

/**
 * The main job's line for one scenario: name, seeds, outcomes, expected anomalies with their
 * detection rates, and the verdict. `nameWidth` aligns the names of all scenarios of the job.
 * @example
 * renderMainJobLine(sweep, { colour: false, nameWidth: 30 })
 * // 'zombie-fencing   seeds 1..20  pass 20  expects none  expectation met'
 */
export function renderMainJobLine(
  sweep: ScenarioSweep,
  options: SweepRenderOptions & { readonly nameWidth: number },
): string {
  const style = palette(options.colour);
  const expects =
    sweep.detection.length === 0
      ? 'expects no anomaly'
      : `expects ${sweep.detection.map((rate) => renderDetection(rate, style)).join(', ')}`;
  return [
    style.bold(sweep.scenario.padEnd(options.nameWidth)),
    `seeds ${sweep.seeds.first}..${sweep.seeds.last}`,
    renderOutcomes(sweep, style),
    expects,
    renderExpectationVerdict(sweep, style),
  ].join('  ');
}
