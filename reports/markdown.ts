/**
 * The Markdown view of one run (`eos-sim run ... --report run.md`): a pure rendering of a
 * {@link RunReport}. A summary with the reproduce command; each anomaly kind with its meaning in
 * Kafka's terms, the checker's explanation, the oracle's classification, the faults active then
 * and a Mermaid sequence diagram of the messages that matter; the final state of each partition
 * (LEO, HW, LSO, leader, ISR); the fault timeline; the transaction metrics; the expectations.
 * Every string a scenario supplies is escaped, so a client name cannot inject HTML or break a
 * table.
 */
import { lateTransactionsIntervals, lateTransactionsSummary } from './late_transactions_text';
import { verdictOf } from './verdicts';
import type { Anomaly } from '../sim/checker';
import type { LatencySummary, RunReport } from '../sim/runner';
import { workloadSection } from './markdown_stalls';
import { renderMermaidSequence } from './mermaid';
import { formatSeconds } from './text_layout';
import { kafkaVersionText } from './kafka_version_text';
import { fetchFailureLines } from './fetch_failures_text';

/** Anomalies listed per kind under the explained one. */
const ANOMALIES_LISTED_PER_KIND = 10;

/**
 * Text safe in Markdown prose and table cells: HTML special characters become entities, and
 * the characters Markdown gives meaning to are backslash-escaped.
 * @example markdownText('<script>|x') // '&lt;script&gt;\\|x'
 */
export function markdownText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|])/g, '\\$1')
    .replace(/[\r\n]+/g, ' ');
}

/** A Markdown table; cells are escaped by the caller. */
function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

/**
 * Renders `report` as a Markdown document that ends with a newline.
 * @example writeFileSync('run.md', renderMarkdownReport(result.report));
 */
export function renderMarkdownReport(report: RunReport): string {
  const sections = [
    summarySection(report),
    workloadSection(report, { table, escape: markdownText }),
    anomaliesSection(report),
    partitionsSection(report),
    faultsSection(report),
    metricsSection(report),
    expectationsSection(report),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

function summarySection(report: RunReport): string[] {
  const { scenario, tool } = report;
  const kinds = report.check.anomalyCounts.map(({ kind, count }) => `${count} ${kind}`);
  return [
    `# eos-sim run: ${markdownText(scenario.name)}, seed ${markdownText(report.seed)}`,
    '',
    ...table(
      ['field', 'value'],
      [
        ['outcome', `**${report.outcome.toUpperCase()}**`],
        ['anomalies', kinds.length === 0 ? 'none' : markdownText(kinds.join(', '))],
        ['scenario', `${markdownText(scenario.file)} (sha256 \`${scenario.hash}\`)`],
        ['kafka', markdownText(kafkaVersionText(report.kafka))],
        ['seed', markdownText(report.seed)],
        ['event hash', `\`${report.eventHash}\` (${report.eventsRun} events)`],
        ['simulated', formatSeconds(report.simulatedUs)],
        ['versions', `${tool.name} ${tool.version}, seedrandom ${tool.seedrandom}`],
        ['fenced clients', markdownText(report.fencedClients.join(', ') || 'none')],
        ...fetchFailureLines(report).map((line) => ['fetch failed', markdownText(line)]),
      ],
    ),
    '',
    'Reproduce:',
    '',
    '```sh',
    report.reproduce.replace(/[\r\n`]/g, ''),
    '```',
  ];
}

function describeAnomaly(anomaly: Anomaly): string[] {
  const where =
    anomaly.topic === undefined
      ? ''
      : ` at ${anomaly.topic}-${anomaly.partition ?? '?'}` +
        (anomaly.offset === undefined ? '' : ` offset ${anomaly.offset}`);
  const faults = anomaly.activeFaults.length === 0 ? 'none' : anomaly.activeFaults.join('; ');
  return [
    `- **${markdownText(anomaly.kind + where)}**: ${markdownText(anomaly.message)}`,
    `  (classification: ${markdownText(anomaly.classification ?? 'unknown')}; ` +
      `faults active then: ${markdownText(faults)})`,
  ];
}

function anomaliesSection(report: RunReport): string[] {
  const { check } = report;
  const lines = ['## Anomalies', ''];
  for (const { checker, error } of check.checkerErrors) {
    lines.push(
      `- checker ${markdownText(checker)} failed, verdict unknown: ${markdownText(error)}`,
    );
  }
  if (check.anomalyCounts.length === 0) return [...lines, 'None found.'];
  for (const { kind, count } of check.anomalyCounts) {
    lines.push(
      `### ${markdownText(kind)}: ${count}`,
      '',
      `Verdict: ${markdownText(verdictOf(report, kind))}.`,
      '',
    );
    const explanation = report.explanations.find((candidate) => candidate.kind === kind);
    if (explanation !== undefined) {
      const anomaly = check.anomalies[explanation.anomalyIndex];
      lines.push(markdownText(explanation.meaning), '');
      if (anomaly !== undefined) lines.push(...describeAnomaly(anomaly), '');
      const { sequence } = explanation;
      lines.push(
        `The messages that matter, ${formatSeconds(sequence.fromUs)} to ` +
          `${formatSeconds(sequence.toUs)}` +
          (sequence.omitted > 0 ? ` (${sequence.omitted} less relevant ones left out):` : ':'),
        '',
        '```mermaid',
        ...renderMermaidSequence(sequence),
        '```',
        '',
      );
    }
    const listed = check.anomalies.filter((anomaly) => anomaly.kind === kind);
    const rest = listed.filter((_, index) => index > 0).slice(0, ANOMALIES_LISTED_PER_KIND);
    if (rest.length > 0) lines.push('Others of this kind:', '');
    for (const anomaly of rest) lines.push(...describeAnomaly(anomaly));
    if (count > rest.length + 1) lines.push(`- … ${count - rest.length - 1} more`);
  }
  return lines;
}

function partitionsSection(report: RunReport): string[] {
  const shown = report.partitions.filter((p) => !p.topic.startsWith('__'));
  const hidden = report.partitions.length - shown.length;
  const rows = shown.map((p) => [
    markdownText(`${p.topic}-${p.partition}`),
    markdownText(p.leader),
    markdownText(p.isr.join(', ') || '(none)'),
    String(p.logStartOffset),
    String(p.logEndOffset),
    String(p.highWatermark),
    String(p.lastStableOffset),
    String(p.openTransactions),
  ]);
  return [
    '## Partitions at the end',
    '',
    ...table(['partition', 'leader', 'ISR', 'log start', 'LEO', 'HW', 'LSO', 'open txns'], rows),
    ...(hidden === 0 ? [] : ['', `${hidden} partitions of internal topics (\\_\\_…) not shown.`]),
  ];
}

function faultsSection(report: RunReport): string[] {
  if (report.faults.length === 0) return ['## Faults', '', 'None.'];
  const rows = report.faults.map((fault) => [
    formatSeconds(fault.startUs),
    fault.endUs === undefined ? 'never healed' : formatSeconds(fault.endUs),
    markdownText(fault.description),
  ]);
  const outcomes = (report.operatorOutcomes ?? []).map((outcome) => [
    formatSeconds(outcome.timeUs),
    markdownText(outcome.description),
  ]);
  const operator = outcomes.length === 0 ? [] : ['', ...table(['at', 'operator'], outcomes)];
  return ['## Faults', '', ...table(['from', 'to', 'fault'], rows), ...operator];
}

function latencyRow(name: string, summary: LatencySummary): string[] {
  const ms = (us: number): string => (us / 1000).toFixed(3);
  return [
    name,
    String(summary.count),
    ms(summary.meanUs),
    ms(summary.p50Us),
    ms(summary.p90Us),
    ms(summary.p99Us),
    ms(summary.maxUs),
    markdownText(summary.note ?? ''),
  ];
}

function metricsSection(report: RunReport): string[] {
  const { transactionPhases: phases, counts } = report.metrics;
  const header = ['call', 'count', 'mean ms', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'note'];
  const bumps = counts.epochBumps;
  const gaps = report.metrics.stableOffsetGaps.flatMap((gap) =>
    [...gap.phases, { phase: 'whole run', gapMax: gap.gapMax, unstableUs: gap.unstableUs }].map(
      (entry) => [
        markdownText(`${gap.topic}-${gap.partition}`),
        entry.phase,
        String(entry.gapMax),
        formatSeconds(entry.unstableUs),
      ],
    ),
  );
  const lags = report.metrics.consumerLag.flatMap((lag) =>
    lag.phases.map((entry) => [
      markdownText(lag.client),
      markdownText(`${lag.topic}-${lag.partition}`),
      lag.isolationLevel,
      entry.phase,
      String(entry.polls),
      String(entry.logEndOffsetLagMax),
      String(entry.highWatermarkLagMax),
      String(entry.lastStableOffsetLagMax),
    ]),
  );
  return [
    '## Transactions',
    '',
    ...table(header, [
      latencyRow('initTransactions', phases.init),
      latencyRow('beginTransaction', phases.begin),
      latencyRow('sendOffsetsToTransaction', phases.sendOffsets),
      latencyRow('commitTransaction', phases.commit),
      latencyRow('abortTransaction', phases.abort),
      latencyRow('commit (succeeded)', report.metrics.commitLatency),
      latencyRow('whole committed transaction', report.metrics.transactionLatency),
    ]),
    '',
    `${counts.transactions} transactions: ${counts.committed} committed, ${counts.aborted} ` +
      `aborted, ${counts.failed} failed, ${counts.unknown} unknown. Fencing errors: ` +
      `${counts.fencingErrors} (${counts.fencedClients} clients). Producer epochs granted: ` +
      `${bumps.init} by InitProducerId, ${bumps.fence} fencing an open transaction, ` +
      `${bumps.timeout} by a transaction timeout, ${bumps.end} by EndTxn (KIP-890).`,
    '',
    ...lateTransactionsMarkdown(report),
    '### Gap between high watermark and last stable offset',
    '',
    ...table(['partition', 'phase', 'largest gap', 'time with a gap'], gaps),
    '',
    '### Consumer lag (largest, after a poll, per phase)',
    '',
    ...table(
      ['consumer', 'partition', 'isolation.level', 'phase', 'polls', 'vs LEO', 'vs HW', 'vs LSO'],
      lags,
    ),
  ];
}

/** Kafka's PartitionsWithLateTransactionsCount (KIP-664), when the oracle has it. */
function lateTransactionsMarkdown(report: RunReport): string[] {
  const late = report.metrics.lateTransactions;
  if (late === undefined) return [];
  const intervals = lateTransactionsIntervals(late).map((line) => `- ${markdownText(line)}`);
  return [
    `\`PartitionsWithLateTransactionsCount\`: ${markdownText(lateTransactionsSummary(late))}.`,
    ...(intervals.length === 0 ? [] : ['', ...intervals]),
    '',
  ];
}

function expectationsSection(report: RunReport): string[] {
  const rows = report.expectations.map((expectation) => [
    expectation.met ? 'met' : '**NOT met**',
    markdownText(expectation.name),
    markdownText(expectation.detail),
  ]);
  const { converged, detail } = report.liveness;
  return [
    '## Expectations',
    '',
    ...table(['', 'expectation', 'detail'], rows),
    '',
    `Liveness: ${converged ? 'converged' : 'did NOT converge'} (${markdownText(detail)}).`,
  ];
}
