/**
 * Goal: pin how a record's transaction outcome is read from the oracle log: the first marker
 * after it with the same producerId decides, markers of other producers do not, and a
 * non-transactional record is committed on append. Method: one partition with two producers'
 * transactions interleaved, checked offset by offset, plus malformed logs that must be refused.
 */
import { describe, expect, it } from 'vitest';
import type { OraclePartition, OracleRecord } from '../history';
import { indexPartition, oracleRecordFor } from './transaction_outcome';

/** `[offset, value or marker, producerId]`; producerId -1 writes a non-transactional record. */
type Row = readonly [offset: number, content: number | 'COMMIT' | 'ABORT', producerId: number];

function rows(table: readonly Row[]): OracleRecord[] {
  return table.map(([offset, content, producerId]) => ({
    offset,
    value: typeof content === 'number' ? content : null,
    producerId,
    producerEpoch: 0,
    sequence: -1,
    isTransactional: producerId >= 0,
    ...(typeof content === 'number' ? {} : { control: content }),
    appendUs: offset,
  }));
}

function partitionOf(records: readonly OracleRecord[]): OraclePartition {
  return {
    topic: 't',
    partition: 0,
    leader: 'b1',
    logStartOffset: 0,
    logEndOffset: records.length,
    highWatermark: records.length,
    lastStableOffset: records.length,
    records,
    highWatermarkChanges: [],
    lastStableOffsetChanges: [],
    openTransactions: [],
  };
}

describe('PartitionIndex.outcomeAt', () => {
  const partition = partitionOf(
    rows([
      [0, 10, 1],
      [1, 20, 2],
      [2, 'COMMIT', 1],
      [3, 11, 1],
      [4, 30, -1],
      [5, 'ABORT', 1],
      [6, 21, 2],
      [7, 'ABORT', 2],
      [8, 12, 1],
    ]),
  );

  it('decides each record by the first following marker of its own producer', () => {
    const index = indexPartition(partition);
    const offsets = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const outcomes = offsets.flatMap((offset) => {
      const outcome = index.outcomeAt(offset);
      return outcome === undefined ? [] : [[offset, outcome]];
    });
    expect(index.outcomeAt(9)).toBeUndefined();
    expect(outcomes).toEqual([
      [0, { status: 'committed', markerOffset: 2 }],
      [1, { status: 'aborted', markerOffset: 7 }],
      [3, { status: 'aborted', markerOffset: 5 }],
      [4, { status: 'committed', markerOffset: null }],
      [6, { status: 'aborted', markerOffset: 7 }],
      [8, { status: 'open', markerOffset: null }],
    ]);
  });

  it('refuses offsets that do not strictly increase', () => {
    expect(() =>
      indexPartition(
        partitionOf(
          rows([
            [1, 1, 1],
            [1, 2, 1],
          ]),
        ),
      ),
    ).toThrow('Oracle offsets must strictly increase: t-0 offset 1');
  });
});

describe('indexPartition', () => {
  it('indexes offsets by value, and finds a delivered record only where its value is', () => {
    const index = indexPartition(
      partitionOf(
        rows([
          [0, 7, 1],
          [1, 7, 1],
          [2, 'COMMIT', 1],
        ]),
      ),
    );
    expect(index.offsetsOf(7)).toEqual([0, 1]);
    expect(index.offsetsOf(8)).toEqual([]);
    expect(oracleRecordFor(index, { offset: 1, value: 7 })?.offset).toBe(1);
    expect(oracleRecordFor(index, { offset: 1, value: 8 })).toBeNull();
    expect(oracleRecordFor(index, { offset: 2, value: 7 })).toBeNull();
    expect(oracleRecordFor(undefined, { offset: 0, value: 7 })).toBeNull();
  });

  it('refuses a marker with a value and LSO changes out of time order', () => {
    const markerWithValue = { ...rows([[0, 'ABORT', 1]])[0], value: 5 } as OracleRecord;
    expect(() => indexPartition(partitionOf([markerWithValue]))).toThrow(
      'Oracle marker carries a value: t-0@0',
    );
    const unordered = {
      ...partitionOf([]),
      lastStableOffsetChanges: [
        { timeUs: 5, offset: 1 },
        { timeUs: 4, offset: 2 },
      ],
    };
    expect(() => indexPartition(unordered)).toThrow('must be in time order: t-0 entry 1');
  });
});
