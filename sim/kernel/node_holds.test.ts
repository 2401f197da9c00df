/**
 * Goal: pin how pauses and crashes nest on one node (`node_holds.ts`): the end of a shorter
 * fault never frees a node a longer one still holds, the process restarts once when the node is
 * next free, and a power loss during a process crash still loses the unflushed tail once.
 * Method: a probe actor that logs `(virtual time, what happened)`, including the crash mode it
 * was told, over a fixed-delay network so every time is exact; the lifecycle observer's
 * transitions are compared with the intervals the faults' union gives.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, ActorContext, CrashMode, Envelope } from './actor';
import { nodeId } from './ids';
import { Simulation } from './simulation';

const A = nodeId('A');
const B = nodeId('B');

class Probe implements Actor {
  readonly log: string[] = [];
  ctx: ActorContext | undefined;
  constructor(private readonly timerUs: number | null = null) {}
  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    this.log.push(`${ctx.nowUs()} start`);
    if (this.timerUs !== null) ctx.setTimer(this.timerUs, 'tick');
  }
  onMessage(envelope: Envelope, ctx: ActorContext): void {
    this.log.push(`${ctx.nowUs()} ${envelope.payload.kind}`);
  }
  onTimer(payload: unknown, ctx: ActorContext): void {
    this.log.push(`${ctx.nowUs()} timer ${String(payload)}`);
  }
  onCrash(mode: CrashMode, nowUs: number): void {
    this.log.push(`${nowUs} crash ${mode}`);
  }
}

function world(timerUs: number | null = null): {
  sim: Simulation;
  a: Probe;
  b: Probe;
  transitions: string[];
} {
  const sim = new Simulation({
    seed: '1',
    network: { delayUsMin: 100, delayUsMax: 100 },
    eventsMax: 10_000,
    eventsQueuedMax: 10_000,
    recordEventLog: false,
  });
  const a = new Probe(timerUs);
  const b = new Probe();
  sim.addNode(A, a);
  sim.addNode(B, b);
  const transitions: string[] = [];
  sim.lifecycleObserver = ({ timeUs, node, status }) =>
    transitions.push(`${timeUs} ${node} ${status}`);
  return { sim, a, b, transitions };
}

function at(sim: Simulation, timeUs: number, run: () => void): void {
  sim.schedule(timeUs, `at ${timeUs}`, run);
}

describe('Nested pauses', () => {
  it('keeps a node paused until the last of two overlapping pauses ends', () => {
    const { sim, a, transitions } = world(400);
    at(sim, 100, () => sim.pause(A));
    at(sim, 200, () => sim.pause(A));
    at(sim, 300, () => sim.resume(A));
    at(sim, 1_000, () => sim.resume(A));
    sim.runUntil(350);
    expect(sim.status(A)).toBe('paused');
    expect(sim.holdsOf(A)).toEqual({ pauses: 1, processCrashes: 0, powerLosses: 0 });
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '1000 timer tick']);
    expect(transitions).toEqual(['100 A paused', '1000 A running']);
  });

  it('ignores a resume when no pause holds the node', () => {
    const { sim } = world();
    sim.resume(A);
    sim.pause(A);
    sim.resume(A);
    sim.resume(A);
    expect(sim.holdsOf(A).pauses).toBe(0);
    expect(sim.status(A)).toBe('running');
  });
});

describe('A crash and a pause on one node', () => {
  it('restarts a process whose crash ended inside a pause only when the pause ends', () => {
    const { sim, a, b, transitions } = world();
    at(sim, 100, () => sim.pause(A));
    at(sim, 200, () => sim.crash(A, 'process'));
    at(sim, 300, () => sim.restart(A, 'process'));
    at(sim, 400, () => b.ctx?.send(A, { kind: 'AfterRestart' }));
    at(sim, 2_000, () => sim.resume(A));
    sim.runUntil(1_000);
    expect(sim.status(A)).toBe('paused');
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '200 crash process', '2000 start', '2000 AfterRestart']);
    expect(transitions).toEqual([
      '100 A paused',
      '200 A crashed',
      '300 A paused',
      '2000 A running',
    ]);
  });

  it('restarts at the end of a crash that outlasts the pause inside it', () => {
    const { sim, a, transitions } = world();
    at(sim, 100, () => sim.crash(A, 'process'));
    at(sim, 200, () => sim.pause(A));
    at(sim, 300, () => sim.resume(A));
    at(sim, 900, () => sim.restart(A, 'process'));
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '100 crash process', '900 start']);
    expect(transitions).toEqual(['100 A crashed', '900 A running']);
  });
});

describe('Nested crashes', () => {
  it('restarts once, when the last of two overlapping crashes ends', () => {
    const { sim, a, transitions } = world();
    at(sim, 100, () => sim.crash(A, 'process'));
    at(sim, 200, () => sim.crash(A, 'process'));
    at(sim, 300, () => sim.restart(A, 'process'));
    at(sim, 800, () => sim.restart(A, 'process'));
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '100 crash process', '800 start']);
    expect(transitions).toEqual(['100 A crashed', '800 A running']);
  });

  it('loses the unflushed tail at a power loss during a process crash, once', () => {
    const { sim, a } = world();
    at(sim, 100, () => sim.crash(A, 'process'));
    at(sim, 200, () => sim.crash(A, 'power-loss'));
    at(sim, 250, () => sim.crash(A, 'power-loss'));
    at(sim, 300, () => sim.restart(A, 'power-loss'));
    at(sim, 400, () => sim.restart(A, 'power-loss'));
    at(sim, 500, () => sim.restart(A, 'process'));
    sim.runUntil(450);
    expect(sim.holdsOf(A)).toEqual({ pauses: 0, processCrashes: 1, powerLosses: 0 });
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '100 crash process', '200 crash power-loss', '500 start']);
  });

  it('tells nothing more to a node that lost power when its process crash starts', () => {
    const { sim, a, b } = world();
    at(sim, 100, () => sim.crash(A, 'power-loss'));
    at(sim, 200, () => sim.crash(A, 'process'));
    at(sim, 300, () => sim.restart(A, 'power-loss'));
    at(sim, 900, () => sim.restart(A, 'process'));
    sim.runUntil(5_000);
    expect(a.log).toEqual(['0 start', '100 crash power-loss', '900 start']);
    // A power loss resets no connection, and neither does the crash of a process already down.
    expect(b.log).toEqual(['0 start']);
  });

  it('ignores the end of a crash of the other mode', () => {
    const { sim } = world();
    sim.crash(A, 'power-loss');
    sim.restart(A, 'process');
    expect(sim.status(A)).toBe('crashed');
    sim.restart(A, 'power-loss');
    expect(sim.status(A)).toBe('running');
  });
});
