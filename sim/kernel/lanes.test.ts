/**
 * Goal: pin the connection lanes (`lanes.ts`), both ways. A message a delay holds on one
 * connection does not hold back another connection of the same two nodes, while without a lane
 * map (one connection per link) it does; order within one connection holds; after a close the
 * next request opens a fresh lane, not behind the old one's delayed bytes, which still reach the
 * server (sent before the FIN); what the server sends on the closed connection, on its way
 * (delayed or held) or sent until the client's next request reaches it, is dropped, while
 * another connection of the same link keeps its messages; without a lane map a close leaves
 * everything on its way alone; a reset waits behind every open lane. Method: two small actors on
 * a fixed 100 us network with a two-connection lane map, exact times.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, ActorContext, Connection, Envelope } from './actor';
import { nodeId } from './ids';
import type { LaneMap } from './lanes';
import { Simulation } from './simulation';

const A = nodeId('A');
const B = nodeId('B');

/** Two connections A opens to B: `Fetch` and `Produce`, each with its response. */
const LANE_MAP: LaneMap = (kind) => {
  const request = kind.endsWith('Response') ? kind.slice(0, -'Response'.length) : kind;
  if (request !== 'Fetch' && request !== 'Produce') return undefined;
  return { connection: request, fromClient: request === kind };
};

const FETCH: Connection = { sends: ['Fetch'], receives: ['FetchResponse'] };

/** Logs `${nowUs} ${kind}#${n}` for every delivery. */
class Endpoint implements Actor {
  readonly log: string[] = [];
  ctx!: ActorContext;
  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
  }
  onMessage(envelope: Envelope): void {
    const { kind, n } = envelope.payload as { kind: string; n?: number };
    this.log.push(`${this.ctx.nowUs()} ${kind}#${n ?? '-'}`);
  }
  onTimer(): void {}
  onCrash(): void {}
}

function world(lanes: LaneMap | undefined): { sim: Simulation; a: Endpoint; b: Endpoint } {
  const sim = new Simulation({
    seed: '1',
    network: { delayUsMin: 100, delayUsMax: 100 },
    eventsMax: 10_000,
    eventsQueuedMax: 10_000,
    recordEventLog: false,
    ...(lanes === undefined ? {} : { lanes }),
  });
  const a = new Endpoint();
  const b = new Endpoint();
  sim.addNode(A, a);
  sim.addNode(B, b);
  sim.runUntil(0);
  return { sim, a, b };
}

function at(sim: Simulation, timeUs: number, run: () => void): void {
  sim.schedule(timeUs, `at ${timeUs}`, run);
}

/** Delays the first `Fetch` A sends B by 96 s, as a `delay` fault limited to one message. */
function delayOneFetch(sim: Simulation): void {
  const effect = { type: 'delay', delayUs: 96_000_000 } as const;
  sim.addLinkRule({ source: A, target: B, kinds: ['Fetch'], effect, matchesMax: 1 });
}

describe('connection lanes', () => {
  it('a delayed message on one connection does not hold back another', () => {
    const { sim, a, b } = world(LANE_MAP);
    delayOneFetch(sim);
    at(sim, 1_000, () => {
      a.ctx.send(B, { kind: 'Fetch', n: 1 } as never);
      a.ctx.send(B, { kind: 'Produce', n: 2 } as never);
    });
    sim.runUntil(100_000_000);
    expect(b.log).toEqual(['1100 Produce#2', '96001100 Fetch#1']);
  });

  it('without a lane map the link is one connection: the delay holds back everything', () => {
    const { sim, a, b } = world(undefined);
    delayOneFetch(sim);
    at(sim, 1_000, () => {
      a.ctx.send(B, { kind: 'Fetch', n: 1 } as never);
      a.ctx.send(B, { kind: 'Produce', n: 2 } as never);
    });
    sim.runUntil(100_000_000);
    expect(b.log).toEqual(['96001100 Fetch#1', '96001100 Produce#2']);
  });

  it('keeps order within a connection: a later message waits behind a delayed one', () => {
    const { sim, a, b } = world(LANE_MAP);
    delayOneFetch(sim);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Fetch', n: 1 } as never));
    at(sim, 2_000, () => a.ctx.send(B, { kind: 'Fetch', n: 2 } as never));
    sim.runUntil(100_000_000);
    expect(b.log).toEqual(['96001100 Fetch#1', '96001100 Fetch#2']);
  });

  it("after a close the next request is not behind the old connection's delayed bytes", () => {
    const { sim, a, b } = world(LANE_MAP);
    delayOneFetch(sim);
    at(sim, 1_000, () => {
      a.ctx.send(B, { kind: 'Fetch', n: 1 } as never);
      a.ctx.send(B, { kind: 'Produce', n: 2 } as never);
    });
    // A's request timeout: it closes the fetch connection and sends again on a new one.
    at(sim, 30_000_000, () => {
      a.ctx.closeConnection(B, FETCH);
      a.ctx.send(B, { kind: 'Fetch', n: 3 } as never);
    });
    sim.runUntil(100_000_000);
    // The old request was on the wire before the close: it still reaches B (data before a FIN).
    expect(b.log).toEqual(['1100 Produce#2', '30000100 Fetch#3', '96001100 Fetch#1']);
    expect(sim.network.closedCount).toBe(0);
  });

  it("a close discards the server's delayed answer on the closed connection only", () => {
    const { sim, a } = world(LANE_MAP);
    const effect = { type: 'delay', delayUs: 96_000_000 } as const;
    sim.addLinkRule({ source: B, target: A, effect });
    at(sim, 1_000, () => {
      const b = sim.actorOf(B) as Endpoint;
      b.ctx.send(A, { kind: 'FetchResponse', n: 1 } as never);
      b.ctx.send(A, { kind: 'ProduceResponse', n: 2 } as never);
    });
    at(sim, 30_000_000, () => a.ctx.closeConnection(B, FETCH));
    sim.runUntil(100_000_000);
    expect(a.log).toEqual(['96001100 ProduceResponse#2']);
    expect(sim.network.closedCount).toBe(1);
    expect(sim.messagesInFlight()).toEqual([]);
  });

  it("drops the server's answers to a closed connection until its next request arrives", () => {
    const { sim, a, b } = world(LANE_MAP);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Fetch', n: 1 } as never));
    // B answers late (a parked fetch); A closed the connection before the answer went out.
    at(sim, 2_000, () => a.ctx.closeConnection(B, FETCH));
    at(sim, 3_000, () => b.ctx.send(A, { kind: 'FetchResponse', n: 1 } as never));
    at(sim, 4_000, () => b.ctx.send(A, { kind: 'ProduceResponse', n: 0 } as never));
    at(sim, 5_000, () => a.ctx.send(B, { kind: 'Fetch', n: 2 } as never));
    at(sim, 6_000, () => b.ctx.send(A, { kind: 'FetchResponse', n: 2 } as never));
    sim.runUntil(10_000);
    expect(b.log).toEqual(['1100 Fetch#1', '5100 Fetch#2']);
    expect(a.log).toEqual(['4100 ProduceResponse#0', '6100 FetchResponse#2']);
    expect(sim.network.closedCount).toBe(1);
  });

  it('without a lane map a close leaves messages already on their way alone', () => {
    const { sim, a, b } = world(undefined);
    delayOneFetch(sim);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Fetch', n: 1 } as never));
    at(sim, 2_000, () => a.ctx.closeConnection(B, FETCH));
    sim.runUntil(100_000_000);
    expect(b.log).toEqual(['96001100 Fetch#1']);
    expect(sim.network.closedCount).toBe(0);
  });

  it("a plain hold's answer to a closed connection is dropped at release, its request not", () => {
    const { sim, a, b } = world(LANE_MAP);
    const toB = sim.addLinkRule({ source: A, target: B, effect: { type: 'hold' } });
    const toA = sim.addLinkRule({ source: B, target: A, effect: { type: 'hold' } });
    at(sim, 1_000, () => {
      a.ctx.send(B, { kind: 'Fetch', n: 1 } as never);
      b.ctx.send(A, { kind: 'FetchResponse', n: 0 } as never);
      b.ctx.send(A, { kind: 'ProduceResponse', n: 2 } as never);
    });
    at(sim, 2_000, () => a.ctx.closeConnection(B, FETCH));
    at(sim, 3_000, () => {
      sim.removeLinkRule(toB);
      sim.removeLinkRule(toA);
    });
    sim.runUntil(10_000);
    expect(b.log).toEqual(['3100 Fetch#1']);
    expect(a.log).toEqual(['3100 ProduceResponse#2']);
    expect(sim.network.closedCount).toBe(1);
  });

  it('a reset waits behind every open lane of its link', () => {
    const { sim, a, b } = world(LANE_MAP);
    const effect = { type: 'delay', delayUs: 5_000 } as const;
    sim.addLinkRule({ source: B, target: A, kinds: ['ProduceResponse'], effect });
    at(sim, 1_000, () => {
      b.ctx.send(A, { kind: 'ProduceResponse', n: 1 } as never);
      sim.crash(B, 'process');
    });
    sim.runUntil(10_000);
    expect(a.log).toEqual(['6100 ProduceResponse#1', '6100 ConnectionReset#-']);
  });
});
