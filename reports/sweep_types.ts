/**
 * The result of a sweep: many seeds of one or more scenarios. The CLI builds it run by run; the
 * renderers in `sweep_summary.ts` turn it into text, and `--json` prints it as is. Seeds are
 * decimal u64 strings (style rule 5), so ranges are strings too.
 */
import type { RunOutcome } from '../runner';

/** How one seed of a sweep ended: a run outcome, or the simulator itself failed. */
export type SweepOutcome = RunOutcome | 'internal-error';

/** Every sweep outcome, in the order summaries list them. */
export const SWEEP_OUTCOMES: readonly SweepOutcome[] = [
  'pass',
  'fail',
  'liveness',
  'budget-exceeded',
  'internal-error',
];

/** One seed of a sweep. */
export interface SweepRun {
  readonly scenario: string;
  readonly file: string;
  readonly seed: string;
  readonly outcome: SweepOutcome;
  /** Anomaly kinds found (sorted); empty for an internal error. */
  readonly anomalyTypes: readonly string[];
  /** Kinds among `anomalyTypes` the scenario does not allow. */
  readonly unexpectedAnomalyTypes: readonly string[];
  /** Expectations the run did not meet, by name. */
  readonly unmetExpectations: readonly string[];
  readonly reproduce: string;
  /** The internal error's message, or why the run stopped early. */
  readonly error?: string;
}

/** How often one expected anomaly kind was found, against `expect.detectPercentMin`. */
export interface DetectionRate {
  readonly kind: string;
  /** Seeds whose run found this kind. */
  readonly seedsDetected: number;
  readonly seedsRun: number;
  /** `expect.detectPercentMin` of the scenario. */
  readonly percentMin: number;
  /** Whether `seedsDetected / seedsRun ≥ percentMin / 100`, compared exactly. */
  readonly met: boolean;
}

/** One anomaly kind over a sweep of one scenario. */
export interface SweepAnomalyCount {
  readonly kind: string;
  /** Seeds whose run found at least one. */
  readonly seeds: number;
  /** Anomalies found in total, before the per-run example cap. */
  readonly anomalies: number;
  /** Whether the scenario allows (expects) this kind. */
  readonly expected: boolean;
}

/** A sweep of one scenario over a seed range. */
export interface ScenarioSweep {
  readonly scenario: string;
  readonly file: string;
  readonly seeds: { readonly first: string; readonly last: string };
  readonly seedsRun: number;
  /** Runs per outcome; every outcome of {@link SWEEP_OUTCOMES} is present. */
  readonly outcomes: Readonly<Record<SweepOutcome, number>>;
  /** Sorted by kind. */
  readonly anomalyCounts: readonly SweepAnomalyCount[];
  /** One entry per kind of `expect.anomalies`, in the scenario's order. */
  readonly detection: readonly DetectionRate[];
  /** The first runs that did not pass, in seed order (capped). */
  readonly failures: readonly SweepRun[];
  /** Runs that did not pass, in total. */
  readonly failureCount: number;
  /** Every run passed and every detection rate was met. */
  readonly expectationMet: boolean;
}

/** A whole sweep: one entry per scenario, in the order they ran. */
export interface SweepSummary {
  readonly scenarios: readonly ScenarioSweep[];
}
