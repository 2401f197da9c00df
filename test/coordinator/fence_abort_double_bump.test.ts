/**
 * Goal: pin KAFKA-19367 both ways. Under transaction version 2 an epoch fence (InitProducerId on
 * an Ongoing transaction, or the timeout scan) bumps the epoch in prepareFenceProducerEpoch; before
 * apache/kafka#19910 endTransaction's TV2 abort bumped it again, so an epoch was skipped and, from
 * an Ongoing transaction at 32766, the second bump overflowed (IllegalArgumentException in
 * prepareTransitionTo): the request failed and the transaction stayed Ongoing. Method:
 * ./harness; the epoch is set on the in-memory metadata before the transaction's first write (a
 * unit-test shortcut; the scenarios reach it by committing 32,766 transactions).
 */
import { describe, expect, it } from 'vitest';
import { CoordinatorHarness, LOG_WRITE_US, ongoingAt } from './harness';

const BUG = { fenceAbortBumpsTwice: true } as const;

/** A new instance's InitProducerId while the transaction is open; then the markers go out. */
function fence(h: CoordinatorHarness): string | undefined {
  const answer = h.initProducerId();
  h.advanceBy(LOG_WRITE_US);
  if (h.markers().length > 0) h.answerMarkers('NONE');
  h.advanceBy(LOG_WRITE_US);
  return answer.error;
}

describe('KAFKA-19367: the abort after an epoch fence under TV2', () => {
  it('fixed: one bump, the abort is written at the fenced epoch', () => {
    const h = ongoingAt(5);
    expect(fence(h)).toBe('CONCURRENT_TRANSACTIONS');
    expect(h.state()).toEqual({ state: 'CompleteAbort', pendingState: null, producerEpoch: 6 });
  });

  it('bug: the abort bumps again and skips an epoch', () => {
    const h = ongoingAt(5, BUG);
    expect(fence(h)).toBe('CONCURRENT_TRANSACTIONS');
    expect(h.state()).toEqual({ state: 'CompleteAbort', pendingState: null, producerEpoch: 7 });
  });

  it('fixed: at 32766 the fence reaches 32767 and the abort completes', () => {
    const h = ongoingAt(32_766);
    expect(fence(h)).toBe('CONCURRENT_TRANSACTIONS');
    expect(h.state().state).toBe('CompleteAbort');
  });

  it('bug: at 32766 the second bump overflows, the request fails, the transaction hangs', () => {
    const h = ongoingAt(32_766, BUG);
    expect(fence(h)).toBe('UNKNOWN_SERVER_ERROR');
    expect(h.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 32_767 });
    // The timeout scan cannot fence it either (prepareFenceProducerEpoch at Short.MAX_VALUE).
    h.advanceBy(61_000_000);
    expect(h.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: 32_767 });
    expect(fence(h)).toBe('UNKNOWN_SERVER_ERROR');
    expect(h.markers()).toEqual([]);
  });
});
