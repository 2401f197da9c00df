/**
 * Goal: prove KAFKA-13412's switch both ways on the initTransactions call alone. Method: a call
 * bounded by max.block.ms times out while the InitProducerId is pending; the answer then comes in
 * the background; the application calls again. With the switch on (before 3.1.1) the retry
 * throws (INVALID_TXN_STATE, the invalid READY -> INITIALIZING transition); with it off it gets
 * the kept result. A retry while the request is still pending waits for it either way, and a
 * call after the result was seen is refused either way.
 */
import { describe, expect, it } from 'vitest';
import type { ActorContext } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage } from '../protocol';
import { InitTransactionsCall, type InitTimeoutTimer } from './init_transactions_call';

/** A call with a recording context; `fire` runs the last timer set. */
function harness(retryAfterAnswerThrows: boolean) {
  const timers: InitTimeoutTimer[] = [];
  const ctx = {
    setTimer: (_delayUs: number, timer: InitTimeoutTimer) => timers.push(timer),
    trace: () => undefined,
  } as unknown as ActorContext<KafkaMessage>;
  let state: 'UNINITIALIZED' | 'INITIALIZING' | 'READY' = 'UNINITIALIZED';
  let starts = 0;
  const call = new InitTransactionsCall(ctx, () => retryAfterAnswerThrows, {
    fatalError: () => null,
    uninitialized: () => state === 'UNINITIALIZED',
    start: () => {
      state = 'INITIALIZING';
      starts += 1;
    },
  });
  const results: KafkaErrorCode[] = [];
  const invoke = () => call.call((error) => results.push(error), 60_000);
  const fire = () => call.onTimeout(timers[timers.length - 1] as InitTimeoutTimer);
  const answer = () => {
    state = 'READY';
    call.complete('NONE');
  };
  return { invoke, fire, answer, results, starts: () => starts };
}

describe('KAFKA-13412: initTransactions retried after a TimeoutException', () => {
  it('since 3.1.1 a retry after the background answer returns the kept result', () => {
    const h = harness(false);
    h.invoke();
    h.fire();
    h.answer();
    h.invoke();
    expect(h.results).toEqual(['REQUEST_TIMED_OUT', 'NONE']);
    expect(h.starts()).toBe(1);
  });

  it('before it (switch on) the same retry throws: READY -> INITIALIZING', () => {
    const h = harness(true);
    h.invoke();
    h.fire();
    h.answer();
    h.invoke();
    expect(h.results).toEqual(['REQUEST_TIMED_OUT', 'INVALID_TXN_STATE']);
  });

  it('either way a retry while pending waits for the answer; a call after it is refused', () => {
    for (const on of [false, true]) {
      const h = harness(on);
      h.invoke();
      h.fire();
      h.invoke();
      h.answer();
      h.invoke();
      expect(h.results).toEqual(['REQUEST_TIMED_OUT', 'NONE', 'INVALID_TXN_STATE']);
      expect(h.starts()).toBe(1);
    }
  });
});
