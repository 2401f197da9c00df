/**
 * The console view of one run: a pure rendering of a {@link RunReport} to a string, in the
 * spirit of the VOPR's short log. A short summary (scenario, outcome, seed, event hash, simulated
 * time), the final state of each partition as a compact table, operation counts, fenced clients,
 * the faults, each anomaly in Kafka's terms with its classification and the faults active then,
 * the expectations, liveness and the reproduce command. No I/O: the CLI writes the string.
 *
 * This file is chalk's only home (style rule 4). Colour is an explicit option, so the caller
 * decides (TTY, `NO_COLOR`) and the same report renders byte for byte the same without it.
 */
import { lateTransactionsIntervals, lateTransactionsSummary } from './late_transactions_text';
import { Chalk } from 'chalk';
import { verdictOf } from './verdicts';
import type { Anomaly } from '../sim/checker';
import type { RunOutcome, RunReport } from '../sim/runner';
import { formatSeconds, plural, renderTable, wrapText } from './text_layout';
import { printable } from './terminal_text';
import { kafkaVersionText } from './kafka_version_text';
import { fetchFailureLines } from './fetch_failures_text';

/** The few styles the console views use; identity functions when colour is off. */
export interface Palette {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly good: (text: string) => string;
  readonly bad: (text: string) => string;
  readonly warn: (text: string) => string;
}

/**
 * The palette for `colour`: basic ANSI colours when true, plain text when false. The level is
 * fixed here rather than detected, so output never depends on the terminal chalk guesses at.
 * @example palette(false).bad('FAIL') // 'FAIL'
 */
export function palette(colour: boolean): Palette {
  const chalk = new Chalk({ level: colour ? 1 : 0 });
  return {
    bold: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
    good: (text) => chalk.green(text),
    bad: (text) => chalk.red(text),
    warn: (text) => chalk.yellow(text),
  };
}

/** Options of {@link renderRunReport}. */
export interface ConsoleOptions {
  /** ANSI colour; the CLI passes false when stdout is not a TTY or `NO_COLOR` is set. */
  readonly colour: boolean;
  /** Anomalies explained per kind; the rest are counted. @default 5 */
  readonly anomaliesPerKindMax?: number;
}

/** Anomalies explained per kind unless the caller says otherwise. */
const ANOMALIES_PER_KIND_DEFAULT = 5;
/** Explanations wrap at this column. */
const WRAP_COLUMNS = 100;

const OUTCOME_MEANING: Readonly<Record<RunOutcome, string>> = {
  pass: 'every expectation met',
  fail: 'an anomaly this configuration does not allow, or an expectation not met',
  liveness: 'the cluster did not settle after the faults healed',
  'budget-exceeded': 'the run stopped at its event budget',
};

/**
 * The outcome as a short upper-case label, coloured by severity.
 * @example outcomeLabel('budget-exceeded', palette(false)) // 'BUDGET EXCEEDED'
 */
export function outcomeLabel(outcome: RunOutcome | 'internal-error', style: Palette): string {
  const label = outcome.replace('-', ' ').toUpperCase();
  if (outcome === 'pass') return style.good(label);
  if (outcome === 'fail' || outcome === 'internal-error') return style.bad(label);
  return style.warn(label);
}

/**
 * Renders `report` for a terminal. The result ends with a newline.
 * @example
 * process.stdout.write(renderRunReport(result.report, { colour: process.stdout.isTTY }));
 */
export function renderRunReport(report: RunReport, options: ConsoleOptions): string {
  const style = palette(options.colour);
  const sections = [
    renderSummary(report, style),
    renderPartitions(report, style),
    renderOperations(report, style),
    renderClientsAndFaults(report, style),
    renderAnomalies(report, {
      style,
      perKindMax: options.anomaliesPerKindMax ?? ANOMALIES_PER_KIND_DEFAULT,
    }),
    renderExpectations(report, style),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** Width of the key column of `key  value` lines. */
const KEY_WIDTH = 'fenced clients'.length;

/** A `key  value` line with the key in bold and padded, so values line up. */
function field(key: string, value: string, style: Palette): string {
  return `${style.bold(key.padEnd(KEY_WIDTH))}  ${value}`;
}

function renderSummary(report: RunReport, style: Palette): string[] {
  const { scenario, tool } = report;
  const hash = scenario.hash.slice(0, 12);
  const rows: Array<[string, string]> = [
    ['scenario', `${printable(scenario.name)} (${printable(scenario.file)}, sha256 ${hash})`],
    ['kafka', kafkaVersionText(report.kafka)],
    ['outcome', `${outcomeLabel(report.outcome, style)}: ${OUTCOME_MEANING[report.outcome]}`],
    ['seed', report.seed],
    ['event hash', `${report.eventHash} (${plural(report.eventsRun, 'event')})`],
    ['simulated', formatSeconds(report.simulatedUs)],
    ['version', `${tool.name} ${tool.version}, seedrandom ${tool.seedrandom}`],
  ];
  const lines = rows.map(([key, value]) => field(key, value, style));
  if (report.error !== undefined) lines.push(style.warn(`stopped early: ${report.error}`));
  return lines;
}

function renderPartitions(report: RunReport, style: Palette): string[] {
  if (report.partitions.length === 0) return [style.dim('no partitions')];
  const [header = '', ...rows] = renderTable({
    header: ['partition', 'leader', 'LEO', 'HW', 'LSO', 'open txns'],
    rows: report.partitions.map((partition) => [
      `${partition.topic}-${partition.partition}`,
      partition.leader,
      String(partition.logEndOffset),
      String(partition.highWatermark),
      String(partition.lastStableOffset),
      String(partition.openTransactions),
    ]),
    alignRight: [false, false, true, true, true, true],
  });
  return [style.bold(header), ...rows];
}

function renderOperations(report: RunReport, style: Palette): string[] {
  if (report.operations.length === 0) return [style.dim('no client operations')];
  const [header = '', ...rows] = renderTable({
    header: ['operation', 'invoke', 'ok', 'fail', 'info'],
    rows: report.operations.map((count) => [
      count.f,
      String(count.invoke),
      String(count.ok),
      String(count.fail),
      String(count.info),
    ]),
    alignRight: [false, true, true, true, true],
  });
  return [style.bold(header), ...rows];
}

function renderClientsAndFaults(report: RunReport, style: Palette): string[] {
  const fenced = report.fencedClients.length === 0 ? 'none' : report.fencedClients.join(', ');
  const lines = [field('fenced clients', fenced, style)];
  const fetchFailures = fetchFailureLines(report);
  if (fetchFailures.length > 0) {
    lines.push(style.bold('fetch failed'));
    for (const line of fetchFailures) lines.push(`  ${printable(line)}`);
  }
  // PartitionsWithLateTransactionsCount, shown once it was non-zero (KIP-664).
  const late = report.metrics.lateTransactions;
  if (late !== undefined && late.firstNonZeroUs !== null) {
    lines.push(field('late txns', lateTransactionsSummary(late), style));
    for (const line of lateTransactionsIntervals(late)) lines.push(`  ${printable(line)}`);
  }
  if (report.faults.length === 0) {
    lines.push(field('faults', 'none', style));
    return lines;
  }
  lines.push(style.bold('faults'));
  for (const fault of report.faults) {
    const end = fault.endUs === undefined ? 'never healed' : `to ${formatSeconds(fault.endUs)}`;
    lines.push(`  ${printable(fault.description)}: from ${formatSeconds(fault.startUs)} ${end}`);
  }
  const outcomes = report.operatorOutcomes ?? [];
  if (outcomes.length > 0) lines.push(style.bold('operator'));
  // What each command answered, and so why a transaction it meant to abort stayed open.
  for (const outcome of outcomes) {
    lines.push(`  at ${formatSeconds(outcome.timeUs)} ${printable(outcome.description)}`);
  }
  return lines;
}

function renderAnomalies(
  report: RunReport,
  options: { style: Palette; perKindMax: number },
): string[] {
  const { style, perKindMax } = options;
  const { check } = report;
  const lines: string[] = [];
  for (const { checker, error } of check.checkerErrors) {
    lines.push(style.bad(`checker ${checker} failed, so the verdict is unknown: ${error}`));
  }
  if (check.anomalyCounts.length === 0) {
    lines.push(field('anomalies', 'none', style));
    return lines;
  }
  const unexpected = new Set(report.unexpectedAnomalyTypes);
  for (const { kind, count } of check.anomalyCounts) {
    const label = verdictOf(report, kind);
    const verdict = unexpected.has(kind) ? style.bad(label) : style.warn(label);
    lines.push(`${style.bold(`anomalies: ${count} ${kind}`)} (${verdict})`);
    const listed = check.anomalies.filter((anomaly) => anomaly.kind === kind);
    const shown = listed.slice(0, perKindMax);
    shown.forEach((anomaly, index) => lines.push(...explainAnomaly(anomaly, index + 1)));
    if (count > shown.length) {
      const more = `${count - shown.length} more ${kind} not shown`;
      lines.push(style.dim(`  … ${more} (the --json report lists ${listed.length} of ${count})`));
    }
  }
  return lines;
}

/** One anomaly: where, what (its message names producerId, epoch, partition and offset), why. */
function explainAnomaly(anomaly: Anomaly, number: number): string[] {
  const where =
    anomaly.topic === undefined
      ? ''
      : ` at ${anomaly.topic}-${anomaly.partition ?? '?'}` +
        (anomaly.offset === undefined ? '' : ` offset ${anomaly.offset}`);
  const faults = anomaly.activeFaults.length === 0 ? 'none' : anomaly.activeFaults.join('; ');
  const classification = anomaly.classification ?? 'unknown';
  const why = `classification: ${classification} · faults active then: ${faults}`;
  return [
    `  ${number}. ${anomaly.kind}${where}`,
    ...wrapText(anomaly.message, { width: WRAP_COLUMNS, indent: '     ' }),
    ...wrapText(why, { width: WRAP_COLUMNS, indent: '     ' }),
  ];
}

function renderExpectations(report: RunReport, style: Palette): string[] {
  const lines = [style.bold('expectations')];
  for (const expectation of report.expectations) {
    const mark = expectation.met ? style.good('met    ') : style.bad('NOT met');
    lines.push(`  ${mark}  ${expectation.name}: ${expectation.detail}`);
  }
  const { converged, detail } = report.liveness;
  const liveness = converged ? style.good('converged') : style.warn('did NOT converge');
  lines.push(field('liveness', `${liveness} (${detail})`, style));
  lines.push(field('reproduce', report.reproduce, style));
  return lines;
}
