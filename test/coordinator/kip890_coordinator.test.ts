/**
 * Goal: pin the coordinator's KIP-890 behaviour and its failure paths on `__transaction_state`:
 * part 1 verification answers (ReplicaManager.maybeStartTransactionVerificationForPartitions), part
 * 2 (transaction version 2) epoch bumps at every EndTxn with the retry table of
 * TransactionCoordinator.endTransaction, epoch exhaustion rotating the producerId
 * (TransactionMetadata.isEpochExhausted), append errors mapped to COORDINATOR_NOT_AVAILABLE /
 * NOT_COORDINATOR (TransactionStateManager.appendTransactionToLog), loading answers
 * COORDINATOR_LOAD_IN_PROGRESS, and a successor rebuilding Prepare* from the log
 * (TransactionStateManager.loadTransactionsForTxnTopicPartition). Method: the fake broker of
 * ./harness; every write takes 1000 µs; markers answered by hand.
 */
import { describe, expect, it } from 'vitest';
import { TRANSACTION_LOG_LOAD_US } from '../../sim/actors/coordinator/transaction_coordinator';
import { CoordinatorHarness, LOG_WRITE_US, T0, T1, TXN_PARTITION } from './harness';

/** A harness with an Ongoing transaction on T0 and T1 at epoch 0. */
function ongoing(transactionVersion: number): CoordinatorHarness {
  const h = new CoordinatorHarness({ transactionVersion });
  h.initProducerId();
  h.advanceBy(LOG_WRITE_US);
  h.addPartitions(0, [T0, T1]);
  h.advanceBy(LOG_WRITE_US);
  expect(h.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
  return h;
}

describe('KIP-890 part 1: verification (ReplicaManager)', () => {
  it('answers NONE for partitions in the transaction and TRANSACTION_ABORTABLE otherwise', () => {
    const h = ongoing(0);
    const verified = h.addPartitions(0, [T0, { topic: 't', partition: 7 }], { verifyOnly: true });
    expect(verified.results?.map((result) => result.error)).toEqual([
      'NONE',
      'TRANSACTION_ABORTABLE',
    ]);
    // Verification never writes: the state and the log are unchanged.
    expect(h.state().pendingState).toBeNull();
    expect(h.log).toHaveLength(2);
  });

  it('fences a stale epoch, maps an unknown producerId, and waits out Prepare*', () => {
    const h = ongoing(0);
    expect(h.addPartitions(1, [T0], { verifyOnly: true }).error).toBe('PRODUCER_FENCED');
    expect(h.addPartitions(0, [T0], { verifyOnly: true, producerId: 9 }).error).toBe(
      'INVALID_PRODUCER_ID_MAPPING',
    );
    h.endTxn(0, false);
    h.advanceBy(LOG_WRITE_US);
    expect(h.addPartitions(0, [T0], { verifyOnly: true }).error).toBe('CONCURRENT_TRANSACTIONS');
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    // After the abort the partition is no longer in a transaction (the BUG-01 late batch).
    expect(h.addPartitions(0, [T0], { verifyOnly: true }).error).toBe('TRANSACTION_ABORTABLE');
  });
});

describe('KIP-890 part 2: transaction version 2 (TransactionCoordinator.endTransaction)', () => {
  it('bumps the epoch at every EndTxn and answers the new identity', () => {
    const h = ongoing(2);
    const commit = h.endTxn(0, true, { transactionVersion: 2 });
    h.advanceBy(LOG_WRITE_US);
    expect(commit).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 1 });
    expect(h.markers().at(-1)).toMatchObject({ producerEpoch: 1, committed: true });
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(h.state()).toEqual({ state: 'CompleteCommit', pendingState: null, producerEpoch: 1 });
    expect(h.coordinator.epochGrants.at(-1)).toMatchObject({ producerEpoch: 1, reason: 'end' });
  });

  it('answers the KIP-890 retry table in CompleteCommit and CompleteAbort', () => {
    const h = ongoing(2);
    h.endTxn(0, true, { transactionVersion: 2 });
    h.advanceBy(LOG_WRITE_US);
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    const v2 = { transactionVersion: 2 };
    // CompleteCommit at epoch 1: a commit retry (epoch 0) is NONE, an abort retry is not.
    expect(h.endTxn(0, true, v2)).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 1 });
    expect(h.endTxn(0, false, v2).error).toBe('INVALID_TXN_STATE');
    expect(h.endTxn(1, true, v2).error).toBe('INVALID_TXN_STATE');
    expect(h.endTxn(5, false, v2).error).toBe('PRODUCER_FENCED');
    // An abort with the current epoch outside a transaction is an empty abort: epoch 2.
    const empty = h.endTxn(1, false, v2);
    h.advanceBy(LOG_WRITE_US);
    expect(empty).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 2 });
    h.advanceBy(LOG_WRITE_US);
    expect(h.state()).toEqual({ state: 'CompleteAbort', pendingState: null, producerEpoch: 2 });
    // CompleteAbort at epoch 2: an abort retry is NONE, a late commit is fenced (KAFKA-20785).
    expect(h.endTxn(1, false, v2).error).toBe('NONE');
    expect(h.endTxn(1, true, v2).error).toBe('PRODUCER_FENCED');
    expect(h.endTxn(2, true, v2).error).toBe('INVALID_TXN_STATE');
  });

  it('fences a stale EndTxn of an earlier transaction (BUG-03 under TV2)', () => {
    const h = ongoing(2);
    h.endTxn(0, true, { transactionVersion: 2 });
    h.advanceBy(LOG_WRITE_US);
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    h.addPartitions(1, [T1]);
    h.advanceBy(LOG_WRITE_US);
    expect(h.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 1 });
    // The first transaction's EndTxn(commit) at epoch 0 arrives late: it must not commit T2.
    expect(h.endTxn(0, true, { transactionVersion: 2 }).error).toBe('PRODUCER_FENCED');
    expect(h.state().state).toBe('Ongoing');
  });

  it('rotates to a new producerId at epoch exhaustion (isEpochExhausted)', () => {
    const h = new CoordinatorHarness({ transactionVersion: 2 });
    h.initProducerId();
    h.advanceBy(LOG_WRITE_US);
    const metadata = h.coordinator.metadataOf('tx');
    if (metadata === undefined) throw new Error('no metadata');
    (metadata as { producerEpoch: number }).producerEpoch = 32_766;
    h.addPartitions(32_766, [T0]);
    h.advanceBy(LOG_WRITE_US);
    const end = h.endTxn(32_766, true, { transactionVersion: 2 });
    h.advanceBy(LOG_WRITE_US);
    expect(end).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
    expect(h.markers().at(-1)).toMatchObject({ producerId: 0, producerEpoch: 32_767 });
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(h.coordinator.metadataOf('tx')).toMatchObject({
      producerId: 1,
      producerEpoch: 0,
      state: 'CompleteCommit',
    });
  });
});

describe('__transaction_state writes and failover (TransactionStateManager)', () => {
  it('NOT_ENOUGH_REPLICAS gives COORDINATOR_NOT_AVAILABLE, a lost lead NOT_COORDINATOR', () => {
    const h = new CoordinatorHarness();
    h.appendError = 'NOT_ENOUGH_REPLICAS';
    const refused = h.initProducerId();
    h.advanceBy(LOG_WRITE_US);
    expect(refused.error).toBe('COORDINATOR_NOT_AVAILABLE');
    h.appendError = 'NOT_LEADER_OR_FOLLOWER';
    const moved = h.initProducerId();
    h.advanceBy(LOG_WRITE_US);
    expect(moved.error).toBe('NOT_COORDINATOR');
    expect(h.log).toHaveLength(0);
    h.appendError = null;
    const granted = h.initProducerId();
    h.advanceBy(LOG_WRITE_US);
    expect(granted).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 0 });
  });

  it('answers COORDINATOR_LOAD_IN_PROGRESS while loading, NOT_COORDINATOR once resigned', () => {
    const h = new CoordinatorHarness();
    h.coordinator.onResigned(TXN_PARTITION);
    expect(h.initProducerId().error).toBe('NOT_COORDINATOR');
    h.coordinator.onElected(TXN_PARTITION, 3, h);
    expect(h.initProducerId().error).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    h.advanceBy(TRANSACTION_LOG_LOAD_US);
    expect(h.initProducerId().error).toBeUndefined(); // accepted: its write is in flight
  });

  it('a write that completes after the partition moved answers NOT_COORDINATOR', () => {
    const h = ongoing(0);
    const ended = h.endTxn(0, true);
    h.coordinator.onResigned(TXN_PARTITION);
    h.advanceBy(LOG_WRITE_US);
    expect(ended.error).toBe('NOT_COORDINATOR');
  });

  it('the next leader rebuilds PrepareCommit from the log and finishes it', () => {
    const h = ongoing(0);
    h.endTxn(0, true);
    h.advanceBy(LOG_WRITE_US);
    expect(h.log.map((record) => record.value?.state)).toEqual([
      'Empty',
      'Ongoing',
      'PrepareCommit',
    ]);
    h.crashAndRestart();
    expect(h.state()).toEqual({ state: 'PrepareCommit', pendingState: null, producerEpoch: 0 });
    expect(h.markers().at(-1)).toMatchObject({ coordinatorEpoch: 1, committed: true });
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(h.log.at(-1)?.value).toMatchObject({ state: 'CompleteCommit', topicPartitions: [] });
  });
});
