/**
 * Goal: thinned series never say what the run did not. A partition's three offsets thinned on
 * their own can be read at one time from three different instants (the worked example's JSON
 * once gave LEO 899,457 < HW 900,001 at 715.5 s); thinned together they cannot, and the peaks
 * (largest HW−LSO gap) survive. Method: a hand-built partition whose LEO, HW and LSO change at
 * interleaved times with a short spike of the transaction gap, thinned far below its length.
 */
import { describe, expect, it } from 'vitest';
import type { OffsetPoint, PartitionTimeline } from './report_types';
import {
  offsetRows,
  thin,
  thinKeepingExtremes,
  thinPartitionSeries,
  valueAt,
} from './series_thinning';

/**
 * The leader appends 3 records every 10 µs; every third step the followers catch up (HW = LEO
 * 1 µs later) and the LSO follows 1 µs after that, except while a transaction that began at
 * 2,331 is open (steps 777-789), so the series have different lengths, as in a real run.
 */
function busyPartition(steps: number): PartitionTimeline {
  const logEndOffset: OffsetPoint[] = [];
  const highWatermark: OffsetPoint[] = [];
  const lastStableOffset: OffsetPoint[] = [];
  for (let step = 0; step < steps; step++) {
    const timeUs = step * 10;
    logEndOffset.push({ timeUs, offset: 3 * step + 3 });
    if (step % 3 !== 2) continue;
    highWatermark.push({ timeUs: timeUs + 1, offset: 3 * step + 3 });
    const held = step >= 777 && step < 790;
    lastStableOffset.push({ timeUs: timeUs + 2, offset: held ? 2331 : 3 * step + 3 });
  }
  return { topic: 't', partition: 0, logEndOffset, highWatermark, lastStableOffset };
}

describe('thin', () => {
  it('thins evenly and keeps both ends', () => {
    expect(thin([1, 2, 3, 4, 5], 3)).toEqual([1, 3, 5]);
    expect(thin([1, 2], 5)).toEqual([1, 2]);
  });
});

describe('thinKeepingExtremes', () => {
  it('keeps the ends, the first largest and smallest of each measure, then even points', () => {
    expect(thinKeepingExtremes([0, 1, 9, 1, 0, 1, 0], 4, [(v) => v])).toEqual([0, 9, 1, 0]);
    const rows = Array.from({ length: 1000 }, (_, i) => (i === 613 ? 50 : i === 401 ? -7 : 1));
    const kept = thinKeepingExtremes(rows, 10, [(v) => v]);
    expect(kept).toHaveLength(10);
    expect(kept).toContain(50);
    expect(kept).toContain(-7);
  });

  it('refuses a bound that cannot hold the extremes', () => {
    const rows = [5, 1, 9, 2, 8, 3];
    expect(() => thinKeepingExtremes(rows, 3, [(v) => v, (v) => -((v * 7) % 5)])).toThrow(
      RangeError,
    );
  });
});

describe('thinPartitionSeries', () => {
  const series = busyPartition(3000);

  it('gives rows at every change with the values in force then', () => {
    const rows = offsetRows(series);
    expect(rows).toHaveLength(5000);
    expect(rows[1]).toEqual({ timeUs: 10, logEndOffset: 6, highWatermark: 0, lastStableOffset: 0 });
    expect(rows[3]).toEqual({ timeUs: 21, logEndOffset: 9, highWatermark: 9, lastStableOffset: 0 });
    expect(rows[4]).toEqual({ timeUs: 22, logEndOffset: 9, highWatermark: 9, lastStableOffset: 9 });
  });

  it('keeps LSO <= HW <= LEO at every kept time and whenever it is read', () => {
    const thinned = thinPartitionSeries(series, 1500);
    expect(thinned.logEndOffset).toHaveLength(1500);
    const times = thinned.logEndOffset.map((point) => point.timeUs);
    expect(thinned.highWatermark.map((point) => point.timeUs)).toEqual(times);
    expect(thinned.lastStableOffset.map((point) => point.timeUs)).toEqual(times);
    for (let timeUs = 0; timeUs < 30_000; timeUs += 7) {
      const leo = valueAt(thinned.logEndOffset, timeUs);
      const hw = valueAt(thinned.highWatermark, timeUs);
      const lso = valueAt(thinned.lastStableOffset, timeUs);
      expect(lso <= hw && hw <= leo, `at ${timeUs} µs: ${lso} ${hw} ${leo}`).toBe(true);
    }
  });

  it('is what thinning each series alone gets wrong', () => {
    // The old way: each series thinned evenly on its own.
    const leo = thin(series.logEndOffset, 1500);
    const hw = thin(series.highWatermark, 1500);
    const broken = Array.from({ length: 3000 }, (_, i) => i * 10 + 5).some(
      (timeUs) => valueAt(leo, timeUs) < valueAt(hw, timeUs),
    );
    expect(broken).toBe(true);
  });

  it('keeps the largest HW−LSO gap and the final values', () => {
    const thinned = thinPartitionSeries(series, 1500);
    const gaps = thinned.highWatermark.map(
      (point, index) => point.offset - (thinned.lastStableOffset[index]?.offset ?? 0),
    );
    // Held at 2,331; the HW reaches 3 × 791 + 3 = 2,376 one µs before the LSO moves on.
    expect(Math.max(...gaps)).toBe(45);
    const last = { timeUs: 29_992, offset: 9000 };
    expect(thinned.logEndOffset.at(-1)).toEqual(last);
    expect(thinned.highWatermark.at(-1)).toEqual(last);
    expect(thinned.lastStableOffset.at(-1)).toEqual(last);
  });
});
