/**
 * `eos-sim check <history> [--json] [--all-errors] [--jepsen-history F]`: the checkers alone,
 * on a history file written by `eos-sim run --history` or recorded elsewhere in the same format
 * (docs/history.md). It prints each anomaly kind with its count and explanations, or the
 * CheckResult as JSON, and exits 0 when the history is valid, 1 when an anomaly was found, 70
 * when a checker failed (the verdict is unknown) and 64 for an unreadable or invalid file.
 */
import { EXAMPLES_MAX_DEFAULT, checkHistory, type CheckResult } from '../../sim/checker';
import { renderJepsenHistory } from '../../reports';
import { writeOutputFile } from '../file_io';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import { readHistoryFile, type HistoryInput } from '../history_input';
import { checkOutputFile } from '../output_paths';
import type { CliContext } from '../io';

/** The parsed arguments of `eos-sim check`. */
export interface CheckCommandOptions {
  /** Path of the history file. */
  readonly file: string;
  /** `--json`: print the CheckResult as JSON. @default false */
  readonly json: boolean;
  /** `--all-errors`: keep every anomaly rather than 20 per kind. @default false */
  readonly allErrors: boolean;
  /** `--jepsen-history F`: also write the history in Jepsen's Kafka shape to F. */
  readonly jepsenHistory: string | undefined;
}

/** The exit code of a verdict. */
export function exitCodeForCheck(result: CheckResult): ExitCode {
  if (result.valid === true) return EXIT_CODES.ok;
  return result.valid === false ? EXIT_CODES.fail : EXIT_CODES.internal;
}

function describeInput(input: HistoryInput): string {
  const { header, history } = input;
  const what =
    header.scenario === undefined
      ? 'a recorded history'
      : `${header.scenario.name} (${header.scenario.file})`;
  const seed = header.seed === undefined ? '' : `, seed ${header.seed}`;
  return `history of ${what}${seed}: ${history.length} operations`;
}

/** The verdict as text: one block per anomaly kind. */
export function renderCheckResult(result: CheckResult): string {
  const lines: string[] = [];
  const verdict = result.valid === true ? 'valid' : result.valid === false ? 'INVALID' : 'UNKNOWN';
  lines.push(`verdict: ${verdict}`);
  for (const { checker, error } of result.checkerErrors) {
    lines.push(`checker ${checker} failed, so the verdict is unknown: ${error}`);
  }
  for (const { kind, count } of result.anomalyCounts) {
    lines.push(`${count} ${kind}`);
    for (const anomaly of result.anomalies.filter((candidate) => candidate.kind === kind)) {
      lines.push(`  - ${anomaly.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `eos-sim check` and returns its exit code.
 * @throws UsageError for a missing or invalid history file, or a --jepsen-history path that
 * cannot be written.
 * @example checkCommand({ file: 'out.jsonl', json: false, allErrors: false,
 *   jepsenHistory: undefined }, context) // 1 when an anomaly was found
 */
export function checkCommand(options: CheckCommandOptions, context: CliContext): ExitCode {
  if (options.jepsenHistory !== undefined) {
    checkOutputFile('--jepsen-history', options.jepsenHistory);
  }
  const input = readHistoryFile(options.file);
  const examplesMax = options.allErrors ? Number.MAX_SAFE_INTEGER : EXAMPLES_MAX_DEFAULT;
  const result = checkHistory(input.history, input.oracle, { examplesMax });
  const { stdout } = context.io;
  if (options.json) stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else stdout.write(`${describeInput(input)}\n${renderCheckResult(result)}`);
  if (options.jepsenHistory !== undefined) {
    writeOutputFile(options.jepsenHistory, renderJepsenHistory(input.history));
    context.io.stderr.write(`wrote Jepsen history ${options.jepsenHistory}\n`);
  }
  return exitCodeForCheck(result);
}
