/**
 * Goal: pin LSO(t), the last stable offset a partition had at virtual time t, at its edges:
 * before the first change, exactly at a change, between changes, after the last, and with
 * several changes at one instant. Method: one partition with a fixed change list, probed.
 */
import { describe, expect, it } from 'vitest';
import type { OraclePartition } from '../history';
import { lastStableOffsetAt } from './last_stable_offset';

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
