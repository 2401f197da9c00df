/**
 * Goal: the producer's in-flight invariant fires with its name when broken and stays silent at
 * exactly max in flight. Method: call the assert with hand-picked counts.
 */
import { describe, expect, it } from 'vitest';
import { assertInFlightWithin } from './sender_invariants';

describe('sender invariants', () => {
  it('are silent at max in flight', () => {
    expect(() => assertInFlightWithin(5, { maxInFlightRequestsPerConnection: 5 })).not.toThrow();
  });

  it('name one request too many', () => {
    expect(() => assertInFlightWithin(6, { maxInFlightRequestsPerConnection: 5 })).toThrow(
      'Invariant broken: in-flight requests <= max.in.flight.requests.per.connection: ' +
        '6 in flight, at most 5',
    );
  });
});
