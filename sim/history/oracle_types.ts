/**
 * The oracle: what every partition really holds at the end of a run, and what the coordinators
 * decided along the way. Only a simulator can see this; checkers use it to classify an anomaly
 * (why a write is missing, which fenced producer wrote a record) while the history says what
 * clients saw.
 */

/** One offset of a partition's log: a data record or a control marker. */
export interface OracleRecord {
  readonly offset: number;
  /** The record's value for data records; null for control markers. */
  readonly value: number | null;
  /** -1 when the batch carried no producer id (idempotence off). */
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The record's sequence number, -1 for none (markers, non-idempotent batches). */
  readonly sequence: number;
  readonly isTransactional: boolean;
  /** Set for control markers. */
  readonly control?: 'COMMIT' | 'ABORT';
  /** Virtual time the leader appended the record (LogAppendTime). */
  readonly appendUs: number;
}

/**
 * A run of consecutive offsets written as one record batch: a data batch of one producer (one
 * record per value, sequences from `baseSequence`) or a control batch (one COMMIT or ABORT
 * marker at `baseOffset`). The simulator's oracle keeps its logs as batches, so a partition costs
 * what its batches cost; `oracleRecordsOf` expands them where one record at a time is needed.
 */
export interface OracleBatch {
  readonly baseOffset: number;
  /** The batch's last offset (inclusive): `baseOffset + values.length - 1` for data. */
  readonly lastOffset: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The first record's sequence, -1 for none (markers, non-idempotent batches). */
  readonly baseSequence: number;
  readonly isTransactional: boolean;
  /** Set for a control batch. */
  readonly control?: 'COMMIT' | 'ABORT';
  /** Virtual time the leader appended the batch (LogAppendTime). */
  readonly appendUs: number;
  /** The data records' values in offset order; empty for a control batch. */
  readonly values: readonly number[];
}

/**
 * A partition's or replica's log: `batches` (as the simulator writes it) or `records` (one entry
 * per offset, as a history file from a real cluster may give it). Exactly one is set.
 */
export interface OracleLog {
  readonly batches?: readonly OracleBatch[];
  readonly records?: readonly OracleRecord[];
}

/** A change of a partition's high watermark or last stable offset, at a virtual time. */
export interface OffsetChange {
  readonly timeUs: number;
  readonly offset: number;
}

/** One partition as its leader holds it at the end of the run. */
export interface OraclePartition extends OracleLog {
  readonly topic: string;
  readonly partition: number;
  readonly leader: string;
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  /** Every change of the high watermark, in time order, starting from its first value. */
  readonly highWatermarkChanges: readonly OffsetChange[];
  /** Every change of the last stable offset, in time order, starting from its first value. */
  readonly lastStableOffsetChanges: readonly OffsetChange[];
  /** Open transactions at the end: producer id, epoch and first offset. */
  readonly openTransactions: ReadonlyArray<{
    readonly producerId: number;
    readonly producerEpoch: number;
    readonly firstOffset: number;
  }>;
  /** Every replica's final log (absent for histories recorded outside the simulator). */
  readonly replicas?: readonly OracleReplica[];
}

/** One replica of a partition at the end of the run. */
export interface OracleReplica extends OracleLog {
  readonly broker: string;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly inSyncReplica: boolean;
}

/** A leader election by the controller. */
export interface OracleElection {
  readonly timeUs: number;
  readonly topic: string;
  readonly partition: number;
  /** null when the partition went offline. */
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly kind: 'clean' | 'unclean' | 'offline';
  /**
   * KIP-966's rule when the leader came from outside the ISR: `elr` (the eligible leader
   * replicas) or `last-known-leader` (ISR and ELR empty, PartitionChangeBuilder
   * .canElectLastKnownLeader). Absent for an ISR election and outside the simulator.
   */
  readonly rule?: 'elr' | 'last-known-leader';
}

/** Records a replica removed from its log, and why. */
export interface OracleTruncation {
  readonly timeUs: number;
  readonly topic: string;
  readonly partition: number;
  readonly broker: string;
  /** The new log end offset. */
  readonly toOffset: number;
  /**
   * `diverging-epoch`: KIP-101 truncation after a leader change; `high-watermark`: legacy
   * truncation to the follower's own HW; `power-loss`: the unflushed tail was lost.
   */
  readonly reason: 'diverging-epoch' | 'high-watermark' | 'power-loss' | 'leader-behind';
  readonly removed: readonly OracleRecord[];
  /**
   * For a `__transaction_state` truncation: the removed records of an open transaction that a
   * coordinator had loaded before the truncation and so answered from. Absent when there were
   * none, and outside the simulator.
   */
  readonly loadedTransactions?: readonly OracleLoadedTransaction[];
  /**
   * For a `__transaction_state` truncation: the transactional.ids whose records it removed,
   * sorted. Absent when it removed none, and outside the simulator.
   */
  readonly transactionalIds?: readonly string[];
}

/**
 * A `__transaction_state` record a coordinator loaded (TransactionStateManager
 * .loadTransactionMetadata reads to the log end, FetchIsolation.LOG_END) that a later truncation
 * removed: the coordinator had held this transaction, with these partitions, though the
 * transaction log no longer does.
 */
export interface OracleLoadedTransaction {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Kafka's TransactionState name of the removed record, e.g. `Ongoing`. */
  readonly state: string;
  /** The partitions the removed record listed. */
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  /** The coordinator that loaded it, and when its load finished (true virtual µs). */
  readonly loadedBy: string;
  readonly loadedUs: number;
}

/** A coordinator granting a producerEpoch for a transactional.id: lower epochs are fenced. */
export interface EpochGrant {
  readonly timeUs: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /**
   * `init`: InitProducerId; `fence`: InitProducerId fencing an ongoing transaction; `timeout`:
   * the coordinator aborted an expired transaction.
   */
  /** `end`: a transaction version 2 EndTxn bumped the epoch (KIP-890 part 2). */
  readonly reason: 'init' | 'fence' | 'timeout' | 'end';
}

/** How often coordinators moved a transactional.id from one state to another. */
export interface CoordinatorTransitionCount {
  /** Kafka's state name, e.g. `Ongoing`. */
  readonly from: string;
  readonly to: string;
  readonly count: number;
}

/**
 * One transactional.id as the coordinator that owns it holds it at the end of the run: the
 * coordinator's side of KIP-664; KIP-890 (a partition's open transaction is hanging when its
 * coordinator does not have it in `Ongoing` with that partition).
 */
export interface OracleCoordinatorTransaction {
  readonly transactionalId: string;
  /** The broker whose coordinator holds the entry. */
  readonly coordinator: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Kafka's TransactionState name: `Empty`, `Ongoing`, `PrepareCommit`, ... */
  readonly state: string;
  /** The partitions of the current transaction (Kafka's `topicPartitions`), sorted. */
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  /**
   * Kafka's `txnStartTimestamp` in µs of the coordinator's clock, -1 when no transaction is open
   * (absent in older history files: the checker then trusts an Ongoing entry to time out).
   */
  readonly txnStartUs?: number;
  /** Kafka's `txnTimeoutMs`, in ms (absent in older history files). */
  readonly txnTimeoutMs?: number;
  /** Since when, in µs, this coordinator has held the id: its load of the state log partition. */
  readonly heldSinceUs?: number;
}

/**
 * A coordinator removed an expired transactional.id (`transactional.id.expiration.ms`,
 * TransactionStateManager.removeExpiredTransactionalIds): it no longer knows `producerId`.
 */
export interface TransactionalIdExpiration {
  readonly timeUs: number;
  readonly transactionalId: string;
  readonly producerId: number;
}

/**
 * A follower's fetcher stopped replicating a partition: the fetched records started below the
 * follower's log end offset (UnexpectedAppendOffsetException). `scope` `partition`: Kafka 2.3+
 * (KIP-461) failed this partition only; `fetcher`: before 2.3 the fetcher thread for `leader`
 * died with every partition it fetched.
 */
export interface OracleFetchFailure {
  readonly timeUs: number;
  readonly broker: string;
  readonly topic: string;
  readonly partition: number;
  readonly leader: string;
  readonly leaderEpoch: number;
  readonly error: 'UnexpectedAppendOffsetException';
  readonly firstOffset: number;
  readonly logEndOffset: number;
  readonly scope: 'partition' | 'fetcher';
}

/**
 * A replica dropped the state of idle producers (ProducerStateManager.removeExpiredProducers,
 * `producer.id.expiration.ms`, KIP-854): its next batch from them is accepted at any sequence.
 */
export interface ProducerStateExpiration {
  readonly timeUs: number;
  readonly topic: string;
  readonly partition: number;
  readonly broker: string;
  readonly producerIds: readonly number[];
}

/** When one partition leader counted in `PartitionsWithLateTransactionsCount` (KIP-664). */
export interface LateTransactionInterval {
  readonly broker: string;
  readonly topic: string;
  readonly partition: number;
  /** The producer of the oldest open transaction there. */
  readonly producerId: number;
  readonly fromUs: number;
  /** null: still late at the end of the run. */
  readonly toUs: number | null;
}

/** Kafka's `PartitionsWithLateTransactionsCount` over a run, summed over the brokers. */
export interface LateTransactionsGauge {
  /** `transaction.max.timeout.ms` + 5 minutes (LATE_TRANSACTION_BUFFER_MS). */
  readonly thresholdMs: number;
  /** When the count first became non-zero; null when it never did. */
  readonly firstNonZeroUs: number | null;
  readonly max: number;
  /** When `max` was first reached; null when the count stayed 0. */
  readonly maxAtUs: number | null;
  /** The count at the end of the run. */
  readonly atEnd: number;
  /** Every interval in which a partition leader counted, by start time. */
  readonly intervals: readonly LateTransactionInterval[];
}

/** A fault active during part of the run (for explanations). */
export interface FaultInterval {
  readonly description: string;
  readonly startUs: number;
  /** Absent when the fault never ended. */
  readonly endUs?: number;
}

/** Everything the simulator knows that clients do not. */
export interface Oracle {
  readonly partitions: readonly OraclePartition[];
  readonly epochGrants: readonly EpochGrant[];
  /**
   * transactional.ids their coordinator expired, in time order (absent outside the simulator or
   * when none did): the coordinator then answers INVALID_PRODUCER_ID_MAPPING to the old producerId.
   */
  readonly transactionalIdExpirations?: readonly TransactionalIdExpiration[];
  /** Follower fetches that failed a partition, in time order (absent when none did). */
  readonly fetchFailures?: readonly OracleFetchFailure[];
  /** Producer state dropped by `producer.id.expiration.ms`, in time order (absent when none). */
  readonly producerStateExpirations?: readonly ProducerStateExpiration[];
  /** Leader elections, in time order (absent outside the simulator). */
  readonly elections?: readonly OracleElection[];
  /** Log truncations on any replica, in time order (absent outside the simulator). */
  readonly truncations?: readonly OracleTruncation[];
  /**
   * How often each transaction-coordinator state transition happened (`Ongoing` to
   * `PrepareCommit`, ...), summed over coordinators, sorted by `from` then `to`. Optional: the
   * runner fills it once the coordinator counts its transitions; sweep coverage reads it.
   */
  readonly coordinatorTransitions?: readonly CoordinatorTransitionCount[];
  /**
   * Every transactional.id at its coordinator at the end of the run, sorted by transactionalId
   * (absent outside the simulator; the hanging-transaction checker then has no coordinator view
   * and reports nothing).
   */
  readonly coordinatorTransactions?: readonly OracleCoordinatorTransaction[];
  /**
   * The brokers' `transaction.max.timeout.ms`: how long the hanging-transaction checker lets a
   * partition's last stable offset stay pinned. Absent: Kafka's default, 900000.
   */
  readonly transactionMaxTimeoutMs?: number;
  /**
   * The brokers' `transaction.abort.timed.out.transaction.cleanup.interval.ms`: how often a
   * coordinator looks for timed-out transactions. Absent: Kafka's default, 10000.
   */
  readonly transactionAbortCleanupIntervalMs?: number;
  /** Kafka's PartitionsWithLateTransactionsCount over the run (absent outside the simulator). */
  readonly lateTransactions?: LateTransactionsGauge;
  /**
   * Every consumer group at its group coordinator at the end of the run, sorted by groupId
   * (absent outside the simulator or without groups). The eos-violation checker reads the
   * committed offsets to tell an input a pipeline skipped from one it has not reached yet.
   */
  readonly groups?: readonly OracleGroup[];
  /** Virtual time the oracle was taken, at the end of the run (absent outside the simulator). */
  readonly endUs?: number;
  readonly faults: readonly FaultInterval[];
  /**
   * Invariants the simulator found broken during the run, as it checked them on each
   * observation (docs/invariants.md), in the order found. The checker reports each as an
   * `invariant` anomaly.
   */
  readonly invariantViolations: readonly OracleInvariantViolation[];
}

/** One broken invariant, where and when it broke. */
export interface OracleInvariantViolation {
  /** The invariant's name in docs/invariants.md, e.g. `offsets-ordered` (absent in old files). */
  readonly invariant?: string;
  /** True virtual time of the observation that broke it. */
  readonly timeUs: number;
  /**
   * The index of the kernel event that broke it, 1-based (the run's `eventsRun` during that
   * event): a run of the same seed can stop at it. Absent in histories from outside the simulator.
   */
  readonly eventIndex?: number;
  /** The run's seed, when the simulator found it. */
  readonly seed?: string;
  readonly topic?: string;
  readonly partition?: number;
  /** The broker whose replica or coordinator broke it. */
  readonly broker?: string;
  readonly transactionalId?: string;
  readonly producerId?: number;
  readonly producerEpoch?: number;
  /**
   * What the break is known to follow from, where the simulator can tell: `grant-record-truncated`
   * for a producer identity granted again after `__transaction_state` lost the record of the
   * first grant.
   */
  readonly classification?: string;
  readonly description: string;
}

/**
 * A consumer group as its coordinator holds it at the end of a run (ClassicGroup;
 * GroupMetadata.prepareTxnOffsetCommit).
 */
export interface OracleGroup {
  readonly groupId: string;
  /** The broker leading the group's `__consumer_offsets` partition. */
  readonly coordinator: string;
  /** `Empty`, `PreparingRebalance`, `CompletingRebalance`, `Stable` or `Dead`. */
  readonly state: string;
  readonly generationId: number;
  /** Materialised committed offsets (pending transactional ones excluded), sorted. */
  readonly committedOffsets: ReadonlyArray<{
    readonly topic: string;
    readonly partition: number;
    readonly offset: number;
  }>;
}
