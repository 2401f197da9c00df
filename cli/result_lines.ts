/**
 * Builds the result line of one seed: from a finished run (in a worker), from an error the run
 * threw (in a worker), or from a seed the worker never finished (in the main thread: a
 * wall-clock timeout or a worker that died). Every field but `wallMs` is a function of scenario,
 * seed and build, so the same seed gives the same line on any worker and any shard.
 */
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BudgetExceededError } from '../sim/kernel';
import {
  EOS_SIM_VERSION,
  reproduceCommand,
  runCoverage,
  sortedRecord,
  type RunResult,
} from '../sim/runner';
import type { SweepOutcome, SweepResultLine } from '../reports';
import type { BugId } from '../scenarios';
import { errorMessage } from './errors';

/** What a line needs to know about its scenario; small enough to send to a worker per task. */
export interface LineScenario {
  readonly file: string;
  readonly name: string;
  readonly hash: string;
  readonly expected: readonly string[];
  /** `expect.allowed`. */
  readonly allowed: readonly string[];
  readonly detectPercentMin: number;
  /** `--swarm`: the worker draws swarm parameters from each seed. @default false */
  readonly swarm?: boolean;
  /** `--kafka-version`: the worker loads the file under this release. */
  readonly kafkaVersion?: string;
  /**
   * `eos-sim mutants`: the worker runs the generic base labelled `base` built from the file
   * (cli/mutants.ts) with bug switch `bug` on alone (null: the base itself, the control).
   */
  readonly mutant?: { readonly base: string; readonly bug: BugId | null };
}

function common(scenario: LineScenario, seed: string) {
  return {
    file: scenario.file,
    scenario: scenario.name,
    hash: scenario.hash,
    seed,
    version: EOS_SIM_VERSION,
    expected: scenario.expected,
    allowed: scenario.allowed,
    detectPercentMin: scenario.detectPercentMin,
    reproduce: reproduceCommand(
      scenario.file,
      seed,
      scenario.swarm === true,
      scenario.kafkaVersion,
    ),
  };
}

/**
 * The line of a finished run.
 * @example lineOfRun({ scenario, seed: '7', result: runScenario(config, { seed: '7' }), wallMs })
 */
export function lineOfRun(input: {
  readonly scenario: LineScenario;
  readonly seed: string;
  readonly result: RunResult;
  readonly wallMs: number;
}): SweepResultLine {
  const { report } = input.result;
  const anomalies = new Map(report.check.anomalyCounts.map(({ kind, count }) => [kind, count]));
  return {
    ...common(input.scenario, input.seed),
    outcome: report.outcome,
    anomalies: sortedRecord(anomalies),
    unexpected: report.unexpectedAnomalyTypes,
    covered: sortedCovers(report.guarantee.verdicts),
    unmet: report.expectations.filter((item) => !item.met).map((item) => item.name),
    coverage: runCoverage(input.result),
    eventHash: report.eventHash,
    eventsRun: report.eventsRun,
    simulatedUs: report.simulatedUs,
    switchesReached: report.kafka.switchesReached,
    ...(report.error === undefined ? {} : { error: report.error }),
    wallMs: input.wallMs,
  };
}

/** Each kind's cover, keys sorted (canonical lines). */
function sortedCovers(
  verdicts: RunResult['report']['guarantee']['verdicts'],
): Record<string, string> {
  const covers: Record<string, string> = {};
  const sorted = [...verdicts].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  for (const verdict of sorted) covers[verdict.kind] = verdict.coveredBy;
  return covers;
}

/** Why a seed has no run result. */
export interface SeedFailure {
  readonly outcome: Extract<SweepOutcome, 'internal-error' | 'budget-exceeded'>;
  /** One line, capital first. */
  readonly error: string;
  readonly stack?: string;
}

/** The package root, with and without symbolic links resolved, longest first. */
const PACKAGE_ROOTS = (() => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  let real = root;
  try {
    real = `${realpathSync(root)}${sep}`;
  } catch {
    // Keep the path as given.
  }
  return [...new Set([root, real])].sort((a, b) => b.length - a.length);
})();

/**
 * `stack` with the package root's path (and `file://` URLs of it) made relative, so the stack of
 * the same error is the same text in every checkout: result lines from CI shards that ran in
 * different directories can be merged and compared.
 * @example relativeStack('at f (/home/ci/eos-sim/cli/a.ts:1:2)') // 'at f (cli/a.ts:1:2)'
 */
function relativeStack(stack: string): string {
  let text = stack;
  for (const root of PACKAGE_ROOTS) {
    text = text.split(pathToFileURL(root).href).join('').split(root).join('');
  }
  return text;
}

/**
 * The failure a thrown error stands for: a budget overrun raised outside the runner is
 * `budget-exceeded`; anything else is an `internal-error` with its stack.
 * @example failureOf(new Error('boom')).error // 'Internal error: boom'
 */
export function failureOf(error: unknown): SeedFailure {
  if (error instanceof BudgetExceededError) {
    return { outcome: 'budget-exceeded', error: `Budget exceeded: ${errorMessage(error)}` };
  }
  const stack = error instanceof Error && error.stack !== undefined ? error.stack : undefined;
  return {
    outcome: 'internal-error',
    error: `Internal error: ${errorMessage(error)}`,
    ...(stack === undefined ? {} : { stack: relativeStack(stack) }),
  };
}

/**
 * The line of a seed that produced no run result.
 * @example lineOfFailure({ scenario, seed: '5', failure: failureOf(error), wallMs: 12 })
 */
export function lineOfFailure(input: {
  readonly scenario: LineScenario;
  readonly seed: string;
  readonly failure: SeedFailure;
  readonly wallMs: number;
}): SweepResultLine {
  const { failure } = input;
  return {
    ...common(input.scenario, input.seed),
    outcome: failure.outcome,
    anomalies: {},
    unexpected: [],
    unmet: [],
    coverage: {},
    eventHash: '',
    eventsRun: 0,
    simulatedUs: 0,
    error: failure.error,
    ...(failure.stack === undefined ? {} : { stack: failure.stack }),
    wallMs: input.wallMs,
  };
}
