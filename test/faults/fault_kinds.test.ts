/**
 * Goal: each fault kind does what its docs say, on a small world whose every time is exact.
 * Method: probe actors on a kernel with a fixed 100 µs network delay, a {@link Nemesis} driven
 * by a stub cluster view, and scripted faults; each test sends or times something across the
 * fault and asserts exact arrival times, drops, duplicates, late timers and the nemesis's
 * history records. Kafka-level kinds (hold across an abort, unclean election, coordinator
 * failover, leader references) are exercised on whole runs in `kafka_faults.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import {
  Simulation,
  nodeId,
  ratio,
  type Actor,
  type ActorContext,
  type CrashMode,
  type Envelope,
} from '../../sim/kernel';
import { HistoryRecorder } from '../../sim/history';
import { Nemesis, type ClusterView, type ScriptedFault } from '../../faults';
import type { ProduceErrorInjection } from '../../sim/actors';

/** Logs `${trueTimeUs} ${what}` for everything it sees. */
class Probe implements Actor {
  readonly log: string[] = [];
  ctx: ActorContext | undefined;
  constructor(
    private readonly name: string,
    private readonly sim: () => Simulation,
    private readonly onStarted: (ctx: ActorContext) => void = () => undefined,
  ) {}
  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
    this.log.push(`${this.sim().nowUs} start`);
    this.onStarted(ctx);
  }
  onMessage(envelope: Envelope): void {
    this.log.push(`${this.sim().nowUs} got ${envelope.payload.kind} from ${envelope.source}`);
  }
  onTimer(payload: unknown): void {
    this.log.push(`${this.sim().nowUs} timer ${String(payload)}`);
  }
  onCrash(mode: CrashMode): void {
    this.log.push(`${this.sim().nowUs} crash ${mode} (${this.name})`);
  }
}

/** What produce-error faults injected through {@link VIEW}. */
const injected: Array<{ broker: string; injection: ProduceErrorInjection; ended: boolean }> = [];

/** The log directories failed through {@link VIEW}: the first write's callback, repaired or not. */
const failedDirs: Array<{ broker: string; firstWrite: () => void; repaired: boolean }> = [];

const VIEW: ClusterView = {
  brokers: ['b1', 'b2', 'b3'],
  nodes: ['b1', 'b2', 'b3', 'A'],
  controller: 'controller',
  leaderOf: (topic, partition) => (topic === 'orders' && partition === 0 ? 'b2' : null),
  coordinatorOf: () => 'b3',
  groupCoordinatorOf: (groupId) => (groupId === 'etl' ? 'b1' : null),
  forceUncleanElection: () => 'b2',
  runOperatorAction: () => undefined,
  injectProduceErrors: (broker, injection) => {
    injected.push({ broker, injection, ended: false });
    const entry = injected[injected.length - 1] as (typeof injected)[number];
    return () => {
      entry.ended = true;
    };
  },
  failLogDir: (broker, firstWrite) => {
    const entry = { broker, firstWrite, repaired: false };
    failedDirs.push(entry);
    return () => {
      entry.repaired = true;
    };
  },
};

/** A world of probes b1, b2, b3, A and controller with `faults` scheduled. */
function world(
  faults: readonly ScriptedFault[],
  starts: Record<string, (ctx: ActorContext) => void> = {},
) {
  const sim = new Simulation({
    seed: '1',
    network: { delayUsMin: 100, delayUsMax: 100 },
    eventsMax: 100_000,
    eventsQueuedMax: 100_000,
    recordEventLog: false,
  });
  const probes = new Map<string, Probe>();
  for (const name of ['b1', 'b2', 'b3', 'A', 'controller']) {
    const probe = new Probe(name, () => sim, starts[name]);
    probes.set(name, probe);
    sim.addNode(nodeId(name), probe);
  }
  const recorder = new HistoryRecorder(10_000);
  const nemesis = new Nemesis(sim, recorder, sim.rootRng.fork('faults'), VIEW);
  nemesis.schedule(faults);
  const probe = (name: string): Probe => probes.get(name) as Probe;
  const send = (atUs: number, from: string, to: string, kind = 'Produce'): void =>
    sim.schedule(atUs, 'send', () => probe(from).ctx?.send(nodeId(to), { kind }));
  return { sim, probe, send, recorder, nemesis };
}

const MS = 1000;

describe('partitions', () => {
  it('a one-way partition lets A -> b1 through and holds b1 -> A until the heal', () => {
    const fault: ScriptedFault = {
      kind: 'partition',
      nodes: ['b1'],
      between: ['A'],
      direction: 'one-way',
      atMs: 1,
      forMs: 10,
    };
    const { sim, probe, send } = world([fault]);
    send(2 * MS, 'A', 'b1');
    send(2 * MS, 'b1', 'A');
    send(12 * MS, 'b1', 'A', 'Fetch');
    sim.runUntil(20 * MS);
    expect(probe('b1').log).toContain('2100 got Produce from A');
    // Held as TCP holds the bytes of an open connection, delivered in order after the heal.
    expect(probe('A').log.filter((line) => line.includes('got'))).toEqual([
      '11100 got Produce from b1',
      '12100 got Fetch from b1',
    ]);
  });

  it('a symmetric partition holds both ways until it heals', () => {
    const fault: ScriptedFault = {
      kind: 'partition',
      nodes: ['A'],
      between: ['b1', 'b2', 'b3'],
      direction: 'both',
      atMs: 1,
      forMs: 10,
    };
    const { sim, probe, send } = world([fault]);
    send(2 * MS, 'A', 'b1');
    send(2 * MS, 'b2', 'A');
    send(11 * MS, 'A', 'b3');
    sim.runUntil(11 * MS - 1);
    expect(probe('b1').log.some((line) => line.includes('got'))).toBe(false);
    expect(probe('A').log.some((line) => line.includes('got'))).toBe(false);
    sim.runUntil(20 * MS);
    expect(probe('b1').log.filter((line) => line.includes('got'))).toEqual([
      '11100 got Produce from A',
    ]);
    expect(probe('A').log.filter((line) => line.includes('got'))).toEqual([
      '11100 got Produce from b2',
    ]);
    expect(probe('b3').log).toContain('11100 got Produce from A');
  });

  it('a split cuts the minority from the majority and the controller, not from clients', () => {
    const fault: ScriptedFault = {
      kind: 'split',
      minority: ['b1'],
      majority: ['b2', 'b3'],
      atMs: 1,
      forMs: 10,
    };
    const { sim, probe, send } = world([fault]);
    send(2 * MS, 'b1', 'b2');
    send(2 * MS, 'b1', 'controller');
    send(2 * MS, 'b1', 'A');
    send(2 * MS, 'b2', 'b3');
    sim.runUntil(20 * MS);
    expect(probe('b2').log.filter((line) => line.includes('from b1'))).toEqual([
      '11100 got Produce from b1',
    ]);
    expect(probe('controller').log.filter((line) => line.includes('got'))).toEqual([
      '11100 got Produce from b1',
    ]);
    expect(probe('A').log).toContain('2100 got Produce from b1');
    expect(probe('b3').log).toContain('2100 got Produce from b2');
  });

  it('a bridge cuts left from right; the bridge reaches both', () => {
    const fault: ScriptedFault = {
      kind: 'bridge',
      bridge: 'b2',
      left: ['b1'],
      right: ['b3'],
      atMs: 1,
      forMs: 10,
    };
    const { sim, probe, send } = world([fault]);
    send(2 * MS, 'b1', 'b3');
    send(2 * MS, 'b3', 'b1');
    send(2 * MS, 'b2', 'b1');
    send(2 * MS, 'b2', 'b3');
    sim.runUntil(20 * MS);
    expect(probe('b1').log.filter((line) => line.includes('got'))).toEqual([
      '2100 got Produce from b2',
      '11100 got Produce from b3',
    ]);
    expect(probe('b3').log.filter((line) => line.includes('got'))).toEqual([
      '2100 got Produce from b2',
      '11100 got Produce from b1',
    ]);
  });
});

describe('link faults', () => {
  const link = {
    from: 'A',
    to: 'b1',
    messages: ['Produce'],
    count: null,
    probability: ratio(1, 1),
    delayMs: 0,
    atMs: 1,
    forMs: 10,
  };

  it('drop removes only the named message type on the named link', () => {
    const { sim, probe, send } = world([{ kind: 'drop', ...link }]);
    send(2 * MS, 'A', 'b1', 'Produce');
    send(2 * MS, 'A', 'b1', 'Fetch');
    send(2 * MS, 'A', 'b2', 'Produce');
    sim.runUntil(20 * MS);
    expect(probe('b1').log.filter((line) => line.includes('got'))).toEqual([
      '2100 got Fetch from A',
    ]);
    expect(probe('b2').log).toContain('2100 got Produce from A');
  });

  it('duplicate delivers a matching message twice', () => {
    const { sim, probe, send } = world([{ kind: 'duplicate', ...link }]);
    send(2 * MS, 'A', 'b1');
    sim.runUntil(20 * MS);
    expect(probe('b1').log.filter((line) => line.includes('got')).length).toBe(2);
  });

  it('delay adds exactly delay.ms to a matching message', () => {
    const { sim, probe, send } = world([{ kind: 'delay', ...link, delayMs: 7 }]);
    send(2 * MS, 'A', 'b1');
    sim.runUntil(20 * MS);
    expect(probe('b1').log).toContain(`${2 * MS + 7 * MS + 100} got Produce from A`);
  });

  it('hold keeps matching messages until the fault ends, then releases them in order', () => {
    const { sim, probe, send } = world([{ kind: 'hold', ...link, messages: [] }]);
    send(2 * MS, 'A', 'b1', 'Produce');
    send(3 * MS, 'A', 'b1', 'EndTxn');
    sim.runUntil(30 * MS);
    expect(probe('b1').log.filter((line) => line.includes('got'))).toEqual([
      '11100 got Produce from A',
      '11100 got EndTxn from A',
    ]);
  });
});

describe('node faults', () => {
  it("a paused node's timers fire late by exactly the pause", () => {
    const fault: ScriptedFault = { kind: 'pause', target: 'A', atMs: 10, forMs: 25 };
    const { sim, probe } = world([fault], { A: (ctx) => ctx.setTimer(10 * MS, 'due-at-10ms') });
    sim.runUntil(60 * MS);
    expect(probe('A').log).toContain(`${35 * MS} timer due-at-10ms`);
  });

  it('crash loses what arrives while down and restarts after for.ms; power loss says so', () => {
    const faults: ScriptedFault[] = [
      { kind: 'crash', target: 'b1', atMs: 1, forMs: 10, mode: 'process' },
      { kind: 'crash', target: 'b2', atMs: 1, forMs: null, mode: 'power-loss' },
    ];
    const { sim, probe, send, nemesis } = world(faults);
    send(2 * MS, 'A', 'b1');
    sim.runUntil(20 * MS);
    expect(probe('b1').log).toEqual(['0 start', '1000 crash process (b1)', '11000 start']);
    expect(probe('b2').log).toEqual(['0 start', '1000 crash power-loss (b2)']);
    nemesis.healAll();
    expect(probe('b2').log.at(-1)).toBe('20000 start');
  });

  it('clock skew shifts what the node reads as now, and only while it lasts', () => {
    const fault: ScriptedFault = { kind: 'clock-skew', target: 'A', skewMs: -3, atMs: 1, forMs: 5 };
    const { sim, probe } = world([fault]);
    const reads: number[] = [];
    for (const atUs of [2 * MS, 7 * MS]) {
      sim.schedule(atUs, 'read clock', () => reads.push(probe('A').ctx?.nowUs() ?? -1));
    }
    sim.runUntil(10 * MS);
    expect(reads).toEqual([2 * MS - 3 * MS, 7 * MS]);
  });
});

describe('references and the history', () => {
  it('resolves leader: and coordinator: when the fault starts and records it', () => {
    const faults: ScriptedFault[] = [
      { kind: 'pause', target: 'leader:orders-0', atMs: 1, forMs: 2 },
      {
        kind: 'coordinator-failover',
        keyType: 'transaction',
        key: 'tx',
        atMs: 1,
        forMs: 2,
        mode: 'process',
      },
      { kind: 'unclean-election', topic: 'orders', partition: 0, atMs: 4 },
      { kind: 'pause', target: 'leader:orders-1', atMs: 5, forMs: 2 },
    ];
    const { sim, recorder } = world(faults);
    const skipped =
      'GC pause of leader:orders-1 for 2 ms (skipped: leader:orders-1 names no broker now)';
    sim.runUntil(1 * MS);
    expect(sim.status(nodeId('b2'))).toBe('paused');
    expect(sim.status(nodeId('b3'))).toBe('crashed');
    sim.runUntil(20 * MS);
    const records = recorder.history.map((op) =>
      op.f === 'nemesis' ? `${op.timeUs} ${op.value.phase} ${op.value.description}` : '',
    );
    expect(records).toEqual([
      '1000 start GC pause of leader:orders-0 for 2 ms (leader:orders-0 = b2)',
      '1000 start crash of the coordinator of tx for 2 ms (b3)',
      '3000 end GC pause of leader:orders-0 for 2 ms (leader:orders-0 = b2)',
      '3000 end crash of the coordinator of tx for 2 ms (b3)',
      '4000 start forced unclean leader election of orders-0: b2 elected',
      '4000 end forced unclean leader election of orders-0: b2 elected',
      `5000 start ${skipped}`,
      `5000 end ${skipped}`,
    ]);
  });

  it('resolves group-coordinator: and crashes the group coordinator of a group.id', () => {
    const faults: ScriptedFault[] = [
      { kind: 'pause', target: 'group-coordinator:etl', atMs: 1, forMs: 2 },
      {
        kind: 'coordinator-failover',
        keyType: 'group',
        key: 'etl',
        atMs: 4,
        forMs: 2,
        mode: 'process',
      },
    ];
    const { sim, recorder } = world(faults);
    sim.runUntil(1 * MS);
    expect(sim.status(nodeId('b1'))).toBe('paused');
    sim.runUntil(4 * MS);
    expect(sim.status(nodeId('b1'))).toBe('crashed');
    sim.runUntil(20 * MS);
    const starts = recorder.history
      .filter((op) => op.f === 'nemesis' && op.value.phase === 'start')
      .map((op) => (op.f === 'nemesis' ? op.value.description : ''));
    expect(starts).toEqual([
      'GC pause of group-coordinator:etl for 2 ms (group-coordinator:etl = b1)',
      'crash of the group coordinator of etl for 2 ms (b1)',
    ]);
  });

  it('produce-error injects its errors at the resolved leader, taken back at its end', () => {
    const errors = ['NOT_LEADER_OR_FOLLOWER', 'OUT_OF_ORDER_SEQUENCE_NUMBER'] as const;
    const fault = { kind: 'produce-error', topic: 'orders', partition: 0, errors } as const;
    const faults: ScriptedFault[] = [
      { ...fault, target: 'leader:orders-0', atMs: 1, forMs: 2 },
      { ...fault, target: 'leader:orders-1', atMs: 5, forMs: null },
    ];
    injected.length = 0;
    const { sim, recorder } = world(faults);
    sim.runUntil(2 * MS);
    expect(injected).toEqual([
      {
        broker: 'b2',
        injection: { topic: 'orders', partition: 0, remaining: [...errors] },
        ended: false,
      },
    ]);
    sim.runUntil(20 * MS);
    expect(injected.map((entry) => entry.ended)).toEqual([true]);
    const starts = recorder.history
      .filter((op) => op.f === 'nemesis' && op.value.phase === 'start')
      .map((op) => (op.f === 'nemesis' ? op.value.description : ''));
    const described =
      'Produce errors NOT_LEADER_OR_FOLLOWER, OUT_OF_ORDER_SEQUENCE_NUMBER on orders-0';
    expect(starts).toEqual([
      `${described} at leader:orders-0 for 2 ms (leader:orders-0 = b2)`,
      `${described} at leader:orders-1 (skipped: leader:orders-1 names no broker now)`,
    ]);
  });

  it('log-dir-failure halts halt.ms after the first failed write, restarts at the end', () => {
    const fault: ScriptedFault = {
      kind: 'log-dir-failure',
      target: 'leader:orders-0',
      atMs: 1,
      forMs: 10,
      haltMs: 2,
    };
    failedDirs.length = 0;
    const { sim, probe, recorder } = world([fault]);
    // No write yet: the broker keeps running with its disk failed.
    sim.runUntil(3 * MS);
    expect(failedDirs.map((entry) => [entry.broker, entry.repaired])).toEqual([['b2', false]]);
    expect(sim.status(nodeId('b2'))).toBe('running');
    sim.schedule(4 * MS, 'first failed write', () => failedDirs[0]?.firstWrite());
    sim.runUntil(6 * MS - 1);
    expect(sim.status(nodeId('b2'))).toBe('running');
    sim.runUntil(6 * MS);
    expect(sim.status(nodeId('b2'))).toBe('crashed');
    expect(probe('b2').log).toContain('6000 crash process (b2)');
    sim.runUntil(11 * MS);
    expect(sim.status(nodeId('b2'))).toBe('running');
    expect(failedDirs[0]?.repaired).toBe(true);
    const starts = recorder.history
      .filter((op) => op.f === 'nemesis' && op.value.phase === 'start')
      .map((op) => (op.f === 'nemesis' ? op.value.description : ''));
    expect(starts).toEqual([
      'log directory failure of leader:orders-0 (writes fail, halting 2 ms after the first) ' +
        'for 10 ms (leader:orders-0 = b2)',
    ]);
  });
});
