/**
 * Goal: each log invariant fires with its name on offsets that break it and stays silent on the
 * orders Kafka keeps (equal offsets included). Method: call the asserts with hand-built offsets.
 */
import { describe, expect, it } from 'vitest';
import { assertLeaderEpochForward, assertOffsetsOrdered } from './log_invariants';

const ORDERED = {
  topic: 't',
  partition: 0,
  logStartOffset: 2,
  lastStableOffset: 4,
  highWatermark: 6,
  logEndOffset: 9,
};

describe('log invariants', () => {
  it('are silent on ordered and on equal offsets', () => {
    assertOffsetsOrdered(ORDERED);
    assertOffsetsOrdered({ ...ORDERED, lastStableOffset: 2, highWatermark: 2, logEndOffset: 2 });
    assertLeaderEpochForward({ topic: 't', partition: 0, leaderEpoch: 3 }, 3);
  });

  it('name the offset that is out of order', () => {
    expect(() => assertOffsetsOrdered({ ...ORDERED, highWatermark: 10 })).toThrow(
      'Invariant broken: highWatermark <= logEndOffset: t-0: logStartOffset 2, ' +
        'lastStableOffset 4, highWatermark 10, logEndOffset 9',
    );
    expect(() => assertOffsetsOrdered({ ...ORDERED, lastStableOffset: 7 })).toThrow(
      'Invariant broken: lastStableOffset <= highWatermark',
    );
    expect(() => assertOffsetsOrdered({ ...ORDERED, logStartOffset: 5 })).toThrow(
      'Invariant broken: logStartOffset <= lastStableOffset',
    );
  });

  it('name a leader epoch going back', () => {
    expect(() => assertLeaderEpochForward({ topic: 't', partition: 1, leaderEpoch: 3 }, 2)).toThrow(
      'Invariant broken: leaderEpoch monotonic on a replica: t-1: leaderEpoch 3 then 2',
    );
  });
});
