/**
 * Goal: the event queue pops in `(timeUs, seq)` order whatever the push order, so equal times
 * run in insertion order and nothing depends on heap tie order (style rule 12). Method: many
 * events on a few distinct times (lots of ties), pushed in a seeded random order and popped
 * while pushing, compared against a sorted reference array.
 */
import { describe, expect, it } from 'vitest';
import { AssertionError } from './assert';
import { EventQueue, type QueuedEvent } from './event_queue';
import { Rng } from './rng';

interface TestEvent extends QueuedEvent {
  readonly label: string;
}

function compare(a: QueuedEvent, b: QueuedEvent): number {
  return a.timeUs - b.timeUs || a.seq - b.seq;
}

/** Inserts `event` into the sorted `events` by binary search (the reference model). */
function insertSorted(events: TestEvent[], event: TestEvent): void {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compare(events[middle] as TestEvent, event) < 0) low = middle + 1;
    else high = middle;
  }
  events.splice(low, 0, event);
}

function drain(queue: EventQueue<TestEvent>): TestEvent[] {
  const popped: TestEvent[] = [];
  for (let event = queue.pop(); event !== undefined; event = queue.pop()) popped.push(event);
  return popped;
}

describe('EventQueue', () => {
  it('pops equal times in seq order', () => {
    const queue = new EventQueue<TestEvent>(100);
    const pushOrder = [3, 0, 4, 1, 2];
    for (const seq of pushOrder) queue.push({ timeUs: 10, seq, label: `e${seq}` });
    queue.push({ timeUs: 5, seq: 9, label: 'early' });
    expect(queue.size).toBe(6);
    expect(queue.peek()?.label).toBe('early');
    expect(drain(queue).map((event) => event.label)).toEqual([
      'early',
      'e0',
      'e1',
      'e2',
      'e3',
      'e4',
    ]);
    expect(queue.pop()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
  });

  it('matches a sorted reference under random pushes with many ties', () => {
    const rng = new Rng('event-queue');
    const events: TestEvent[] = [];
    for (let seq = 0; seq < 5000; seq++) {
      events.push({ timeUs: rng.intInclusive(0, 20), seq, label: `e${seq}` });
    }
    const queue = new EventQueue<TestEvent>(events.length);
    for (const event of rng.shuffle(events)) queue.push(event);
    expect(drain(queue)).toEqual([...events].sort(compare));
  });

  it('matches a sorted reference when pops interleave with pushes', () => {
    const rng = new Rng('interleaved');
    const queue = new EventQueue<TestEvent>(10_000);
    const reference: TestEvent[] = [];
    let seq = 0;
    for (let step = 0; step < 20_000; step++) {
      if (reference.length > 0 && rng.chance({ numerator: 2, denominator: 5 })) {
        expect(queue.pop()).toBe(reference.shift());
      } else {
        const event = { timeUs: rng.intInclusive(0, 50), seq: seq++, label: `e${seq}` };
        queue.push(event);
        insertSorted(reference, event);
      }
    }
    expect(queue.size).toBe(reference.length);
    expect(drain(queue)).toEqual(reference.sort(compare));
  });

  it('asserts at eventsQueuedMax', () => {
    const queue = new EventQueue<TestEvent>(2);
    queue.push({ timeUs: 0, seq: 0, label: 'a' });
    queue.push({ timeUs: 0, seq: 1, label: 'b' });
    expect(() => queue.push({ timeUs: 0, seq: 2, label: 'c' })).toThrow(AssertionError);
  });
});
