/**
 * Goal: pin the kernel's semantics: determinism of the event hash, GC pauses, crashes and
 * restarts, the `eventsMax` budget, the network's FIFO links and fault rules, clock skew and
 * the event log. Method: small actors that log `(virtual time, what happened)`; most tests fix
 * the network delay (min = max) so every expected time is an exact microsecond, and the FIFO
 * test uses a wide random delay so reordering would show if it happened.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, ActorContext, Envelope, Message } from './actor';
import { nodeId, ratio, type NodeId, type TimeUs } from './ids';
import { BudgetExceededError, Simulation, type SimulationConfig } from './simulation';

const A = nodeId('A');
const B = nodeId('B');

interface TestMessage extends Message {
  readonly n: number;
}

function simulation(overrides: Partial<SimulationConfig> = {}): Simulation {
  return new Simulation({
    seed: '1',
    network: { delayUsMin: 100, delayUsMax: 100 },
    eventsMax: 100_000,
    eventsQueuedMax: 100_000,
    recordEventLog: false,
    ...overrides,
  });
}

function message(kind: string, n: number): TestMessage {
  return { kind, n };
}

/** Logs everything that happens to it as `${nowUs} ${what}`; hooks add behaviour. */
class Probe implements Actor {
  readonly log: string[] = [];
  starts = 0;
  private context: ActorContext | undefined;

  constructor(
    private readonly hooks: {
      readonly start?: (ctx: ActorContext) => void;
      readonly message?: (envelope: Envelope, ctx: ActorContext) => void;
    } = {},
  ) {}

  get ctx(): ActorContext {
    if (this.context === undefined) throw new Error('Probe has not started');
    return this.context;
  }

  onStart(ctx: ActorContext): void {
    this.context = ctx;
    this.starts += 1;
    this.log.push(`${ctx.nowUs()} start`);
    this.hooks.start?.(ctx);
  }

  onMessage(envelope: Envelope, ctx: ActorContext): void {
    const n = (envelope.payload as TestMessage).n;
    this.log.push(`${ctx.nowUs()} ${envelope.payload.kind}#${n} from ${envelope.source}`);
    this.hooks.message?.(envelope, ctx);
  }

  onTimer(payload: unknown, ctx: ActorContext): void {
    this.log.push(`${ctx.nowUs()} timer ${String(payload)}`);
  }

  onCrash(): void {
    this.log.push('crash');
  }
}

/** Sends `kind#n` from `source` to `target` at virtual time `atUs`. */
function sendAt(options: {
  sim: Simulation;
  atUs: TimeUs;
  source: Probe;
  target: NodeId;
  kind: string;
  n: number;
}): void {
  const { sim, source, target, kind, n } = options;
  sim.schedule(options.atUs, `send ${kind}#${n}`, () => source.ctx.send(target, message(kind, n)));
}

/** A and B bounce one message back and forth `rounds` times over a random-delay network. */
function pingPong(seed: string, rounds: number, eventsMax = 100_000): Simulation {
  const sim = simulation({ seed, eventsMax, network: { delayUsMin: 500, delayUsMax: 2000 } });
  const bounce = (envelope: Envelope, ctx: ActorContext): void => {
    const n = (envelope.payload as TestMessage).n;
    if (n < rounds) ctx.send(envelope.source, message(n % 2 === 0 ? 'Ping' : 'Pong', n + 1));
  };
  sim.addNode(A, new Probe({ start: (ctx) => ctx.send(B, message('Ping', 0)), message: bounce }));
  sim.addNode(B, new Probe({ message: bounce }));
  return sim;
}

describe('Simulation determinism', () => {
  it('gives the same event hash for the same seed', () => {
    const first = pingPong('42', 200);
    const second = pingPong('42', 200);
    expect(first.runUntil(10_000_000)).toBe('idle');
    expect(second.runUntil(10_000_000)).toBe('idle');
    expect(first.eventsRun).toBe(203);
    expect(second.eventHash).toBe(first.eventHash);
    expect(first.eventHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives different event hashes for different seeds', () => {
    const hashes = new Set<string>();
    for (const seed of ['1', '2', '3', '4', '5']) {
      const sim = pingPong(seed, 200);
      sim.runUntil(10_000_000);
      hashes.add(sim.eventHash);
    }
    expect(hashes.size).toBe(5);
  });
});

describe('Simulation pause and resume', () => {
  it('fires a timer that fell due during a pause exactly at the resume time', () => {
    const sim = simulation();
    const probe = new Probe({ start: (ctx) => void ctx.setTimer(1000, 'tick') });
    sim.addNode(A, probe);
    sim.schedule(500, 'pause A', () => sim.pause(A));
    sim.schedule(3000, 'resume A', () => sim.resume(A));
    sim.runUntil(1500);
    expect(sim.status(A)).toBe('paused');
    expect(probe.log).toEqual(['0 start']);
    sim.runUntil(10_000);
    expect(sim.status(A)).toBe('running');
    expect(probe.log).toEqual(['0 start', '3000 timer tick']);
  });

  it('holds messages to a paused node and delivers them at resume in order', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.schedule(50, 'pause A', () => sim.pause(A));
    for (const [n, atUs] of [
      [1, 0],
      [2, 200],
      [3, 400],
    ] as const) {
      sendAt({ sim, atUs, source: b, target: A, kind: 'M', n });
    }
    sendAt({ sim, atUs: 200, source: a, target: B, kind: 'M', n: 9 });
    sim.schedule(2000, 'resume A', () => sim.resume(A));
    // Sent at 1900, due at 2000: the same instant as the resume. It must not overtake 1 to 3.
    sendAt({ sim, atUs: 1900, source: b, target: A, kind: 'M', n: 4 });
    sendAt({ sim, atUs: 2500, source: b, target: A, kind: 'M', n: 5 });
    sim.runUntil(10_000);
    expect(a.log).toEqual([
      '0 start',
      '2000 M#1 from B',
      '2000 M#2 from B',
      '2000 M#3 from B',
      '2000 M#4 from B',
      '2600 M#5 from B',
    ]);
    // The rest of the cluster kept going during the pause.
    expect(b.log).toEqual(['0 start', '300 M#9 from A']);
  });

  it('keeps link order when the node is paused again at the resume instant', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.schedule(50, 'pause A', () => sim.pause(A));
    sim.schedule(2000, 'resume A', () => sim.resume(A));
    sim.schedule(2000, 'pause A again', () => sim.pause(A));
    sim.schedule(3000, 'resume A again', () => sim.resume(A));
    for (const n of [1, 2]) sendAt({ sim, atUs: n * 100, source: b, target: A, kind: 'M', n });
    sendAt({ sim, atUs: 1900, source: b, target: A, kind: 'M', n: 3 });
    sendAt({ sim, atUs: 2000, source: b, target: A, kind: 'M', n: 4 });
    sim.runUntil(10_000);
    expect(a.log).toEqual([
      '0 start',
      '3000 M#1 from B',
      '3000 M#2 from B',
      '3000 M#3 from B',
      '3000 M#4 from B',
    ]);
  });

  it('ignores pause and resume of a node in the wrong state', () => {
    const sim = simulation();
    sim.addNode(A, new Probe());
    sim.resume(A);
    expect(sim.status(A)).toBe('running');
    sim.crash(A, 'process');
    sim.pause(A);
    expect(sim.status(A)).toBe('crashed');
  });
});

describe('Simulation delivery observer', () => {
  it('sees a delivery when it is handed over, not when deferred by a pause or dropped', () => {
    const sim = simulation();
    const seen: string[] = [];
    sim.deliveryObserver = ({ timeUs, envelope }) =>
      seen.push(`${timeUs} ${envelope.payload.kind} ${envelope.source}>${envelope.target}`);
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.schedule(50, 'pause A', () => sim.pause(A));
    sendAt({ sim, atUs: 0, source: b, target: A, kind: 'M', n: 1 });
    sim.schedule(1000, 'resume A', () => sim.resume(A));
    sim.schedule(1100, 'crash A', () => sim.crash(A, 'power-loss'));
    sendAt({ sim, atUs: 1050, source: b, target: A, kind: 'Lost', n: 2 });
    sendAt({ sim, atUs: 900, source: a, target: B, kind: 'N', n: 3 });
    sim.runUntil(10_000);
    expect(seen).toEqual(['1000 N A>B', '1000 M B>A']);
  });

  it('leaves the event hash unchanged', () => {
    const plain = pingPong('7', 50);
    const observed = pingPong('7', 50);
    let count = 0;
    observed.deliveryObserver = () => (count += 1);
    plain.runUntil(10_000_000);
    observed.runUntil(10_000_000);
    expect(count).toBeGreaterThan(0);
    expect(observed.eventHash).toBe(plain.eventHash);
  });
});

describe('Simulation crash and restart', () => {
  it('loses timers and in-flight messages, and runs onStart again on restart', () => {
    const sim = simulation();
    const a = new Probe({ start: (ctx) => void ctx.setTimer(150, `set at ${ctx.nowUs()}`) });
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sendAt({ sim, atUs: 0, source: b, target: A, kind: 'M', n: 1 });
    sim.schedule(50, 'crash A', () => sim.crash(A, 'power-loss'));
    // Restarted before message 1 was due at 100: it is lost all the same.
    sim.schedule(60, 'restart A', () => sim.restart(A, 'power-loss'));
    sendAt({ sim, atUs: 20, source: b, target: A, kind: 'M', n: 2 });
    sendAt({ sim, atUs: 70, source: b, target: A, kind: 'M', n: 3 });
    sim.runUntil(10_000);
    expect(a.starts).toBe(2);
    expect(a.log).toEqual([
      '0 start',
      'crash',
      '60 start',
      '170 M#3 from B',
      '210 timer set at 60',
    ]);
    expect(sim.status(A)).toBe('running');
  });

  it('drops messages sent to a crashed node', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.schedule(10, 'crash A', () => sim.crash(A, 'process'));
    sendAt({ sim, atUs: 20, source: b, target: A, kind: 'M', n: 1 });
    sim.schedule(30, 'restart A', () => sim.restart(A));
    sim.runUntil(10_000);
    expect(a.log).toEqual(['0 start', 'crash', '30 start']);
  });
});

describe('Simulation budget, clock skew and event log', () => {
  it('throws BudgetExceededError past eventsMax', () => {
    const sim = pingPong('1', Number.MAX_SAFE_INTEGER, 100);
    expect(() => sim.runUntil(Number.MAX_SAFE_INTEGER)).toThrow(BudgetExceededError);
    expect(sim.eventsRun).toBe(101);
    const budgetError = pingPong('1', Number.MAX_SAFE_INTEGER, 100);
    expect(() => budgetError.runUntil(Number.MAX_SAFE_INTEGER)).toThrow(
      'Run exceeded eventsMax: 100 events',
    );
  });

  it('skews what ctx.nowUs() reads on one node only; timers keep kernel time', () => {
    const sim = simulation();
    const a = new Probe({ start: (ctx) => void ctx.setTimer(100, 'tick') });
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.schedule(50, 'skew A', () => sim.skewClock(A, 5000));
    const readings: string[] = [];
    sim.schedule(70, 'read clocks', () => {
      readings.push(`A=${a.ctx.nowUs()} B=${b.ctx.nowUs()} kernel=${sim.nowUs}`);
    });
    sim.schedule(80, 'unskew A', () => sim.skewClock(A, -30));
    sim.runUntil(1000);
    expect(readings).toEqual(['A=5070 B=70 kernel=70']);
    expect(a.log).toEqual(['0 start', '70 timer tick']);
    expect(sim.nowUs).toBe(1000);
  });

  it('lists every executed event when recordEventLog is on', () => {
    const sim = simulation({ recordEventLog: true });
    const a = new Probe({ start: (ctx) => void ctx.setTimer(30, 'tick') });
    sim.addNode(A, a);
    sim.addNode(B, new Probe({ start: (ctx) => ctx.send(A, message('Hello', 1)) }));
    sim.runUntil(1000);
    const lines = sim.executedEvents.map((line) => line.replace(/ hash=[0-9a-f]{16}$/, ''));
    expect(lines).toEqual([
      '#1 t=0us seq=0 start A',
      '#2 t=0us seq=1 start B',
      '#3 t=30us seq=2 timer A',
      '#4 t=100us seq=3 Hello B>A',
    ]);
    expect(sim.executedEvents.at(-1)).toBe(`${lines.at(-1)} hash=${sim.eventHash}`);
    expect(simulation().executedEvents).toEqual([]);
  });

  it('stops on a condition, on time and when idle', () => {
    const sim = pingPong('3', 10);
    expect(sim.runUntil(10_000_000, () => sim.eventsRun === 5)).toBe('condition');
    expect(sim.eventsRun).toBe(5);
    const conditionUs = sim.nowUs;
    expect(sim.runUntil(conditionUs)).toBe('time');
    expect(sim.nowUs).toBe(conditionUs);
    expect(sim.runUntil(10_000_000)).toBe('idle');
    expect(sim.nowUs).toBe(10_000_000);
  });

  it('never moves the clock backwards', () => {
    const sim = simulation();
    sim.schedule(5000, 'later', () => undefined);
    expect(sim.runUntil(1000)).toBe('time');
    expect(sim.runUntil(500)).toBe('time');
    expect(sim.nowUs).toBe(1000);
    expect(sim.runUntil(500)).toBe('time');
    sim.runUntil(10_000);
    expect(sim.runUntil(500)).toBe('idle');
    expect(sim.nowUs).toBe(10_000);
  });

  it('refuses to schedule in the past', () => {
    const sim = simulation();
    sim.runUntil(100);
    expect(() => sim.schedule(99, 'late', () => undefined)).toThrow('cannot schedule in the past');
  });
});

describe('Simulation network', () => {
  it('keeps each link FIFO under random delays', () => {
    const sim = simulation({ network: { delayUsMin: 1, delayUsMax: 5000 } });
    const arrivals: Array<{ n: number; atUs: TimeUs; sentUs: TimeUs }> = [];
    const b = new Probe({
      message: (envelope, ctx) => {
        const n = (envelope.payload as TestMessage).n;
        arrivals.push({ n, atUs: ctx.nowUs(), sentUs: envelope.sentUs });
      },
    });
    const a = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    for (let n = 0; n < 300; n++) sendAt({ sim, atUs: n * 10, source: a, target: B, kind: 'M', n });
    sim.runUntil(1_000_000);
    expect(arrivals.map((arrival) => arrival.n)).toEqual([...Array(300).keys()]);
    for (const arrival of arrivals) {
      expect(arrival.sentUs).toBe(arrival.n * 10);
      expect(arrival.atUs - arrival.sentUs).toBeGreaterThanOrEqual(1);
    }
    // Without FIFO, many of these would have overtaken each other.
    const clamped = arrivals.filter((arrival, index) => arrival.atUs === arrivals[index - 1]?.atUs);
    expect(clamped.length).toBeGreaterThan(10);
  });

  it('drops only the matched kinds in the matched direction', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    const ruleId = sim.addLinkRule({
      source: A,
      target: B,
      kinds: ['Produce'],
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng: sim.rootRng.fork('faults'),
    });
    sendAt({ sim, atUs: 10, source: a, target: B, kind: 'Produce', n: 1 });
    sendAt({ sim, atUs: 10, source: a, target: B, kind: 'Fetch', n: 2 });
    sendAt({ sim, atUs: 10, source: b, target: A, kind: 'Produce', n: 3 });
    sim.schedule(500, 'heal', () => sim.removeLinkRule(ruleId));
    sendAt({ sim, atUs: 600, source: a, target: B, kind: 'Produce', n: 4 });
    sim.runUntil(10_000);
    expect(b.log).toEqual(['0 start', '110 Fetch#2 from A', '700 Produce#4 from A']);
    expect(a.log).toEqual(['0 start', '110 Produce#3 from B']);
    expect(sim.network.droppedCount).toBe(1);
  });

  it('holds matched messages until the rule is removed, then delivers them in order', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    const ruleId = sim.addLinkRule({ source: A, target: B, effect: { type: 'hold' } });
    for (const n of [1, 2, 3]) sendAt({ sim, atUs: n * 10, source: a, target: B, kind: 'M', n });
    sendAt({ sim, atUs: 10, source: b, target: A, kind: 'M', n: 7 });
    sim.schedule(1000, 'release', () => sim.removeLinkRule(ruleId));
    sim.runUntil(999);
    expect(b.log).toEqual(['0 start']);
    sim.runUntil(10_000);
    expect(b.log).toEqual(['0 start', '1100 M#1 from A', '1100 M#2 from A', '1100 M#3 from A']);
    expect(a.log).toEqual(['0 start', '110 M#7 from B']);
  });

  it('delivers twice under a duplicate rule with chance 1', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.addLinkRule({
      target: B,
      effect: { type: 'duplicate', chance: ratio(1, 1) },
      rng: sim.rootRng.fork('faults'),
    });
    sendAt({ sim, atUs: 5, source: a, target: B, kind: 'M', n: 1 });
    sim.runUntil(10_000);
    expect(b.log).toEqual(['0 start', '105 M#1 from A', '105 M#1 from A']);
  });

  it('adds the delay of a delay rule', () => {
    const sim = simulation();
    const a = new Probe();
    const b = new Probe();
    sim.addNode(A, a);
    sim.addNode(B, b);
    sim.addLinkRule({ source: A, effect: { type: 'delay', delayUs: 400 } });
    sendAt({ sim, atUs: 5, source: a, target: B, kind: 'M', n: 1 });
    sim.runUntil(10_000);
    expect(b.log).toEqual(['0 start', '505 M#1 from A']);
  });
});

describe('determinism tripwire (installed by test/setup.ts)', () => {
  it('makes Math.random, Date.now and performance.now throw during a run only', () => {
    const caught: string[] = [];
    const sim = simulation();
    const reads: ReadonlyArray<[string, () => unknown]> = [
      ['Math.random', () => Math.random()],
      ['Date.now', () => Date.now()],
      ['performance.now', () => performance.now()],
    ];
    sim.addNode(
      A,
      new Probe({
        start: () => {
          for (const [name, read] of reads) {
            try {
              read();
              caught.push(`${name} did not throw`);
            } catch (error) {
              caught.push((error as Error).message.split(':')[0] as string);
            }
          }
        },
      }),
    );
    sim.runUntil(1000);
    expect(caught).toEqual([
      'Math.random was called while a simulation was running',
      'Date.now was called while a simulation was running',
      'performance.now was called while a simulation was running',
    ]);
    expect(typeof Math.random()).toBe('number');
    expect(Date.now()).toBeGreaterThan(0);
    expect(performance.now()).toBeGreaterThan(0);
  });

  it('restores the originals when a run throws', () => {
    const sim = simulation();
    sim.schedule(0, 'fail', () => {
      throw new Error('boom');
    });
    expect(() => sim.runUntil(10)).toThrow('boom');
    expect(typeof Math.random()).toBe('number');
  });
});
