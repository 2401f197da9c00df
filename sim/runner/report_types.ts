/**
 * The run report: the one source of truth about a run. Console, JSON and later Markdown and
 * HTML views are pure renderings of it. It carries the seed, the scenario and its hash, the
 * versions, the event hash, the outcome, every anomaly in Kafka's terms, the final state of each
 * partition, the faults and the reproduce command.
 */
import type { KindVerdict } from './guarantee_verdicts';
import type { Permission } from './kafka_guarantee';
import type { OperatorOutcome } from './operator_outcomes';
import type { AnomalyKind, CheckResult } from '../checker';
import type { EpochGrant, FaultInterval, Oracle } from '../history';
import type { RunMetrics } from './metrics_types';
import type { SwarmParameters } from './swarm';
import type { VersionDifference } from '../../scenarios';

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
  /** Every replica's broker, in broker order. */
  readonly replicas: readonly string[];
  /** The in-sync replicas at the end, in broker order. */
  readonly isr: readonly string[];
}

/**
 * The phases of a run, in order (`sim/runner/run.ts`): the workload with its faults until
 * `run.duration.ms`; heal (faults end, applications start nothing new) until the cluster
 * settles or `run.heal.ms` passes; the liveness probe (one more transaction or send per
 * producer, consumers catching up); settling again; the final reads at both isolation levels.
 */
export type RunPhaseName = 'workload' | 'heal' | 'liveness' | 'settle' | 'final-reads';

/** One phase of a run: from `fromUs` (inclusive) to `toUs`, virtual microseconds. */
export interface RunPhase {
  readonly name: RunPhaseName;
  readonly fromUs: number;
  readonly toUs: number;
}

/** A value of an offset (LEO, HW, LSO) from `timeUs` on, until the next point. */
export interface OffsetPoint {
  /** Virtual time, microseconds. */
  readonly timeUs: number;
  readonly offset: number;
}

/**
 * One partition's offsets over virtual time, as step series. The high watermark and last
 * stable offset are the oracle's spliced leader-term histories; the log end offset is rebuilt
 * from the append times of the final leader's records, so a truncated suffix does not appear.
 * In a report the three series have the same times (one point each per kept instant), so they
 * can be read together at any time.
 */
export interface PartitionTimeline {
  readonly topic: string;
  readonly partition: number;
  readonly logEndOffset: readonly OffsetPoint[];
  readonly highWatermark: readonly OffsetPoint[];
  readonly lastStableOffset: readonly OffsetPoint[];
}

/** How a client-side transaction ended. `open`: no completion before the run ended. */
export type TransactionOutcome = 'committed' | 'aborted' | 'failed' | 'unknown' | 'open';

/** One transaction (a `txn` operation) of a transactional.id, from the client's view. */
export interface TransactionSpan {
  readonly client: string;
  readonly process: string;
  /** beginTransaction(), microseconds. */
  readonly startUs: number;
  /** Completion of commitTransaction()/abortTransaction(), microseconds; absent when open. */
  readonly endUs?: number;
  readonly producerId?: number;
  readonly producerEpoch?: number;
  readonly outcome: TransactionOutcome;
  readonly error?: string;
}

/** A transactional.id's transactions and the producer epochs its coordinator granted. */
export interface TransactionalIdTimeline {
  readonly transactionalId: string;
  readonly spans: readonly TransactionSpan[];
  readonly epochGrants: readonly EpochGrant[];
}

/** What the charts of a report draw: offsets per partition and transactions per id. */
export interface RunTimeline {
  readonly partitions: readonly PartitionTimeline[];
  readonly transactionalIds: readonly TransactionalIdTimeline[];
  /**
   * Points kept per series. A partition's three series are thinned together at common times,
   * keeping both ends and the instants where each offset and each gap (HW−LSO, LEO−HW) is
   * largest and smallest; the rest are evenly spaced. Transaction spans are thinned evenly.
   */
  readonly pointsMax: number;
}

/** One arrow or note of a sequence diagram. */
export type SequenceStep =
  | {
      readonly type: 'message';
      /** Delivery time, microseconds. */
      readonly timeUs: number;
      readonly source: string;
      readonly target: string;
      readonly text: string;
      /** `error`: a response carrying an error other than NONE. */
      readonly style: 'request' | 'response' | 'error';
    }
  | {
      readonly type: 'note';
      readonly timeUs: number;
      /** One or two participants the note spans. */
      readonly over: readonly string[];
      readonly text: string;
    };

/** The messages that matter for one anomaly, in delivery order. */
export interface SequenceDiagram {
  readonly participants: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly steps: readonly SequenceStep[];
  /** Relevant messages left out to keep the diagram small. */
  readonly omitted: number;
  /** The time window the messages were taken from, microseconds. */
  readonly fromUs: number;
  readonly toUs: number;
}

/** One explained anomaly: what its kind means in Kafka and the messages around it. */
export interface AnomalyExplanation {
  /** Index into `check.anomalies`. */
  readonly anomalyIndex: number;
  readonly kind: AnomalyKind;
  /** What this kind means in Kafka's terms, and which guarantee it breaks. */
  readonly meaning: string;
  readonly sequence: SequenceDiagram;
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
  /**
   * The Kafka release modelled (`kafka.version`) and every switch the scenario sets to another
   * value than that release had (`bugs.KAFKA-16352: true`), and the bug switches the
   * simulation consulted at the points where a release with the bug and one without it part
   * ways: a switch not listed could not have changed this run's events, on or off.
   */
  readonly kafka: {
    readonly version: string;
    readonly differences: readonly VersionDifference[];
    /** Switch ids (`KAFKA-16352`, `confluentinc/librdkafka#4953`), sorted. [] in older reports. */
    readonly switchesReached: readonly string[];
  };
  readonly outcome: RunOutcome;
  /** The rolling hash of every executed event: equal hashes mean the same schedule. */
  readonly eventHash: string;
  readonly eventsRun: number;
  readonly simulatedUs: number;
  /** The phases the run went through, in order; the last ends at `simulatedUs`. */
  readonly phases: readonly RunPhase[];
  readonly check: CheckResult;
  /**
   * Anomaly kinds this run may show: `expect.anomalies`, `expect.allowed` and the kinds Kafka
   * permitted under this configuration and these faults.
   */
  readonly expectedAnomalyTypes: readonly string[];
  /** Anomaly kinds found that violate Kafka's guarantee and the scenario does not expect. */
  readonly unexpectedAnomalyTypes: readonly string[];
  /**
   * Kafka's guarantee under this configuration: what Kafka permits here (with reasons and
   * sources), and the verdict on each kind found.
   */
  readonly guarantee: {
    readonly permissions: readonly Permission[];
    readonly verdicts: readonly KindVerdict[];
  };
  readonly expectations: readonly ExpectationResult[];
  readonly partitions: readonly PartitionSummary[];
  readonly operations: readonly OperationCount[];
  /** Clients that received PRODUCER_FENCED or INVALID_PRODUCER_EPOCH. */
  readonly fencedClients: readonly string[];
  /** Followers whose fetcher stopped replicating a partition (absent when none did). */
  readonly fetchFailures?: Oracle['fetchFailures'];
  readonly faults: readonly FaultInterval[];
  /**
   * What the operator's commands (`kind: operator` faults) did, in the tool's words: absent in a
   * report read from an older JSON.
   */
  readonly operatorOutcomes?: readonly OperatorOutcome[];
  /** The first anomaly of each kind, explained with the messages around it. */
  readonly explanations: readonly AnomalyExplanation[];
  readonly timeline: RunTimeline;
  readonly metrics: RunMetrics;
  /** Deliveries the message log could not keep (its bound); 0 when it kept every one. */
  readonly messagesDropped: number;
  /** Whether the cluster settled after heal (no open transactions, clients idle). */
  readonly liveness: { readonly converged: boolean; readonly detail: string };
  readonly reproduce: string;
  /** What swarm mode drew for this seed (`--swarm`), when it was on. */
  readonly swarm?: SwarmParameters;
  /** Set when the run stopped early (budget exceeded). */
  readonly error?: string;
}
