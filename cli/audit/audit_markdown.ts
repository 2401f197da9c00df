/**
 * The audit's Markdown report. Its first screen is the answer: the verdict on `--expect` and the
 * table (anomaly, possible?, why, fix) with each reproducer linked; below it the files as read
 * (each key the model used with its resolved value, the keys it ignored), the fixes tried per
 * kind, and how the sweep ran.
 */
import { relative, dirname } from 'node:path';
import { answerRows, verdictLine } from './audit_answers';
import { echoOf } from './audit_echo';
import type { Expectation } from './audit_expect';
import type { AuditResult } from './audit_run';

/** A table cell: pipes escaped, newlines flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function link(path: string, from: string): string {
  const target = relative(dirname(from), path) || path;
  return `[${cell(target)}](${encodeURI(target)})`;
}

function answerTable(result: AuditResult, expectation: Expectation, file: string): string[] {
  const lines = [
    '| anomaly | possible? | why | fix | reproducer |',
    '| ------- | --------- | --- | --- | ---------- |',
  ];
  for (const row of answerRows(result, expectation)) {
    const kind = row.found && row.forbidden ? `**${row.kind}** (forbidden)` : row.kind;
    const reproducer = row.reproducer === undefined ? '—' : link(row.reproducer, file);
    lines.push(
      `| ${kind} | ${cell(row.possible)} | ${cell(row.why)} | ${cell(row.fix)} | ${reproducer} |`,
    );
  }
  return lines;
}

function filesSection(result: AuditResult): string[] {
  const lines = ['## The files as read', ''];
  for (const echo of echoOf(result.input, result.scenario)) {
    lines.push(`### ${cell(echo.path || '(none)')}: ${echo.what}`, '');
    lines.push('| key | value | from |', '| --- | ----- | ---- |');
    for (const row of echo.rows) {
      const from = row.from === 'file' ? `line ${row.line ?? ''}` : 'default';
      lines.push(`| \`${row.key}\` | \`${cell(row.value)}\` | ${from} |`);
    }
    const ignored = echo.ignored.map((key) => `\`${key.key}\` (line ${key.line}: ${key.why})`);
    lines.push('', `Ignored: ${ignored.length === 0 ? 'none' : ignored.join(', ')}.`, '');
  }
  return lines;
}

function fixesSection(result: AuditResult, file: string): string[] {
  const lines = ['## Fixes tried, smallest first', ''];
  for (const answer of result.answers) {
    const found = answer.found;
    if (found === undefined) continue;
    const { reproducer } = found;
    lines.push(
      `### ${answer.kind}`,
      '',
      `Reproducer ${link(reproducer.file, file)}: seed ${reproducer.seed}, ` +
        `${reproducer.before.faults} faults and ${reproducer.before.operations} operations ` +
        `shrunk to ${reproducer.after.faults} and ${reproducer.after.operations}; replayed from ` +
        `the file: ${reproducer.replayed ? 'shows it again' : 'does NOT show it'}.`,
      '',
    );
    if (found.tried.length === 0) lines.push('No candidate in the table applies.', '');
    for (const tried of found.tried) {
      const detail = tried.detail === undefined ? '' : ` (${cell(tried.detail)})`;
      const reason = tried.reason === undefined ? '' : `; there: ${cell(tried.reason)}`;
      lines.push(`- ${cell(tried.fix)}: ${tried.result}${detail}${reason}`);
    }
    lines.push('');
  }
  return lines;
}

/**
 * The Markdown report of `result`, to be written at `file` (links are relative to it).
 * @example auditMarkdown(result, 'no-loss', 'audit.md').startsWith('# eos-sim audit') // true
 */
export function auditMarkdown(result: AuditResult, expectation: Expectation, file: string): string {
  const { sweep } = result;
  return [
    '# eos-sim audit',
    '',
    `**${verdictLine(result, expectation)}**`,
    '',
    ...answerTable(result, expectation, file),
    '',
    ...filesSection(result),
    ...fixesSection(result, file),
    '## How it ran',
    '',
    `Scenario ${link(result.scenarioFile, file)} under swarm mode ` +
      '(every fault kind may be drawn), ' +
      `seeds ${result.seeds.first}..${result.seeds.last}; each fix swept over seeds ` +
      `${result.fixSeeds.first}..${result.fixSeeds.last}. Seeds that did not settle after the ` +
      `faults healed: ${
        sweep.livenessSeeds.length === 0 ? 'none' : sweep.livenessSeeds.join(', ')
      }; ` +
      `seeds the simulator could not finish: ${
        sweep.errorSeeds.length === 0 ? 'none' : sweep.errorSeeds.join(', ')
      }. Sweep ${Math.round(sweep.wallMs / 100) / 10} s, whole audit ` +
      `${Math.round(result.wallMs / 100) / 10} s.`,
    '',
  ].join('\n');
}
