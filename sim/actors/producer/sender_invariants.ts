/**
 * The invariants the producer's data path relies on, asserted where it relies on them; each
 * throws the kernel's InvariantError naming the invariant (a model bug, exit 70 with the seed).
 */
import { invariant } from '../../kernel';
import { incrementSequence, NO_SEQUENCE } from '../protocol';
import type { ProducerBatch } from './producer_batch';

/**
 * A new batch's baseSequence follows the last batch in flight to its partition under the same
 * producerId and epoch (RecordAccumulator drains in sequence order; the broker's
 * ProducerAppendInfo.checkSequence refuses a gap with OUT_OF_ORDER_SEQUENCE_NUMBER).
 */
export function assertSequenceFollows(last: ProducerBatch | undefined, next: ProducerBatch): void {
  // An idempotent epoch bump re-stamps the batches in flight in place: the last may be `next`.
  if (last === undefined || last === next || last.baseSequence === NO_SEQUENCE) return;
  if (last.producerId !== next.producerId || last.producerEpoch !== next.producerEpoch) return;
  const expected = incrementSequence(last.baseSequence, last.records.length);
  invariant(
    next.baseSequence === expected,
    'baseSequence continues the batch in flight',
    () =>
      `${next.tp.topic}-${next.tp.partition}: producerId ${next.producerId} epoch ` +
      `${next.producerEpoch}: baseSequence ${next.baseSequence} after ${last.baseSequence}` +
      ` (+${last.records.length})`,
  );
}

/**
 * Requests in flight to one broker stay within `max.in.flight.requests.per.connection`
 * (NetworkClient.canSendRequest); idempotent ordering relies on at most 5.
 */
export function assertInFlightWithin(
  inFlight: number,
  config: { readonly maxInFlightRequestsPerConnection: number },
): void {
  invariant(
    inFlight <= config.maxInFlightRequestsPerConnection,
    'in-flight requests <= max.in.flight.requests.per.connection',
    () => `${inFlight} in flight, at most ${config.maxInFlightRequestsPerConnection}`,
  );
}
