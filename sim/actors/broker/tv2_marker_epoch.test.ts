/**
 * Goal: prove the transaction version 2 marker epoch rule and its two switches both ways on one
 * partition. Since KAFKA-19446 (apache/kafka#20882) a TV2 marker, which carries the epoch its
 * EndTxn bumped to, must be above the producer's epoch at the partition, so a late COMMIT of
 * transaction N cannot end transaction N+1 that runs at that same epoch; before it (switch
 * `KAFKA-19446` on) it was checked as a TV0 marker (not below) and ended N+1. Since KAFKA-19999
 * (apache/kafka#21176) a same-epoch TV2 marker with no transaction open is an idempotent retry
 * and is accepted; with that switch on it is INVALID_PRODUCER_EPOCH. TV0 markers keep the old
 * rule under every setting. Method: drive one `PartitionLog` with hand-built batches and markers
 * and assert the errors, the open transactions and the last stable offset.
 */
import { describe, expect, it } from 'vitest';
import type { ProducedBatch } from '../protocol';
import { PartitionLog } from './partition_log';

const PID = 7;

function log(bugs: { notBumped?: boolean; retryRefused?: boolean } = {}): PartitionLog {
  return new PartitionLog('t', 0, {
    skipProducerEpochCheck: false,
    verificationGuardBeforeEpochCheck: false,
    acceptAnyFirstSequenceOnEmptyLog: false,
    singleBatchDedupWindow: false,
    tv2MarkerEpochNotBumpedAccepted: bugs.notBumped ?? false,
    tv2MarkerRetryRefused: bugs.retryRefused ?? false,
  });
}

function data(producerEpoch: number, baseSequence: number): ProducedBatch {
  return { producerId: PID, producerEpoch, baseSequence, isTransactional: true, values: [1] };
}

function commit(producerEpoch: number, transactionVersion: number) {
  return {
    producerId: PID,
    producerEpoch,
    coordinatorEpoch: 0,
    committed: true,
    transactionVersion,
  };
}

/** Transaction N at epoch 0 committed by its TV2 marker (epoch 1), N+1 open at epoch 1. */
function nextTransactionOpen(partition: PartitionLog): void {
  expect(partition.appendAsLeader(data(0, 0), 10).error).toBe('NONE');
  expect(partition.appendMarker(commit(1, 2), 20)).toBe('NONE');
  expect(partition.appendAsLeader(data(1, 0), 30).error).toBe('NONE');
  expect(partition.openTransactions.size).toBe(1);
}

describe('KAFKA-19446: a TV2 marker must be above the producer epoch', () => {
  it("since the fix, a late marker of transaction N does not end N+1's transaction", () => {
    const partition = log();
    nextTransactionOpen(partition);
    const lastStable = partition.lastStableOffset;
    expect(partition.appendMarker(commit(1, 2), 40)).toBe('INVALID_PRODUCER_EPOCH');
    expect(partition.openTransactions.size).toBe(1);
    expect(partition.lastStableOffset).toBe(lastStable);
    // N+1's own marker, at the epoch its EndTxn bumped to, ends it.
    expect(partition.appendMarker(commit(2, 2), 50)).toBe('NONE');
    expect(partition.openTransactions.size).toBe(0);
  });

  it('with the bug on (4.0, 4.1), the late marker commits what N+1 has written so far', () => {
    const partition = log({ notBumped: true });
    nextTransactionOpen(partition);
    expect(partition.appendMarker(commit(1, 2), 40)).toBe('NONE');
    expect(partition.openTransactions.size).toBe(0);
    expect(partition.lastStableOffset).toBe(partition.logEndOffset);
  });

  it('a TV0 marker keeps the not-below rule under every setting', () => {
    for (const bugs of [{}, { notBumped: true }, { retryRefused: true }]) {
      const partition = log(bugs);
      partition.appendAsLeader(data(0, 0), 10);
      expect(partition.appendMarker(commit(0, 0), 20)).toBe('NONE');
      expect(partition.appendMarker(commit(0, 0), 30)).toBe('NONE');
      partition.appendAsLeader(data(1, 0), 40);
      expect(partition.appendMarker(commit(0, 0), 50)).toBe('INVALID_PRODUCER_EPOCH');
    }
  });
});

describe('KAFKA-19999: a resent TV2 marker at the same epoch', () => {
  it('since the fix, is an idempotent retry while no transaction is open', () => {
    const partition = log();
    partition.appendAsLeader(data(0, 0), 10);
    expect(partition.appendMarker(commit(1, 2), 20)).toBe('NONE');
    expect(partition.appendMarker(commit(1, 2), 30)).toBe('NONE');
    expect(partition.openTransactions.size).toBe(0);
  });

  it('with the bug on, is refused INVALID_PRODUCER_EPOCH', () => {
    const partition = log({ retryRefused: true });
    partition.appendAsLeader(data(0, 0), 10);
    expect(partition.appendMarker(commit(1, 2), 20)).toBe('NONE');
    expect(partition.appendMarker(commit(1, 2), 30)).toBe('INVALID_PRODUCER_EPOCH');
  });
});
