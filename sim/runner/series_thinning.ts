/**
 * Thinning of the report's series so a long run stays a few thousand points, without making the
 * thinned series say something the run never did. A partition's log end offset, high
 * watermark and last stable offset are thinned together, at times common to all three, so at
 * every kept time they are the values of one instant (last stable offset ≤ high watermark ≤ log
 * end offset holds in the thinned series wherever it held in the run); and every thinning keeps
 * the points where each measure is largest and smallest, so a peak (the largest HW−LSO gap, the
 * largest lag) survives however long the run.
 */
import type { OffsetPoint, PartitionTimeline } from './report_types';

/**
 * At most `pointsMax` items of `series`, evenly spaced, always keeping the first and the last.
 * @example thin([1, 2, 3, 4, 5], 3) // [1, 3, 5]
 */
export function thin<T>(series: readonly T[], pointsMax: number): T[] {
  return evenIndices(series.length, pointsMax).map((index) => series[index] as T);
}

/** `count` indices of `0 … length-1`, evenly spaced, first and last included. */
function evenIndices(length: number, count: number): number[] {
  if (length <= count) return Array.from({ length }, (_, index) => index);
  if (count <= 0) return [];
  if (count === 1) return [length - 1];
  const last = length - 1;
  return Array.from({ length: count }, (_, i) => Math.round((i * last) / (count - 1)));
}

/**
 * At most `pointsMax` of `rows`, in order: the first and the last, the indices in `pinned`, for
 * each measure the first row where it is largest and the first where it is smallest, and the
 * rest evenly spaced. `pointsMax` must leave room for those: 2 + pinned + 2 × measures.
 * @example
 * thinKeepingExtremes([0, 1, 9, 1, 0, 1, 0], 4, [(v) => v]) // [0, 9, 1, 0]
 */
export function thinKeepingExtremes<T>(
  rows: readonly T[],
  pointsMax: number,
  measures: ReadonlyArray<(row: T) => number>,
  pinned: Iterable<number> = [],
): T[] {
  if (rows.length <= pointsMax) return [...rows];
  const kept = new Set<number>([0, rows.length - 1]);
  for (const index of pinned) if (index >= 0 && index < rows.length) kept.add(index);
  for (const measure of measures) {
    let largest = 0;
    let smallest = 0;
    let largestValue = measure(rows[0] as T);
    let smallestValue = largestValue;
    rows.forEach((row, index) => {
      const value = measure(row);
      if (value > largestValue) [largest, largestValue] = [index, value];
      if (value < smallestValue) [smallest, smallestValue] = [index, value];
    });
    kept.add(largest).add(smallest);
  }
  if (kept.size > pointsMax) {
    throw new RangeError(`pointsMax ${pointsMax} cannot hold ${kept.size} extremes`);
  }
  // Evenly spaced candidates may land on kept rows; denser passes fill the budget exactly.
  for (let count = pointsMax - kept.size + 2; kept.size < pointsMax; count += pointsMax) {
    for (const index of evenIndices(rows.length, count)) {
      if (kept.size >= pointsMax) break;
      kept.add(index);
    }
  }
  return [...kept].sort((a, b) => a - b).map((index) => rows[index] as T);
}

/**
 * The value of a step series at `timeUs`: the last point at or before it, or 0 before the first.
 * `series` must be sorted by time.
 */
export function valueAt(series: readonly OffsetPoint[], timeUs: number): number {
  let low = 0;
  let high = series.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const point = series[middle] as OffsetPoint;
    if (point.timeUs <= timeUs) {
      found = point.offset;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** A partition's three offsets at one instant. */
export interface OffsetRow {
  readonly timeUs: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
}

/**
 * The three step series of a partition as rows at every time any of them changes, each value
 * the one in force then (0 before a series' first point). Series must be sorted by time.
 */
export function offsetRows(series: PartitionTimeline): OffsetRow[] {
  const streams = [series.logEndOffset, series.highWatermark, series.lastStableOffset];
  const cursors = [0, 0, 0];
  const values = [0, 0, 0];
  const rows: OffsetRow[] = [];
  for (;;) {
    let timeUs = Infinity;
    streams.forEach((stream, s) => {
      timeUs = Math.min(timeUs, stream[cursors[s] as number]?.timeUs ?? Infinity);
    });
    if (timeUs === Infinity) return rows;
    streams.forEach((stream, s) => {
      let point: OffsetPoint | undefined;
      while ((point = stream[cursors[s] as number]) !== undefined && point.timeUs === timeUs) {
        values[s] = point.offset;
        cursors[s] = (cursors[s] as number) + 1;
      }
    });
    const [logEndOffset = 0, highWatermark = 0, lastStableOffset = 0] = values;
    rows.push({ timeUs, logEndOffset, highWatermark, lastStableOffset });
  }
}

/**
 * A partition's series thinned together to at most `pointsMax` common times, keeping the
 * extremes of each offset and of both gaps (HW−LSO, the transaction gap; LEO−HW, the
 * replication gap), and the rows at the times in `keepTimesUs` (the report's stalls). The
 * three returned series have the same times, one point per kept row.
 */
export function thinPartitionSeries(
  series: PartitionTimeline,
  pointsMax: number,
  keepTimesUs: ReadonlySet<number> = new Set(),
): PartitionTimeline {
  const rows = offsetRows(series);
  const pinned = rows.flatMap((row, index) => (keepTimesUs.has(row.timeUs) ? [index] : []));
  const kept =
    rows.length <= pointsMax
      ? rows
      : thinKeepingExtremes(
          rows,
          pointsMax,
          [
            (row) => row.logEndOffset,
            (row) => row.highWatermark,
            (row) => row.lastStableOffset,
            (row) => row.highWatermark - row.lastStableOffset,
            (row) => row.logEndOffset - row.highWatermark,
          ],
          pinned,
        );
  const column = (pick: (row: OffsetRow) => number): OffsetPoint[] =>
    kept.map((row) => ({ timeUs: row.timeUs, offset: pick(row) }));
  return {
    topic: series.topic,
    partition: series.partition,
    logEndOffset: column((row) => row.logEndOffset),
    highWatermark: column((row) => row.highWatermark),
    lastStableOffset: column((row) => row.lastStableOffset),
  };
}
