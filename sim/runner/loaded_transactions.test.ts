/**
 * Goal: a `__transaction_state` truncation names the open-transaction records it removed that a
 * coordinator had loaded (the fact behind the coordinator-loaded-uncommitted permission), and
 * only those: a record loaded with another partition set, loaded before it was appended, or
 * never loaded is not named, nor is a truncation of a data partition.
 * Method: an ObservedCluster fed stamped observations in order (b3 appends tx's Ongoing record
 * [events-1, events-2] at offset 31, b2 copies it and loads, b2 truncates to 31).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaObservation, LogBatch, TransactionView } from '../actors';
import { nodeId } from '../kernel';
import { loadedTransactionsOf } from './loaded_transactions';
import { ObservedCluster } from './observed_cluster';

const BOTH = [
  { topic: 'events', partition: 1 },
  { topic: 'events', partition: 2 },
];

function stateRecord(partitions: TransactionView['partitions']): LogBatch {
  return {
    baseOffset: 31,
    lastOffset: 31,
    producerId: -1,
    producerEpoch: -1,
    baseSequence: -1,
    isTransactional: false,
    values: [0],
    appendUs: 13_485_000,
    leaderEpoch: 0,
    transactionLog: {
      transactionalId: 'tx',
      value: {
        producerId: 1000,
        producerEpoch: 7,
        txnTimeoutMs: 60_000,
        state: 'Ongoing',
        topicPartitions: partitions,
        txnStartUs: 12_000_000,
        txnLastUpdateUs: 13_485_000,
        clientTransactionVersion: 2,
      },
    },
  };
}

function view(partitions: TransactionView['partitions']): TransactionView {
  return {
    transactionalId: 'tx',
    producerId: 1000,
    producerEpoch: 7,
    state: 'Ongoing',
    partitions,
    txnStartUs: 13_000_000,
    txnTimeoutMs: 60_000,
  };
}

/** Appends `record` at 13.485 s, loads `loaded` on b2 at `loadUs`, truncates b2 at 34.9 s. */
function run(
  record: LogBatch,
  loaded: TransactionView['partitions'],
  loadUs: number,
  topic?: string,
) {
  const observed = new ObservedCluster();
  let eventIndex = 0;
  const feed = (timeUs: number, observation: KafkaObservation): void =>
    observed.observe({ timeUs, eventIndex: ++eventIndex, node: nodeId('b2'), observation });
  const ref = (broker: string) => ({
    broker,
    topic: topic ?? '__transaction_state',
    partition: 12,
  });
  feed(1, { kind: 'LeaderEpochStarted', ...ref('b3'), leaderEpoch: 0 });
  feed(13_485_000, { kind: 'BatchAppended', ...ref('b3'), origin: 'leader', batch: record });
  feed(13_500_000, { kind: 'BatchAppended', ...ref('b2'), origin: 'follower', batch: record });
  feed(loadUs, {
    kind: 'TransactionLogLoaded',
    coordinator: 'b2',
    stateLogPartition: 12,
    coordinatorEpoch: 2,
    transactions: [view(loaded)],
  });
  feed(34_935_000, {
    kind: 'LogTruncated',
    ...ref('b2'),
    toOffset: 31,
    logEndOffset: 31,
    reason: 'diverging-epoch',
    removed: [record],
  });
  const [truncation] = observed.truncations;
  return truncation === undefined ? [] : loadedTransactionsOf(observed, truncation);
}

describe('loadedTransactionsOf (TransactionStateManager loads to the log end)', () => {
  it('names the removed Ongoing record b2 loaded, with its partitions and the load', () => {
    expect(run(stateRecord(BOTH), [...BOTH].reverse(), 22_440_000)).toEqual([
      {
        transactionalId: 'tx',
        producerId: 1000,
        producerEpoch: 7,
        state: 'Ongoing',
        partitions: BOTH,
        loadedBy: 'b2',
        loadedUs: 22_440_000,
      },
    ]);
  });

  it('does not name it when the load held another partition set (an earlier record)', () => {
    expect(run(stateRecord(BOTH), [{ topic: 'events', partition: 1 }], 22_440_000)).toEqual([]);
  });

  it('does not name it when the load finished before the record was appended', () => {
    expect(run(stateRecord(BOTH), BOTH, 10_000_000)).toEqual([]);
  });

  it('does not name a removed record of a finished transaction (no partitions)', () => {
    expect(run(stateRecord([]), [], 22_440_000)).toEqual([]);
  });

  it('names nothing for a truncation of a data partition', () => {
    expect(run(stateRecord(BOTH), BOTH, 22_440_000, 'events')).toEqual([]);
  });
});
