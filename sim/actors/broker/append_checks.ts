/**
 * The checks a partition leader makes on a produced batch before its sequence checks, as pure
 * functions of the partition's state: KIP-890 part 1's verification guard and ordering
 * (ReplicaManager.maybeStartTransactionVerificationForPartitions, ProducerAppendInfo.checkSequence)
 * and KAFKA-15591's first-sequence rule.
 */
import type { KafkaErrorCode, ProducedBatch } from '../protocol';
import { NO_PRODUCER_EPOCH, NO_SEQUENCE } from '../protocol';
import type { PartitionBugs } from './partition_bugs';
import type { ProducerStateEntry } from './producer_state';

/**
 * KIP-890 part 1 at append time (ReplicaManager.maybeStartTransactionVerificationForPartitions):
 * the verification guard a produce request carries. `guard` is 0 (Kafka's SENTINEL) when the leader
 * skipped verification because the producer had an open transaction when the request arrived. Pass
 * null when verification is off.
 */
export interface VerificationCheck {
  readonly guard: number;
}

/** A verification in progress for one producer (Kafka's VerificationStateEntry). */
export interface VerificationEntry {
  readonly guard: number;
  epoch: number;
  lowestSequence: number;
  /** For a transaction version 2 client (VerificationStateEntry.supportsEpochBump). */
  supportsEpochBump: boolean;
}

/**
 * KAFKA-15591 (apache/kafka#23234, `ProducerAppendInfo.checkSequence`): on a log that never held
 * a record, a producer the leader has no state for must start at sequence 0. With
 * redpanda-data/redpanda#22670 that holds on every log, so a producer whose state expired is
 * refused its next sequence.
 */
export function refusesFirstSequence(
  entry: ProducerStateEntry,
  firstSequence: number,
  logEndOffset: number,
  bugs: PartitionBugs,
): boolean {
  if (firstSequence <= 0 || entry.producerEpoch !== NO_PRODUCER_EPOCH) return false;
  if (bugs.unknownProducerNeedsSequenceZero === true) return true;
  return !bugs.acceptAnyFirstSequenceOnEmptyLog && logEndOffset === 0;
}

/**
 * KIP-890; ReplicaManager.maybeStartTransactionVerificationForPartitions: a transactional batch
 * whose producer has no open transaction here at the batch's epoch
 * (`hasOngoingTransaction(producerId, epoch)`) must carry the guard of a verification still in
 * progress. An ABORT marker written between the verification and the append deletes the guard
 * (ABA protection). Since KAFKA-19690 a stale epoch is reported first (abortable
 * INVALID_PRODUCER_EPOCH); before it, INVALID_TXN_STATE (fatal, BUG-16).
 */
export function missingVerification(options: {
  readonly batch: ProducedBatch;
  readonly entry: ProducerStateEntry;
  readonly verification: VerificationCheck | null;
  readonly current: VerificationEntry | undefined;
  readonly bugs: PartitionBugs;
}): KafkaErrorCode {
  const { batch, entry, verification, current, bugs } = options;
  const ongoing = entry.currentTxnFirstOffset !== -1 && entry.producerEpoch === batch.producerEpoch;
  if (verification === null || !batch.isTransactional || ongoing) return 'NONE';
  const staleEpoch = batch.producerEpoch < entry.producerEpoch;
  if (staleEpoch && !bugs.verificationGuardBeforeEpochCheck) return 'NONE';
  const verified = verification.guard !== 0 && current?.guard === verification.guard;
  return verified ? 'NONE' : 'INVALID_TXN_STATE';
}

/**
 * KIP-890 part 1 (Kafka's `ProducerAppendInfo.checkSequence`): while a verification of the
 * producer's transaction is open on this partition, a batch whose first sequence is above the
 * lowest sequence that started verifying is out of order. Without it a later batch of the
 * same epoch could be verified and appended first, and on a partition that never knew the
 * producer its non-zero sequence would be accepted, stranding the earlier batch.
 */
export function overtakesVerification(
  batch: ProducedBatch,
  verification: VerificationCheck | null,
  current: VerificationEntry | undefined,
): boolean {
  if (verification === null || !batch.isTransactional) return false;
  if (batch.baseSequence === NO_SEQUENCE) return false;
  return (
    current !== undefined &&
    current.epoch === batch.producerEpoch &&
    batch.baseSequence > current.lowestSequence
  );
}

/**
 * UnifiedLog.updateProducers (KAFKA-18654, Kafka 4.0): a marker leaves in place the
 * verification of a transaction version 2 client whose epoch is the marker's: EndTxn bumped the
 * epoch, so that verification is of the next transaction. Clearing it would refuse that
 * transaction's first batch INVALID_TXN_STATE when it overtakes the marker (KAFKA-18575).
 */
export function isV2NextTransactionStarted(
  verifying: VerificationEntry | undefined,
  markerEpoch: number,
): boolean {
  return verifying !== undefined && verifying.supportsEpochBump && verifying.epoch === markerEpoch;
}
