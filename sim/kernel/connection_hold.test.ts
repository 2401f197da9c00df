/**
 * Goal: pin what an `onConnection` hold rule (a partition) does to a connection, as TCP does to
 * the bytes of an open connection: held messages arrive in send order after the rule is
 * removed, FIFO with what is sent after the heal; a connection closed meanwhile loses its held
 * messages (only its own kinds, only its own direction); a reset (RST) is dropped, not held; a
 * message held past its target's crash reaches the restarted process, which refuses it; what a
 * crashed node had held is gone. A plain hold (a message delayed in transit, the `hold` fault)
 * keeps its message through a close and a crash. Method: two small actors on a fixed 100 us
 * network, exact times.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, ActorContext, Envelope } from './actor';
import { nodeId } from './ids';
import { Simulation } from './simulation';

const A = nodeId('A');
const B = nodeId('B');

/** Logs `${nowUs} ${kind}#${n} from ${source}` for every delivery. */
class Endpoint implements Actor {
  readonly log: string[] = [];
  ctx!: ActorContext;
  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
  }
  onMessage(envelope: Envelope): void {
    const { kind, n } = envelope.payload as { kind: string; n?: number };
    this.log.push(`${this.ctx.nowUs()} ${kind}#${n ?? '-'} from ${envelope.source}`);
  }
  onTimer(): void {}
  onCrash(): void {}
}

function world(): { sim: Simulation; a: Endpoint; b: Endpoint } {
  const sim = new Simulation({
    seed: '1',
    network: { delayUsMin: 100, delayUsMax: 100 },
    eventsMax: 10_000,
    eventsQueuedMax: 10_000,
    recordEventLog: false,
  });
  const a = new Endpoint();
  const b = new Endpoint();
  sim.addNode(A, a);
  sim.addNode(B, b);
  sim.runUntil(0);
  return { sim, a, b };
}

/** Both directions between A and B held, as a partition's `cut` installs them. */
function partition(sim: Simulation): () => void {
  const effect = { type: 'hold', onConnection: true } as const;
  const ab = sim.addLinkRule({ source: A, target: B, effect });
  const ba = sim.addLinkRule({ source: B, target: A, effect });
  return () => {
    sim.removeLinkRule(ab);
    sim.removeLinkRule(ba);
  };
}

function at(sim: Simulation, timeUs: number, run: () => void): void {
  sim.schedule(timeUs, `at ${timeUs}`, run);
}

describe('a hold rule stalls a connection as TCP does', () => {
  it('releases held messages in send order at the heal, FIFO with later sends', () => {
    const { sim, a, b } = world();
    const heal = partition(sim);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Req', n: 1 } as never));
    at(sim, 2_000, () => a.ctx.send(B, { kind: 'Req', n: 2 } as never));
    at(sim, 3_000, () => b.ctx.send(A, { kind: 'Resp', n: 0 } as never));
    at(sim, 1_400_000, () => {
      heal();
      a.ctx.send(B, { kind: 'Req', n: 3 } as never);
    });
    sim.runUntil(2_000_000);
    expect(b.log).toEqual(['1400100 Req#1 from A', '1400100 Req#2 from A', '1400100 Req#3 from A']);
    expect(a.log).toEqual(['1400100 Resp#0 from B']);
    expect(sim.network.droppedCount).toBe(0);
  });

  it('a closed connection loses its held messages both ways, and only its own kinds', () => {
    const { sim, a, b } = world();
    const heal = partition(sim);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Fetch', n: 1 } as never));
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Other', n: 2 } as never));
    at(sim, 1_000, () => b.ctx.send(A, { kind: 'FetchResponse', n: 3 } as never));
    // B's own fetch to A (B as the client) shares the kinds but not the connection.
    at(sim, 1_000, () => b.ctx.send(A, { kind: 'Fetch', n: 4 } as never));
    at(sim, 500_000, () =>
      a.ctx.closeConnection(B, { sends: ['Fetch'], receives: ['FetchResponse'] }),
    );
    at(sim, 1_400_000, heal);
    sim.runUntil(2_000_000);
    expect(b.log).toEqual(['1400100 Other#2 from A']);
    expect(a.log).toEqual(['1400100 Fetch#4 from B']);
  });

  it('a plain hold (a message delayed in transit) survives a close and a crash', () => {
    const { sim, a, b } = world();
    const rule = sim.addLinkRule({ source: A, target: B, effect: { type: 'hold' } });
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Fetch', n: 1 } as never));
    at(sim, 2_000, () =>
      a.ctx.closeConnection(B, { sends: ['Fetch'], receives: ['FetchResponse'] }),
    );
    at(sim, 3_000, () => sim.crash(A, 'process'));
    at(sim, 4_000, () => sim.removeLinkRule(rule));
    sim.runUntil(10_000);
    // It holds the crash's reset too, as it did before connections were modelled.
    expect(b.log).toEqual(['4100 Fetch#1 from A', '4100 ConnectionReset#- from A']);
  });

  it('a close leaves messages already on their way (not held) alone', () => {
    const { sim, a, b } = world();
    at(sim, 1_000, () => {
      a.ctx.send(B, { kind: 'Fetch', n: 1 } as never);
      a.ctx.closeConnection(B, { sends: ['Fetch'], receives: ['FetchResponse'] });
    });
    sim.runUntil(10_000);
    expect(b.log).toEqual(['1100 Fetch#1 from A']);
  });

  it('drops a reset sent into the partition (an RST is never retransmitted)', () => {
    const { sim, a } = world();
    const heal = partition(sim);
    at(sim, 1_000, () => sim.crash(B, 'process'));
    at(sim, 2_000, heal);
    sim.runUntil(10_000);
    expect(a.log).toEqual([]);
    expect(sim.network.droppedCount).toBe(1);
  });

  it('a message held past its target crash is refused by the restarted process', () => {
    const { sim, a, b } = world();
    const heal = partition(sim);
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Req', n: 1 } as never));
    at(sim, 2_000, () => sim.crash(B, 'process'));
    at(sim, 3_000, () => sim.restart(B));
    at(sim, 4_000, heal);
    sim.runUntil(10_000);
    expect(b.log).toEqual([]);
    expect(a.log).toEqual(['4200 ConnectionReset#- from B']);
  });

  // zombie-fencing-replicated swarm seed 323.
  it('a plain hold released after its target restarted is refused', () => {
    // Before, the held WriteTxnMarkers and PartitionChange of b1's old process reached the new
    // one at the heal, which then acted on them: a leader at an old epoch wrote a marker.
    const { sim, a, b } = world();
    const rule = sim.addLinkRule({ source: A, target: B, effect: { type: 'hold' } });
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Req', n: 1 } as never));
    at(sim, 2_000, () => sim.crash(B, 'power-loss'));
    // Sent while B is down: addressed to no process.
    at(sim, 2_500, () => a.ctx.send(B, { kind: 'Req', n: 2 } as never));
    at(sim, 3_000, () => sim.restart(B, 'power-loss'));
    at(sim, 3_500, () => a.ctx.send(B, { kind: 'Req', n: 3 } as never));
    at(sim, 4_000, () => sim.removeLinkRule(rule));
    sim.runUntil(10_000);
    expect(b.log).toEqual(['4100 Req#3 from A']);
  });

  it('a message sent while its target is down and due after the restart is refused', () => {
    const { sim, a, b } = world();
    at(sim, 1_000, () => sim.crash(B, 'process'));
    at(sim, 1_950, () => a.ctx.send(B, { kind: 'Req', n: 1 } as never));
    at(sim, 2_000, () => sim.restart(B));
    at(sim, 2_000, () => a.ctx.send(B, { kind: 'Req', n: 2 } as never));
    sim.runUntil(10_000);
    expect(b.log).toEqual(['2100 Req#2 from A']);
  });

  it('what a crashed node had held is gone with its process', () => {
    const { sim, a, b } = world();
    const heal = partition(sim);
    at(sim, 1_000, () => b.ctx.send(A, { kind: 'Resp', n: 1 } as never));
    at(sim, 2_000, () => sim.crash(B, 'process'));
    at(sim, 3_000, () => sim.restart(B));
    at(sim, 4_000, heal);
    sim.runUntil(10_000);
    expect(a.log).toEqual([]);
    expect(sim.messagesInFlight()).toEqual([]);
    expect(b.log).toEqual([]);
  });

  it('a message another hold still covers stays held when one rule goes', () => {
    const { sim, a, b } = world();
    const effect = { type: 'hold', onConnection: true } as const;
    const first = sim.addLinkRule({ source: A, target: B, effect });
    const second = sim.addLinkRule({ source: A, target: B, effect });
    at(sim, 1_000, () => a.ctx.send(B, { kind: 'Req', n: 1 } as never));
    at(sim, 2_000, () => sim.removeLinkRule(first));
    at(sim, 3_000, () => a.ctx.send(B, { kind: 'Req', n: 2 } as never));
    at(sim, 5_000, () => sim.removeLinkRule(second));
    sim.runUntil(10_000);
    expect(b.log).toEqual(['5100 Req#1 from A', '5100 Req#2 from A']);
  });
});
