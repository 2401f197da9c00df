/**
 * The run report: the one source of truth about a run. Console, JSON and later Markdown and
 * HTML views are pure renderings of it. It carries the seed, the scenario and its hash, the
 * versions, the event hash, the outcome, every anomaly in Kafka's terms, the final state of each
 * partition, the faults and the reproduce command.
 */
import type { CheckResult } from '../sim/checker';
import type { FaultInterval } from '../sim/history';
import type { SwarmParameters } from './swarm';

/**
 * How a run ended. `fail`: an anomaly the configuration does not allow, or an unmet
 * expectation.
 */
export type RunOutcome = 'pass' | 'fail' | 'liveness' | 'budget-exceeded';

/** One partition at the end of the run. */
export interface PartitionSummary {
  readonly topic: string;
  readonly partition: number;
  readonly leader: string;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly openTransactions: number;
}

/** Counts of one operation function by completion type. */
export interface OperationCount {
  readonly f: string;
  readonly invoke: number;
  readonly ok: number;
  readonly fail: number;
  readonly info: number;
}

/** One expectation of the scenario and whether this run met it. */
export interface ExpectationResult {
  readonly name: string;
  readonly met: boolean;
  readonly detail: string;
}

/** The report of one run. */
export interface RunReport {
  readonly tool: {
    readonly name: 'eos-sim';
    readonly version: string;
    readonly seedrandom: string;
  };
  readonly seed: string;
  readonly scenario: { readonly name: string; readonly file: string; readonly hash: string };
  readonly outcome: RunOutcome;
  /** The rolling hash of every executed event: equal hashes mean the same schedule. */
  readonly eventHash: string;
  readonly eventsRun: number;
  readonly simulatedUs: number;
  readonly check: CheckResult;
  /** Anomaly kinds the scenario allows (expects) for its configuration. */
  readonly expectedAnomalyTypes: readonly string[];
  /** Anomaly kinds found that the scenario does not allow. */
  readonly unexpectedAnomalyTypes: readonly string[];
  readonly expectations: readonly ExpectationResult[];
  readonly partitions: readonly PartitionSummary[];
  readonly operations: readonly OperationCount[];
  /** Clients that received PRODUCER_FENCED or INVALID_PRODUCER_EPOCH. */
  readonly fencedClients: readonly string[];
  readonly faults: readonly FaultInterval[];
  /** Whether the cluster settled after heal (no open transactions, clients idle). */
  readonly liveness: { readonly converged: boolean; readonly detail: string };
  readonly reproduce: string;
  /** What swarm mode drew for this seed (`--swarm`), when it was on. */
  readonly swarm?: SwarmParameters;
  /** Set when the run stopped early (budget exceeded). */
  readonly error?: string;
}
