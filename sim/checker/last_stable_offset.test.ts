/**
 * Goal: pin LSO(t), the last stable offset a partition had at virtual time t, at its edges:
 * before the first change, exactly at a change, between changes, after the last, and with
 * several changes at one instant; and the stable bound, the highest LSO since the last unclean
 * election. Method: one partition with a fixed change list, probed.
 */
import { describe, expect, it } from 'vitest';
import type { OraclePartition } from '../history';
import { lastStableOffsetAt, stableOffsetBoundAt } from './last_stable_offset';

const partition: OraclePartition = {
  topic: 't',
  partition: 0,
  leader: 'b1',
  logStartOffset: 0,
  logEndOffset: 9,
  highWatermark: 9,
  lastStableOffset: 9,
  records: [],
  highWatermarkChanges: [],
  lastStableOffsetChanges: [
    { timeUs: 100, offset: 2 },
    { timeUs: 200, offset: 4 },
    { timeUs: 200, offset: 5 },
    { timeUs: 300, offset: 9 },
  ],
  openTransactions: [],
};

describe('lastStableOffsetAt', () => {
  it.each([
    [0, 0],
    [99, 0],
    [100, 2],
    [199, 2],
    [200, 5],
    [250, 5],
    [300, 9],
    [10_000, 9],
  ])('at %ius the LSO is %i', (timeUs, offset) => {
    expect(lastStableOffsetAt(partition, timeUs)).toBe(offset);
  });

  it('is 0 for a partition without recorded changes', () => {
    expect(lastStableOffsetAt({ ...partition, lastStableOffsetChanges: [] }, 500)).toBe(0);
  });
});

describe('stableOffsetBoundAt', () => {
  /** The LSO rises to 8, a new leader starts lower, and an unclean election at 25 us resets. */
  const changes: OraclePartition = {
    ...partition,
    lastStableOffsetChanges: [
      { timeUs: 0, offset: 0 },
      { timeUs: 10, offset: 5 },
      { timeUs: 20, offset: 8 },
      { timeUs: 22, offset: 6 },
      { timeUs: 30, offset: 3 },
      { timeUs: 40, offset: 9 },
    ],
  };
  const elections = [
    { topic: 't', partition: 0, timeUs: 21, kind: 'clean' },
    { topic: 't', partition: 0, timeUs: 25, kind: 'unclean' },
    { topic: 't', partition: 1, timeUs: 35, kind: 'unclean' },
  ];

  it.each([
    [5, 0],
    [15, 5],
    [23, 8], // a clean election keeps the highest LSO reached
    [27, 6], // unclean at 25: no change since, so the current LSO
    [30, 3], // only changes since the unclean election count
    [45, 9],
  ])('at %ius the bound is %i', (timeUs, bound) => {
    expect(stableOffsetBoundAt(changes, elections, timeUs)).toBe(bound);
  });
});
