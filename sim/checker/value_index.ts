/**
 * The offsets holding each data value of one oracle log, kept per batch rather than per record.
 * A producer's batch holds its values in send order, and values are handed out in increasing
 * order, so a batch's values are a rising run: the index keeps one entry per such batch (its
 * lowest and highest value), sorted by lowest value, and finds a value by binary search. Batches
 * whose values do not rise (possible in a history file from elsewhere) are indexed per record.
 */
import type { OracleBatch } from '../history';

interface Run {
  readonly minValue: number;
  readonly maxValue: number;
  readonly batch: OracleBatch;
}

/** Offsets by value over a log's batches. */
export class ValueIndex {
  private readonly runs: Run[] = [];
  /** `prefixMax[i]`: the highest `maxValue` of runs 0..i (runs sorted by `minValue`). */
  private readonly prefixMax: number[] = [];
  private readonly others = new Map<number, number[]>();

  constructor(batches: readonly OracleBatch[]) {
    for (const batch of batches) {
      if (batch.control !== undefined || batch.values.length === 0) continue;
      if (rising(batch.values)) {
        const minValue = batch.values[0] as number;
        const maxValue = batch.values[batch.values.length - 1] as number;
        this.runs.push({ minValue, maxValue, batch });
      } else {
        batch.values.forEach((value, index) => this.addOther(value, batch.baseOffset + index));
      }
    }
    this.runs.sort((a, b) => a.minValue - b.minValue || a.batch.baseOffset - b.batch.baseOffset);
    let highest = Number.NEGATIVE_INFINITY;
    for (const run of this.runs) {
      highest = Math.max(highest, run.maxValue);
      this.prefixMax.push(highest);
    }
  }

  /** The offsets holding `value`, ascending; empty when none does. */
  offsetsOf(value: number): number[] {
    const offsets: number[] = [...(this.others.get(value) ?? [])];
    // The last run starting at or below `value`; earlier runs can hold it only while their
    // running maximum reaches it.
    let low = 0;
    let high = this.runs.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.runs[middle] as Run).minValue <= value) low = middle + 1;
      else high = middle;
    }
    for (let position = low - 1; position >= 0; position--) {
      if ((this.prefixMax[position] as number) < value) break;
      const run = this.runs[position] as Run;
      if (run.maxValue < value) continue;
      const at = positionOf(run.batch.values, value);
      if (at >= 0) offsets.push(run.batch.baseOffset + at);
    }
    return offsets.sort((a, b) => a - b);
  }

  private addOther(value: number, offset: number): void {
    const known = this.others.get(value);
    if (known === undefined) this.others.set(value, [offset]);
    else known.push(offset);
  }
}

function rising(values: readonly number[]): boolean {
  for (let index = 1; index < values.length; index++) {
    if ((values[index] as number) <= (values[index - 1] as number)) return false;
  }
  return true;
}

/** The position of `value` in the rising `values`, or -1. */
function positionOf(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = values[middle] as number;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
