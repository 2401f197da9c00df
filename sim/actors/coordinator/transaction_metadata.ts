/**
 * The transaction coordinator's record of one transactional.id (Kafka's TransactionMetadata,
 * R3.2) and its state machine (R3.4). Every transition is checked against Kafka's table of legal
 * previous states; an illegal one is a simulator bug and fails the run.
 */
import { assert } from '../../kernel';
import type { TopicPartition } from '../protocol';

/** Kafka's TransactionState names. */
export type TransactionState =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'Dead'
  | 'PrepareEpochFence';

/** R3.4: for each target state, the states it may be entered from (TransactionState.java). */
export const VALID_PREVIOUS_STATES: ReadonlyMap<TransactionState, readonly TransactionState[]> =
  new Map<TransactionState, readonly TransactionState[]>([
    ['Empty', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['Ongoing', ['Empty', 'Ongoing', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareCommit', ['Ongoing']],
    ['PrepareAbort', ['Ongoing', 'PrepareEpochFence']],
    ['CompleteCommit', ['PrepareCommit']],
    ['CompleteAbort', ['PrepareAbort']],
    ['Dead', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareEpochFence', ['Ongoing']],
  ]);

/** An epoch at or above this is exhausted: InitProducerId rotates the producerId (R3.14). */
export const EXHAUSTED_PRODUCER_EPOCH = 32_766;

/** One transactional.id at its coordinator. */
export interface TransactionMetadata {
  readonly transactionalId: string;
  producerId: number;
  producerEpoch: number;
  /** In memory only: the epoch before the last bump, for retried KIP-360 bumps. */
  lastProducerEpoch: number;
  txnTimeoutMs: number;
  state: TransactionState;
  /** In memory only: the transition whose log write is in flight (R3.3). */
  pendingState: TransactionState | null;
  /** Partitions of the current transaction, keyed `topic-partition`. */
  topicPartitions: Map<string, TopicPartition>;
  /** When the first partition was added; -1 when no transaction is open. */
  txnStartUs: number;
  txnLastUpdateUs: number;
  /** In memory only: the epoch before a fence whose PrepareAbort write is in flight. */
  epochBeforeFence: number | null;
}

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

/** `Utils.abs(String.hashCode) % partitions`: the __transaction_state partition of an id (R3.1). */
export function transactionStatePartitionFor(
  transactionalId: string,
  numPartitions: number,
): number {
  let hash = 0;
  for (let i = 0; i < transactionalId.length; i++) {
    hash = (Math.imul(31, hash) + transactionalId.charCodeAt(i)) | 0;
  }
  const absolute = hash === -2147483648 ? 0 : Math.abs(hash);
  return absolute % numPartitions;
}
