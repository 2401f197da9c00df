/**
 * The kernel's priority queue: a binary min-heap of events ordered by `(timeUs, seq)`, where
 * `seq` is the insertion counter. Equal times therefore run in insertion order, and nothing
 * depends on heap tie order. Style rule 12.
 */
import { assert } from './assert';
import type { TimeUs } from './ids';

/** Anything the queue can order. */
export interface QueuedEvent {
  readonly timeUs: TimeUs;
  readonly seq: number;
}

function before(a: QueuedEvent, b: QueuedEvent): boolean {
  return a.timeUs < b.timeUs || (a.timeUs === b.timeUs && a.seq < b.seq);
}

/** A binary min-heap keyed by `(timeUs, seq)`. `eventsQueuedMax` bounds its size. */
export class EventQueue<E extends QueuedEvent> {
  private readonly heap: E[] = [];

  constructor(private readonly eventsQueuedMax: number) {}

  get size(): number {
    return this.heap.length;
  }

  push(event: E): void {
    assert(this.heap.length < this.eventsQueuedMax, 'event queue is full: eventsQueuedMax reached');
    const heap = this.heap;
    heap.push(event);
    let index = heap.length - 1;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as E;
      if (!before(event, parent)) break;
      heap[index] = parent;
      index = parentIndex;
    }
    heap[index] = event;
  }

  /** Every queued event, in no particular order (for read-only inspection). */
  values(): readonly E[] {
    return this.heap;
  }

  /** The earliest event without removing it, or undefined when empty. */
  peek(): E | undefined {
    return this.heap[0];
  }

  /** Removes and returns the earliest event, or undefined when empty. */
  pop(): E | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    const length = heap.length;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && before(heap[right] as E, heap[left] as E)) child = right;
      const childEvent = heap[child] as E;
      if (!before(childEvent, last)) break;
      heap[index] = childEvent;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}
