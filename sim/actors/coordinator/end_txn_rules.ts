/**
 * What the coordinator does with an EndTxn, as a pure decision on the stored metadata (Kafka's
 * TransactionCoordinator.endTransaction). Two rule sets:
 * - transaction version 0/1 (TransactionCoordinator.endTransaction), with the 4.0 order: a pending
 *   transition answers CONCURRENT_TRANSACTIONS before the epoch is checked (KAFKA-18464);
 * - transaction version 2 (TransactionCoordinator.endTransaction, KIP-890 part 2): "same epoch" is
 *   the next operation and "stored epoch = request epoch + 1" a retry of the one that completed;
 *   every Prepare bumps the epoch, and an abort with the current epoch outside a transaction is an
 *   "empty abort" that bumps it. Cells follow released 4.x code after KAFKA-20785 (a late commit
 *   against an abort answers PRODUCER_FENCED).
 */
import type { EndTxnRequest, KafkaErrorCode } from '../protocol';
import { EXHAUSTED_PRODUCER_EPOCH, type TransactionMetadata } from './transaction_metadata';

/** The outcome of the checks. */
export type EndTxnDecision =
  | { readonly type: 'error'; readonly error: KafkaErrorCode }
  /** Ongoing → Prepare*; `bump` under transaction version 2. */
  | { readonly type: 'prepare'; readonly bump: boolean }
  /** TV2: an abort outside a transaction bumps the epoch through PrepareAbort. */
  | { readonly type: 'empty-abort' }
  /** A retry of an EndTxn that already completed: NONE. */
  | { readonly type: 'retry-done' };

const error = (code: KafkaErrorCode): EndTxnDecision => ({ type: 'error', error: code });

/** Decides an EndTxn against `metadata` (which exists and matches the id). */
export function decideEndTxn(
  metadata: TransactionMetadata,
  request: EndTxnRequest,
): EndTxnDecision {
  const overflow = isRetryOnOverflow(metadata, request);
  if (metadata.producerId !== request.producerId && !overflow) {
    return error('INVALID_PRODUCER_ID_MAPPING');
  }
  if (metadata.pendingState !== null && metadata.pendingState !== 'PrepareEpochFence') {
    return error('CONCURRENT_TRANSACTIONS');
  }
  if (overflow) return decideOverflowRetry(metadata, request.committed);
  return request.transactionVersion >= 2
    ? decideVersion2(metadata, request.committed, request.producerEpoch)
    : decideVersion0(metadata, request.committed, request.producerEpoch);
}

/**
 * endTransaction's retryOnOverflow (TV2, Kafka 4.0): the request carries the producerId before a
 * rotation at the exhausted epoch, and the rotation has happened (epoch 0 under the new id): a
 * retry of the EndTxn whose answer was lost, not a stranger.
 */
function isRetryOnOverflow(metadata: TransactionMetadata, request: EndTxnRequest): boolean {
  return (
    metadata.clientTransactionVersion >= 2 &&
    metadata.pendingState !== 'PrepareEpochFence' &&
    metadata.previousProducerId === request.producerId &&
    metadata.producerId !== request.producerId &&
    request.producerEpoch === EXHAUSTED_PRODUCER_EPOCH &&
    metadata.producerEpoch === 0
  );
}

/** A retry on overflow is valid only once the transaction completed (CompleteCommit/Abort). */
function decideOverflowRetry(metadata: TransactionMetadata, committed: boolean): EndTxnDecision {
  switch (metadata.state) {
    case 'CompleteCommit':
      return committed ? { type: 'retry-done' } : error('INVALID_TXN_STATE');
    case 'CompleteAbort':
      return committed ? error('PRODUCER_FENCED') : { type: 'retry-done' };
    default:
      return error('PRODUCER_FENCED');
  }
}

/** TransactionCoordinator.endTransaction for transaction versions 0 and 1. */
function decideVersion0(
  metadata: TransactionMetadata,
  committed: boolean,
  producerEpoch: number,
): EndTxnDecision {
  if (metadata.producerEpoch !== producerEpoch) return error('PRODUCER_FENCED');
  if (metadata.pendingState === 'PrepareEpochFence') return error('CONCURRENT_TRANSACTIONS');
  const same = committed ? 'Commit' : 'Abort';
  switch (metadata.state) {
    case 'Ongoing':
      return { type: 'prepare', bump: false };
    case 'CompleteCommit':
    case 'CompleteAbort':
      return metadata.state === `Complete${same}`
        ? { type: 'retry-done' }
        : error('INVALID_TXN_STATE');
    case 'PrepareCommit':
    case 'PrepareAbort':
      return metadata.state === `Prepare${same}`
        ? error('CONCURRENT_TRANSACTIONS')
        : error('INVALID_TXN_STATE');
    default:
      return error('INVALID_TXN_STATE');
  }
}

/**
 * Transaction version 2, with retries recognised by the epoch (KIP-890;
 * TransactionCoordinator.endTransaction).
 */
function decideVersion2(
  metadata: TransactionMetadata,
  committed: boolean,
  producerEpoch: number,
): EndTxnDecision {
  const current = producerEpoch === metadata.producerEpoch;
  const retry = producerEpoch + 1 === metadata.producerEpoch;
  if (!current && !retry) return error('PRODUCER_FENCED');
  if (metadata.pendingState === 'PrepareEpochFence') return error('CONCURRENT_TRANSACTIONS');
  switch (metadata.state) {
    case 'Ongoing':
      return current ? { type: 'prepare', bump: true } : error('PRODUCER_FENCED');
    case 'PrepareCommit':
    case 'PrepareAbort': {
      if (!retry) return error('PRODUCER_FENCED');
      const same = metadata.state === (committed ? 'PrepareCommit' : 'PrepareAbort');
      return same ? error('CONCURRENT_TRANSACTIONS') : error('INVALID_TXN_STATE');
    }
    case 'Empty':
      if (committed) return current ? error('INVALID_TXN_STATE') : error('PRODUCER_FENCED');
      return current ? { type: 'empty-abort' } : error('PRODUCER_FENCED');
    case 'CompleteAbort':
      if (committed) return current ? error('INVALID_TXN_STATE') : error('PRODUCER_FENCED');
      return current ? { type: 'empty-abort' } : { type: 'retry-done' };
    case 'CompleteCommit':
      if (committed) return current ? error('INVALID_TXN_STATE') : { type: 'retry-done' };
      return current ? { type: 'empty-abort' } : error('INVALID_TXN_STATE');
    default:
      return error('INVALID_TXN_STATE');
  }
}
