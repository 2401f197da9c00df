/**
 * What a checker reports. Anomaly names follow Jepsen's Kafka workload where one exists
 * (`duplicate`, `lost-write`, `aborted-read`) and DESIGN.md's catalogue for the rest. A result
 * is `valid: false` when an anomaly was found and `'unknown'` when a checker itself failed.
 * Explanations are data; reports decide how to render them. Style rules 25 and 26.
 */

import type { AnomalyGroup } from './anomaly_groups';

/** Every anomaly kind the checkers can report. */
export const ANOMALY_KINDS = [
  'duplicate',
  'epoch-bump-duplicate',
  'lost-write',
  'zombie-write',
  'aborted-read',
  'uncommitted-read',
  'vanished-read',
  'read-above-hw',
  'inconsistent-offsets',
  'nonmonotonic-poll',
  'poll-skip',
  'torn-transaction',
  'hanging-transaction',
  'fatal-txn-error',
  'eos-violation',
  'g1c',
  'invariant',
] as const;

/** One of {@link ANOMALY_KINDS}. */
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/** One anomaly, located in Kafka's terms. */
export interface Anomaly {
  readonly kind: AnomalyKind;
  /** One sentence in Kafka's terms, e.g. which producerId/epoch wrote what at which offset. */
  readonly message: string;
  readonly topic?: string;
  readonly partition?: number;
  readonly offset?: number;
  /** Further offsets involved (a duplicate's other copies, the offsets a poll skipped). */
  readonly offsets?: readonly number[];
  readonly value?: number;
  /**
   * Further values involved, in the order of `offsets` or `brokers` when those are set (the
   * different values seen at one offset); null stands for a control marker.
   */
  readonly values?: ReadonlyArray<number | null>;
  /** Brokers involved: the replica that truncated a record, the replicas that diverge. */
  readonly brokers?: readonly string[];
  readonly producerId?: number;
  readonly producerEpoch?: number;
  /** The client that sent the record or delivered it. */
  readonly client?: string;
  /** The logical process (`reader#0`) when the anomaly is about one process's polls. */
  readonly process?: string;
  /** Virtual time of the event the anomaly is about. */
  readonly timeUs?: number;
  /**
   * `invariant`: the index of the kernel event that broke it (1-based `eventsRun`), so a run of
   * the same seed can stop there, and the seed and the invariant's name.
   */
  readonly eventIndex?: number;
  readonly seed?: string;
  readonly invariant?: string;
  /** The oracle's classification of why, when it knows (e.g. `never-written`). */
  readonly classification?: string;
  /** The transactional.id involved (`torn-transaction`, `hanging-transaction`). */
  readonly transactionalId?: string;
  /** A transaction's records and what became of each (`torn-transaction`), in send order. */
  readonly transactionRecords?: readonly TransactionRecordFate[];
  /** How long the condition lasted (`hanging-transaction`: the LSO pinned), in µs. */
  readonly durationUs?: number;
  /**
   * The coordinator's state for the transactional.id (`hanging-transaction`), e.g.
   * `CompleteAbort`; `none` when no coordinator knows the producerId.
   */
  readonly coordinatorState?: string;
  /** The committed outputs of one input record and who wrote each (`eos-violation`). */
  readonly writers?: readonly PipelineWriter[];
  /** Faults active at `timeUs`, as described in the history. */
  readonly activeFaults: readonly string[];
}

/**
 * One committed output record of a read-process-write pipeline and the instance that wrote it:
 * its client, transactional.id, producer identity, and the consumer group generation and member
 * id its transaction committed the input offsets under (KIP-447).
 */
export interface PipelineWriter {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly value: number;
  readonly client: string;
  readonly process: string;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly generationId: number;
  readonly memberId: string;
}

/**
 * One record of a transaction at the end of the run: `visible` to read_committed (a final read
 * delivered it), `aborted` (the partition holds it under a stable ABORT marker), `absent` (the
 * partition does not hold it), or `pending` (still open, or not yet below the last stable offset).
 */
export interface TransactionRecordFate {
  readonly topic: string;
  readonly partition: number;
  /** Null when the partition does not hold the record. */
  readonly offset: number | null;
  readonly value: number;
  readonly fate: 'visible' | 'aborted' | 'absent' | 'pending';
}

/** A checker's verdict, in Jepsen's shape. */
export interface CheckResult {
  readonly valid: true | false | 'unknown';
  readonly anomalyTypes: readonly AnomalyKind[];
  readonly anomalies: readonly Anomaly[];
  /** How many anomalies of each kind were found before the example cap, sorted by kind. */
  readonly anomalyCounts: ReadonlyArray<{ readonly kind: AnomalyKind; readonly count: number }>;
  /**
   * How many anomalies of each kind had each classification, before the example cap (absent
   * when none was classified): what a verdict on a classification needs beyond the examples.
   */
  readonly classificationCounts?: ReadonlyArray<{
    readonly kind: AnomalyKind;
    readonly classification: string;
    readonly count: number;
  }>;
  /**
   * How many anomalies of each kind had each classification and involved which partitions,
   * before the example cap (`anomaly_groups.ts`): what judging every anomaly, not only the
   * examples kept, needs.
   */
  readonly anomalyGroups?: readonly AnomalyGroup[];
  /** Checkers that threw, with their error: they make `valid` unknown, never false. */
  readonly checkerErrors: ReadonlyArray<{ readonly checker: string; readonly error: string }>;
}
