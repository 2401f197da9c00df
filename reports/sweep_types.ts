/**
 * The result of a sweep: many seeds of one or more scenarios. The CLI builds it run by run; the
 * renderers in `sweep_summary.ts` turn it into text, and `--json` prints it as is. Seeds are
 * decimal u64 strings (style rule 5), so ranges are strings too.
 */
import type { RunOutcome } from '../sim/runner';

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
  /** Whether every seed that found it was covered: Kafka permits it, or the scenario expects it. */
  readonly expected: boolean;
  /**
   * Seeds per cover (`kafka:<permission id>`, `expect.anomalies`, `expect.allowed`; empty: a
   * violation nothing covered), keys sorted.
   */
  readonly coveredBy: Readonly<Record<string, number>>;
  /** The lowest seeds that found it, in numeric order (capped). */
  readonly firstSeeds: readonly string[];
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
  /** Per outcome other than `pass`, the lowest seeds that ended so (capped); absent when none. */
  readonly outcomeFirstSeeds: Readonly<Partial<Record<SweepOutcome, readonly string[]>>>;
  /** Every run passed and every detection rate was met. */
  readonly expectationMet: boolean;
}

/** One protocol-state coverage item (`error:PRODUCER_FENCED`, `fault:pause`) over a sweep. */
export interface CoverageCount {
  readonly item: string;
  /** Seeds whose run reached it. */
  readonly seeds: number;
  /** Occurrences over all those runs. */
  readonly occurrences: number;
}

/** One `--require-coverage` name and whether the sweep reached it. */
export interface RequiredCoverage {
  /** As given: `category:name`, or a bare name matching any category. */
  readonly name: string;
  readonly reached: boolean;
}

/** Wall-clock figures of a sweep: they vary from machine to machine and run to run. */
export interface SweepTiming {
  readonly workers: number;
  /** Seeds run by this invocation (not those skipped by `--resume`). */
  readonly seedsRun: number;
  /** Seeds skipped because the results file already held them. */
  readonly seedsResumed: number;
  readonly wallMs: number;
  readonly seedsPerSecond: number;
  /** The largest V8 heap of one worker, sampled after each seed, in bytes. */
  readonly workerHeapPeakBytes: number;
  /** The process's peak resident set (main thread and every worker), in bytes. */
  readonly processRssPeakBytes: number;
}

/** A whole sweep: one entry per scenario, in the order they ran. */
export interface SweepSummary {
  readonly scenarios: readonly ScenarioSweep[];
  /** Protocol states reached over the whole sweep, sorted by item. */
  readonly coverage?: readonly CoverageCount[];
  /** The `--require-coverage` names, in the order given. */
  readonly requiredCoverage?: readonly RequiredCoverage[];
  /** Absent for a merged report and from the JSON of a deterministic comparison. */
  readonly timing?: SweepTiming;
}

/**
 * One line of `results.jsonl`: the result of one seed of one scenario. Every field except
 * `wallMs` depends only on the scenario file, the seed and the build, never on the worker or the
 * shard that ran it, so lines from different machines can be merged and compared. Serialised as
 * canonical JSON (sorted keys) by the CLI.
 */
export interface SweepResultLine {
  /** The scenario file, as given on the command line. */
  readonly file: string;
  /** The scenario's name. */
  readonly scenario: string;
  /** SHA-256 of the scenario file. */
  readonly hash: string;
  readonly seed: string;
  /** The eos-sim version that ran it. */
  readonly version: string;
  readonly outcome: SweepOutcome;
  /** Anomaly counts by kind, keys sorted; empty when none or the run did not finish. */
  readonly anomalies: Readonly<Record<string, number>>;
  /** Kinds the scenario allows (its `expect.anomalies`). */
  readonly expected: readonly string[];
  /** Kinds it permits without a detection rate (its `expect.allowed`); [] in older files. */
  readonly allowed: readonly string[];
  /** `expect.detectPercentMin` of the scenario. */
  readonly detectPercentMin: number;
  /** Kinds found that the scenario does not allow. */
  readonly unexpected: readonly string[];
  /**
   * What covered each kind found (keys sorted): `kafka:<permission id>` when Kafka permits it
   * under this configuration, `expect.anomalies` or `expect.allowed` for a violation the
   * scenario expects or accepts, empty for a violation nothing covers. Absent in older lines.
   */
  readonly covered?: Readonly<Record<string, string>>;
  /** Names of the expectations the run did not meet. */
  readonly unmet: readonly string[];
  /** Protocol-state coverage items reached, `category:name` to count, keys sorted. */
  readonly coverage: Readonly<Record<string, number>>;
  /** The run's rolling event hash; empty when the run did not finish. */
  readonly eventHash: string;
  readonly eventsRun: number;
  readonly simulatedUs: number;
  /**
   * The bug switches the simulation consulted (sorted): a switch not listed could not have
   * changed this seed's events. Absent in older lines and when the run did not finish.
   */
  readonly switchesReached?: readonly string[];
  readonly reproduce: string;
  /** Why the run stopped early, or the internal error's message. */
  readonly error?: string;
  /** The internal error's stack. */
  readonly stack?: string;
  /** Wall-clock milliseconds the seed took: the one field that varies between runs. */
  readonly wallMs: number;
}
