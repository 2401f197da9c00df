/**
 * Appends operations to a history, numbering them. The workload and the nemesis are its only
 * writers; `historyOpsMax` bounds it, and a run that hits the bound stops on its budget (exit 4,
 * like `run.events.max`) rather than checking a truncated history or exhausting the heap.
 */
import type { HistoryOp } from './history_types';

/** Thrown when a history reaches its bound; the runner reports it as a budget stop (exit 4). */
export class HistoryBoundExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryBoundExceededError';
  }
}

type Unnumbered<T> = T extends HistoryOp ? Omit<T, 'index'> : never;

/** Collects the history of one run. */
export class HistoryRecorder {
  private readonly ops: HistoryOp[] = [];

  constructor(private readonly historyOpsMax: number) {}

  /** Appends `op` with the next index and returns it. */
  append(op: Unnumbered<HistoryOp>): HistoryOp {
    if (this.ops.length >= this.historyOpsMax) {
      throw new HistoryBoundExceededError(
        `History exceeded historyOpsMax: ${this.historyOpsMax} operations`,
      );
    }
    const numbered = { ...op, index: this.ops.length } as HistoryOp;
    this.ops.push(numbered);
    return numbered;
  }

  /** The history so far. */
  get history(): readonly HistoryOp[] {
    return this.ops;
  }
}
