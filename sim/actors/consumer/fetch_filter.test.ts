/**
 * Goal: pin the consumer-side filtering of CompletedFetch.nextFetchedRecord and the position rule
 * of FetchCollector.fetchRecords: markers are never delivered, read_committed skips transactional
 * batches of producers listed as aborted (an ABORT marker takes the producer out of the set again),
 * and the position moves past everything fetched even when nothing is returned. Method: hand-built
 * fetch responses for one partition passed to `filterFetchedBatches`, asserting the exact offsets
 * delivered and the next position.
 */
import { describe, expect, it } from 'vitest';
import type { AbortedTransaction, FetchPartitionResponse, LogBatch } from '../protocol';
import { filterFetchedBatches } from './fetch_filter';

/** A data batch of `count` records whose values equal their offsets. */
function data(options: {
  readonly baseOffset: number;
  readonly count: number;
  readonly producerId: number;
  readonly isTransactional?: boolean;
}): LogBatch {
  const { baseOffset, count, producerId } = options;
  return {
    baseOffset,
    lastOffset: baseOffset + count - 1,
    producerId,
    producerEpoch: producerId < 0 ? -1 : 0,
    baseSequence: producerId < 0 ? -1 : 0,
    isTransactional: options.isTransactional ?? true,
    values: Array.from({ length: count }, (_, index) => baseOffset + index),
    appendUs: 0,
    leaderEpoch: 0,
  };
}

function control(offset: number, producerId: number, kind: 'COMMIT' | 'ABORT'): LogBatch {
  return {
    baseOffset: offset,
    lastOffset: offset,
    producerId,
    producerEpoch: 0,
    baseSequence: -1,
    isTransactional: true,
    control: kind,
    coordinatorEpoch: 0,
    values: [],
    appendUs: 0,
    leaderEpoch: 0,
  };
}

function response(
  batches: readonly LogBatch[],
  abortedTransactions: readonly AbortedTransaction[] | null,
): FetchPartitionResponse {
  const end = batches.at(-1)?.lastOffset ?? -1;
  return {
    topic: 't',
    partition: 0,
    error: 'NONE',
    highWatermark: end + 1,
    lastStableOffset: end + 1,
    logStartOffset: 0,
    abortedTransactions,
    batches,
    divergingEpoch: null,
  };
}

/** Delivered offsets and the next fetch offset, the two things a test asserts. */
function filtered(
  fetched: FetchPartitionResponse,
  position: number,
  level: 'read_committed' | 'read_uncommitted',
): { offsets: number[]; next: number } {
  const result = filterFetchedBatches(fetched, position, level);
  for (const record of result.records) expect(record.value).toBe(record.offset);
  return { offsets: result.records.map((record) => record.offset), next: result.nextFetchOffset };
}

/** pid 1 aborts 0-1 (ABORT@4), pid 2 commits 2-3 (COMMIT@5), interleaved. */
const INTERLEAVED = [
  data({ baseOffset: 0, count: 2, producerId: 1 }),
  data({ baseOffset: 2, count: 2, producerId: 2 }),
  control(4, 1, 'ABORT'),
  control(5, 2, 'COMMIT'),
];

describe('read_committed filtering (CompletedFetch.nextFetchedRecord)', () => {
  it('skips the aborted producer and delivers the committed one, past both markers', () => {
    const fetched = response(INTERLEAVED, [{ producerId: 1, firstOffset: 0 }]);
    expect(filtered(fetched, 0, 'read_committed')).toEqual({ offsets: [2, 3], next: 6 });
  });

  it('takes a producer out of the aborted set at its ABORT marker (producer id reuse)', () => {
    const batches = [
      data({ baseOffset: 0, count: 2, producerId: 1 }),
      control(2, 1, 'ABORT'),
      data({ baseOffset: 3, count: 2, producerId: 1 }),
      control(5, 1, 'COMMIT'),
    ];
    const fetched = response(batches, [{ producerId: 1, firstOffset: 0 }]);
    expect(filtered(fetched, 0, 'read_committed')).toEqual({ offsets: [3, 4], next: 6 });
  });

  it('adds an aborted entry only once a batch reaches its first offset', () => {
    const batches = [
      data({ baseOffset: 0, count: 2, producerId: 1 }),
      control(2, 1, 'COMMIT'),
      data({ baseOffset: 3, count: 2, producerId: 1 }),
      control(5, 1, 'ABORT'),
    ];
    const fetched = response(batches, [{ producerId: 1, firstOffset: 3 }]);
    expect(filtered(fetched, 0, 'read_committed')).toEqual({ offsets: [0, 1], next: 6 });
  });

  it('delivers non-transactional batches of a producer in the aborted set', () => {
    const batches = [
      data({ baseOffset: 0, count: 1, producerId: 1 }),
      data({ baseOffset: 1, count: 1, producerId: 1, isTransactional: false }),
      data({ baseOffset: 2, count: 1, producerId: -1, isTransactional: false }),
    ];
    const fetched = response(batches, [{ producerId: 1, firstOffset: 0 }]);
    expect(filtered(fetched, 0, 'read_committed')).toEqual({ offsets: [1, 2], next: 3 });
  });

  it('sorts the aborted list by first offset before walking it', () => {
    const batches = [
      data({ baseOffset: 0, count: 1, producerId: 1 }),
      data({ baseOffset: 1, count: 1, producerId: 2 }),
      control(2, 2, 'ABORT'),
      data({ baseOffset: 3, count: 1, producerId: 2 }),
      control(4, 1, 'ABORT'),
    ];
    const aborted = [
      { producerId: 2, firstOffset: 1 },
      { producerId: 1, firstOffset: 0 },
    ];
    expect(filtered(response(batches, aborted), 0, 'read_committed')).toEqual({
      offsets: [3],
      next: 5,
    });
  });
});

describe('markers under both isolation levels', () => {
  it('read_uncommitted delivers aborted records but never a marker', () => {
    expect(filtered(response(INTERLEAVED, null), 0, 'read_uncommitted')).toEqual({
      offsets: [0, 1, 2, 3],
      next: 6,
    });
  });

  it('ignores an aborted list under read_uncommitted', () => {
    const fetched = response(INTERLEAVED, [{ producerId: 1, firstOffset: 0 }]);
    expect(filtered(fetched, 0, 'read_uncommitted')).toEqual({ offsets: [0, 1, 2, 3], next: 6 });
  });
});

describe('position (FetchCollector.fetchRecords)', () => {
  it('moves past a marker even though no record is returned (EXP-02)', () => {
    const fetched = response([control(5, 1, 'COMMIT')], []);
    expect(filtered(fetched, 5, 'read_committed')).toEqual({ offsets: [], next: 6 });
    expect(filtered(fetched, 5, 'read_uncommitted')).toEqual({ offsets: [], next: 6 });
  });

  it('moves past a fully aborted transaction with nothing returned', () => {
    const batches = [data({ baseOffset: 0, count: 3, producerId: 1 }), control(3, 1, 'ABORT')];
    const fetched = response(batches, [{ producerId: 1, firstOffset: 0 }]);
    expect(filtered(fetched, 0, 'read_committed')).toEqual({ offsets: [], next: 4 });
  });

  it('skips the records of the first batch that lie below the position', () => {
    const fetched = response([data({ baseOffset: 0, count: 5, producerId: -1 })], null);
    expect(filtered(fetched, 2, 'read_uncommitted')).toEqual({ offsets: [2, 3, 4], next: 5 });
  });

  it('stays where it is when the response holds no batch', () => {
    expect(filtered(response([], []), 7, 'read_committed')).toEqual({ offsets: [], next: 7 });
  });

  it('reports the topic, partition and producer identity of each record', () => {
    const fetched = response([data({ baseOffset: 0, count: 1, producerId: 4 })], null);
    expect(filterFetchedBatches(fetched, 0, 'read_uncommitted').records).toEqual([
      { topic: 't', partition: 0, offset: 0, value: 0, producerId: 4, producerEpoch: 0 },
    ]);
  });
});
