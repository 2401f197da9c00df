/**
 * Goal: a coordinator's load names the transactional.ids the log ends with a tombstone for
 * (expired, TransactionStateManager.loadTransactionsForTxnTopicPartition drops them), so an
 * expiration whose writer died before its removal callback is still known. Method: load
 * hand-built records of one partition and read `tombstonedAtLoad`.
 */
import { describe, expect, it } from 'vitest';
import type { TransactionLogRecord, TransactionLogValue } from '../protocol';
import { TransactionStateManager } from './transaction_state_manager';

const VALUE: TransactionLogValue = {
  producerId: 7,
  producerEpoch: 1,
  txnTimeoutMs: 60_000,
  state: 'CompleteCommit',
  topicPartitions: [],
  txnStartUs: 0,
  txnLastUpdateUs: 500_000,
  clientTransactionVersion: 2,
};

function load(records: readonly TransactionLogRecord[]) {
  const state = new TransactionStateManager(1);
  state.beginLoading(0, 1);
  const loaded = state.finishLoading(0, 1, records);
  return { loaded, tombstoned: state.tombstonedAtLoad(0) };
}

describe('TransactionStateManager load', () => {
  it('names an id whose last record is a tombstone, with its last metadata', () => {
    const { loaded, tombstoned } = load([
      { transactionalId: 'tx', value: VALUE },
      { transactionalId: 'tx', value: null },
    ]);
    expect(loaded).toEqual([]);
    expect(
      tombstoned.map(({ transactionalId, producerId }) => [transactionalId, producerId]),
    ).toEqual([['tx', 7]]);
  });

  it('does not name an id written again after its tombstone, nor one never tombstoned', () => {
    const again = load([
      { transactionalId: 'tx', value: VALUE },
      { transactionalId: 'tx', value: null },
      { transactionalId: 'tx', value: { ...VALUE, producerId: 8, producerEpoch: 0 } },
      { transactionalId: 'other', value: VALUE },
    ]);
    expect(again.loaded?.map((metadata) => metadata.producerId)).toEqual([8, 7]);
    expect(again.tombstoned).toEqual([]);
  });
});
