/**
 * Goal: pin the idempotent side of `fatal-txn-error`: a send that ends with
 * OUT_OF_ORDER_SEQUENCE_NUMBER although the partition lost nothing since the producer's last
 * acknowledged write there, either after the leader expired its producer's state
 * (`producer.id.expiration.ms`; redpanda-data/redpanda#22670; KIP-360: any sequence from a
 * producer it has no state for) or without any expiration (the client read a not-next-in-line
 * refusal as fatal; confluentinc/librdkafka#4438). Not counted: another error, or a truncation of
 * the partition in between (acknowledged records may have been lost). Method: hand-built
 * histories with an oracle listing expirations and truncations.
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

  it('without an expiration, counts it as the client misreading a not-next-in-line refusal', () => {
    // librdkafka before 2.3.0 (confluentinc/librdkafka#4438): nothing expired, nothing lost.
    const plain = checkFatalIdempotentError(new CheckContext(refusedAfterIdle(), oracleOf({})));
    expect(plain.map((anomaly) => anomaly.kind)).toEqual(['fatal-txn-error']);
    expect(plain[0]?.message).toContain('refuses only a batch that is not next in line');
    // An expiration of another producer, or before the ack at 10us, is not this refusal's cause.
    const other = { ...oracleOf({}), producerStateExpirations: [expiration(5_000, 9)] };
    const early = { ...oracleOf({}), producerStateExpirations: [expiration(5)] };
    for (const oracle of [other, early]) {
      const [anomaly] = checkFatalIdempotentError(new CheckContext(refusedAfterIdle(), oracle));
      expect(anomaly?.message).not.toContain('expired the producer');
    }
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
