/**
 * Appends operations to a history, numbering them. The workload and the nemesis are its only
 * writers; `historyOpsMax` bounds it, and a run that hits the bound stops on its budget (exit 4,
 * like `run.events.max`) rather than checking a truncated history or exhausting the heap.
 *
 * A slot (`reserve`) holds the place of invokes whose grouping is settled later: a run of records
 * sent back to back becomes one `send` operation per producer batch it lands in, and which
 * records share a batch is known only when the producer drains them. The slot's operations take
 * its place, in order, when the history is read.
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

/** An operation without its index, as writers hand it in. */
export type HistoryOpDraft = Unnumbered<HistoryOp>;

/** The place of invokes settled later; `pending` lists those not settled when read. */
export interface InvokeSlot {
  readonly settled: HistoryOpDraft[];
  pending: () => readonly HistoryOpDraft[];
}

/** Collects the history of one run. */
export class HistoryRecorder {
  private readonly entries: Array<HistoryOp | InvokeSlot> = [];
  /** Operations so far, counting every settled invoke of a slot. */
  private count = 0;
  private hasSlots = false;
  private numbered: HistoryOp[] | null = null;

  constructor(private readonly historyOpsMax: number) {}

  /**
   * Registers `flush`, which writes an operation still growing (a batch's records completing one
   * by one); it runs before anything else is written or the history is read.
   */
  holdOpen(flush: () => void): void {
    this.flushOpen();
    this.openFlush = flush;
  }

  /** True while `flush` is the operation held open. */
  isHeldOpen(flush: () => void): boolean {
    return this.openFlush === flush;
  }

  private openFlush: (() => void) | null = null;

  private flushOpen(): void {
    const flush = this.openFlush;
    this.openFlush = null;
    flush?.();
  }

  /** Appends `op` with the next index (final unless a slot before it grows). */
  append(op: HistoryOpDraft): HistoryOp {
    this.flushOpen();
    this.grow();
    const numbered = { ...op, index: this.count - 1 } as HistoryOp;
    this.entries.push(numbered);
    return numbered;
  }

  /** Holds a place for invokes settled later with {@link settle}. */
  reserve(pending: () => readonly HistoryOpDraft[]): InvokeSlot {
    this.flushOpen();
    const slot: InvokeSlot = { settled: [], pending };
    this.entries.push(slot);
    this.hasSlots = true;
    this.numbered = null;
    return slot;
  }

  /** Settles one more invoke of `slot`, after those settled before. */
  settle(slot: InvokeSlot, op: HistoryOpDraft): void {
    this.grow();
    slot.settled.push(op);
  }

  private grow(): void {
    if (this.count >= this.historyOpsMax) {
      throw new HistoryBoundExceededError(
        `History exceeded historyOpsMax: ${this.historyOpsMax} operations`,
      );
    }
    this.count += 1;
    this.numbered = null;
  }

  /** The history so far: every slot's invokes in its place, numbered from 0. */
  get history(): readonly HistoryOp[] {
    this.flushOpen();
    if (!this.hasSlots) return this.entries as HistoryOp[];
    this.numbered ??= this.number();
    return this.numbered;
  }

  private number(): HistoryOp[] {
    const ops: HistoryOp[] = [];
    const push = (op: HistoryOpDraft | HistoryOp): void => {
      const index = ops.length;
      ops.push(('index' in op && op.index === index ? op : { ...op, index }) as HistoryOp);
    };
    for (const entry of this.entries) {
      if (!('settled' in entry)) push(entry);
      else for (const op of [...entry.settled, ...entry.pending()]) push(op);
    }
    return ops;
  }
}
