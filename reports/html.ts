/**
 * The HTML view of one run (`eos-sim run ... --report run.html`): one self-contained file that
 * works offline. A pure rendering of a {@link RunReport}: the summary, anomalies and tables are
 * rendered here as escaped HTML, and the charts are drawn in the browser by Chart.js, whose
 * source the caller passes in (`chartLibrary`, read from node_modules by the CLI) and which is
 * inlined with the chart script and the chart data. The data travels as JSON inside a
 * `<script type="application/json">` element with `<` written as `\u003c`, so no string from a
 * scenario can close the element; every string placed in HTML goes through {@link escapeHtml}.
 */
import { lateTransactionsIntervals, lateTransactionsSummary } from './late_transactions_text';
import { verdictOf } from './verdicts';
import type { Anomaly } from '../sim/checker';
import type { RunReport, SequenceDiagram } from '../sim/runner';
import { HTML_CHART_SCRIPT } from './html_script';
import { formatSeconds } from './text_layout';
import { kafkaVersionText } from './kafka_version_text';
import { fetchFailureLines } from './fetch_failures_text';

/** Options of {@link renderHtmlReport}. */
export interface HtmlOptions {
  /** The source of Chart.js 4's UMD build (`chart.umd.min.js`), inlined into the page. */
  readonly chartLibrary: string;
}

/**
 * Text safe in HTML element content and in quoted attribute values.
 * @example escapeHtml('<script>"x"</script>') // '&lt;script&gt;&quot;x&quot;&lt;/script&gt;'
 */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** JSON that is safe inside a `<script>` element: no `<`, and no line or paragraph separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Script source that cannot end its `<script>` element early. */
function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222 }
h1 { font-size: 1.4em } h2 { font-size: 1.2em; margin-top: 1.6em } h3 { font-size: 1.05em }
table { border-collapse: collapse; margin: .6em 0 } td, th { border: 1px solid #ccc;
  padding: 2px 8px; text-align: left }
td.n { text-align: right; font-variant-numeric: tabular-nums }
.chart { position: relative; height: 260px; margin: .8em 0 } .txn { height: 200px }
.outcome-pass { color: #1a7f37 } .outcome-fail { color: #c62828 } .warn { color: #b26a00 }
code, pre { background: #f5f5f5; padding: 1px 4px } .anomaly { border-left: 4px solid #d62728;
  padding-left: .8em; margin: 1em 0 }
.legend-band { background: rgba(255,165,0,.3); padding: 0 6px }
`;

/**
 * Renders `report` as one HTML document.
 * @example writeFileSync('run.html', renderHtmlReport(report, { chartLibrary }));
 */
export function renderHtmlReport(report: RunReport, options: HtmlOptions): string {
  const data = {
    simulatedUs: report.simulatedUs,
    faults: report.faults,
    anomalies: report.check.anomalies,
    timeline: report.timeline,
    metrics: report.metrics,
  };
  const title = `eos-sim: ${report.scenario.name}, seed ${report.seed}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    summaryHtml(report),
    anomaliesHtml(report),
    chartsHtml(report),
    partitionsHtml(report),
    faultsHtml(report),
    `<script type="application/json" id="eos-data">${scriptJson(data)}</script>`,
    `<script>${inlineScript(options.chartLibrary)}</script>`,
    `<script>${inlineScript(HTML_CHART_SCRIPT)}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

function rowsHtml(rows: ReadonlyArray<readonly string[]>, header?: readonly string[]): string {
  const head =
    header === undefined ? '' : `<tr>${header.map((h) => `<th>${h}</th>`).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`);
  return `<table>${head}${body.join('')}</table>`;
}

function summaryHtml(report: RunReport): string {
  const { scenario, tool } = report;
  const kinds = report.check.anomalyCounts.map(({ kind, count }) => `${count} ${kind}`);
  const outcomeClass = report.outcome === 'pass' ? 'pass' : 'fail';
  const outcomeText = escapeHtml(report.outcome.toUpperCase());
  const outcome = `<strong class="outcome-${outcomeClass}">${outcomeText}</strong>`;
  return rowsHtml([
    ['outcome', outcome],
    ['anomalies', escapeHtml(kinds.join(', ') || 'none')],
    ['scenario', `${escapeHtml(scenario.file)} (sha256 <code>${escapeHtml(scenario.hash)}</code>)`],
    ['kafka', escapeHtml(kafkaVersionText(report.kafka))],
    ['seed', escapeHtml(report.seed)],
    ['event hash', `<code>${escapeHtml(report.eventHash)}</code> (${report.eventsRun} events)`],
    ['simulated', escapeHtml(formatSeconds(report.simulatedUs))],
    ['versions', escapeHtml(`${tool.name} ${tool.version}, seedrandom ${tool.seedrandom}`)],
    ['fenced clients', escapeHtml(report.fencedClients.join(', ') || 'none')],
    ...fetchFailureLines(report).map((line): [string, string] => [
      'fetch failed',
      escapeHtml(line),
    ]),
    ['reproduce', `<code>${escapeHtml(report.reproduce)}</code>`],
  ]);
}

function anomalyLine(anomaly: Anomaly): string {
  const where =
    anomaly.topic === undefined
      ? ''
      : ` at ${anomaly.topic}-${anomaly.partition ?? '?'}` +
        (anomaly.offset === undefined ? '' : ` offset ${anomaly.offset}`);
  const faults = anomaly.activeFaults.length === 0 ? 'none' : anomaly.activeFaults.join('; ');
  const time = anomaly.timeUs === undefined ? '' : ` (${formatSeconds(anomaly.timeUs)})`;
  return (
    `<p><strong>${escapeHtml(anomaly.kind + where + time)}</strong>: ` +
    `${escapeHtml(anomaly.message)}<br>classification: ` +
    `${escapeHtml(anomaly.classification ?? 'unknown')}; faults active then: ` +
    `${escapeHtml(faults)}</p>`
  );
}

function sequenceHtml(sequence: SequenceDiagram): string {
  const label = new Map(sequence.participants.map((p) => [p.id, p.label]));
  const name = (id: string): string => escapeHtml(label.get(id) ?? id);
  const rows = sequence.steps.map((step) =>
    step.type === 'note'
      ? ['', `<em>${step.over.map(name).join(', ')}</em>`, `<em>${escapeHtml(step.text)}</em>`]
      : [step.style, `${name(step.source)} → ${name(step.target)}`, escapeHtml(step.text)],
  );
  const omitted =
    sequence.omitted > 0 ? `<p>${sequence.omitted} less relevant messages left out.</p>` : '';
  const summary =
    `<summary>The messages that matter (${sequence.steps.length} steps, ` +
    `${escapeHtml(formatSeconds(sequence.fromUs))} to ` +
    `${escapeHtml(formatSeconds(sequence.toUs))})` +
    '</summary>';
  return `<details>${summary}${rowsHtml(rows, ['', 'from → to', 'message'])}${omitted}</details>`;
}

function anomaliesHtml(report: RunReport): string {
  const { check } = report;
  const parts = ['<h2>Anomalies</h2>'];
  for (const { checker, error } of check.checkerErrors) {
    parts.push(`<p class="warn">checker ${escapeHtml(checker)} failed: ${escapeHtml(error)}</p>`);
  }
  if (check.anomalyCounts.length === 0) parts.push('<p>None found.</p>');
  for (const { kind, count } of check.anomalyCounts) {
    const verdict = verdictOf(report, kind);
    parts.push(`<div class="anomaly" data-kind="${escapeHtml(kind)}">`);
    parts.push(`<h3>${escapeHtml(kind)}: ${count}</h3>`);
    parts.push(`<p class="verdict">Verdict: ${escapeHtml(verdict)}.</p>`);
    const explanation = report.explanations.find((candidate) => candidate.kind === kind);
    if (explanation !== undefined) {
      parts.push(`<p>${escapeHtml(explanation.meaning)}</p>`);
      const anomaly = check.anomalies[explanation.anomalyIndex];
      if (anomaly !== undefined) parts.push(anomalyLine(anomaly));
      parts.push(sequenceHtml(explanation.sequence));
    }
    parts.push('</div>');
  }
  return parts.join('\n');
}

function chartsHtml(report: RunReport): string {
  const { timeline, metrics } = report;
  const canvas = (id: string, className = 'chart'): string =>
    `<div class="${className}"><canvas id="${id}"></canvas></div>`;
  const parts = [
    '<h2>Offsets over virtual time</h2>',
    '<p>Log end offset, high watermark and last stable offset per partition. ' +
      '<span class="legend-band">Shaded</span>: faults. Red dashed line: an anomaly; red ' +
      'cross: its offset.</p>',
    ...timeline.partitions.map((_, index) => canvas(`partition-${index}`)),
    '<h2>Transactions and producer epochs</h2>',
    ...timeline.transactionalIds.flatMap((_, index) => [
      canvas(`txn-${index}`, 'chart txn'),
      canvas(`epoch-${index}`, 'chart txn'),
    ]),
  ];
  if (metrics.stableOffsetGaps.length > 0) {
    parts.push('<h2>High watermark minus last stable offset</h2>', canvas('gap'));
  }
  const clients = [...new Set(metrics.consumerLag.map((lag) => lag.client))];
  if (clients.length > 0) parts.push('<h2>Consumer lag (solid: vs HW, dashed: vs LSO)</h2>');
  clients.forEach((_, index) => parts.push(canvas(`lag-${index}`)));
  parts.push(metricsHtml(report));
  return parts.join('\n');
}

function metricsHtml(report: RunReport): string {
  const { transactionPhases: phases, commitLatency, counts } = report.metrics;
  const ms = (us: number): string => `<td class="n">${(us / 1000).toFixed(3)}</td>`;
  const row = (name: string, s: typeof commitLatency): string =>
    `<tr><td>${name}</td><td class="n">${s.count}</td>${ms(s.p50Us)}${ms(s.p90Us)}` +
    `${ms(s.p99Us)}${ms(s.maxUs)}<td>${escapeHtml(s.note ?? '')}</td></tr>`;
  return [
    '<h2>Transaction timings (ms)</h2>',
    '<table><tr><th>call</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>' +
      '<th>note</th></tr>',
    row('initTransactions', phases.init),
    row('beginTransaction', phases.begin),
    row('sendOffsetsToTransaction', phases.sendOffsets),
    row('commitTransaction', phases.commit),
    row('abortTransaction', phases.abort),
    row('commit latency (succeeded)', commitLatency),
    '</table>',
    `<p>${counts.transactions} transactions: ${counts.committed} committed, ${counts.aborted} ` +
      `aborted, ${counts.failed} failed, ${counts.unknown} unknown; ${counts.fencingErrors} ` +
      `fencing errors; epochs granted: ${counts.epochBumps.init} init, ` +
      `${counts.epochBumps.fence} fence, ${counts.epochBumps.timeout} timeout, ` +
      `${counts.epochBumps.end} EndTxn.</p>`,
    lateTransactionsHtml(report),
  ].join('\n');
}

/** Kafka's PartitionsWithLateTransactionsCount (KIP-664), when the oracle has it. */
function lateTransactionsHtml(report: RunReport): string {
  const late = report.metrics.lateTransactions;
  if (late === undefined) return '';
  const items = lateTransactionsIntervals(late).map((line) => `<li>${escapeHtml(line)}</li>`);
  return (
    `<p>PartitionsWithLateTransactionsCount: ${escapeHtml(lateTransactionsSummary(late))}.</p>` +
    (items.length === 0 ? '' : `<ul>${items.join('')}</ul>`)
  );
}

function partitionsHtml(report: RunReport): string {
  const shown = report.partitions.filter((p) => !p.topic.startsWith('__'));
  const hidden = report.partitions.length - shown.length;
  const rows = shown.map((p) => [
    escapeHtml(`${p.topic}-${p.partition}`),
    escapeHtml(p.leader),
    escapeHtml(p.isr.join(', ') || '(none)'),
    String(p.logEndOffset),
    String(p.highWatermark),
    String(p.lastStableOffset),
    String(p.openTransactions),
  ]);
  const header = ['partition', 'leader', 'ISR', 'LEO', 'HW', 'LSO', 'open txns'];
  const note =
    hidden === 0 ? '' : `<p>${hidden} partitions of internal topics (__…) not shown.</p>`;
  return `<h2>Partitions at the end</h2>\n${rowsHtml(rows, header)}${note}`;
}

function faultsHtml(report: RunReport): string {
  if (report.faults.length === 0) return '<h2>Faults</h2>\n<p>None.</p>';
  const rows = report.faults.map((fault) => [
    escapeHtml(formatSeconds(fault.startUs)),
    escapeHtml(fault.endUs === undefined ? 'never healed' : formatSeconds(fault.endUs)),
    escapeHtml(fault.description),
  ]);
  return `<h2>Faults</h2>\n${rowsHtml(rows, ['from', 'to', 'fault'])}`;
}
