/**
 * The audit's HTML report: one self-contained page (no scripts) whose first screen is the
 * verdict and the answer table, reproducers linked, then the files as read and the fixes tried.
 */
import { dirname, relative } from 'node:path';
import { answerRows, verdictLine } from './audit_answers';
import { echoOf } from './audit_echo';
import type { Expectation } from './audit_expect';
import type { AuditResult } from './audit_run';

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function row(cells: readonly string[], tag = 'td'): string {
  return `<tr>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;
}

const STYLE =
  'body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;max-width:110em}' +
  'table{border-collapse:collapse;margin:.5em 0 1.5em}' +
  'td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}' +
  'tr.forbidden td:first-child{font-weight:bold;color:#a00}code{font-size:13px}';

function answerTable(result: AuditResult, expectation: Expectation, file: string): string {
  const rows = answerRows(result, expectation).map((answer) => {
    const target =
      answer.reproducer === undefined ? undefined : relative(dirname(file), answer.reproducer);
    const reproducer =
      target === undefined ? '—' : `<a href="${escape(encodeURI(target))}">${escape(target)}</a>`;
    const cells = [answer.kind, answer.possible, answer.why, answer.fix].map(escape);
    const forbidden = answer.found && answer.forbidden ? ' class="forbidden"' : '';
    const tds = [...cells, reproducer].map((cell) => `<td>${cell}</td>`);
    return `<tr${forbidden}>${tds.join('')}</tr>`;
  });
  return (
    `<table>${row(['anomaly', 'possible?', 'why', 'fix', 'reproducer'], 'th')}` +
    `${rows.join('')}</table>`
  );
}

function filesSection(result: AuditResult): string {
  return echoOf(result.input, result.scenario)
    .map((echo) => {
      const rows = echo.rows.map((item) =>
        row([
          `<code>${escape(item.key)}</code>`,
          `<code>${escape(item.value)}</code>`,
          item.from === 'file' ? `line ${item.line ?? ''}` : 'default',
        ]),
      );
      const ignored = echo.ignored.map(
        (key) => `<code>${escape(key.key)}</code> (line ${key.line}: ${escape(key.why)})`,
      );
      return (
        `<h3>${escape(echo.path || '(none)')}: ${escape(echo.what)}</h3>` +
        `<table>${row(['key', 'value', 'from'], 'th')}${rows.join('')}</table>` +
        `<p>Ignored: ${ignored.length === 0 ? 'none' : ignored.join(', ')}.</p>`
      );
    })
    .join('');
}

function fixesSection(result: AuditResult): string {
  return result.answers
    .map((answer) => {
      if (answer.found === undefined) return '';
      const items = answer.found.tried.map((tried) => {
        const detail = tried.detail === undefined ? '' : ` (${tried.detail})`;
        const reason = tried.reason === undefined ? '' : `; there: ${tried.reason}`;
        return `<li>${escape(`${tried.fix}: ${tried.result}${detail}${reason}`)}</li>`;
      });
      const none = items.length === 0 ? '<p>No candidate in the table applies.</p>' : '';
      return `<h3>${escape(answer.kind)}</h3>${none}<ul>${items.join('')}</ul>`;
    })
    .join('');
}

/**
 * The HTML report of `result`, to be written at `file` (links are relative to it).
 * @example auditHtml(result, 'no-loss', 'audit.html').startsWith('<!doctype html>') // true
 */
export function auditHtml(result: AuditResult, expectation: Expectation, file: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>eos-sim audit</title><style>${STYLE}</style></head><body>` +
    `<h1>eos-sim audit</h1><p><strong>${escape(verdictLine(result, expectation))}</strong></p>` +
    answerTable(result, expectation, file) +
    `<h2>The files as read</h2>${filesSection(result)}` +
    `<h2>Fixes tried, smallest first</h2>${fixesSection(result)}` +
    `<p>Scenario ${escape(result.scenarioFile)}, swarm seeds ${escape(result.seeds.first)}..` +
    `${escape(result.seeds.last)}, fix sweeps over ${escape(result.fixSeeds.first)}..` +
    `${escape(result.fixSeeds.last)}; audit ${Math.round(result.wallMs / 100) / 10} s.</p>` +
    '</body></html>\n'
  );
}
