/**
 * Writes the files `eos-sim run` was asked for: reports by extension (`--report run.md`,
 * `run.html`, `run.json`), the history file (`--history out.jsonl`, docs/history.md) and the
 * Jepsen-shaped history (`--jepsen-history out.edn`). The renderers are pure; this is where the
 * file system and Chart.js's source (read from node_modules, inlined into the HTML) come in.
 */
import { readFileSync } from 'node:fs';
import { writeOutputFile } from './file_io';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { RunResult } from '../sim/runner';
import {
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  renderHistoryFile,
  renderHtmlReport,
  renderJepsenHistory,
  renderMarkdownReport,
} from '../reports';
import { UsageError } from './errors';
import { checkOutputFile } from './output_paths';

/** The report formats, by file extension. */
export const REPORT_EXTENSIONS = ['.md', '.html', '.json'] as const;

/**
 * The source of Chart.js's UMD build from node_modules. The package's `exports` map hides
 * `dist/chart.umd.min.js`, so it is found beside the resolved CommonJS entry (`dist/chart.cjs`).
 */
export function chartLibrarySource(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('chart.js');
  return readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
}

/**
 * Checks `--report` paths before a run, so a typo costs no run.
 * @throws UsageError for an extension other than .md, .html or .json, or a path that cannot be
 * written (see {@link checkOutputFile}).
 */
export function checkReportPaths(paths: readonly string[]): void {
  for (const path of paths) {
    const extension = extname(path).toLowerCase();
    if (!(REPORT_EXTENSIONS as readonly string[]).includes(extension)) {
      throw new UsageError(`--report must end in ${REPORT_EXTENSIONS.join(', ')}: got "${path}"`);
    }
    checkOutputFile('--report', path);
  }
}

/** The text of the report `path` asks for. */
export function renderReportFile(path: string, result: RunResult): string {
  const extension = extname(path).toLowerCase();
  if (extension === '.md') return renderMarkdownReport(result.report);
  if (extension === '.html') {
    return renderHtmlReport(result.report, { chartLibrary: chartLibrarySource() });
  }
  return `${JSON.stringify(result.report, null, 2)}\n`;
}

/** The history file of a run (docs/history.md). */
export function historyFileText(result: RunResult): string {
  const { report } = result;
  return renderHistoryFile({
    header: {
      format: HISTORY_FORMAT,
      version: HISTORY_FORMAT_VERSION,
      seed: report.seed,
      scenario: report.scenario,
      tool: { name: report.tool.name, version: report.tool.version },
    },
    history: result.history,
    oracle: result.oracle,
  });
}

/** Where `eos-sim run` writes its files; every field optional. */
export interface RunFileOptions {
  readonly reports: readonly string[];
  readonly history: string | undefined;
  readonly jepsenHistory: string | undefined;
}

/** Writes every file asked for and returns one `wrote …` line per file. */
export function writeRunFiles(result: RunResult, options: RunFileOptions): string[] {
  const written: string[] = [];
  for (const path of options.reports) {
    writeOutputFile(path, renderReportFile(path, result));
    written.push(`wrote report ${path}`);
  }
  if (options.history !== undefined) {
    writeOutputFile(options.history, historyFileText(result));
    written.push(`wrote history ${options.history}`);
  }
  if (options.jepsenHistory !== undefined) {
    writeOutputFile(options.jepsenHistory, renderJepsenHistory(result.history));
    written.push(`wrote Jepsen history ${options.jepsenHistory}`);
  }
  return written;
}
