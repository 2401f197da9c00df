import { describe, expect, it } from 'vitest';
import type { OracleBatch } from '../history';
import { ValueIndex } from './value_index';

function data(baseOffset: number, values: number[]): OracleBatch {
  const batch = { producerId: 1, producerEpoch: 0, baseSequence: 0, isTransactional: false };
  return { ...batch, baseOffset, lastOffset: baseOffset + values.length - 1, appendUs: 0, values };
}

function marker(offset: number): OracleBatch {
  const batch = { producerId: 1, producerEpoch: 0, baseSequence: -1, isTransactional: true };
  return {
    ...batch,
    baseOffset: offset,
    lastOffset: offset,
    control: 'COMMIT',
    appendUs: 0,
    values: [],
  };
}

describe('ValueIndex', () => {
  it('finds values in rising batches, overlapping ones included, and every copy', () => {
    // Two producers interleave values 10..19; 12 is written twice (a duplicate at 8).
    const index = new ValueIndex([
      data(0, [10, 12, 14]),
      data(3, [11, 13, 15, 17]),
      marker(7),
      data(8, [12, 19]),
    ]);
    expect(index.offsetsOf(10)).toEqual([0]);
    expect(index.offsetsOf(12)).toEqual([1, 8]);
    expect(index.offsetsOf(17)).toEqual([6]);
    expect(index.offsetsOf(19)).toEqual([9]);
    expect(index.offsetsOf(16)).toEqual([]);
    expect(index.offsetsOf(9)).toEqual([]);
    expect(index.offsetsOf(20)).toEqual([]);
  });

  it('indexes a batch whose values do not rise record by record', () => {
    const index = new ValueIndex([data(0, [5, 3, 5]), data(3, [4, 6])]);
    expect(index.offsetsOf(5)).toEqual([0, 2]);
    expect(index.offsetsOf(3)).toEqual([1]);
    expect(index.offsetsOf(4)).toEqual([3]);
    expect(index.offsetsOf(6)).toEqual([4]);
  });

  it('looks back past a run that ends below the value to an earlier wide one', () => {
    const index = new ValueIndex([data(0, [1, 100]), data(2, [2, 3]), data(4, [50])]);
    expect(index.offsetsOf(100)).toEqual([1]);
    expect(index.offsetsOf(3)).toEqual([3]);
    expect(index.offsetsOf(50)).toEqual([4]);
  });
});
