/**
 * The CLI's exit codes (DESIGN.md, "CLI sketch") and the one place that maps run outcomes,
 * sweeps and error classes to them (style rule 34).
 */
import type { RunOutcome } from '../sim/runner';
import { ScenarioInvalidError, ScenarioNotFoundError } from '../scenarios';
import type { SweepOutcome, SweepSummary } from '../reports';
import { UsageError } from './errors';

/** Exit codes, as DESIGN.md lists them. */
export const EXIT_CODES = {
  /** Every expectation met. */
  ok: 0,
  /** A safety anomaly the configuration does not allow, or an expectation not met. */
  fail: 1,
  /** The cluster did not converge after heal. */
  liveness: 2,
  /** Two runs of the same seed differed. */
  nondeterminism: 3,
  /** A run hit its event budget. */
  budgetExceeded: 4,
  /** Bad command line or invalid scenario file. */
  usage: 64,
  /** An output file or folder cannot be created (sysexits EX_CANTCREAT). */
  cannotCreate: 73,
  /** A write to an output file failed: a full device, an I/O error (sysexits EX_IOERR). */
  ioError: 74,
  /** The simulator itself failed (an assertion or an unexpected error). */
  internal: 70,
} as const;

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * The exit code of one run.
 * @example exitCodeForOutcome('liveness') // 2
 */
export function exitCodeForOutcome(outcome: RunOutcome): ExitCode {
  switch (outcome) {
    case 'pass':
      return EXIT_CODES.ok;
    case 'fail':
      return EXIT_CODES.fail;
    case 'liveness':
      return EXIT_CODES.liveness;
    case 'budget-exceeded':
      return EXIT_CODES.budgetExceeded;
  }
}

/**
 * The exit code of a sweep: any internal error gives 70; else any failed run, unmet detection
 * rate or `--require-coverage` item never reached 1; else any liveness run 2; else any
 * budget-exceeded run 4; else 0.
 * @example exitCodeForSweep({ scenarios: [] }) // 0
 */
export function exitCodeForSweep(summary: SweepSummary): ExitCode {
  const total = (outcome: SweepOutcome): number =>
    summary.scenarios.reduce((sum, sweep) => sum + sweep.outcomes[outcome], 0);
  const detectionUnmet = summary.scenarios.some((sweep) =>
    sweep.detection.some((rate) => !rate.met),
  );
  if (total('internal-error') > 0) return EXIT_CODES.internal;
  const coverageUnmet = (summary.requiredCoverage ?? []).some((item) => !item.reached);
  if (total('fail') > 0 || detectionUnmet || coverageUnmet) return EXIT_CODES.fail;
  if (total('liveness') > 0) return EXIT_CODES.liveness;
  if (total('budget-exceeded') > 0) return EXIT_CODES.budgetExceeded;
  return EXIT_CODES.ok;
}

/**
 * Whether `error` is the user's mistake (exit 64, one line, no stack): a bad argument or a
 * scenario file that cannot be used. Commander's own usage errors are mapped in `cli.ts`.
 * @example isInputError(new ScenarioNotFoundError('x.yaml')) // true
 */
export function isInputError(
  error: unknown,
): error is UsageError | ScenarioInvalidError | ScenarioNotFoundError {
  return (
    error instanceof UsageError ||
    error instanceof ScenarioInvalidError ||
    error instanceof ScenarioNotFoundError
  );
}
