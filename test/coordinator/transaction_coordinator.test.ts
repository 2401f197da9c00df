/**
 * Goal: pin the transaction coordinator (TransactionCoordinator,
 * TransactionMetadata, TransactionMarkerChannelManager) under transaction version 0/1:
 * InitProducerId epochs and the KIP-360 bump, the timeout check, fencing of stale epochs, EndTxn
 * state checks, the pending-write gate (CONCURRENT_TRANSACTIONS), markers and their responses,
 * the timeout abort with an epoch bump, the fence of an Ongoing transaction by a new instance,
 * failover by reloading `__transaction_state`, and Kafka's table of legal transitions.
 * Method: one coordinator behind the fake broker of ./harness: every `__transaction_state`
 * write takes exactly 1000 µs, so every grant time and every state is exact. Markers are
 * answered by hand.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { AssertionError } from '../../sim/kernel';
import type { KafkaErrorCode } from '../../sim/actors/protocol';
import type { TransactionCoordinator } from '../../sim/actors/coordinator/transaction_coordinator';
import {
  VALID_PREVIOUS_STATES,
  assertValidTransition,
  transactionStatePartitionFor,
  type TransactionMetadata,
  type TransactionState,
} from '../../sim/actors/coordinator/transaction_metadata';
import {
  CoordinatorHarness,
  LOG_WRITE_US,
  NUM_PARTITIONS,
  T0,
  T1,
  TXN_ID,
  TXN_PARTITION,
  type Answer,
} from './harness';

let ctx: CoordinatorHarness;
let coordinator: TransactionCoordinator;

beforeEach(() => {
  ctx = new CoordinatorHarness();
  coordinator = ctx.coordinator;
});

function initProducerId(
  options: { timeoutMs?: number; producerId?: number; producerEpoch?: number } = {},
): Answer {
  return ctx.initProducerId(options);
}

function addPartitions(producerEpoch: number, partitions = [T0], producerId = 0): Answer {
  return ctx.addPartitions(producerEpoch, partitions, { producerId });
}

function endTxn(producerEpoch: number, committed: boolean, producerId = 0): Answer {
  return ctx.endTxn(producerEpoch, committed, { producerId });
}

function answerMarkers(error: KafkaErrorCode): void {
  ctx.answerMarkers(error);
}

function state(): Pick<TransactionMetadata, 'state' | 'pendingState' | 'producerEpoch'> {
  return ctx.state() as Pick<TransactionMetadata, 'state' | 'pendingState' | 'producerEpoch'>;
}

/** InitProducerId, then AddPartitions: an Ongoing transaction at epoch 0 from 1000 µs. */
function ongoingAtEpoch0(): void {
  initProducerId();
  ctx.advanceBy(LOG_WRITE_US);
  const added = addPartitions(0, [T0, T1]);
  ctx.advanceBy(LOG_WRITE_US);
  expect(added).toEqual({ error: 'NONE' });
  expect(state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
}

describe('InitProducerId (TransactionCoordinator.handleInitProducerId)', () => {
  it('grants epoch 0 once the Empty state is durable, then epoch 1 to the next instance', () => {
    const first = initProducerId();
    expect(first).toEqual({});
    expect(state()).toEqual({ state: 'Empty', pendingState: 'Empty', producerEpoch: -1 });
    ctx.advanceBy(LOG_WRITE_US);
    expect(first).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 0 });
    const second = initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(second).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 1 });
    expect(ctx.grants()).toEqual([
      { timeUs: 1000, transactionalId: TXN_ID, producerId: 0, producerEpoch: 0, reason: 'init' },
      { timeUs: 2000, transactionalId: TXN_ID, producerId: 0, producerEpoch: 1, reason: 'init' },
    ]);
  });

  it('refuses a timeout above transaction.max.timeout.ms, or not positive', () => {
    const refused = { error: 'INVALID_TRANSACTION_TIMEOUT', producerId: -1, producerEpoch: -1 };
    expect(initProducerId({ timeoutMs: 900_001 })).toEqual(refused);
    expect(initProducerId({ timeoutMs: 0 })).toEqual(refused);
    expect(coordinator.metadataOf(TXN_ID)).toBeUndefined();
    const atMax = initProducerId({ timeoutMs: 900_000 });
    ctx.advanceBy(LOG_WRITE_US);
    expect(atMax.error).toBe('NONE');
  });

  it('answers CONCURRENT_TRANSACTIONS while its own write is pending', () => {
    initProducerId();
    expect(initProducerId()).toEqual({
      error: 'CONCURRENT_TRANSACTIONS',
      producerId: -1,
      producerEpoch: -1,
    });
  });

  it('bumps a KIP-360 expectation once and answers its retry with the same epoch', () => {
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    const bump = initProducerId({ producerId: 0, producerEpoch: 0 });
    ctx.advanceBy(LOG_WRITE_US);
    expect(bump).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 1 });
    const retry = initProducerId({ producerId: 0, producerEpoch: 0 });
    expect(retry).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 1 });
    expect(initProducerId({ producerId: 5, producerEpoch: 1 }).error).toBe('PRODUCER_FENCED');
    expect(initProducerId({ producerId: 0, producerEpoch: 7 }).error).toBe('PRODUCER_FENCED');
    expect(initProducerId({ producerId: 0, producerEpoch: -1 }).error).toBe('INVALID_REQUEST');
  });

  it('answers NOT_COORDINATOR for an id of a partition this broker does not lead', () => {
    expect(transactionStatePartitionFor('elsewhere', NUM_PARTITIONS)).not.toBe(TXN_PARTITION);
    expect(ctx.initProducerId({ id: 'elsewhere' })).toEqual({
      error: 'NOT_COORDINATOR',
      producerId: -1,
      producerEpoch: -1,
    });
  });
});

describe('AddPartitionsToTxn and EndTxn checks', () => {
  it('fences an AddPartitions with an old epoch, and maps an unknown producerId', () => {
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(addPartitions(0)).toEqual({ error: 'PRODUCER_FENCED' });
    expect(addPartitions(1, [T0], 99)).toEqual({ error: 'INVALID_PRODUCER_ID_MAPPING' });
    expect(state()).toEqual({ state: 'Empty', pendingState: null, producerEpoch: 1 });
  });

  it('answers INVALID_TXN_STATE to EndTxn in Empty, for commit and abort', () => {
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(endTxn(0, true)).toEqual({ error: 'INVALID_TXN_STATE' });
    expect(endTxn(0, false)).toEqual({ error: 'INVALID_TXN_STATE' });
    expect(endTxn(1, true)).toEqual({ error: 'PRODUCER_FENCED' });
  });

  it('answers CONCURRENT_TRANSACTIONS to every request while a write is pending', () => {
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    const added = addPartitions(0);
    expect(added).toEqual({});
    expect(state()).toEqual({ state: 'Empty', pendingState: 'Ongoing', producerEpoch: 0 });
    expect(endTxn(0, true)).toEqual({ error: 'CONCURRENT_TRANSACTIONS' });
    expect(addPartitions(0, [T1])).toEqual({ error: 'CONCURRENT_TRANSACTIONS' });
    expect(initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    ctx.advanceBy(LOG_WRITE_US);
    expect(added).toEqual({ error: 'NONE' });
    expect(addPartitions(0)).toEqual({ error: 'NONE' });
    expect(state().pendingState).toBeNull();
  });
});

describe('commit: Prepare, markers, Complete (endTransaction, addTxnMarkersToSend)', () => {
  it('answers once PrepareCommit is durable, then writes markers and CompleteCommit', () => {
    ongoingAtEpoch0();
    const ended = endTxn(0, true);
    expect(ended).toEqual({});
    ctx.advanceBy(LOG_WRITE_US);
    expect(ended).toEqual({ error: 'NONE' });
    expect(state()).toEqual({ state: 'PrepareCommit', pendingState: null, producerEpoch: 0 });
    expect(ctx.markers()).toEqual([
      {
        kind: 'WriteTxnMarkers',
        correlationId: 1,
        producerId: 0,
        producerEpoch: 0,
        coordinatorEpoch: 0,
        committed: true,
        partitions: [T0, T1],
        transactionVersion: 0,
      },
    ]);
    expect(endTxn(0, true)).toEqual({ error: 'CONCURRENT_TRANSACTIONS' });
    expect(endTxn(0, false)).toEqual({ error: 'INVALID_TXN_STATE' });
    expect(addPartitions(0)).toEqual({ error: 'CONCURRENT_TRANSACTIONS' });
    expect(initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    expect(state()).toEqual({ state: 'CompleteCommit', pendingState: null, producerEpoch: 0 });
    expect(coordinator.metadataOf(TXN_ID)?.topicPartitions.size).toBe(0);
    expect(endTxn(0, true)).toEqual({ error: 'NONE' });
    expect(endTxn(0, false)).toEqual({ error: 'INVALID_TXN_STATE' });
  });

  it('resends markers after a retriable error and after a lost response', () => {
    ongoingAtEpoch0();
    endTxn(0, true);
    ctx.advanceBy(LOG_WRITE_US);
    answerMarkers('NOT_LEADER_OR_FOLLOWER');
    ctx.advanceBy(99_999);
    expect(ctx.markers()).toHaveLength(1);
    ctx.advanceBy(1);
    expect(ctx.markers()).toHaveLength(2);
    // The second request's response is lost: after request.timeout.ms (30 s) and the retry
    // backoff (100 ms) the marker is sent a third time.
    ctx.advanceBy(30_000_000);
    expect(ctx.markers()).toHaveLength(2);
    ctx.advanceBy(100_000);
    expect(ctx.markers()).toHaveLength(3);
    answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    expect(state().state).toBe('CompleteCommit');
  });

  it('stops for good on INVALID_PRODUCER_EPOCH and never writes CompleteCommit', () => {
    ongoingAtEpoch0();
    endTxn(0, true);
    ctx.advanceBy(LOG_WRITE_US);
    answerMarkers('INVALID_PRODUCER_EPOCH');
    ctx.advanceBy(60_000_000);
    expect(ctx.markers()).toHaveLength(1);
    expect(state().state).toBe('PrepareCommit');
  });
});

describe('timeouts and fencing (abortTimedOutTransactions)', () => {
  it('aborts an expired Ongoing transaction with epoch + 1 at the first scan past it', () => {
    initProducerId({ timeoutMs: 2000 });
    ctx.advanceBy(LOG_WRITE_US);
    addPartitions(0);
    ctx.advanceBy(LOG_WRITE_US); // txnStartUs = 2000 µs: it expires after 2 002 000 µs
    ctx.advanceTo(2_999_999); // scans at 1 s and 2 s find it not yet expired
    expect(state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
    ctx.advanceTo(3_000_000);
    // The fence bumps the epoch in memory at once; PrepareAbort is being written.
    expect(state()).toEqual({ state: 'Ongoing', pendingState: 'PrepareAbort', producerEpoch: 1 });
    // Since 4.0 (KAFKA-18464) a pending transition is reported before the epoch is checked.
    expect(endTxn(0, true)).toEqual({ error: 'CONCURRENT_TRANSACTIONS' });
    ctx.advanceBy(LOG_WRITE_US);
    expect(state()).toEqual({ state: 'PrepareAbort', pendingState: null, producerEpoch: 1 });
    // The grant is recorded once PrepareAbort is durable, one write later.
    expect(ctx.grants().at(-1)).toEqual({
      timeUs: 3_001_000,
      transactionalId: TXN_ID,
      producerId: 0,
      producerEpoch: 1,
      reason: 'timeout',
    });
    expect(ctx.markers().at(-1)).toMatchObject({ producerEpoch: 1, committed: false });
    answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    expect(state()).toEqual({ state: 'CompleteAbort', pendingState: null, producerEpoch: 1 });
    // The zombie at epoch 0 is fenced at the coordinator; a new instance gets epoch 2.
    expect(endTxn(0, true)).toEqual({ error: 'PRODUCER_FENCED' });
    expect(addPartitions(0)).toEqual({ error: 'PRODUCER_FENCED' });
    const next = initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(next).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 2 });
  });

  it('fences an Ongoing transaction for a new instance, which ends up at epoch + 2', () => {
    ongoingAtEpoch0();
    const fencing = initProducerId();
    expect(fencing).toEqual({});
    ctx.advanceBy(LOG_WRITE_US);
    const concurrent = { error: 'CONCURRENT_TRANSACTIONS', producerId: -1, producerEpoch: -1 };
    expect(fencing).toEqual(concurrent);
    expect(state()).toEqual({ state: 'PrepareAbort', pendingState: null, producerEpoch: 1 });
    expect(ctx.grants().at(-1)?.reason).toBe('fence');
    expect(initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    const retry = initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(retry).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 2 });
    expect(ctx.grants().map((grant) => [grant.reason, grant.producerEpoch])).toEqual([
      ['init', 0],
      ['fence', 1],
      ['init', 2],
    ]);
  });
});

describe('coordinator failover (TransactionCoordinator.onElection)', () => {
  it('resends the markers of a PrepareCommit under the next coordinator epoch', () => {
    ongoingAtEpoch0();
    endTxn(0, true);
    ctx.advanceBy(LOG_WRITE_US);
    expect(ctx.markers().at(-1)?.coordinatorEpoch).toBe(0);
    ctx.crashAndRestart();
    expect(coordinator.state.ownedPartitions()).toEqual([
      { partition: TXN_PARTITION, coordinatorEpoch: 1, loading: false },
    ]);
    expect(state()).toEqual({ state: 'PrepareCommit', pendingState: null, producerEpoch: 0 });
    expect(ctx.markers()).toHaveLength(2);
    expect(ctx.markers().at(-1)).toMatchObject({
      producerEpoch: 0,
      coordinatorEpoch: 1,
      committed: true,
      partitions: [T0, T1],
    });
    answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    expect(state().state).toBe('CompleteCommit');
  });

  it('loses a pending write: the transaction stays Ongoing and EndTxn can be retried', () => {
    ongoingAtEpoch0();
    const lost = endTxn(0, true);
    ctx.crashAndRestart();
    ctx.advanceBy(LOG_WRITE_US);
    expect(lost).toEqual({});
    expect(state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
    const retried = endTxn(0, true);
    ctx.advanceBy(LOG_WRITE_US);
    expect(retried).toEqual({ error: 'NONE' });
  });

  it('forgets lastProducerEpoch, so a KIP-360 retry that spans the failover is fenced', () => {
    initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    const bump = initProducerId({ producerId: 0, producerEpoch: 0 });
    ctx.advanceBy(LOG_WRITE_US);
    expect(bump.producerEpoch).toBe(1);
    ctx.crashAndRestart();
    expect(initProducerId({ producerId: 0, producerEpoch: 0 }).error).toBe('PRODUCER_FENCED');
  });
});

describe('legal transitions (TransactionState)', () => {
  /** The reference's table, written out again so a change to either side fails. */
  const REFERENCE: ReadonlyArray<readonly [TransactionState, readonly TransactionState[]]> = [
    ['Empty', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['Ongoing', ['Empty', 'Ongoing', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareCommit', ['Ongoing']],
    ['PrepareAbort', ['Ongoing', 'PrepareEpochFence', 'Empty', 'CompleteCommit', 'CompleteAbort']],
    ['CompleteCommit', ['PrepareCommit']],
    ['CompleteAbort', ['PrepareAbort']],
    ['Dead', ['Empty', 'CompleteCommit', 'CompleteAbort']],
    ['PrepareEpochFence', ['Ongoing']],
  ];
  const STATES = REFERENCE.map(([target]) => target);

  it('matches the 4.x table (TV2 empty aborts enter PrepareAbort from Empty and Complete*)', () => {
    expect([...VALID_PREVIOUS_STATES]).toEqual(REFERENCE);
  });

  it('asserts on every transition the table does not allow, and only on those', () => {
    for (const [target, previous] of REFERENCE) {
      for (const from of STATES) {
        const metadata = { transactionalId: TXN_ID, state: from } as TransactionMetadata;
        const attempt = (): void => assertValidTransition(metadata, target);
        if (previous.includes(from)) expect(attempt).not.toThrow();
        else {
          expect(attempt).toThrow(AssertionError);
          const message = `illegal transaction state transition for tx: ${from} -> ${target}`;
          expect(attempt).toThrow(message);
        }
      }
    }
  });
});
