/**
 * What an InitProducerId for an existing transactional.id grants, as pure decisions on the stored
 * metadata (TransactionCoordinator.prepareInitProducerIdTransit and
 * TransactionMetadata.prepareIncrementProducerEpoch / prepareProducerIdRotation, KIP-360).
 */
import { EXHAUSTED_PRODUCER_EPOCH, type TransactionMetadata } from './transaction_metadata';

/** The request's own producerId and epoch (KIP-360), or null for a fresh instance. */
export interface ExpectedIdentity {
  readonly producerId: number;
  readonly producerEpoch: number;
}

/**
 * prepareInitProducerIdTransit's isValidProducerId: a request that names a producer is fenced
 * unless the metadata was just created, the id is the current one, or the id is the one before a
 * rotation and its epoch is exhausted (a retry whose answer was lost).
 */
export function isValidProducerId(
  metadata: Readonly<TransactionMetadata>,
  expected: ExpectedIdentity,
): boolean {
  return (
    metadata.producerEpoch === -1 ||
    expected.producerId === metadata.producerId ||
    (expected.producerId === metadata.previousProducerId &&
      expected.producerEpoch >= EXHAUSTED_PRODUCER_EPOCH)
  );
}

/** The identity to grant, and the lastProducerEpoch to keep for a retry of this call. */
export interface NextIdentity {
  /** Whether a new producerId must be allocated (epoch 0). */
  readonly rotate: boolean;
  readonly producerEpoch: number;
  readonly lastProducerEpoch: number;
}

/**
 * handleInitProducerId for Empty/Complete*: rotate at an exhausted epoch the caller expects
 * (prepareProducerIdRotation, which keeps the old epoch as lastProducerEpoch when the request named
 * one), else bump (prepareIncrementProducerEpoch); a retry of a bump that succeeded (expected
 * epoch = lastProducerEpoch) gets the current identity again.
 */
export function nextIdentity(
  metadata: Readonly<TransactionMetadata>,
  expectedEpoch: number | null,
): NextIdentity | 'unchanged' | 'PRODUCER_FENCED' {
  const current = metadata.producerEpoch;
  const lastProducerEpoch = expectedEpoch === null ? -1 : current;
  if (
    current >= EXHAUSTED_PRODUCER_EPOCH &&
    (expectedEpoch === null || expectedEpoch === current)
  ) {
    return { rotate: true, producerEpoch: 0, lastProducerEpoch };
  }
  if (expectedEpoch === null || expectedEpoch === current || current === -1) {
    return { rotate: false, producerEpoch: current + 1, lastProducerEpoch };
  }
  if (expectedEpoch === metadata.lastProducerEpoch) return 'unchanged';
  return 'PRODUCER_FENCED';
}
