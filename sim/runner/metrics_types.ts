/**
 * Run metrics in the form Kafka operators know them: the producer's per-call transaction
 * timings (Kafka's `txn-init-time`, `txn-begin-time`, `txn-send-offsets-time`,
 * `txn-commit-time`, `txn-abort-time` producer metrics, KIP-847), commit latency percentiles,
 * fencing and abort counts, each partition's gap between the high watermark and the last stable
 * offset over time, and consumer lag measured against the log end offset, the high watermark and
 * the last stable offset. Every time is virtual, in microseconds.
 */
import type { LateTransactionsGauge } from '../history';
import type { RunPhaseName } from './report_types';

/** A latency distribution; all fields 0 when `count` is 0. Percentiles are nearest-rank. */
export interface LatencySummary {
  readonly count: number;
  readonly meanUs: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  /** Why the phase has no samples or what it measures in the model, when that needs saying. */
  readonly note?: string;
}

/** How long each transactional producer call blocked the application. */
export interface TransactionPhases {
  /** initTransactions(): FindCoordinator and InitProducerId until the producer is ready. */
  readonly init: LatencySummary;
  /** beginTransaction(): a local state change in Kafka's producer and in the model. */
  readonly begin: LatencySummary;
  /** sendOffsetsToTransaction(). */
  readonly sendOffsets: LatencySummary;
  /** commitTransaction(): flush, EndTxn(COMMIT) until the coordinator answers. */
  readonly commit: LatencySummary;
  /** abortTransaction(), called by the application or after an abortable error. */
  readonly abort: LatencySummary;
}

/** Counts of fencing and aborts. */
export interface TransactionCounts {
  /** `txn` operations started. */
  readonly transactions: number;
  readonly committed: number;
  /** Aborted by the application's choice or after an abortable error, acknowledged. */
  readonly aborted: number;
  /** Certainly not committed (a definite error). */
  readonly failed: number;
  /** Outcome unknown to the client (`info`). */
  readonly unknown: number;
  /** Client operations that completed with PRODUCER_FENCED or INVALID_PRODUCER_EPOCH. */
  readonly fencingErrors: number;
  readonly fencedClients: number;
  /**
   * Producer epochs granted by the coordinators, by reason: InitProducerId, fencing an open
   * transaction, a transaction timeout, or an EndTxn under transaction version 2 (KIP-890).
   */
  readonly epochBumps: {
    readonly init: number;
    readonly fence: number;
    readonly timeout: number;
    readonly end: number;
  };
}

/** The largest HW−LSO gap within one phase of the run and how long a gap lasted in it. */
export interface PhaseGap {
  readonly phase: RunPhaseName;
  readonly gapMax: number;
  readonly unstableUs: number;
}

/** One partition's gap between its high watermark and its last stable offset. */
export interface StableOffsetGap {
  readonly topic: string;
  readonly partition: number;
  /** The largest gap, in offsets, over the whole run. */
  readonly gapMax: number;
  /** How long the gap was above zero, microseconds, over the whole run. */
  readonly unstableUs: number;
  /** The same per phase, so the workload's figures are not mixed with heal and liveness. */
  readonly phases: readonly PhaseGap[];
  readonly series: ReadonlyArray<{ readonly timeUs: number; readonly gap: number }>;
}

/** A consumer's largest lags on one partition within one phase. */
export interface PhaseLag {
  readonly phase: RunPhaseName;
  readonly polls: number;
  readonly logEndOffsetLagMax: number;
  readonly highWatermarkLagMax: number;
  readonly lastStableOffsetLagMax: number;
}

/** A consumer's lag at one poll, measured against each of the three offsets. */
export interface LagAtPoll {
  readonly client: string;
  readonly isolationLevel: 'read_committed' | 'read_uncommitted';
  readonly timeUs: number;
  readonly position: number;
  /** Log end offset minus position. */
  readonly logEndOffsetLag: number;
  /**
   * High watermark minus position: the lag `kafka-consumer-groups --describe` shows, whose
   * LOG-END-OFFSET column is ListOffsets(latest) at read_uncommitted, the high watermark.
   */
  readonly highWatermarkLag: number;
  /**
   * Last stable offset minus position: what a read_committed consumer computes as
   * `endOffsets()` minus `position()`, since its `endOffsets()` returns the LSO.
   */
  readonly lastStableOffsetLag: number;
}

/**
 * A stretch during which a partition's last stable offset stayed at one offset while the high
 * watermark was above it: an open transaction holding back read_committed consumers.
 */
export interface LastStableOffsetStall {
  readonly topic: string;
  readonly partition: number;
  /** The phase the stall began in. */
  readonly phase: RunPhaseName;
  /** The offset the LSO was held at: the first offset of the oldest open transaction. */
  readonly lastStableOffset: number;
  /** When the high watermark first passed the held LSO, microseconds. */
  readonly fromUs: number;
  /** When the LSO moved on; absent when it was still held at the end of the run. */
  readonly toUs?: number;
  /** The largest HW − LSO during the stall: offsets read_committed could not see. */
  readonly heldBackMax: number;
  /** When that was first reached, microseconds. */
  readonly heldBackMaxUs: number;
  /**
   * The high watermark and log end offset when the most was held back (the first such instant):
   * the backlog read_committed consumers cannot see yet is `highWatermark - lastStableOffset`.
   */
  readonly highWatermark: number;
  readonly logEndOffset: number;
  /** The LSO right after the stall: it jumps there in one step. Absent when still held. */
  readonly jumpTo?: number;
  /** Each consumer's lag at its last poll of this partition during the stall. */
  readonly consumers: readonly LagAtPoll[];
}

/** A consumer's lag on one partition after each poll, measured three ways. */
export interface ConsumerLag {
  readonly client: string;
  readonly topic: string;
  readonly partition: number;
  readonly isolationLevel: 'read_committed' | 'read_uncommitted';
  /** Largest lag against the high watermark and against the last stable offset. */
  readonly highWatermarkLagMax: number;
  readonly lastStableOffsetLagMax: number;
  /** The largest lags per phase, over the polls of that phase. */
  readonly phases: readonly PhaseLag[];
  readonly series: ReadonlyArray<{
    readonly timeUs: number;
    readonly position: number;
    /** Log end offset minus position. */
    readonly logEndOffsetLag: number;
    /** High watermark minus position: what read_uncommitted could still read. */
    readonly highWatermarkLag: number;
    /** Last stable offset minus position (0 when past it): what read_committed could read. */
    readonly lastStableOffsetLag: number;
  }>;
}

/** Every metric of a run. */
export interface RunMetrics {
  readonly transactionPhases: TransactionPhases;
  /** commitTransaction() latency of the commits that succeeded. */
  readonly commitLatency: LatencySummary;
  /** beginTransaction() to the end of a committed transaction. */
  readonly transactionLatency: LatencySummary;
  readonly counts: TransactionCounts;
  readonly stableOffsetGaps: readonly StableOffsetGap[];
  readonly consumerLag: readonly ConsumerLag[];
  /**
   * The largest stalls of the last stable offset: per partition and phase, the three that held
   * back the most offsets (`STALLS_PER_PHASE_MAX` in `stalls.ts`), in time order.
   */
  readonly stalls: readonly LastStableOffsetStall[];
  /**
   * Kafka's PartitionsWithLateTransactionsCount (KIP-664), summed over the brokers (absent when
   * the oracle does not have it, as for a history file from outside the simulator).
   */
  readonly lateTransactions?: LateTransactionsGauge;
}
