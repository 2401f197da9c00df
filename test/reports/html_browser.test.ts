/// <reference lib="dom" />
/**
 * Goal: the HTML report renders in a real browser, offline, and shows the anomaly; a hostile
 * scenario string stays text. Method: write the reports of a failing zombie-fencing seed (and of
 * the same run with `<script>` and an `onerror` attribute in the scenario name and
 * transactional.id) to a temporary folder, open each from a file:// URL in Debian's headless
 * Chromium (/usr/bin/chromium, driven by playwright-core: never a browser download) with every
 * non-file request aborted and counted. Then check: no page error, no request left the file,
 * every chart's canvas has a non-zero size and painted pixels, and on the chart of the
 * anomaly's partition the `anomaly` dataset has a point at the anomaly's time and offset whose
 * pixel is the anomaly red. `.ci/run` installs chromium when it is missing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../reports';
import { chartLibrarySource } from '../../cli/index';
import type { RunResult } from '../../sim/runner';
import { HOSTILE, hangingRun, hostileRun, zombieBugRun } from './report_fixtures';
import type { Anomaly } from '../../sim/checker';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let folder: string;
let browser: Browser;
let run: RunResult;
let hanging: RunResult;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does this)`);
  }
  folder = mkdtempSync(join(tmpdir(), 'eos-sim-html-'));
  run = zombieBugRun();
  const chartLibrary = chartLibrarySource();
  writeFileSync(join(folder, 'run.html'), renderHtmlReport(run.report, { chartLibrary }));
  hanging = hangingRun();
  writeFileSync(join(folder, 'hanging.html'), renderHtmlReport(hanging.report, { chartLibrary }));
  writeFileSync(
    join(folder, 'hostile.html'),
    renderHtmlReport(hostileRun().report, { chartLibrary }),
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** Opens `file` with network requests aborted; returns the page and what went wrong. */
async function open(file: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(join(folder, file)).href);
  await page.waitForFunction(() => 'eosCharts' in window, undefined, { timeout: 30_000 });
  return { page, errors, requests };
}

interface ChartState {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly paintedPixels: number;
}

/** Every chart's canvas size and how many of its pixels are not transparent. */
function chartStates(page: Page): Promise<ChartState[]> {
  return page.evaluate(() => {
    const charts = (window as unknown as { eosCharts: Array<{ name: string; id: string }> })
      .eosCharts;
    return charts.map(({ name, id }) => {
      const canvas = document.getElementById(id) as HTMLCanvasElement;
      const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < (pixels?.data.length ?? 0); i += 4)
        if ((pixels?.data[i] ?? 0) > 0) painted++;
      const box = canvas.getBoundingClientRect();
      return { name, width: box.width, height: box.height, paintedPixels: painted };
    });
  });
}

/**
 * The `anomaly` point drawn for `anomaly` on its partition's chart, and the colour of the
 * canvas pixel at its centre.
 */
async function anomalyMark(
  page: Page,
  anomaly: Anomaly,
): Promise<{ point: unknown; rgba: number[] }> {
  const name = `partition ${anomaly.topic ?? ''}-${anomaly.partition ?? ''}`;
  const timeS = (anomaly.timeUs ?? 0) / 1e6;
  return page.evaluate(
    ({ name, timeS, kind }) => {
      interface Point {
        x: number;
        y: number;
        kind?: string;
      }
      interface ChartLike {
        data: { datasets: Array<{ label: string; data: Point[] }> };
        getDatasetMeta: (index: number) => { data: Point[] };
        currentDevicePixelRatio: number;
        canvas: HTMLCanvasElement;
      }
      const charts = (window as unknown as { eosCharts: Array<{ name: string; chart: ChartLike }> })
        .eosCharts;
      const chart = charts.find((entry) => entry.name === name)?.chart;
      if (chart === undefined) return { point: undefined, rgba: [] };
      const index = chart.data.datasets.findIndex((dataset) => dataset.label === 'anomaly');
      const points = chart.data.datasets[index]?.data ?? [];
      const at = points.findIndex((point) => point.x === timeS && point.kind === kind);
      const element = chart.getDatasetMeta(index).data[at];
      if (element === undefined) return { point: points[at], rgba: [] };
      const ratio = chart.currentDevicePixelRatio;
      const x = Math.round(element.x * ratio);
      const y = Math.round(element.y * ratio);
      const rgba = [...(chart.canvas.getContext('2d')?.getImageData(x, y, 1, 1).data ?? [])];
      return { point: points[at], rgba };
    },
    { name, timeS, kind: anomaly.kind },
  );
}

describe('the HTML report in headless Chromium', () => {
  it('renders every chart offline, with no page error', async () => {
    const { page, errors, requests } = await open('run.html');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    const states = await chartStates(page);
    const names = states.map((state) => state.name);
    expect(names).toEqual(
      expect.arrayContaining(['partition orders-0', 'transactions orders-tx', 'epochs orders-tx']),
    );
    expect(names).toContain('gap');
    expect(names).toContain('lag reader');
    for (const state of states) {
      expect(state.width, state.name).toBeGreaterThan(100);
      expect(state.height, state.name).toBeGreaterThan(100);
      expect(state.paintedPixels, state.name).toBeGreaterThan(1000);
    }
    await page.close();
  });

  for (const [file, kind] of [
    ['run.html', 'zombie-write'],
    ['hanging.html', 'hanging-transaction'],
  ] as const) {
    it(`marks ${kind} at its time and offset in red on its partition chart (${file})`, async () => {
      const result = file === 'run.html' ? run : hanging;
      const anomaly = result.report.check.anomalies.find((candidate) => candidate.kind === kind);
      expect(anomaly, `the run shows ${kind}`).toBeDefined();
      const { page, errors } = await open(file);
      expect(errors).toEqual([]);
      const mark = await anomalyMark(page, anomaly as Anomaly);
      expect(mark.point).toEqual({
        x: (anomaly?.timeUs ?? 0) / 1e6,
        y: anomaly?.offset,
        kind,
      });
      const [red = 0, green = 255, blue = 255] = mark.rgba;
      expect(red, `pixel ${String(mark.rgba)}`).toBeGreaterThan(180);
      expect(green).toBeLessThan(100);
      expect(blue).toBeLessThan(100);
      await page.close();
    });
  }

  it('keeps scenario strings as text: nothing runs, the title shows them', async () => {
    const { page, errors, requests } = await open('hostile.html');
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);
    expect(pwned).toBeUndefined();
    expect(await page.textContent('h1')).toContain(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    await page.close();
  });
});
