/**
 * Range views of the delivered records that let checkers rule a history clean without visiting
 * one record at a time through maps: a fetched batch is a run of consecutive offsets, and the
 * oracle keeps its log as producer batches, so a run is compared with the oracle's batches (or
 * with earlier deliveries of the same offsets) array to array. A checker asks one of these
 * questions first; only when the answer is "maybe" does it run its exact per-record pass, so
 * what it reports is unchanged and a clean history costs what its batches cost.
 */
import type { DeliveredBatch, OracleBatch } from '../history';
import { firstBatchEndingAtOrAbove } from '../history';
import type { CheckContext } from './check_context';
import { topicPartitionKey } from './topic_partition';
import type { PartitionIndex } from './transaction_outcome';

/** Offsets `[from, to]` of oracle batch `batches[position]`, a part of a delivered run. */
export interface OracleOverlap {
  readonly position: number;
  readonly batch: OracleBatch;
  readonly from: number;
  readonly to: number;
}

/**
 * The oracle batches holding offsets of `[from, to]`, in offset order, each with the part of the
 * range it holds; offsets no batch holds are left out.
 */
export function oracleOverlaps(index: PartitionIndex, from: number, to: number): OracleOverlap[] {
  const batches = index.batches;
  const overlaps: OracleOverlap[] = [];
  let position = firstBatchEndingAtOrAbove(batches, from);
  for (; position < batches.length; position += 1) {
    const batch = batches[position] as OracleBatch;
    if (batch.baseOffset > to) break;
    overlaps.push({
      position,
      batch,
      from: Math.max(from, batch.baseOffset),
      to: Math.min(to, batch.lastOffset),
    });
  }
  return overlaps;
}

/** Whether some record of `run` has the value the oracle data record at its offset holds. */
export function someValueMatches(run: DeliveredBatch, overlap: OracleOverlap): boolean {
  const { batch, from, to } = overlap;
  if (batch.control !== undefined) return false;
  for (let offset = from; offset <= to; offset++) {
    if (run.values[offset - run.offset] === batch.values[offset - batch.baseOffset]) return true;
  }
  return false;
}

/**
 * Whether the oracle log holds every record of `run` as a data record with the delivered value
 * at the delivered offset.
 */
export function oracleHoldsRun(index: PartitionIndex, run: DeliveredBatch): boolean {
  const last = run.offset + run.values.length - 1;
  let next = run.offset;
  for (const overlap of oracleOverlaps(index, run.offset, last)) {
    const { batch, from, to } = overlap;
    if (from !== next || batch.control !== undefined) return false;
    for (let offset = from; offset <= to; offset++) {
      if (run.values[offset - run.offset] !== batch.values[offset - batch.baseOffset]) return false;
    }
    next = to + 1;
  }
  return next === last + 1;
}

/** Offsets `[from, to]` of one partition first delivered with `values[start...]`. */
interface Piece {
  readonly from: number;
  readonly to: number;
  readonly values: readonly number[];
  /** The position in `values` of offset `from`. */
  readonly start: number;
}

/** The first deliveries of every offset, over every consumer and operation. */
export interface FirstDeliveries {
  /** Per partition, the offsets delivered, each with the value first delivered there. */
  readonly pieces: readonly Piece[];
  /** Whether some offset was delivered with two different values. */
  readonly differing: boolean;
}

const firstDeliveriesByContext = new WeakMap<CheckContext, FirstDeliveries>();

/**
 * The offsets delivered (by any consumer, in any `poll` or `final-read`) with the value first
 * delivered at each, as runs, and whether some offset was delivered with another value too.
 */
export function firstDeliveries(context: CheckContext): FirstDeliveries {
  let found = firstDeliveriesByContext.get(context);
  if (found === undefined) {
    found = buildFirstDeliveries(context);
    firstDeliveriesByContext.set(context, found);
  }
  return found;
}

function buildFirstDeliveries(context: CheckContext): FirstDeliveries {
  const partitions = new Map<string, Piece[]>();
  let differing = false;
  for (const op of context.deliveries) {
    for (const run of op.value.batches) {
      if (run.values.length === 0) continue;
      const key = topicPartitionKey(run.topic, run.partition);
      let pieces = partitions.get(key);
      if (pieces === undefined) partitions.set(key, (pieces = []));
      if (!addRun(pieces, run)) differing = true;
    }
  }
  return { pieces: [...partitions.values()].flat(), differing };
}

/**
 * Adds the offsets of `run` not delivered before as new pieces (kept sorted and disjoint), and
 * compares the others with their first delivery. Returns false when a value differs.
 */
function addRun(pieces: Piece[], run: DeliveredBatch): boolean {
  const last = run.offset + run.values.length - 1;
  const tail = pieces[pieces.length - 1];
  if (tail === undefined || tail.to < run.offset) {
    pieces.push({ from: run.offset, to: last, values: run.values, start: 0 });
    return true;
  }
  let same = true;
  let low = 0;
  let high = pieces.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((pieces[middle] as Piece).to < run.offset) low = middle + 1;
    else high = middle;
  }
  const added: Piece[] = [];
  let next = run.offset;
  let position = low;
  for (; position < pieces.length && next <= last; position += 1) {
    const piece = pieces[position] as Piece;
    if (piece.from > last) break;
    if (piece.from > next) {
      added.push({ from: next, to: piece.from - 1, values: run.values, start: next - run.offset });
    }
    const to = Math.min(piece.to, last);
    for (let offset = Math.max(piece.from, next); offset <= to; offset++) {
      if (run.values[offset - run.offset] !== piece.values[piece.start + offset - piece.from]) {
        same = false;
      }
    }
    next = to + 1;
  }
  if (next <= last) {
    added.push({ from: next, to: last, values: run.values, start: next - run.offset });
  }
  if (added.length > 0) {
    // The pieces from `low` to `position` interleave with the added ones; re-sort that window.
    const window = [...pieces.slice(low, position), ...added].sort((a, b) => a.from - b.from);
    pieces.splice(low, position - low, ...window);
  }
  return same;
}

/**
 * Whether some value was delivered at two different (partition, offset) locations: false means
 * every value was delivered at one location only. Values of a run normally rise (a producer
 * batch holds them in send order, and values are handed out in increasing order), so runs are
 * compared as rising stretches, sorted by their lowest value. An offset delivered with two
 * values answers true, for the exact pass.
 */
export function mayDeliverValueTwice(context: CheckContext): boolean {
  const { pieces, differing } = firstDeliveries(context);
  if (differing) return true;
  // Each piece cut into its rising stretches: a stretch holds no value twice.
  const spans: Span[] = [];
  for (const piece of pieces) {
    const end = piece.start + piece.to - piece.from;
    let first = piece.start;
    for (let at = piece.start + 1; at <= end + 1; at++) {
      if (at <= end && (piece.values[at] as number) > (piece.values[at - 1] as number)) continue;
      const min = piece.values[first] as number;
      spans.push({
        min,
        max: piece.values[at - 1] as number,
        values: piece.values,
        first,
        last: at - 1,
      });
      first = at;
    }
  }
  spans.sort((a, b) => a.min - b.min || a.max - b.max);
  let active: Span[] = [];
  for (const span of spans) {
    active = active.filter((other) => other.max >= span.min);
    for (const other of active) if (shareValue(other, span)) return true;
    active.push(span);
  }
  return false;
}

/** Values `values[first..last]`, rising, from `min` to `max`. */
interface Span {
  readonly min: number;
  readonly max: number;
  readonly values: readonly number[];
  readonly first: number;
  readonly last: number;
}

/** Whether two rising spans hold a common value (a merge of both). */
function shareValue(a: Span, b: Span): boolean {
  let i = a.first;
  let j = b.first;
  while (i <= a.last && j <= b.last) {
    const x = a.values[i] as number;
    const y = b.values[j] as number;
    if (x === y) return true;
    if (x < y) i++;
    else j++;
  }
  return false;
}
