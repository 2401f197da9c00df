/**
 * Goal: prove both ways the two coordinator switches about a failed `__transaction_state` write.
 * KAFKA-9666 (before 2.6): an epoch fence whose PrepareAbort write fails leaves the bumped epoch
 * in memory, and before the fix every later fence bumps it once more; with the fix
 * (hasFailedEpochFence, TransactionMetadata.prepareFenceProducerEpoch) it stays at the first bump
 * and the fence is written at it once the log is back. KAFKA-7519 (before 2.1): a tombstone of an
 * expired transactional.id that cannot be appended leaves pending Dead behind, so the id answers
 * CONCURRENT_TRANSACTIONS until the coordinator moves; with the fix
 * (TransactionStateManager.removeExpiredTransactionalIds) the pending state is cleared.
 * Method: one coordinator behind the fake broker of ./harness (every write takes 1000 µs, the
 * timeout scan runs every 1 s), the log made to refuse appends with NOT_ENOUGH_REPLICAS.
 */
import { describe, expect, it } from 'vitest';
import { CoordinatorHarness, LOG_WRITE_US, TXN_ID } from './harness';

const SECOND_US = 1_000_000;

/** An Ongoing transaction at epoch 0 with transaction.timeout.ms 1 s, started at 2 ms. */
function ongoing(fenceBumpsAfterFailedFence: boolean): CoordinatorHarness {
  const ctx = new CoordinatorHarness({ fenceBumpsAfterFailedFence });
  ctx.initProducerId({ timeoutMs: 1000 });
  ctx.advanceBy(LOG_WRITE_US);
  ctx.addPartitions(0);
  ctx.advanceBy(LOG_WRITE_US);
  return ctx;
}

/** The log refuses appends through the timeout scans at 2, 3, 4 and 5 s, then takes them. */
function fenceThroughOutage(ctx: CoordinatorHarness): number[] {
  ctx.appendError = 'NOT_ENOUGH_REPLICAS';
  const epochs: number[] = [];
  for (let second = 2; second <= 5; second += 1) {
    ctx.advanceTo(second * SECOND_US + LOG_WRITE_US);
    epochs.push(ctx.state().producerEpoch);
    expect(ctx.state()).toMatchObject({ state: 'Ongoing', pendingState: null });
  }
  ctx.appendError = null;
  ctx.advanceTo(6 * SECOND_US + LOG_WRITE_US);
  return epochs;
}

describe('KAFKA-9666: the epoch of a fence whose write failed', () => {
  it('is bumped once and reused by every retry with the fix (2.6)', () => {
    const ctx = ongoing(false);
    expect(fenceThroughOutage(ctx)).toEqual([1, 1, 1, 1]);
    expect(ctx.state()).toEqual({ state: 'PrepareAbort', pendingState: null, producerEpoch: 1 });
    expect(ctx.markers().at(-1)).toMatchObject({ producerEpoch: 1, committed: false });
  });

  it('is bumped again at every retry before it (2.5)', () => {
    const ctx = ongoing(true);
    expect(fenceThroughOutage(ctx)).toEqual([1, 2, 3, 4]);
    expect(ctx.state()).toEqual({ state: 'PrepareAbort', pendingState: null, producerEpoch: 5 });
    expect(ctx.markers().at(-1)).toMatchObject({ producerEpoch: 5, committed: false });
  });
});

/** An id in Empty since 1 ms, expired at the 5 s run (expiration 5 s, a run every second). */
function expiring(failedTombstoneKeepsPendingDead: boolean): CoordinatorHarness {
  const ctx = new CoordinatorHarness({
    transactionalIdExpirationMs: 5000,
    removeExpiredTransactionalIdsIntervalMs: 1000,
    failedTombstoneKeepsPendingDead,
  });
  ctx.initProducerId();
  ctx.advanceBy(LOG_WRITE_US);
  ctx.advanceTo(4 * SECOND_US + LOG_WRITE_US);
  ctx.appendError = 'NOT_ENOUGH_REPLICAS';
  ctx.advanceTo(5 * SECOND_US + LOG_WRITE_US);
  ctx.appendError = null;
  return ctx;
}

describe('KAFKA-7519: an expiration whose tombstone append failed', () => {
  it('clears the pending Dead with the fix (2.1): the next run removes the id', () => {
    const ctx = expiring(false);
    expect(ctx.state()).toEqual({ state: 'Empty', pendingState: null, producerEpoch: 0 });
    ctx.advanceTo(6 * SECOND_US + LOG_WRITE_US);
    expect(ctx.coordinator.metadataOf(TXN_ID)).toBeUndefined();
    const fresh = ctx.initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(fresh).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
  });

  it('keeps the pending Dead before it (2.0): the id is CONCURRENT_TRANSACTIONS for good', () => {
    const ctx = expiring(true);
    ctx.advanceTo(60 * SECOND_US);
    expect(ctx.state()).toEqual({ state: 'Empty', pendingState: 'Dead', producerEpoch: 0 });
    expect(ctx.initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    // A reload (a coordinator move) rebuilds the id from the log, without the pending state.
    ctx.crashAndRestart();
    expect(ctx.state()).toEqual({ state: 'Empty', pendingState: null, producerEpoch: 0 });
  });
});
