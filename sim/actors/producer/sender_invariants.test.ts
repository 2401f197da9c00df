/**
 * Goal: the producer's sequence and in-flight invariants fire with their names when broken and
 * stay silent on what the sender does (a batch continuing the last one in flight, across the
 * int32 wrap; a new producerId or epoch starting over; a batch an epoch bump re-stamps in
 * place; exactly max in flight). Method: call the
 * asserts with hand-built batches.
 */
import { describe, expect, it } from 'vitest';
import { SEQUENCE_MAX } from '../protocol';
import type { ProducerBatch } from './producer_batch';
import { assertInFlightWithin, assertSequenceFollows } from './sender_invariants';

function batch(baseSequence: number, records: number, producerEpoch = 0): ProducerBatch {
  return {
    tp: { topic: 't', partition: 0 },
    records: Array.from({ length: records }, () => ({
      value: 0,
      callback: () => {},
      createdUs: 0,
    })),
    producerId: 7,
    producerEpoch,
    baseSequence,
    isTransactional: false,
    attempts: 1,
    inRetry: false,
    retryAfterUs: 0,
    deadlineUs: 0,
    sequenceReset: false,
  };
}

describe('sender invariants', () => {
  it('are silent on a continuing sequence, a wrap, a new epoch and max in flight', () => {
    assertSequenceFollows(undefined, batch(0, 2));
    assertSequenceFollows(batch(0, 2), batch(2, 3));
    assertSequenceFollows(batch(SEQUENCE_MAX - 1, 2), batch(0, 1));
    assertSequenceFollows(batch(5, 2), batch(0, 1, 1));
    // An epoch bump re-stamps a batch in flight in place: it is then the last in flight itself.
    const rewritten = batch(33, 10, 1);
    assertSequenceFollows(rewritten, rewritten);
    assertInFlightWithin(5, { maxInFlightRequestsPerConnection: 5 });
  });

  it('name a sequence gap and one request too many', () => {
    expect(() => assertSequenceFollows(batch(0, 2), batch(3, 1))).toThrow(
      'Invariant broken: baseSequence continues the batch in flight: t-0: producerId 7 epoch 0: ' +
        'baseSequence 3 after 0 (+2)',
    );
    expect(() => assertInFlightWithin(6, { maxInFlightRequestsPerConnection: 5 })).toThrow(
      'Invariant broken: in-flight requests <= max.in.flight.requests.per.connection: ' +
        '6 in flight, at most 5',
    );
  });
});
