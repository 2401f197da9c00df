/**
 * The bug switches a partition leader reads: each turns one of Kafka's protections off, as a
 * historical release had it (scenarios/kafka_versions.ts maps bug ids to these).
 */

/** Switches that break one protection on purpose (bug switches). */
export interface PartitionBugs {
  /** Accept batches and markers whose producerEpoch is older than the partition's (A12). */
  readonly skipProducerEpochCheck: boolean;
  /**
   * Before KAFKA-19690 (3.6-4.1): a transactional batch with no open transaction and no valid
   * verification guard is refused with INVALID_TXN_STATE before its stale epoch is noticed, so a
   * timed-out producer gets a fatal error instead of the abortable INVALID_PRODUCER_EPOCH.
   */
  readonly verificationGuardBeforeEpochCheck: boolean;
  /**
   * Before KAFKA-15591 (2.5 to 4.4): a leader with no state for a producer accepts any first
   * sequence, even on a partition whose log never held a record. Since apache/kafka#23234 such a
   * partition accepts only sequence 0 from an unknown producer (OUT_OF_ORDER_SEQUENCE_NUMBER
   * otherwise), so two in-flight produces to a new partition cannot land out of order.
   */
  readonly acceptAnyFirstSequenceOnEmptyLog: boolean;
  /**
   * redpanda-data/redpanda#3039 (Redpanda 21.10): the leader retains one batch per producer for
   * deduplication instead of Kafka's five (ProducerStateEntry.NUM_BATCHES_TO_RETAIN), so a retry
   * of any but the last batch is OUT_OF_ORDER_SEQUENCE_NUMBER instead of a duplicate.
   */
  readonly singleBatchDedupWindow: boolean;
  /**
   * redpanda-data/redpanda#22670 (Redpanda 24.1, fixed by #22687, backported in #22757): a
   * leader with no state for a producer, for instance after it expired the producer's state,
   * refuses a first sequence other than 0 on every log, not only on one that never held a
   * record, so an idle idempotent producer's next batch is OUT_OF_ORDER_SEQUENCE_NUMBER.
   * Kafka (ProducerAppendInfo.checkSequence since KIP-360) accepts any sequence there.
   * @default false
   */
  readonly unknownProducerNeedsSequenceZero?: boolean;
  /**
   * Before KAFKA-9144 (fixed 2.5, apache/kafka#7687): a producer's last timestamp is that of its
   * last retained data batch (ProducerStateEntry.lastTimestamp), never a marker's. A marker that
   * bumps the epoch empties the batches, so the producer has no timestamp and expires at the
   * next removeExpiredProducers; a zombie batch of the fenced epoch is then accepted.
   * @default false
   */
  readonly markerTimestampIgnored?: boolean;
  /**
   * Before KAFKA-19446 (4.0 and 4.1, apache/kafka#20882): a transaction version 2 marker needs
   * only an epoch not below the producer's, so a late marker of the previous transaction ends the
   * next one. @default false
   */
  readonly tv2MarkerEpochNotBumpedAccepted?: boolean;
  /**
   * KAFKA-19999 (KAFKA-19446's rule without apache/kafka#21176): a transaction version 2 marker
   * at the producer's current epoch is refused even with no transaction open, so a resent marker
   * is INVALID_PRODUCER_EPOCH and the coordinator stops in PrepareCommit/PrepareAbort.
   * @default false
   */
  readonly tv2MarkerRetryRefused?: boolean;
}
