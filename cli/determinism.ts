/**
 * Compares two runs of the same seed for `--check-determinism` (style rule 9): equal event
 * hashes and byte-identical JSON reports, and otherwise the first executed event where the two
 * schedules part, so the cause can be found from the event, not from a diff of reports.
 */
import type { RunResult } from '../sim/runner';

/** Where two sequences of lines first differ; `undefined` on a side that ended. */
export interface Divergence {
  /** 0-based position of the first difference. */
  readonly index: number;
  readonly first: string | undefined;
  readonly second: string | undefined;
}

/**
 * The first position where `first` and `second` differ, or undefined when they are equal.
 * @example firstDivergence(['a', 'b'], ['a', 'c']) // { index: 1, first: 'b', second: 'c' }
 */
export function firstDivergence(
  first: readonly string[],
  second: readonly string[],
): Divergence | undefined {
  const length = Math.max(first.length, second.length);
  for (let index = 0; index < length; index++) {
    if (first[index] !== second[index]) {
      return { index, first: first[index], second: second[index] };
    }
  }
  return undefined;
}

/** Lines up with the `key  value` lines of the console report above it. */
const LABEL = 'determinism'.padEnd(16);

/** The verdict of {@link compareRuns}: whether the runs matched, and the text to print. */
export interface DeterminismVerdict {
  readonly deterministic: boolean;
  readonly text: string;
}

/**
 * Compares two runs made with `recordEventLog: true`. Ends with a newline.
 * @example
 * const verdict = compareRuns(runScenario(s, options), runScenario(s, options));
 * if (!verdict.deterministic) process.stderr.write(verdict.text);
 */
export function compareRuns(first: RunResult, second: RunResult): DeterminismVerdict {
  const hashes = [first.report.eventHash, second.report.eventHash];
  const firstJson = JSON.stringify(first.report, null, 2);
  const secondJson = JSON.stringify(second.report, null, 2);
  if (hashes[0] === hashes[1] && firstJson === secondJson) {
    const events = first.report.eventsRun;
    return {
      deterministic: true,
      text:
        `${LABEL}deterministic: 2 runs executed the same ${events} events ` +
        `(event hash ${hashes[0]}) and gave identical reports\n`,
    };
  }
  const lines = [`${LABEL}NOT deterministic: event hashes ${hashes[0]} and ${hashes[1]}`];
  const events = firstDivergence(first.executedEvents, second.executedEvents);
  if (events !== undefined) {
    lines.push(`  first diverging executed event: #${events.index + 1}`);
    lines.push(`    run 1: ${events.first ?? '(run ended)'}`);
    lines.push(`    run 2: ${events.second ?? '(run ended)'}`);
  } else {
    const report = firstDivergence(firstJson.split('\n'), secondJson.split('\n'));
    lines.push('  the executed events match, but the reports differ');
    if (report !== undefined) {
      lines.push(`  first differing line of the JSON report: ${report.index + 1}`);
      lines.push(`    run 1: ${report.first?.trim() ?? '(report ended)'}`);
      lines.push(`    run 2: ${report.second?.trim() ?? '(report ended)'}`);
    }
  }
  return { deterministic: false, text: `${lines.join('\n')}\n` };
}
