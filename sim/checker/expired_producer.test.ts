/**
 * Goal: pin when a duplicate's copies are the ones a producer-state expiry lets through: one
 * producer's copies on one partition with an expiry of that producer between their appends.
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

  it('is false for an expiry outside the copies, of another producer, or over two epochs', () => {
    const copies = [copy(1, 7_500_000), copy(3, 24_000_000)];
    expect(writtenAfterProducerExpired(oracleWith(25_000_000), copies)).toBe(false);
    expect(writtenAfterProducerExpired(oracleWith(20_000_000, [5]), copies)).toBe(false);
    const bumped = [copy(1, 7_500_000), copy(3, 24_000_000, { producerEpoch: 1 })];
    expect(writtenAfterProducerExpired(oracleWith(20_000_000), bumped)).toBe(false);
    expect(writtenAfterProducerExpired({} as Oracle, copies)).toBe(false);
  });
});
