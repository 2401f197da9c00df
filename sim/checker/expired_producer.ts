/**
 * Whether a duplicate's copies are what a producer-state expiry lets through: a partition
 * leader drops the state of a producer idle for `producer.id.expiration.ms`
 * (ProducerStateManager.removeExpiredProducers, KIP-854) and then accepts its next batch at any
 * sequence, so a retry of a batch appended before the expiry is appended again. Kafka's
 * documentation of `producer.id.expiration.ms` names this: setting it at or above
 * `delivery.timeout.ms` prevents expiration during retries and the duplicates it causes. The
 * retry may instead meet OUT_OF_ORDER_SEQUENCE_NUMBER (the leader, having expired the producer,
 * rebuilt its state from a later batch); the Java idempotent producer then bumps its epoch and
 * rewrites its in-flight batches from sequence 0 (TransactionManager.canRetry,
 * bumpIdempotentProducerEpoch), so the copy appears under a higher producerEpoch of the same
 * producerId.
 */
import type { Oracle } from '../history';
import type { OracleCopy } from './check_context';

/**
 * True when every copy is on one partition from one producerId, none under a lower producerEpoch
 * than the first, and a replica of that partition expired that producer after the first copy was
 * appended and no later than the last copy.
 * @example writtenAfterProducerExpired(context.oracle, context.oracleCopiesOf(1))
 */
export function writtenAfterProducerExpired(
  oracle: Oracle,
  copies: readonly OracleCopy[],
): boolean {
  const [first] = copies;
  const last = copies[copies.length - 1];
  if (first === undefined || last === undefined || copies.length < 2) return false;
  const { producerId, producerEpoch } = first.record;
  if (producerId < 0) return false;
  const oneProducer = copies.every(
    (copy) =>
      copy.topic === first.topic &&
      copy.partition === first.partition &&
      copy.record.producerId === producerId &&
      copy.record.producerEpoch >= producerEpoch,
  );
  if (!oneProducer) return false;
  const fromUs = Math.min(...copies.map((copy) => copy.record.appendUs));
  const toUs = Math.max(...copies.map((copy) => copy.record.appendUs));
  return (oracle.producerStateExpirations ?? []).some(
    (expiry) =>
      expiry.topic === first.topic &&
      expiry.partition === first.partition &&
      expiry.producerIds.includes(producerId) &&
      expiry.timeUs > fromUs &&
      expiry.timeUs <= toUs,
  );
}
