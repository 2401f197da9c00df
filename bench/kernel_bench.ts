/**
 * Kernel overhead benchmark. It measures, in the same process and for the same number of
 * events, (a) a bare binary-heap event loop whose no-op handler schedules the next event, and
 * (b) the kernel running a no-op ping-pong between two actors over a 1 µs network. The ratio
 * kernel / bare says what the kernel's bookkeeping (network routing, node lifecycle checks,
 * trace hashing) costs per event. Each side runs several times after a warm-up and reports its
 * median, so one slow repetition (a GC pause, a JIT tier-up) does not move the figure.
 *
 * This is a benchmark, never a timed test: wall-clock time is allowed here and nowhere in
 * `sim/` (style rule 10).
 */
import { Simulation, nodeId, type Actor, type ActorContext, type Envelope } from '../sim/kernel';
import { median } from './median';

/** How much work one kernel benchmark does. */
export interface KernelBenchOptions {
  /** Events per repetition, for both loops. @default 1_000_000 */
  readonly eventsCount: number;
  /** Timed repetitions per loop; the median is reported. @default 7 */
  readonly repetitionsCount: number;
}

/** The figures of one kernel benchmark. */
export interface KernelBenchResult {
  readonly eventsCount: number;
  readonly repetitionsCount: number;
  /** Median events per wall-clock second of the bare heap loop. */
  readonly bareEventsPerSecond: number;
  /** Median events per wall-clock second of the kernel ping-pong. */
  readonly kernelEventsPerSecond: number;
  /** kernelEventsPerSecond / bareEventsPerSecond: below 1, the kernel is slower. */
  readonly kernelToBareRatio: number;
}

const DEFAULT_OPTIONS: KernelBenchOptions = { eventsCount: 1_000_000, repetitionsCount: 7 };

interface BareEvent {
  readonly timeUs: number;
  readonly seq: number;
}

/** The smallest binary min-heap on `(timeUs, seq)`: the baseline the kernel is compared to. */
class BareHeap {
  private readonly items: BareEvent[] = [];

  get size(): number {
    return this.items.length;
  }

  push(event: BareEvent): void {
    const items = this.items;
    let index = items.push(event) - 1;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = items[parentIndex] as BareEvent;
      if (!before(event, parent)) break;
      items[index] = parent;
      index = parentIndex;
    }
    items[index] = event;
  }

  pop(): BareEvent | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && before(items[right] as BareEvent, items[left] as BareEvent)
          ? right
          : left;
      if (!before(items[child] as BareEvent, last)) break;
      items[index] = items[child] as BareEvent;
      index = child;
    }
    items[index] = last;
    return top;
  }
}

function before(a: BareEvent, b: BareEvent): boolean {
  return a.timeUs < b.timeUs || (a.timeUs === b.timeUs && a.seq < b.seq);
}

/** Runs `eventsCount` events through the bare heap; returns the wall-clock milliseconds. */
function timeBareLoop(eventsCount: number): number {
  const heap = new BareHeap();
  let seq = 0;
  let executed = 0;
  const startMs = performance.now();
  heap.push({ timeUs: 0, seq: seq++ });
  for (let event = heap.pop(); event !== undefined; event = heap.pop()) {
    executed += 1;
    if (executed < eventsCount) heap.push({ timeUs: event.timeUs + 1, seq: seq++ });
  }
  const elapsedMs = performance.now() - startMs;
  if (executed !== eventsCount) throw new Error(`Bare loop ran ${executed} events`);
  return elapsedMs;
}

/** Bounces one message until `messagesMax` deliveries have happened on this node. */
class PingPongActor implements Actor {
  private received = 0;

  constructor(
    private readonly peer: ReturnType<typeof nodeId>,
    private readonly messagesMax: number,
    private readonly serves: boolean,
  ) {}

  onStart(ctx: ActorContext): void {
    if (this.serves) ctx.send(this.peer, { kind: 'Ping' });
  }

  onMessage(envelope: Envelope, ctx: ActorContext): void {
    this.received += 1;
    if (this.received < this.messagesMax) ctx.send(envelope.source, envelope.payload);
  }

  onTimer(): void {}

  onCrash(): void {}
}

/** Runs `eventsCount` kernel events (2 starts + deliveries); returns wall-clock milliseconds. */
function timeKernelLoop(eventsCount: number): number {
  const sim = new Simulation({
    seed: '1',
    network: { delayUsMin: 1, delayUsMax: 1 },
    eventsMax: eventsCount,
    eventsQueuedMax: 16,
    recordEventLog: false,
  });
  const deliveriesCount = eventsCount - 2;
  const a = nodeId('A');
  const b = nodeId('B');
  sim.addNode(a, new PingPongActor(b, Math.ceil(deliveriesCount / 2), true));
  sim.addNode(b, new PingPongActor(a, Math.floor(deliveriesCount / 2) + 1, false));
  const startMs = performance.now();
  sim.runUntil(Number.MAX_SAFE_INTEGER);
  const elapsedMs = performance.now() - startMs;
  if (sim.eventsRun !== eventsCount) throw new Error(`Kernel loop ran ${sim.eventsRun} events`);
  return elapsedMs;
}

/**
 * Measures bare-heap and kernel events per second, interleaving the repetitions so drift in
 * machine load affects both alike.
 * @example const { kernelToBareRatio } = runKernelBench({ eventsCount: 100_000 })
 */
export function runKernelBench(options: Partial<KernelBenchOptions> = {}): KernelBenchResult {
  const { eventsCount, repetitionsCount } = { ...DEFAULT_OPTIONS, ...options };
  if (!Number.isSafeInteger(eventsCount) || eventsCount < 3) {
    throw new Error(`eventsCount must be an integer of at least 3: got ${eventsCount}`);
  }
  timeBareLoop(eventsCount);
  timeKernelLoop(eventsCount);
  const bareRates: number[] = [];
  const kernelRates: number[] = [];
  for (let repetition = 0; repetition < repetitionsCount; repetition++) {
    bareRates.push(eventsCount / (timeBareLoop(eventsCount) / 1000));
    kernelRates.push(eventsCount / (timeKernelLoop(eventsCount) / 1000));
  }
  const bareEventsPerSecond = median(bareRates);
  const kernelEventsPerSecond = median(kernelRates);
  return {
    eventsCount,
    repetitionsCount,
    bareEventsPerSecond,
    kernelEventsPerSecond,
    kernelToBareRatio: kernelEventsPerSecond / bareEventsPerSecond,
  };
}
