/**
 * Goal: prove KAFKA-8803's switch both ways. A transaction's first AddPartitionsToTxn takes its
 * start time from the coordinator's clock (TransactionMetadata.prepareAddPartitions), and the
 * previous transaction's start time is kept through CompleteCommit (prepareComplete). Before 2.5,
 * completeTransitionTo refused the move to Ongoing when the kept start time was later than the
 * new one, as after a clock step back; the refusal was an IllegalStateException in the append
 * callback, so the cache kept CompleteCommit with the pending Ongoing transition set and the
 * request was never answered. From 2.5 (apache/kafka#8278) the comparison is gone.
 * Method: one coordinator behind the fake broker of ./harness (every write takes 1000 µs); one
 * committed transaction, then the coordinator's clock stepped 10 s back and a second
 * transaction begun.
 */
import { describe, expect, it } from 'vitest';
import { CoordinatorHarness, LOG_WRITE_US, TXN_ID } from './harness';

const SECOND_US = 1_000_000;

/** A transaction committed at epoch 0, then the clock 10 s back and the next one's first add. */
function secondTransactionAfterStepBack(startTimestampMustNotGoBack: boolean) {
  const ctx = new CoordinatorHarness({ startTimestampMustNotGoBack });
  ctx.initProducerId();
  ctx.advanceBy(LOG_WRITE_US);
  ctx.advanceTo(5 * SECOND_US);
  expect(ctx.addPartitions(0)).toEqual({});
  ctx.advanceBy(LOG_WRITE_US);
  ctx.endTxn(0, true);
  ctx.advanceBy(LOG_WRITE_US);
  ctx.answerMarkers('NONE');
  ctx.advanceBy(LOG_WRITE_US);
  expect(ctx.state()).toEqual({ state: 'CompleteCommit', pendingState: null, producerEpoch: 0 });
  const firstStartUs = ctx.coordinator.metadataOf(TXN_ID)?.txnStartUs;
  expect(firstStartUs).toBe(5 * SECOND_US);
  ctx.clockSkewUs = -10 * SECOND_US;
  ctx.advanceTo(6 * SECOND_US);
  const answer = ctx.addPartitions(0);
  ctx.advanceBy(LOG_WRITE_US);
  return { ctx, answer };
}

describe('KAFKA-8803: a transaction begun after the coordinator clock stepped back', () => {
  it('becomes Ongoing with the earlier start time with the fix (2.5)', () => {
    const { ctx, answer } = secondTransactionAfterStepBack(false);
    expect(answer).toEqual({ error: 'NONE' });
    expect(ctx.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
    expect(ctx.coordinator.metadataOf(TXN_ID)?.txnStartUs).toBe(-4 * SECOND_US);
    expect(ctx.endTxn(0, true)).toEqual({});
    ctx.advanceBy(LOG_WRITE_US);
    expect(ctx.state().state).toBe('PrepareCommit');
  });

  it('stays pending for good and is never answered before it (2.4)', () => {
    const { ctx, answer } = secondTransactionAfterStepBack(true);
    // The Ongoing record is in the log; the cache neither applied it nor cleared the pending state.
    expect(answer).toEqual({});
    expect(ctx.log.at(-1)?.value?.state).toBe('Ongoing');
    expect(ctx.state()).toEqual({
      state: 'CompleteCommit',
      pendingState: 'Ongoing',
      producerEpoch: 0,
    });
    ctx.advanceTo(120 * SECOND_US);
    expect(ctx.addPartitions(0).error).toBe('CONCURRENT_TRANSACTIONS');
    expect(ctx.endTxn(0, false).error).toBe('CONCURRENT_TRANSACTIONS');
    expect(ctx.initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    // The timeout scan skips it (not Ongoing in memory): no fence, no markers since the first.
    expect(ctx.markers()).toHaveLength(1);
    // A reload reads the Ongoing record: the transaction is back and can be aborted.
    ctx.crashAndRestart();
    expect(ctx.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
  });
});
