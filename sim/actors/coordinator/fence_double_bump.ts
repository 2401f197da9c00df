/**
 * KAFKA-19367 (before apache/kafka#19910): under transaction version 2, endTransaction's abort
 * after an epoch fence bumps the epoch the fence (prepareFenceProducerEpoch) just bumped. At the
 * fenced epoch Short.MAX_VALUE the second bump is negative, so prepareTransitionTo throws
 * IllegalArgumentException: the request fails (UNKNOWN_SERVER_ERROR) and the transaction stays
 * Ongoing at 32767 with no pending state.
 */
import type { Ctx } from './coordinator_settings';
import { MAX_PRODUCER_EPOCH, type TransactionMetadata } from './transaction_metadata';

/**
 * Bumps the fenced epoch once more; false when that would overflow. Then, as in Kafka (where
 * endTransaction has already set the fenced epoch and cleared the pending state when
 * prepareAbortOrCommit throws), the transaction is left Ongoing at the fenced epoch with no
 * pending state.
 */
export function bumpAgainAfterFence(metadata: TransactionMetadata, ctx: Ctx): boolean {
  if (metadata.producerEpoch >= MAX_PRODUCER_EPOCH) {
    ctx.trace(`cannot abort ${metadata.transactionalId}: epoch bumped twice past 32767`);
    metadata.pendingState = null;
    return false;
  }
  metadata.producerEpoch += 1;
  return true;
}
