/**
 * What the Kafka model reports about itself through `ctx.observe`, in Kafka's terms: a replica's
 * high watermark or last stable offset moved, a batch or marker was appended, a log was
 * truncated, a replica began or ended a leader epoch, the controller elected a leader, a
 * transaction coordinator granted a producer epoch or moved a transactional.id to another state.
 * The kernel stamps each with the true virtual time and the event index; the runner builds the
 * oracle and checks invariants from these alone, so no actor's own (possibly skewed) clock and
 * no actor field enters a verdict.
 *
 * Fields name Kafka's own quantities; times are not part of an observation (the kernel adds
 * them). Batches are the log's own immutable objects, shared, not copied.
 */
import type { PartitionState } from './messages';
import type { LogBatch } from './records';

/** One broker's replica of one partition. */
export interface ReplicaRef {
  readonly broker: string;
  readonly topic: string;
  readonly partition: number;
}

/**
 * A replica's offsets after a change, all taken at one consistent point (after the last stable
 * offset was recomputed): Kafka's `logStartOffset ≤ lastStableOffset ≤ highWatermark ≤
 * logEndOffset` must hold here.
 */
export interface ReplicaOffsets {
  readonly logStartOffset: number;
  readonly lastStableOffset: number;
  readonly highWatermark: number;
  readonly logEndOffset: number;
}

/** The replica's high watermark moved (`Partition.maybeIncrementLeaderHW` or a follower's). */
export interface HighWatermarkChanged extends ReplicaRef, ReplicaOffsets {
  readonly kind: 'HighWatermarkChanged';
}

/** The replica's last stable offset moved (`ProducerStateManager` first unstable offset). */
export interface LastStableOffsetChanged extends ReplicaRef, ReplicaOffsets {
  readonly kind: 'LastStableOffsetChanged';
}

/**
 * A batch entered the replica's log: as leader (`appendAsLeader`; a control batch is a
 * `MarkerWritten` instead) or as follower copying the leader (`appendAsFollower`).
 */
export interface BatchAppended extends ReplicaRef {
  readonly kind: 'BatchAppended';
  readonly origin: 'leader' | 'follower';
  readonly batch: LogBatch;
}

/** A leader wrote a COMMIT or ABORT marker for a coordinator's WriteTxnMarkers. */
export interface MarkerWritten extends ReplicaRef {
  readonly kind: 'MarkerWritten';
  readonly batch: LogBatch;
}

/** The replica removed its log's tail from `toOffset` on (`UnifiedLog.truncateTo`). */
export interface LogTruncated extends ReplicaRef {
  readonly kind: 'LogTruncated';
  readonly toOffset: number;
  /** The log end offset after the truncation. */
  readonly logEndOffset: number;
  /**
   * `diverging-epoch`: KIP-101 truncation after a leader change; `high-watermark`: legacy
   * truncation to the follower's own HW; `power-loss`: the unflushed tail was lost;
   * `leader-behind`: the leader's log ends below this replica's.
   */
  readonly reason: 'diverging-epoch' | 'high-watermark' | 'power-loss' | 'leader-behind';
  readonly removed: readonly LogBatch[];
}

/**
 * A follower's fetcher stopped replicating after the fetched records could not be appended
 * (UnexpectedAppendOffsetException: the first fetched offset is below the follower's log end
 * offset). `partition`: Kafka 2.3+ (KIP-461, KAFKA-8346) moves only this partition to the
 * fetcher's failed partitions until it is added again under a new leader epoch; `fetcher`:
 * before 2.3 the exception ended the whole fetcher thread for `leader`, every partition this
 * broker follows from it, until the broker restarts or stops following that leader.
 */
export interface ReplicaFetchFailed extends ReplicaRef {
  readonly kind: 'ReplicaFetchFailed';
  readonly leader: string;
  readonly leaderEpoch: number;
  readonly error: 'UnexpectedAppendOffsetException';
  readonly firstOffset: number;
  readonly lastOffset: number;
  readonly logEndOffset: number;
  readonly scope: 'partition' | 'fetcher';
}

/**
 * The replica dropped the state of idle producers (ProducerStateManager.removeExpiredProducers,
 * KIP-854): it no longer knows their epochs or sequences, so it accepts their next batch at any
 * sequence.
 */
export interface ProducerStateExpired extends ReplicaRef {
  readonly kind: 'ProducerStateExpired';
  readonly producerIds: readonly number[];
}

/** The replica began acting as leader under `leaderEpoch` (`Partition.makeLeader`). */
export interface LeaderEpochStarted extends ReplicaRef {
  readonly kind: 'LeaderEpochStarted';
  readonly leaderEpoch: number;
}

/** The replica stopped acting as leader (new role or crash). */
export interface LeaderEpochEnded extends ReplicaRef {
  readonly kind: 'LeaderEpochEnded';
  readonly leaderEpoch: number;
}

/** The controller stored a new state of a partition (leader, epochs, ISR). */
export interface PartitionStateChanged {
  readonly kind: 'PartitionStateChanged';
  readonly state: PartitionState;
}

/** The controller elected a leader (or took the partition offline). */
export interface LeaderElected {
  readonly kind: 'LeaderElected';
  readonly topic: string;
  readonly partition: number;
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly election: 'clean' | 'unclean' | 'offline';
  /** KIP-966's rule when the leader did not come from the ISR: absent for an ISR election. */
  readonly rule?: ElectionRule;
}

/**
 * How KIP-966 elected a leader outside the ISR (PartitionChangeBuilder.electAnyLeader): `elr`
 * from the eligible leader replicas (clean, KAFKA-18940), `last-known-leader` the last leader
 * when ISR and ELR were both empty (`canElectLastKnownLeader`; unclean, KAFKA-19212).
 */
export type ElectionRule = 'elr' | 'last-known-leader';

/** A transaction coordinator's view of one transactional.id. */
export interface TransactionView {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Kafka's TransactionState name: `Empty`, `Ongoing`, `PrepareCommit`, ... */
  readonly state: string;
  /** The partitions of the current transaction (Kafka's `topicPartitions`). */
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  /**
   * Kafka's `txnStartTimestamp`, in µs of the coordinator's clock: when the current
   * transaction's first partition was added; -1 when none is open.
   */
  readonly txnStartUs: number;
  /** Kafka's `txnTimeoutMs`: the producer's `transaction.timeout.ms`, in ms. */
  readonly txnTimeoutMs: number;
}

/**
 * A coordinator granted `producerEpoch` to a transactional.id: InitProducerId (`init`), fencing
 * an ongoing transaction (`fence`), aborting an expired one (`timeout`), or a transaction
 * version 2 EndTxn bump (`end`, KIP-890 part 2). Reported when the coordinator learns that the
 * `__transaction_state` record carrying the epoch is replicated
 * (TransactionStateManager.appendTransactionToLog), which may be long after the record became
 * durable (a coordinator paused meanwhile): the record's place says when the epoch was decided.
 */
export interface ProducerEpochGranted {
  readonly kind: 'ProducerEpochGranted';
  readonly coordinator: string;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly reason: 'init' | 'fence' | 'timeout' | 'end';
  /** The coordinator epoch the record was written under (the partition's leader epoch). */
  readonly coordinatorEpoch: number;
  /** The record's offset in the id's `__transaction_state` partition. */
  readonly stateLogOffset: number;
  /** That partition (`TransactionStateManager.partitionFor`). */
  readonly stateLogPartition: number;
}

/**
 * A coordinator moved a transactional.id from `from` to `to` (`TransactionMetadata.transitionTo`);
 * `view` is its metadata after the move. `PrepareEpochFence` is in memory only: `view.state`
 * then stays the state it fences.
 */
export interface TransactionStateTransition {
  readonly kind: 'TransactionStateTransition';
  readonly coordinator: string;
  /** The `__transaction_state` partition holding the id, and its coordinator epoch. */
  readonly stateLogPartition: number;
  readonly coordinatorEpoch: number;
  readonly from: string;
  readonly to: string;
  readonly view: TransactionView;
}

/**
 * A coordinator created fresh metadata for a transactional.id it did not know (in memory until
 * its first write, `TransactionStateManager.putTransactionStateIfNotExists`).
 */
export interface TransactionMetadataCreated {
  readonly kind: 'TransactionMetadataCreated';
  readonly coordinator: string;
  readonly stateLogPartition: number;
  readonly view: TransactionView;
}

/**
 * A coordinator finished loading a `__transaction_state` partition
 * (`TransactionStateManager.loadTransactionsForTxnTopicPartition`): these ids are what it holds.
 */
export interface TransactionLogLoaded {
  readonly kind: 'TransactionLogLoaded';
  readonly coordinator: string;
  readonly stateLogPartition: number;
  readonly coordinatorEpoch: number;
  readonly transactions: readonly TransactionView[];
  /** Ids the loaded log ends with a tombstone for (expired), with their last metadata. */
  readonly tombstoned?: readonly TransactionView[];
}

/**
 * A coordinator removed an expired transactional.id from its cache once its tombstone was durable
 * in `__transaction_state` (TransactionStateManager.removeExpiredTransactionalIds).
 */
export interface TransactionalIdExpired {
  readonly kind: 'TransactionalIdExpired';
  readonly coordinator: string;
  readonly stateLogPartition: number;
  /** The metadata the tombstone removed. */
  readonly view: TransactionView;
}

/** A coordinator dropped a `__transaction_state` partition (resigned, or its broker crashed). */
export interface TransactionLogUnloaded {
  readonly kind: 'TransactionLogUnloaded';
  readonly coordinator: string;
  /** null: every partition (a crash). */
  readonly stateLogPartition: number | null;
}

/** The consumer groups a group coordinator serves, reported whenever they changed. */
export interface ConsumerGroupsChanged {
  readonly kind: 'ConsumerGroupsChanged';
  readonly coordinator: string;
  readonly groups: ReadonlyArray<{
    readonly groupId: string;
    /** The `__consumer_offsets` partition holding the group. */
    readonly partition: number;
    readonly state: string;
    readonly generationId: number;
    readonly committedOffsets: ReadonlyArray<{
      readonly topic: string;
      readonly partition: number;
      readonly offset: number;
    }>;
  }>;
}

/** Every observation the Kafka model reports. */
export type KafkaObservation =
  | HighWatermarkChanged
  | LastStableOffsetChanged
  | BatchAppended
  | MarkerWritten
  | LogTruncated
  | ReplicaFetchFailed
  | ProducerStateExpired
  | LeaderEpochStarted
  | LeaderEpochEnded
  | PartitionStateChanged
  | LeaderElected
  | ProducerEpochGranted
  | TransactionStateTransition
  | TransactionMetadataCreated
  | TransactionLogLoaded
  | TransactionLogUnloaded
  | TransactionalIdExpired
  | ConsumerGroupsChanged;

/** Where a part of the model reports its observations (the broker forwards to `ctx.observe`). */
export type ObservationSink = (observation: KafkaObservation) => void;

/** A sink that drops everything (a part built outside a broker, as in unit tests). */
export const IGNORE_OBSERVATIONS: ObservationSink = () => undefined;
