/**
 * Goal: pin transactional.id expiration at one coordinator as Kafka's TransactionStateManager does
 * it (removeExpiredTransactionalIds, shouldExpire, writeTombstonesForExpiredTransactionalIds;
 * TransactionMetadata.prepareDead; TransactionState.isExpirationAllowed): the inclusive boundary
 * `txnLastUpdateTimestamp <= now - transactional.id.expiration.ms`, only Empty/CompleteCommit/
 * CompleteAbort expire, the tombstone in `__transaction_state`, CONCURRENT_TRANSACTIONS while Dead
 * is pending, a failed tombstone keeping the id, a fresh producerId afterwards, and the tombstone
 * deleting the id on reload. Also the run schedule (ExpirationSchedule): at a fixed rate from the
 * start, armed late only when the interval is longer than the abort scan's.
 * Method: one coordinator behind the fake broker of ./harness (every write takes exactly 1000 µs,
 * the abort scan runs every 1 s), expiration 5 s, cleanup every 1 s unless a test says otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { CoordinatorTimer } from '../../sim/actors';
import type { Ctx } from '../../sim/actors/coordinator/coordinator_settings';
import { ExpirationSchedule } from '../../sim/actors/coordinator/transactional_id_expiration';
import { CoordinatorHarness, LOG_WRITE_US, TXN_ID } from './harness';

const SECOND_US = 1_000_000;

function harness(): CoordinatorHarness {
  return new CoordinatorHarness({
    transactionalIdExpirationMs: 5000,
    removeExpiredTransactionalIdsIntervalMs: 1000,
  });
}

/** InitProducerId at time 0, durable at 1 ms: Empty, last updated at 0. */
function initialised(): CoordinatorHarness {
  const ctx = harness();
  const answer = ctx.initProducerId();
  ctx.advanceBy(LOG_WRITE_US);
  expect(answer).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 0 });
  return ctx;
}

describe('removeExpiredTransactionalIds at the coordinator', () => {
  it('expires an Empty id at the first run with last update <= now - expiration', () => {
    const ctx = initialised();
    ctx.advanceTo(4 * SECOND_US + LOG_WRITE_US);
    expect(ctx.state().state).toBe('Empty');
    // The 5 s run: last update 0 <= 5 s - 5 s (inclusive); the tombstone is durable 1 ms later.
    ctx.advanceTo(5 * SECOND_US);
    expect(ctx.state().pendingState).toBe('Dead');
    expect(ctx.initProducerId().error).toBe('CONCURRENT_TRANSACTIONS');
    ctx.advanceTo(5 * SECOND_US + LOG_WRITE_US);
    expect(ctx.coordinator.metadataOf(TXN_ID)).toBeUndefined();
    expect(ctx.log.at(-1)).toEqual({ transactionalId: TXN_ID, value: null });
    expect(ctx.observations.at(-1)?.observation).toMatchObject({
      kind: 'TransactionalIdExpired',
      view: { transactionalId: TXN_ID, producerId: 0, state: 'Empty' },
    });
  });

  it('never expires an Ongoing transaction; CompleteCommit expires from its own update', () => {
    const ctx = initialised();
    ctx.advanceTo(LOG_WRITE_US);
    ctx.addPartitions(0);
    ctx.advanceTo(12 * SECOND_US);
    expect(ctx.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 0 });
    ctx.endTxn(0, true);
    ctx.advanceBy(LOG_WRITE_US);
    ctx.answerMarkers('NONE');
    ctx.advanceBy(LOG_WRITE_US);
    expect(ctx.state().state).toBe('CompleteCommit');
    // Last update at 12.002 s: the 17 s run passes it by, the 18 s run removes it.
    ctx.advanceTo(17 * SECOND_US + LOG_WRITE_US);
    expect(ctx.state().state).toBe('CompleteCommit');
    ctx.advanceTo(18 * SECOND_US + LOG_WRITE_US);
    expect(ctx.coordinator.metadataOf(TXN_ID)).toBeUndefined();
  });

  it('keeps the id when its tombstone cannot be appended, and retries at the next run', () => {
    const ctx = initialised();
    ctx.advanceTo(4 * SECOND_US + LOG_WRITE_US);
    ctx.appendError = 'NOT_ENOUGH_REPLICAS';
    ctx.advanceTo(5 * SECOND_US + LOG_WRITE_US);
    expect(ctx.state()).toEqual({ state: 'Empty', pendingState: null, producerEpoch: 0 });
    ctx.appendError = null;
    ctx.advanceTo(6 * SECOND_US + LOG_WRITE_US);
    expect(ctx.coordinator.metadataOf(TXN_ID)).toBeUndefined();
  });

  it('gives a fresh producerId afterwards; the tombstone survives a reload', () => {
    const ctx = initialised();
    ctx.advanceTo(5 * SECOND_US + LOG_WRITE_US);
    ctx.crashAndRestart();
    expect(ctx.coordinator.metadataOf(TXN_ID)).toBeUndefined();
    const answer = ctx.initProducerId();
    ctx.advanceBy(LOG_WRITE_US);
    expect(answer).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
  });
});

/** A context that only records the timers set, at a clock the test moves. */
function timerClock(): { ctx: Ctx; set: number[]; at: (us: number) => void } {
  let nowUs = 0;
  const set: number[] = [];
  const ctx = {
    nowUs: () => nowUs,
    setTimer: (delayUs: number, payload: CoordinatorTimer) => {
      expect(payload.type).toBe('expiration-scan');
      set.push(nowUs + delayUs);
      return set.length;
    },
  } as unknown as Ctx;
  return { ctx, set, at: (us) => (nowUs = us) };
}

describe('ExpirationSchedule (enableTransactionalIdExpiration: fixed rate from the start)', () => {
  it('arms a long interval only from the abort scan before it is due', () => {
    const schedule = new ExpirationSchedule(3_600 * SECOND_US, 10 * SECOND_US);
    const clock = timerClock();
    schedule.start(clock.ctx);
    expect(clock.set).toEqual([]);
    clock.at(3_580 * SECOND_US);
    schedule.armIfDueBefore(10 * SECOND_US, clock.ctx);
    expect(clock.set).toEqual([]);
    clock.at(3_590 * SECOND_US);
    schedule.armIfDueBefore(10 * SECOND_US, clock.ctx);
    schedule.armIfDueBefore(10 * SECOND_US, clock.ctx);
    expect(clock.set).toEqual([3_600 * SECOND_US]);
  });

  it('runs late ones at once after a pause, then keeps the rate of the start', () => {
    const schedule = new ExpirationSchedule(SECOND_US, 10 * SECOND_US);
    const clock = timerClock();
    schedule.start(clock.ctx);
    // The 1 s run happens at 3.5 s (a pause); the 2 s and 3 s runs follow at once, then 4 s.
    clock.at(3_500_000);
    schedule.fired(clock.ctx);
    schedule.fired(clock.ctx);
    expect(clock.set).toEqual([SECOND_US, 3_500_000, 3_500_000]);
    schedule.fired(clock.ctx);
    expect(clock.set).toEqual([SECOND_US, 3_500_000, 3_500_000, 4 * SECOND_US]);
  });
});
