/**
 * Goal: pin when a duplicate's copies are the ones a producer-state expiry lets through: one
 * producerId's copies on one partition (later ones under the same or a bumped epoch) with an
 * expiry of that producer between their appends.
 * Method: hand-built oracle copies and expirations.
 */
import { describe, expect, it } from 'vitest';
import type { Oracle, OracleRecord } from '../history';
import type { OracleCopy } from './check_context';
import { writtenAfterProducerExpired } from './expired_producer';

function copy(offset: number, appendUs: number, fields: Partial<OracleRecord> = {}): OracleCopy {
  return {
    topic: 'orders',
    partition: 0,
    record: {
      offset,
      value: 1,
      producerId: 0,
      producerEpoch: 0,
      sequence: 1,
      isTransactional: false,
      appendUs,
      ...fields,
    },
  };
}

function oracleWith(expiryUs: number, producerIds: number[] = [0]): Oracle {
  const expiry = { timeUs: expiryUs, topic: 'orders', partition: 0, broker: 'b1', producerIds };
  return { producerStateExpirations: [expiry] } as unknown as Oracle;
}

describe('writtenAfterProducerExpired', () => {
  it('is true when the producer expired between the two appends', () => {
    expect(
      writtenAfterProducerExpired(oracleWith(20_000_000), [
        copy(1, 7_500_000),
        copy(3, 24_000_000),
      ]),
    ).toBe(true);
  });

  it('is true for the retry rewritten under a bumped epoch after the expiry', () => {
    // swarm seed 443 of scenarios/producer-id-expiration.yaml: the retry met
    // OUT_OF_ORDER_SEQUENCE_NUMBER at a leader that had expired the producer, and the Java
    // producer's epoch bump wrote it again under epoch 1.
    const bumped = [copy(3, 20_010_000), copy(8, 39_270_000, { producerEpoch: 1 })];
    expect(writtenAfterProducerExpired(oracleWith(27_000_000), bumped)).toBe(true);
  });

  it('is false for an expiry outside the copies, another producer, or a lower later epoch', () => {
    const copies = [copy(1, 7_500_000), copy(3, 24_000_000)];
    expect(writtenAfterProducerExpired(oracleWith(25_000_000), copies)).toBe(false);
    expect(writtenAfterProducerExpired(oracleWith(20_000_000, [5]), copies)).toBe(false);
    const otherId = [copy(1, 7_500_000), copy(3, 24_000_000, { producerId: 7 })];
    expect(writtenAfterProducerExpired(oracleWith(20_000_000, [0, 7]), otherId)).toBe(false);
    const lower = [copy(1, 7_500_000, { producerEpoch: 1 }), copy(3, 24_000_000)];
    expect(writtenAfterProducerExpired(oracleWith(20_000_000), lower)).toBe(false);
    expect(writtenAfterProducerExpired({} as Oracle, copies)).toBe(false);
  });
});
