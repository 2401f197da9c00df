/**
 * Goal: pin the leader-epoch cache to Kafka's LeaderEpochFileCache: `assign` keeps entries strictly
 * increasing in epoch and start offset (UnifiedLog.append), `endOffsetFor` answers the
 * LeaderEpochFileCache.endOffsetFor lookup (latest epoch, an epoch between cached ones, below all,
 * above all, undefined; and the same lookup before KIP-279, KAFKA-6361), and `truncateFromEnd`
 * drops the entries a log truncation removed (KIP-101;
 * AbstractFetcherThread.getOffsetTruncationState). Method: build caches by hand with fixed epochs
 * and offsets and compare the whole entry list or lookup result exactly.
 */
import { describe, expect, it } from 'vitest';
import { LeaderEpochCache, type EpochEntry } from './leader_epoch_cache';

/** A cache built by assigning `[epoch, startOffset]` pairs in order. */
function cacheOf(...pairs: ReadonlyArray<readonly [number, number]>): LeaderEpochCache {
  const cache = new LeaderEpochCache();
  for (const [epoch, startOffset] of pairs) cache.assign(epoch, startOffset);
  return cache;
}

const entries = (...pairs: ReadonlyArray<readonly [number, number]>): EpochEntry[] =>
  pairs.map(([epoch, startOffset]) => ({ epoch, startOffset }));

describe('assign (UnifiedLog.append)', () => {
  it('appends a newer epoch and ignores later batches of the latest epoch', () => {
    const cache = cacheOf([0, 0], [0, 3], [0, 7], [2, 10], [2, 12], [5, 20]);
    expect(cache.all).toEqual(entries([0, 0], [2, 10], [5, 20]));
    expect(cache.latestEpoch()).toBe(5);
  });

  it('is empty with latest epoch -1 before any assign', () => {
    const cache = new LeaderEpochCache();
    expect(cache.all).toEqual([]);
    expect(cache.latestEpoch()).toBe(-1);
  });

  it('re-assigning the latest epoch at a lower start offset replaces the entry', () => {
    const cache = cacheOf([0, 0], [3, 10]);
    cache.assign(3, 8);
    expect(cache.all).toEqual(entries([0, 0], [3, 8]));
  });

  it('drops entries whose epoch is >= the new epoch', () => {
    const cache = cacheOf([0, 0], [2, 5], [4, 9]);
    cache.assign(3, 12);
    expect(cache.all).toEqual(entries([0, 0], [2, 5], [3, 12]));
  });

  it('drops entries whose start offset is >= the new start offset', () => {
    const cache = cacheOf([0, 0], [2, 5], [4, 9]);
    cache.assign(6, 5);
    expect(cache.all).toEqual(entries([0, 0], [6, 5]));
  });

  it('keeps both fields strictly increasing after mixed assigns', () => {
    const cache = cacheOf([1, 0], [3, 4], [5, 8], [4, 6], [7, 6]);
    expect(cache.all).toEqual(entries([1, 0], [3, 4], [7, 6]));
  });
});

describe('endOffsetFor (LeaderEpochFileCache.endOffsetFor)', () => {
  // Epochs 1, 3 and 6 start at offsets 0, 4 and 9; the log ends at 15.
  const cache = cacheOf([1, 0], [3, 4], [6, 9]);
  const logEndOffset = 15;

  it('answers the latest epoch with the log end offset', () => {
    expect(cache.endOffsetFor(6, logEndOffset)).toEqual({ epoch: 6, startOffset: 15 });
  });

  it('answers a cached older epoch with the start of the next cached epoch', () => {
    expect(cache.endOffsetFor(1, logEndOffset)).toEqual({ epoch: 1, startOffset: 4 });
    expect(cache.endOffsetFor(3, logEndOffset)).toEqual({ epoch: 3, startOffset: 9 });
  });

  it('answers an epoch between cached ones with the lower epoch and the higher start', () => {
    expect(cache.endOffsetFor(2, logEndOffset)).toEqual({ epoch: 1, startOffset: 4 });
    expect(cache.endOffsetFor(4, logEndOffset)).toEqual({ epoch: 3, startOffset: 9 });
    expect(cache.endOffsetFor(5, logEndOffset)).toEqual({ epoch: 3, startOffset: 9 });
  });

  it('answers an epoch below every cached one with itself and the first start offset', () => {
    const later = cacheOf([2, 3], [4, 7]);
    expect(later.endOffsetFor(1, 10)).toEqual({ epoch: 1, startOffset: 3 });
    expect(later.endOffsetFor(0, 10)).toEqual({ epoch: 0, startOffset: 3 });
  });

  it('is undefined for an epoch above every cached one', () => {
    expect(cache.endOffsetFor(7, logEndOffset)).toBeUndefined();
  });

  it('is undefined for the undefined epoch -1 and for an empty cache', () => {
    expect(cache.endOffsetFor(-1, logEndOffset)).toBeUndefined();
    expect(new LeaderEpochCache().endOffsetFor(0, 0)).toBeUndefined();
  });
});

describe('endOffsetFor before KIP-279 (KAFKA-6361, Kafka 0.11 to 1.1)', () => {
  // The same cache as above, answering as LeaderEpochFileCache did before apache/kafka#4882.
  const old = cacheOf([1, 0], [3, 4], [6, 9]);
  old.answersLargestEpochAtOrBelow = () => false;

  it('answers an epoch it lacks with that epoch and the start of the next larger one', () => {
    expect(old.endOffsetFor(2, 15)).toEqual({ epoch: 2, startOffset: 4 });
    expect(old.endOffsetFor(5, 15)).toEqual({ epoch: 5, startOffset: 9 });
  });

  it('answers cached and latest epochs as KIP-279 does', () => {
    expect(old.endOffsetFor(1, 15)).toEqual({ epoch: 1, startOffset: 4 });
    expect(old.endOffsetFor(6, 15)).toEqual({ epoch: 6, startOffset: 15 });
  });

  it('has no answer for an epoch below the first cached one or above every one', () => {
    expect(old.endOffsetFor(0, 15)).toBeUndefined();
    expect(old.endOffsetFor(7, 15)).toBeUndefined();
  });
});

describe('truncateFromEnd', () => {
  it('drops entries starting at or after the new log end offset', () => {
    const cache = cacheOf([1, 0], [3, 4], [6, 9]);
    cache.truncateFromEnd(9);
    expect(cache.all).toEqual(entries([1, 0], [3, 4]));
    expect(cache.latestEpoch()).toBe(3);
    cache.truncateFromEnd(5);
    expect(cache.all).toEqual(entries([1, 0], [3, 4]));
    cache.truncateFromEnd(4);
    expect(cache.all).toEqual(entries([1, 0]));
  });

  it('empties the cache when truncating to offset 0', () => {
    const cache = cacheOf([1, 0], [3, 4]);
    cache.truncateFromEnd(0);
    expect(cache.all).toEqual([]);
    expect(cache.latestEpoch()).toBe(-1);
  });

  it('after truncation the lookup of the old latest epoch is undefined', () => {
    const cache = cacheOf([1, 0], [3, 4], [6, 9]);
    cache.truncateFromEnd(9);
    expect(cache.endOffsetFor(6, 9)).toBeUndefined();
    expect(cache.endOffsetFor(3, 7)).toEqual({ epoch: 3, startOffset: 7 });
  });
});
