/**
 * Goal: pin how the Java producer's TxnOffsetCommitHandler classifies a TxnOffsetCommit answer,
 * both sides of KAFKA-16386's client half. Since apache/kafka#15266 (3.8.0) any retriable error
 * (NETWORK_EXCEPTION, CONCURRENT_TRANSACTIONS) retries with the same coordinator; before it (the
 * switch on) only the listed errors retry and any other is fatal ("Unexpected error in
 * TxnOffsetCommitResponse"). Method: one queued sendOffsetsToTransaction past AddOffsetsToTxn,
 * then the answer.
 */
import { describe, expect, it } from 'vitest';
import type { KafkaErrorCode } from '../protocol';
import { TxnOffsets } from './txn_offsets';

const GROUP = { groupId: 'etl', generationId: 1, memberId: 'm-1', groupInstanceId: null };

/** The outcome of a TxnOffsetCommit answered `error` for in-0. */
function outcomeOf(error: KafkaErrorCode, txnOffsetCommitRetriesListedOnly: boolean) {
  const offsets = new TxnOffsets();
  offsets.enqueue([{ topic: 'in', partition: 0, offset: 5 }], GROUP, () => undefined, true);
  offsets.groupCoordinator = 'b1' as never;
  const results = [{ topic: 'in', partition: 0, error }];
  return offsets.onTxnOffsetCommit(results, { txnOffsetCommitRetriesListedOnly });
}

describe('TxnOffsetCommitHandler (KAFKA-16386 client half, apache/kafka#15266)', () => {
  it('retries NETWORK_EXCEPTION with the same coordinator once fixed', () => {
    expect(outcomeOf('NETWORK_EXCEPTION', false)).toEqual({ type: 'retry', rediscover: null });
    expect(outcomeOf('CONCURRENT_TRANSACTIONS', false)).toEqual({
      type: 'retry',
      rediscover: null,
    });
  });

  it('bug on: an error it does not list is fatal, retriable or not', () => {
    expect(outcomeOf('NETWORK_EXCEPTION', true)).toEqual({
      type: 'fatal',
      error: 'NETWORK_EXCEPTION',
    });
    expect(outcomeOf('CONCURRENT_TRANSACTIONS', true)).toEqual({
      type: 'fatal',
      error: 'CONCURRENT_TRANSACTIONS',
    });
  });

  it('near-miss: the listed errors retry either way', () => {
    for (const listedOnly of [false, true]) {
      expect(outcomeOf('COORDINATOR_LOAD_IN_PROGRESS', listedOnly)).toEqual({
        type: 'retry',
        rediscover: null,
      });
      expect(outcomeOf('NOT_COORDINATOR', listedOnly)).toEqual({
        type: 'retry',
        rediscover: 'group',
      });
    }
  });

  it('near-miss: a non-retriable error it does not list is fatal either way', () => {
    for (const listedOnly of [false, true]) {
      expect(outcomeOf('UNKNOWN_SERVER_ERROR', listedOnly).type).toBe('fatal');
    }
  });
});
