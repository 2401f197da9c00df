/**
 * Pure renderers of a run report and of a sweep: strings in, strings out, no I/O. The JSON
 * report is the source of truth; these views are derived from it (style rule 40).
 */
export { outcomeLabel, palette, renderRunReport } from './console';
export type { ConsoleOptions, Palette } from './console';
export { renderMainJobLine, renderSweepRunLine, renderSweepSummary } from './sweep_summary';
export type { SweepRenderOptions } from './sweep_summary';
export { renderAnomalyTable, renderCoverageTable, renderTiming } from './sweep_tables';
export { escapeXml, renderJunit } from './junit';
export type { JunitOptions, JunitSuite } from './junit';
export { SWEEP_OUTCOMES } from './sweep_types';
export type * from './sweep_types';
export { formatSeconds, percentFloor, plural, renderTable, wrapText } from './text_layout';
export { printable, terminalSafe } from './terminal_text';
export type { TextTable } from './text_layout';
export { markdownText, renderMarkdownReport } from './markdown';
export { mermaidText, renderMermaidSequence } from './mermaid';
export { escapeHtml, renderHtmlReport, scriptJson, type HtmlOptions } from './html';
export {
  HISTORY_FORMAT,
  HISTORY_FORMAT_VERSION,
  renderHistoryFile,
  renderJepsenHistory,
  type HistoryHeader,
} from './history_file';
export { renderClusterState, visible } from './cluster_state_text';
