/**
 * Goal: pin the idempotent side of `fatal-txn-error`: a send that ends with
 * OUT_OF_ORDER_SEQUENCE_NUMBER although the partition lost nothing since the producer's last
 * acknowledged write there, either after the leader expired its producer's state
 * (`producer.id.expiration.ms`; redpanda-data/redpanda#22670; KIP-360: any sequence from a
 * producer it has no state for) or without any expiration (the client read a not-next-in-line
 * refusal as fatal; confluentinc/librdkafka#4438). Not counted: another error, or a truncation of
 * the partition in between (acknowledged records may have been lost), nor a send that never got
 * a producerId. A refusal behind a later batch the leader took as the producer's first (the
 * log's first batch of that producerId and epoch starts above sequence 0, appended before the
 * refusal) is classified first-batch-taken-out-of-order. Method: hand-built histories with an
 * oracle listing expirations, truncations and the partition's log.
 */
import { describe, expect, it } from 'vitest';
import { CheckContext } from '../../sim/checker/check_context';
import { checkFatalIdempotentError } from '../../sim/checker/fatal_idempotent_error';
import type { History, Oracle, ProducerStateExpiration } from '../../sim/history';
import {
  TOPIC,
  data,
  historyOf,
  oracleOf,
  partitionOf,
  send,
  truncation,
  type OpDraft,
} from './builders';

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
    // librdkafka purged it from its queue on a fatal error met elsewhere: no answer of its own.
    expect(found(refusedAfterIdle('_PURGE_QUEUE'), oracle)).toBe(0);
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

/** P's send of value 2 under producerId 5 epoch 0, refused at 10 000. */
function refusedUnder(producerId: number): History {
  const [invoke, done] = send({ client: 'P', partition: 0, value: 2, atUs: 10_000, type: 'info' });
  const value = { ...done?.value, producerId, producerEpoch: 0 };
  const failed = { ...(done as OpDraft), error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', value };
  return historyOf(
    send({ client: 'P', partition: 0, value: 1, offset: 0, atUs: 0, producerId: 3 }),
    [invoke as OpDraft, failed as OpDraft],
  );
}

/** Partition 0's log: value 1 of producerId 3, then value 3 of producerId 5 at `sequence`. */
function logWithFirstBatch(sequence: number, appendUs: number): Oracle {
  const first = data({ offset: 0, value: 1, producerId: 3 });
  const later = { ...data({ offset: 1, value: 3, producerId: 5, appendUs }), sequence };
  return oracleOf({ partitions: [partitionOf({ partition: 0, records: [first, later] })] });
}

describe('a refusal behind a batch the leader took as the first', () => {
  it('is classified first-batch-taken-out-of-order when the identity starts above 0', () => {
    const context = new CheckContext(refusedUnder(5), logWithFirstBatch(1, 9_000));
    const [anomaly] = checkFatalIdempotentError(context);
    expect(anomaly?.classification).toBe('first-batch-taken-out-of-order');
    expect(anomaly?.message).toContain('had taken a later batch as its first');
  });

  it('stays OUT_OF_ORDER_SEQUENCE_NUMBER when the first batch starts at 0 or came later', () => {
    for (const oracle of [logWithFirstBatch(0, 9_000), logWithFirstBatch(1, 11_000)]) {
      const [anomaly] = checkFatalIdempotentError(new CheckContext(refusedUnder(5), oracle));
      expect(anomaly?.classification).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    }
  });

  it('does not count a send that never got a producerId', () => {
    expect(found(refusedUnder(-1), logWithFirstBatch(1, 9_000))).toBe(0);
  });
});
