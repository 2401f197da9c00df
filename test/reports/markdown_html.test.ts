/**
 * Goal: the Markdown and HTML reports of a failing seed of the zombie-fencing bug variant show
 * the anomaly (issue 8's acceptance), and no scenario string reaches either as markup.
 *
 * Method: run the seed once; check the report's explanation (the messages that matter: the
 * fenced producer's late Produce with its old producerEpoch, the coordinator's epoch grants, the
 * pause, the PRODUCER_FENCED answer; at most 40 steps), then the text of each rendering: the
 * Markdown's anomaly section, Mermaid block and tables; the HTML's anomaly block, canvases, chart
 * data and inlined Chart.js with no external resource. A second run puts `<script>` and an
 * `onerror` attribute in the scenario name and transactional.id and checks they come out
 * escaped. Rendering in a browser is html_browser.test.ts's job.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../sim/runner';
import { renderHtmlReport, renderMarkdownReport } from '../../reports';
import { chartLibrarySource } from '../../cli/index';
import { HOSTILE, hangingRun, hostileRun, zombieBugRun } from './report_fixtures';

let run: RunResult;
let hostile: RunResult;
let chartLibrary: string;
let hanging: RunResult;

beforeAll(() => {
  run = zombieBugRun();
  hostile = hostileRun();
  chartLibrary = chartLibrarySource();
  hanging = hangingRun();
}, 180_000);

describe('the run report of a failing zombie-fencing seed', () => {
  it('finds zombie-write and explains its first one with the messages that matter', () => {
    const { report } = run;
    expect(report.check.anomalyTypes).toContain('zombie-write');
    expect(report.explanations).toHaveLength(report.check.anomalyTypes.length);
    const explanation = report.explanations.find((candidate) => candidate.kind === 'zombie-write');
    const anomaly = report.check.anomalies[explanation?.anomalyIndex ?? -1];
    expect(anomaly?.kind).toBe('zombie-write');
    expect(explanation?.meaning).toContain('producerEpoch');
    const steps = explanation?.sequence.steps ?? [];
    expect(steps.length).toBeLessThanOrEqual(40);
    const texts = steps.map((step) => step.text);
    const lateProduce = steps.find(
      (step) =>
        step.type === 'message' &&
        step.source === 'A' &&
        step.timeUs === anomaly?.timeUs &&
        step.text.includes(`Produce ${anomaly.topic}-${anomaly.partition}`) &&
        step.text.includes(`epoch ${anomaly.producerEpoch}`),
    );
    expect(lateProduce, 'the fenced producer A sends its late record').toBeDefined();
    expect(texts.some((text) => /fault starts: GC pause of A/.test(text))).toBe(true);
    expect(texts.some((text) => /grants producerId \d+ epoch 1 \(timeout\)/.test(text))).toBe(true);
    expect(steps.some((step) => step.type === 'message' && step.style === 'error')).toBe(true);
    expect(texts.some((text) => text.includes('PRODUCER_FENCED'))).toBe(true);
    const labels = explanation?.sequence.participants.map((p) => p.label) ?? [];
    expect(labels.some((label) => label.includes('coordinator'))).toBe(true);
    expect(labels.some((label) => label.includes(`leader of ${anomaly?.topic}`))).toBe(true);
  });

  it('carries per-partition final state, metrics and a timeline', () => {
    const { report } = run;
    for (const partition of report.partitions) {
      expect(partition.isr.length).toBeGreaterThan(0);
      expect(partition.replicas).toContain(partition.leader);
    }
    const { counts, transactionPhases, commitLatency } = report.metrics;
    expect(counts.epochBumps.timeout).toBeGreaterThanOrEqual(1);
    expect(counts.fencingErrors).toBeGreaterThanOrEqual(1);
    expect(transactionPhases.init.count).toBe(2);
    expect(commitLatency.count).toBe(counts.committed);
    expect(commitLatency.p50Us).toBeLessThanOrEqual(commitLatency.p99Us);
    expect(report.timeline.partitions).toHaveLength(3);
    const ids = report.timeline.transactionalIds.map((t) => t.transactionalId);
    expect(ids).toEqual(['orders-tx']);
  });
});

describe('the Markdown report', () => {
  it('has the summary, the anomaly explained and a Mermaid diagram of at most 40 arrows', () => {
    const markdown = renderMarkdownReport(run.report);
    expect(markdown).toContain('# eos-sim run: zombie-fencing-no-epoch-check, seed 2');
    expect(markdown).toContain('npx --offline --no-install eos-sim run scenarios/known-bugs/');
    expect(markdown).toContain('### zombie-write: ');
    expect(markdown).toMatch(/\*\*zombie-write at orders-\d offset \d+\*\*: Producer \d+ epoch 0/);
    const section = markdown.slice(markdown.indexOf('### zombie-write: '));
    const mermaid = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const lines = mermaid.trimEnd().split('\n');
    expect(lines[0]).toBe('sequenceDiagram');
    expect(lines.filter((line) => /participant p\d+ as /.test(line)).length).toBeGreaterThan(2);
    const arrows = lines.filter((line) => /^ {4}p\d+(->>|-->>|--x)p\d+: /.test(line));
    expect(arrows.length).toBeGreaterThan(5);
    expect(arrows.length).toBeLessThanOrEqual(40);
    expect(arrows.some((line) => line.includes('--x') && line.includes('PRODUCER_FENCED'))).toBe(
      true,
    );
    expect(
      lines.some((line) => /Note over p\d+: [\d.]+ s: zombie-write at orders-/.test(line)),
    ).toBe(true);
    expect(markdown).toContain('| partition | leader | ISR | log start | LEO | HW | LSO |');
    expect(markdown).toContain('GC pause of A for 25000 ms');
    expect(markdown).toContain('| commitTransaction |');
  });

  it('escapes scenario strings', () => {
    const markdown = renderMarkdownReport(hostile.report);
    expect(markdown).not.toContain('<script>');
    expect(markdown).not.toContain('<img');
    expect(markdown).toContain('&lt;script&gt;');
    const mermaid = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    expect(mermaid).not.toMatch(/[<;]/);
    expect(mermaid).toContain('‹script›window.__pwned = 1‹/script›');
  });
});

describe('the HTML report', () => {
  it('is one self-contained file with the anomaly, the charts and Chart.js inlined', () => {
    const html = renderHtmlReport(run.report, { chartLibrary });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/<link\b/);
    expect(html).toContain(chartLibrary.slice(0, 200));
    expect(html).toContain('<div class="anomaly" data-kind="zombie-write">');
    expect(html).toContain('PRODUCER_FENCED');
    for (const id of ['partition-0', 'partition-1', 'partition-2', 'txn-0', 'epoch-0', 'gap']) {
      expect(html).toContain(`<canvas id="${id}">`);
    }
    const json = /<script type="application\/json" id="eos-data">(.*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json ?? 'null') as { anomalies: Array<{ kind: string }> };
    expect(data.anomalies.map((anomaly) => anomaly.kind)).toContain('zombie-write');
  });

  it('escapes every scenario string, in markup and in the embedded data', () => {
    const html = renderHtmlReport(hostile.report, { chartLibrary });
    const withoutLibrary = html.replace(chartLibrary, '');
    expect(withoutLibrary).not.toContain(HOSTILE);
    expect(withoutLibrary).not.toContain('<script>window');
    expect(withoutLibrary).not.toContain('<img');
    expect(withoutLibrary).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(withoutLibrary).toContain('\\u003cscript>window.__pwned');
    // The page's own script elements only: the data, Chart.js and the chart script.
    expect(withoutLibrary.match(/<script\b/g)).toHaveLength(3);
  });
});

describe('the reports of hanging-transaction.yaml', () => {
  it('explain the hanging transaction with the held Produce that opened it', () => {
    const { report } = hanging;
    const anomaly = report.check.anomalies.find((a) => a.kind === 'hanging-transaction');
    expect(anomaly?.topic).toBe('payments');
    const explanation = report.explanations.find((e) => e.kind === 'hanging-transaction');
    const steps = explanation?.sequence.steps ?? [];
    expect(steps.length).toBeLessThanOrEqual(40);
    const texts = steps.map((step) => step.text);
    // The held Produce lands after the ABORT marker and opens the transaction at the offset.
    const abort = texts.findIndex((text) => /WriteTxnMarkers ABORT payments-0/.test(text));
    const late = texts.findIndex((text) =>
      text.includes(`ProduceResponse NONE at offset ${anomaly?.offset}`),
    );
    expect(abort).toBeGreaterThanOrEqual(0);
    expect(late).toBeGreaterThan(abort);
    expect(texts.some((text) => /fault starts: hold Produce PA/.test(text))).toBe(true);

    const markdown = renderMarkdownReport(report);
    expect(markdown).toContain('### hanging-transaction: 1');
    expect(markdown).toMatch(/\*\*hanging-transaction at payments-0 offset \d+\*\*: Producer/);
    const section = markdown.slice(markdown.indexOf('### hanging-transaction'));
    expect(/```mermaid\nsequenceDiagram\n/.test(section)).toBe(true);

    const html = renderHtmlReport(report, { chartLibrary });
    expect(html).toContain('<div class="anomaly" data-kind="hanging-transaction">');
    expect(html).toContain('hanging-transaction at payments-0 offset');
    // Charts are about the application's partitions: no __transaction_state chart.
    const json = /<script type="application\/json" id="eos-data">(.*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json ?? 'null') as {
      timeline: { partitions: Array<{ topic: string }> };
    };
    expect(data.timeline.partitions.map((p) => p.topic).sort()).toEqual(['audit', 'payments']);
  });
});
