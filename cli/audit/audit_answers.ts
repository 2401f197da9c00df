/**
 * The answer table of an audit, one row per anomaly kind, found kinds first: possible or not in
 * the seeds swept, why (the guarantee model's reason), and the smallest verified fix. The
 * console, Markdown and HTML reports all render these rows.
 */
import type { Expectation } from './audit_expect';
import { forbiddenKinds } from './audit_expect';
import type { AuditResult, KindAnswer } from './audit_run';
import { seedCount } from '../seeds';

/** One row of the answer table. */
export interface AnswerRow {
  readonly kind: string;
  readonly found: boolean;
  /** Whether `--expect` forbids the kind. */
  readonly forbidden: boolean;
  readonly possible: string;
  readonly why: string;
  readonly fix: string;
  /** The reproducer's path, when the kind was found. */
  readonly reproducer?: string;
}

function percent(part: number, whole: number): string {
  return `${Math.round((part * 1000) / Math.max(1, whole)) / 10}%`;
}

/** The fix column: the verified fix, or why none was. */
function fixOf(answer: KindAnswer): string {
  const found = answer.found;
  if (found === undefined) return '—';
  const verified = found.tried.find((tried) => tried.result === 'verified');
  if (verified !== undefined) {
    const swept = verified.detail ?? '';
    return `${verified.fix} (verified: the reproducer no longer shows it; ${swept})`;
  }
  if (found.tried.length === 0) return 'none: no configuration change in the table applies';
  const last = found.tried[found.tried.length - 1];
  const reason = last?.reason === undefined ? '' : `; there: ${last.reason}`;
  return (
    `none verified among ${found.tried.length} tried; the largest, ${last?.fix ?? ''}: ` +
    `${last?.result ?? ''}${last?.detail === undefined ? '' : ` (${last.detail})`}${reason}`
  );
}

/**
 * The rows of `result` under `expectation`, found kinds first.
 * @example answerRows(result, 'no-loss')[0]?.possible // 'yes: 7 of 20 seeds (35%), first 3'
 */
export function answerRows(result: AuditResult, expectation: Expectation): AnswerRow[] {
  const seeds = result.sweep.seedsRun;
  const forbidden = forbiddenKinds(expectation);
  const rows = result.answers.map((answer): AnswerRow => {
    const base = { kind: answer.kind, forbidden: forbidden.includes(answer.kind) };
    const found = answer.found;
    if (found === undefined) {
      return { ...base, found: false, possible: `not found in ${seeds} seeds`, why: '—', fix: '—' };
    }
    const count = found.tally.seeds.length;
    const violating = found.tally.violatingSeeds.length;
    const possible =
      `yes: ${count} of ${seeds} seeds (${percent(count, seeds)}), first ${found.tally.seeds[0]}` +
      (violating > 0 ? `; violates Kafka's guarantee in ${violating}` : '');
    return {
      ...base,
      found: true,
      possible,
      why: `seed ${found.seed}: ${found.reason}`,
      fix: fixOf(answer),
      reproducer: found.reproducer.file,
    };
  });
  return [...rows.filter((row) => row.found), ...rows.filter((row) => !row.found)];
}

/** Whether the audit found a kind `expectation` forbids: exit 1 then. */
export function expectationBroken(result: AuditResult, expectation: Expectation): boolean {
  return answerRows(result, expectation).some((row) => row.found && row.forbidden);
}

/** The one-line verdict under the table. */
export function verdictLine(result: AuditResult, expectation: Expectation): string {
  const broken = answerRows(result, expectation).filter((row) => row.found && row.forbidden);
  const swept = `${result.sweep.seedsRun} swarm seeds (${seedCount(result.seeds)} planned)`;
  return broken.length === 0
    ? `--expect ${expectation}: met: nothing it forbids was found in ${swept}`
    : `--expect ${expectation}: NOT met: ${broken.map((row) => row.kind).join(', ')} ` +
        `found in ${swept}`;
}
