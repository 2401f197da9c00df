/**
 * The records of `__transaction_state` (Kafka's TransactionLog key and value, TransactionMetadata):
 * one record per state change of a transactional.id, keyed by the id, whose value is the whole
 * persisted metadata after the change. A null value is a tombstone (transactional-id expiry).
 * The pending state is in memory only. previousProducerId and nextProducerId (the producerId
 * rotation at epoch exhaustion, KIP-890 part 2) and lastProducerEpoch are tagged fields of the
 * flexible value (version 1, transaction.version 1 and up) that Kafka only started writing with
 * KAFKA-20310 and KAFKA-20357; absent, they load as -1.
 */
import type { TopicPartition } from './messages';

/** Kafka's TransactionState names (TransactionState.java). */
export type TransactionState =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'Dead'
  | 'PrepareEpochFence';

/** The persisted value of one transactional.id (TransactionLogValue.json). */
export interface TransactionLogValue {
  readonly producerId: number;
  readonly producerEpoch: number;
  /** `transaction.timeout.ms` the producer asked for. */
  readonly txnTimeoutMs: number;
  readonly state: TransactionState;
  /** The partitions of the open transaction; empty in Empty and Complete*. */
  readonly topicPartitions: readonly TopicPartition[];
  /** When the first partition was added, virtual µs; -1 when no transaction is open. */
  readonly txnStartUs: number;
  readonly txnLastUpdateUs: number;
  /** 0 or 2: the transaction version the last transition ran under (KIP-890 part 2). */
  readonly clientTransactionVersion: number;
  /** The producerId before this transition; written from KAFKA-20310's fix. */
  readonly previousProducerId?: number;
  /** The producerId a completing exhausted transaction rotates to; from KAFKA-20310's fix. */
  readonly nextProducerId?: number;
  /** The epoch before the last bump, for retried InitProducerId; from KAFKA-20357's fix. */
  readonly lastProducerEpoch?: number;
}

/** One `__transaction_state` record. */
export interface TransactionLogRecord {
  readonly transactionalId: string;
  /** null: a tombstone. */
  readonly value: TransactionLogValue | null;
}

/** The internal topic that holds the coordinators' state (TransactionStateManager.partitionFor). */
export const TRANSACTION_STATE_TOPIC = '__transaction_state';
