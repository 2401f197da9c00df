/**
 * Goal: pin the idempotent side of `fatal-txn-error` (redpanda-data/redpanda#22670): a send that
 * ends with OUT_OF_ORDER_SEQUENCE_NUMBER after the leader expired its producer's state
 * (`producer.id.expiration.ms`) following the producer's last acknowledged write there, which
 * Kafka never answers (KIP-360: any sequence from a producer it has no state for). Not counted:
 * no expiration, an expiration of another producer or before the last acknowledged write, or a
 * truncation of the partition in between (acknowledged records may have been lost). Method:
 * hand-built histories with an oracle listing expirations and truncations.
 */
import { describe, expect, it } from 'vitest';
import { CheckContext } from '../../sim/checker/check_context';
import { checkFatalIdempotentError } from '../../sim/checker/fatal_idempotent_error';
import type { History, Oracle, ProducerStateExpiration } from '../../sim/history';
import { TOPIC, historyOf, oracleOf, send, truncation, type OpDraft } from './builders';

/** P's acknowledged send at 0, then a send at 10 000 that ends with `error`. */
function refusedAfterIdle(error = 'OUT_OF_ORDER_SEQUENCE_NUMBER'): History {
  const [invoke, done] = send({ client: 'P', partition: 0, value: 2, atUs: 10_000, type: 'info' });
  const failed = { ...(done as OpDraft), error, value: { ...done?.value, producerId: 0 } };
  return historyOf(
    send({ client: 'P', partition: 0, value: 1, offset: 0, atUs: 0, producerId: 0 }),
    [invoke as OpDraft, failed as OpDraft],
  );
}

function expiration(timeUs: number, producerId = 0): ProducerStateExpiration {
  return { timeUs, topic: TOPIC, partition: 0, broker: 'b1', producerIds: [producerId] };
}

function found(history: History, oracle: Oracle): number {
  return checkFatalIdempotentError(new CheckContext(history, oracle)).length;
}

describe('fatal-txn-error for an idempotent producer', () => {
  it('counts an out-of-order answer after the producer state expired', () => {
    const oracle = { ...oracleOf({}), producerStateExpirations: [expiration(5_000)] };
    const anomalies = checkFatalIdempotentError(new CheckContext(refusedAfterIdle(), oracle));
    expect(anomalies.map((anomaly) => anomaly.kind)).toEqual(['fatal-txn-error']);
    expect(anomalies[0]?.message).toContain('expired the producer');
  });

  it('does not count it without an expiration, or of another producer, or before the ack', () => {
    expect(found(refusedAfterIdle(), oracleOf({}))).toBe(0);
    const other = { ...oracleOf({}), producerStateExpirations: [expiration(5_000, 9)] };
    expect(found(refusedAfterIdle(), other)).toBe(0);
    // The ack at 10us follows the expiration at 5us: the leader knew the producer again.
    const early = { ...oracleOf({}), producerStateExpirations: [expiration(5)] };
    expect(found(refusedAfterIdle(), early)).toBe(0);
  });

  it('does not count another error, nor one after a truncation of the partition', () => {
    const oracle = { ...oracleOf({}), producerStateExpirations: [expiration(5_000)] };
    expect(found(refusedAfterIdle('NOT_ENOUGH_REPLICAS'), oracle)).toBe(0);
    const cut = truncation({
      timeUs: 6_000,
      broker: 'b1',
      toOffset: 0,
      reason: 'power-loss',
      removed: [],
    });
    const truncated = {
      ...oracleOf({ truncations: [cut] }),
      producerStateExpirations: [expiration(5_000)],
    };
    expect(found(refusedAfterIdle(), truncated)).toBe(0);
  });
});
