/**
 * Goal: pin when the liveness report says a producer is stuck behind refused markers: its
 * coordinator leads the id's `__transaction_state` partition and holds it in PrepareAbort at an
 * epoch below the one a partition of the transaction has; the truncation that lost the newer
 * epoch's record is named when there was one.
 * Method: an ObservedCluster fed hand-built stamped observations (swarm seed 443 of
 * late-transaction-metric in miniature: epoch 1 granted, its records lost, epoch 0 reloaded in
 * PrepareAbort).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaObservation, LogBatch, PartitionState } from '../actors';
import { nodeId } from '../kernel';
import { ObservedCluster } from './observed_cluster';
import { refusedMarkers } from './refused_markers';

function state(topic: string, leader: string): PartitionState {
  return {
    topic,
    partition: topic === 'payments' ? 0 : 19,
    replicas: ['b1', 'b2'],
    leader,
    leaderEpoch: 3,
    partitionEpoch: 3,
    isr: ['b1', 'b2'],
    elr: [],
    lastKnownElr: [],
  };
}

function dataBatch(producerEpoch: number): LogBatch {
  return {
    baseOffset: 1,
    lastOffset: 1,
    producerId: 2000,
    producerEpoch,
    baseSequence: 0,
    isTransactional: true,
    values: [45],
    appendUs: 1,
    leaderEpoch: 3,
  };
}

function stateRecord(offset: number, producerEpoch: number): LogBatch {
  return {
    ...dataBatch(producerEpoch),
    baseOffset: offset,
    lastOffset: offset,
    isTransactional: false,
    values: [0],
    transactionLog: {
      transactionalId: 'pa',
      value: {
        producerId: 2000,
        producerEpoch,
        txnTimeoutMs: 60_000,
        state: 'CompleteCommit',
        topicPartitions: [],
        txnStartUs: -1,
        txnLastUpdateUs: 1,
        clientTransactionVersion: 0,
      },
    },
  };
}

function world(partitionEpoch: number) {
  const observed = new ObservedCluster();
  let eventIndex = 0;
  const feed = (observation: KafkaObservation): void =>
    observed.observe({
      timeUs: eventIndex * 1000,
      eventIndex: ++eventIndex,
      node: nodeId('b1'),
      observation,
    });
  feed({ kind: 'PartitionStateChanged', state: state('payments', 'b1') });
  feed({ kind: 'PartitionStateChanged', state: state('__transaction_state', 'b1') });
  feed({
    kind: 'BatchAppended',
    broker: 'b1',
    topic: 'payments',
    partition: 0,
    origin: 'leader',
    batch: dataBatch(partitionEpoch),
  } as KafkaObservation);
  return { observed, feed };
}

const held: KafkaObservation = {
  kind: 'TransactionLogLoaded',
  coordinator: 'b1',
  stateLogPartition: 19,
  coordinatorEpoch: 4,
  transactions: [
    {
      transactionalId: 'pa',
      producerId: 2000,
      producerEpoch: 0,
      state: 'PrepareAbort',
      partitions: [{ topic: 'payments', partition: 0 }],
      txnStartUs: 0,
      txnTimeoutMs: 60_000,
    },
  ],
};

describe('refusedMarkers', () => {
  it('names the refused marker and the truncation that lost the newer epoch', () => {
    const { observed, feed } = world(1);
    feed({
      kind: 'LogTruncated',
      broker: 'b2',
      topic: '__transaction_state',
      partition: 19,
      toOffset: 3,
      logEndOffset: 3,
      reason: 'power-loss',
      removed: [stateRecord(3, 1)],
    });
    feed(held);
    const reason = refusedMarkers(observed, 'pa');
    expect(reason).toContain(
      'coordinator b1 holds pa in PrepareAbort at producerId 2000 epoch 0, but payments-0 ' +
        '(leader b1) already has epoch 1: its ABORT marker is refused with INVALID_PRODUCER_EPOCH',
    );
    expect(reason).toContain(
      "__transaction_state-19 lost the newer epoch's records on b2 at 0.003 s (power-loss " +
        'truncation to offset 3)',
    );
  });

  it('says nothing when the partition has no newer epoch, or another broker leads the log', () => {
    const same = world(0);
    same.feed(held);
    expect(refusedMarkers(same.observed, 'pa')).toBeNull();
    const moved = world(1);
    moved.feed(held);
    moved.feed({ kind: 'PartitionStateChanged', state: state('__transaction_state', 'b2') });
    expect(refusedMarkers(moved.observed, 'pa')).toBeNull();
    const kept = world(1);
    kept.feed(held);
    expect(refusedMarkers(kept.observed, 'pa')).not.toContain('lost the newer epoch');
  });
});
