/**
 * The transaction coordinator's record of one transactional.id (Kafka's TransactionMetadata,
 * TransactionMetadata) and its state machine (TransactionState). Every transition is checked
 * against Kafka's table of legal previous states; an illegal one is a simulator bug and fails the
 * run. A transition is first prepared as a {@link TxnTransit} (the whole value written to
 * `__transaction_state`), and applied to the metadata only once that write is durable
 * (TransactionStateManager.appendTransactionToLog).
 */
import { assert, javaStringHash } from '../../kernel';
import type { TopicPartition, TransactionLogValue, TransactionState } from '../protocol';
import { partitionKey } from '../protocol';

export type { TransactionState };

/**
 * TransactionState: for each target state, the states it may be entered from
 * (TransactionState.java, 4.x): PrepareAbort may also follow Empty and Complete* for a transaction
 * version 2 "empty abort".
 */
export const VALID_PREVIOUS_STATES: ReadonlyMap<TransactionState, readonly TransactionState[]> =
  new Map<TransactionState, readonly TransactionState[]>([
    ['Empty', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['Ongoing', ['Empty', 'Ongoing', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareCommit', ['Ongoing']],
    ['PrepareAbort', ['Ongoing', 'PrepareEpochFence', 'Empty', 'CompleteCommit', 'CompleteAbort']],
    ['CompleteCommit', ['PrepareCommit']],
    ['CompleteAbort', ['PrepareAbort']],
    ['Dead', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareEpochFence', ['Ongoing']],
  ]);

/**
 * An epoch at or above this is exhausted: the producerId is rotated
 * (TransactionMetadata.isEpochExhausted, `Short.MaxValue - 1`).
 */
export const EXHAUSTED_PRODUCER_EPOCH = 32_766;

/** Java's Short.MAX_VALUE: the producerEpoch is an int16 and no transition may go past it. */
export const MAX_PRODUCER_EPOCH = 32_767;

/** One transactional.id at its coordinator. */
export interface TransactionMetadata {
  readonly transactionalId: string;
  producerId: number;
  producerEpoch: number;
  /** The epoch before the last bump, for retried bumps (KIP-360, TV2); logged from KAFKA-20357. */
  lastProducerEpoch: number;
  txnTimeoutMs: number;
  state: TransactionState;
  /**
   * In memory only: the transition whose log write is in flight
   * (TransactionStateManager.appendTransactionToLog).
   */
  pendingState: TransactionState | null;
  /** Partitions of the current transaction, keyed `topic-partition`. */
  topicPartitions: Map<string, TopicPartition>;
  /** When the first partition was added; -1 when no transaction is open. */
  txnStartUs: number;
  txnLastUpdateUs: number;
  /** 0 or 2: the transaction version of the last transition (KIP-890 part 2). */
  clientTransactionVersion: number;
  /**
   * In memory only: a fence whose write failed is not bumped again
   * (TransactionCoordinator.handleInitProducerId).
   */
  hasFailedEpochFence: boolean;
  /**
   * The id a TV2 transaction rotates to when it completes at an exhausted epoch
   * (TransactionCoordinator.endTransaction, prepareComplete); -1 when none.
   */
  nextProducerId: number;
  /**
   * The producerId before the last transition (TxnTransitMetadata.prevProducerId): after a
   * rotation, the id a retried EndTxn or InitProducerId still carries.
   */
  previousProducerId: number;
}

/** What a transition writes, plus the in-memory fields it sets (Kafka's TxnTransitMetadata). */
export interface TxnTransit extends TransactionLogValue {
  readonly lastProducerEpoch: number;
  readonly previousProducerId: number;
  readonly nextProducerId: number;
}

/**
 * Which rotation fields reach `__transaction_state`. They are tagged fields of the flexible value
 * (transaction.version 1 and up); TransactionLog.valueToBytes wrote previousProducerId and
 * nextProducerId only after KAFKA-20310, lastProducerEpoch only after KAFKA-20357. Functions:
 * asked only for a value that would carry the field (a tagged field at its default, -1, is not
 * written, and a loaded record without it reads -1), so the bug switches behind them are
 * consulted only where the releases part ways.
 */
export interface PersistedFields {
  readonly rotation: () => boolean;
  readonly lastProducerEpoch: () => boolean;
}

/**
 * The fields a coordinator under `settings` writes: only flexible values (transaction version
 * 1 and up) carry tagged fields, and only releases with the fixes write these.
 */
export function persistedFieldsOf(settings: {
  readonly transactionVersion: number;
  readonly rotationNotLogged?: boolean;
  readonly lastProducerEpochNotLogged?: boolean;
}): PersistedFields {
  const flexible = settings.transactionVersion >= 1;
  return {
    rotation: () => flexible && settings.rotationNotLogged !== true,
    lastProducerEpoch: () => flexible && settings.lastProducerEpochNotLogged !== true,
  };
}

/** A tagged field's default (TransactionLogValue: PreviousProducerId, NextProducerId, ...). */
const TAGGED_DEFAULT = -1;

/** Asserts that `target` may follow the current state, as Kafka's table says. */
export function assertValidTransition(
  metadata: TransactionMetadata,
  target: TransactionState,
): void {
  const previous = VALID_PREVIOUS_STATES.get(target) ?? [];
  assert(
    previous.includes(metadata.state),
    `illegal transaction state transition for ${metadata.transactionalId}: ` +
      `${metadata.state} -> ${target}`,
  );
}

/** True for the two Prepare states. */
export function isPrepare(state: TransactionState): boolean {
  return state === 'PrepareCommit' || state === 'PrepareAbort';
}

/** True for Empty, CompleteCommit and CompleteAbort: no transaction is open. */
export function isIdle(state: TransactionState): boolean {
  return state === 'Empty' || state === 'CompleteCommit' || state === 'CompleteAbort';
}

/** The transit that keeps everything but what `changes` sets. */
export function transitOf(
  metadata: TransactionMetadata,
  changes: Partial<TxnTransit> & { state: TransactionState; txnLastUpdateUs: number },
): TxnTransit {
  return {
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    lastProducerEpoch: metadata.lastProducerEpoch,
    txnTimeoutMs: metadata.txnTimeoutMs,
    topicPartitions: [...metadata.topicPartitions.values()],
    txnStartUs: metadata.txnStartUs,
    clientTransactionVersion: metadata.clientTransactionVersion,
    previousProducerId: metadata.producerId,
    // Only prepareAbortOrCommit carries a nextProducerId; every other transition clears it.
    nextProducerId: -1,
    ...changes,
  };
}

/** Applies a durable transit to the metadata. */
export function applyTransit(metadata: TransactionMetadata, transit: TxnTransit): void {
  metadata.producerId = transit.producerId;
  metadata.producerEpoch = transit.producerEpoch;
  metadata.lastProducerEpoch = transit.lastProducerEpoch;
  metadata.txnTimeoutMs = transit.txnTimeoutMs;
  metadata.state = transit.state;
  metadata.topicPartitions = new Map(transit.topicPartitions.map((tp) => [partitionKey(tp), tp]));
  metadata.txnStartUs = transit.txnStartUs;
  metadata.txnLastUpdateUs = transit.txnLastUpdateUs;
  metadata.clientTransactionVersion = transit.clientTransactionVersion;
  metadata.previousProducerId = transit.previousProducerId;
  metadata.nextProducerId = transit.nextProducerId;
}

/**
 * KAFKA-8803's check, removed in 2.5 (apache/kafka#8278): completeTransitionTo refused the move to
 * Ongoing when the start time kept from the previous transaction (prepareComplete keeps it) is
 * later than the new one, which a transaction's first AddPartitionsToTxn takes from the
 * coordinator's clock (prepareAddPartitions), as after a clock step back. The refusal was an
 * IllegalStateException inside the append callback of appendTransactionToLog: the record is in
 * the log, the cache keeps its state with the pending transition set, and no answer goes back.
 */
export function startTimeWentBack(metadata: TransactionMetadata, transit: TxnTransit): boolean {
  return transit.state === 'Ongoing' && metadata.txnStartUs > transit.txnStartUs;
}

/** The persisted part of a transit: what the `__transaction_state` record holds. */
export function persistedValue(transit: TxnTransit, fields: PersistedFields): TransactionLogValue {
  const { previousProducerId, nextProducerId, lastProducerEpoch } = transit;
  const tagged = (value: number, name: string): Record<string, number> =>
    value === TAGGED_DEFAULT ? {} : { [name]: value };
  const rotating = previousProducerId !== TAGGED_DEFAULT || nextProducerId !== TAGGED_DEFAULT;
  const rotation =
    rotating && fields.rotation()
      ? {
          ...tagged(previousProducerId, 'previousProducerId'),
          ...tagged(nextProducerId, 'nextProducerId'),
        }
      : {};
  const lastEpoch =
    lastProducerEpoch !== TAGGED_DEFAULT && fields.lastProducerEpoch() ? { lastProducerEpoch } : {};
  return {
    ...rotation,
    ...lastEpoch,
    producerId: transit.producerId,
    producerEpoch: transit.producerEpoch,
    txnTimeoutMs: transit.txnTimeoutMs,
    state: transit.state,
    topicPartitions: transit.topicPartitions,
    txnStartUs: transit.txnStartUs,
    txnLastUpdateUs: transit.txnLastUpdateUs,
    clientTransactionVersion: transit.clientTransactionVersion,
  };
}

/**
 * Metadata rebuilt from a loaded value: in-memory fields start empty
 * (TransactionStateManager.loadTransactionsForTxnTopicPartition).
 */
export function metadataFromLog(
  transactionalId: string,
  value: TransactionLogValue,
): TransactionMetadata {
  return {
    transactionalId,
    producerId: value.producerId,
    producerEpoch: value.producerEpoch,
    lastProducerEpoch: value.lastProducerEpoch ?? -1,
    txnTimeoutMs: value.txnTimeoutMs,
    state: value.state,
    pendingState: null,
    topicPartitions: new Map(value.topicPartitions.map((tp) => [partitionKey(tp), tp])),
    txnStartUs: value.txnStartUs,
    txnLastUpdateUs: value.txnLastUpdateUs,
    clientTransactionVersion: value.clientTransactionVersion,
    hasFailedEpochFence: false,
    nextProducerId: value.nextProducerId ?? -1,
    previousProducerId: value.previousProducerId ?? -1,
  };
}

/**
 * `Utils.abs(String.hashCode) % partitions`: the __transaction_state partition of an id
 * (TransactionStateManager.partitionFor).
 */
export function transactionStatePartitionFor(
  transactionalId: string,
  numPartitions: number,
): number {
  const hash = javaStringHash(transactionalId);
  const absolute = hash === -2147483648 ? 0 : Math.abs(hash);
  return absolute % numPartitions;
}
