/**
 * Goal: the `slow-node` fault kind (a broker that answers everything late) does what its docs
 * row says, from the file to the kernel, and the fault-kind table of docs/scenarios.md is the
 * one the kind modules state. Method: (1) probes on a fixed 100 µs network with a nemesis: a
 * message to the slow node arrives `delay.ms` late, one from it does not, links stay FIFO, the
 * heal waits for the longest delay; (2) a scenario with `slow-node` on a partition leader loads,
 * refuses an unknown target with its key, writes back to the same entry, and a run passes with
 * the acknowledged Produce latency raised by the delay; (3) the docs table rows equal the
 * modules' rows, in registry order; (4) swarm's inbound `delay` is the same run as `slow-node`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation, nodeId, type Actor, type ActorContext, type Envelope } from '../../sim/kernel';
import { HistoryRecorder } from '../../sim/history';
import { FAULT_KIND_MODULES, Nemesis, type ClusterView, type ScriptedFault } from '../../faults';
import { faultEntryOf, parseScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner';

class Probe implements Actor {
  readonly log: string[] = [];
  ctx: ActorContext | undefined;
  constructor(private readonly sim: () => Simulation) {}
  onStart(ctx: ActorContext): void {
    this.ctx = ctx;
  }
  onMessage(envelope: Envelope): void {
    const n = (envelope.payload as { n?: number }).n ?? 0;
    this.log.push(`${this.sim().nowUs} ${envelope.payload.kind}#${n} from ${envelope.source}`);
  }
  onTimer(): void {}
  onCrash(): void {}
}

const VIEW: ClusterView = {
  brokers: ['b1'],
  nodes: ['b1', 'A'],
  controller: 'controller',
  leaderOf: () => 'b1',
  coordinatorOf: () => 'b1',
  groupCoordinatorOf: () => null,
  forceUncleanElection: () => null,
  runOperatorAction: () => undefined,
  injectProduceErrors: () => () => undefined,
  failLogDir: () => () => undefined,
};

describe('slow-node on the kernel', () => {
  it('delays every message the node receives by delay.ms, FIFO, and nothing it sends', () => {
    const sim = new Simulation({
      seed: '1',
      network: { delayUsMin: 100, delayUsMax: 100 },
      eventsMax: 10_000,
      eventsQueuedMax: 10_000,
      recordEventLog: false,
    });
    const b1 = new Probe(() => sim);
    const a = new Probe(() => sim);
    sim.addNode(nodeId('b1'), b1);
    sim.addNode(nodeId('A'), a);
    const recorder = new HistoryRecorder(100);
    const nemesis = new Nemesis(sim, recorder, sim.rootRng.fork('faults'), VIEW);
    const fault: ScriptedFault = {
      kind: 'slow-node',
      target: 'leader:orders-0',
      delayMs: 5,
      atMs: 1,
      forMs: 10,
    };
    nemesis.schedule([fault]);
    const send = (atUs: number, from: Probe, to: string, n: number): void =>
      sim.schedule(atUs, 'send', () => from.ctx?.send(nodeId(to), { kind: 'Produce', n } as never));
    send(2_000, a, 'b1', 1);
    send(2_050, a, 'b1', 2);
    send(2_000, b1, 'A', 3);
    send(12_000, a, 'b1', 4);
    sim.runUntil(50_000);
    expect(b1.log).toEqual([
      '7100 Produce#1 from A',
      '7150 Produce#2 from A',
      '12100 Produce#4 from A',
    ]);
    expect(a.log).toEqual(['2100 Produce#3 from b1']);
    expect(nemesis.longestAftermathUs).toBe(5_000);
    const described =
      'slow node leader:orders-0: every message handled 5 ms late for 10 ms ' +
      '(leader:orders-0 = b1)';
    const records = recorder.history.map((op) => (op.value as { description: string }).description);
    expect(records).toEqual([described, described]);
  });
});

const SCENARIO = `name: slow-leader
cluster:
  brokers: 3
  topics:
    - name: orders
      partitions: 1
broker:
  min.insync.replicas: 2
clients:
  - name: A
    role: producer
    config:
      transactional.id: tx-a
    workload:
      transactions: 20
      records.per.transaction: 3
      send.interval.ms: 20
      topics: [orders]
faults:
  - kind: slow-node
    target: leader:orders-0
    delay.ms: 300
    at.ms: 0
    for.ms: 20000
run:
  duration.ms: 20000
  heal.ms: 20000
`;

describe('slow-node in a scenario', () => {
  it('loads, writes back the same entry, and refuses an unknown target with its key', () => {
    const scenario = parseScenario(SCENARIO, 'slow.yaml');
    const [fault] = scenario.faults;
    expect(fault).toEqual({
      kind: 'slow-node',
      target: 'leader:orders-0',
      delayMs: 300,
      atMs: 0,
      forMs: 20000,
      line: 20,
    });
    expect(faultEntryOf(fault as ScriptedFault)).toEqual({
      kind: 'slow-node',
      target: 'leader:orders-0',
      'delay.ms': 300,
      'at.ms': 0,
      'for.ms': 20000,
    });
    const bad = SCENARIO.replace('leader:orders-0', 'b9');
    expect(() => parseScenario(bad, 'slow.yaml')).toThrow(/faults\[0\]\.target.*unknown node b9/);
  });

  it('a slow leader answers every Produce at least delay.ms late, and the run passes', () => {
    const slow = runScenario(parseScenario(SCENARIO, 'slow.yaml'), { seed: '1' });
    const plain = runScenario(
      parseScenario(SCENARIO.replace(/faults:\n[\s\S]*?run:/, 'run:'), 'plain.yaml'),
      { seed: '1' },
    );
    expect(slow.report.outcome).toBe('pass');
    expect(plain.report.outcome).toBe('pass');
    // Every Produce goes to the leader of orders-0, which handles it 300 ms late until 20 s.
    const produceLatenciesUs = (messages: typeof slow.messages): number[] =>
      messages
        .filter((entry) => entry.kind === 'Produce' && entry.sentUs < 19_000_000)
        .map((entry) => entry.timeUs - entry.sentUs);
    const slowLatencies = produceLatenciesUs(slow.messages);
    const plainLatencies = produceLatenciesUs(plain.messages);
    expect(slowLatencies.length).toBeGreaterThan(0);
    expect(plainLatencies.length).toBeGreaterThan(0);
    expect(Math.min(...slowLatencies)).toBeGreaterThanOrEqual(300_000);
    expect(Math.max(...plainLatencies)).toBeLessThan(300_000);
  });
});

describe('slow-node under swarm mode', () => {
  it('is the inbound delay swarm already draws: the same run as delay * -> the node', () => {
    // Swarm does not draw slow-node by name (it would move every earlier seed's draws): its
    // `delay` kind draws `* -> target` half the time, the same kernel rule (a delay on every
    // message the node receives, FIFO). The two runs are one run.
    const delayed = SCENARIO.replace(
      / {2}- kind: slow-node\n {4}target: leader:orders-0/,
      '  - kind: delay\n    to: leader:orders-0',
    );
    expect(delayed).not.toBe(SCENARIO);
    const slow = runScenario(parseScenario(SCENARIO, 'slow.yaml'), { seed: '1' });
    const delay = runScenario(parseScenario(delayed, 'delay.yaml'), { seed: '1' });
    // The event hash covers the fault's description too, which names the kind: compare the
    // messages themselves, each with its send and arrival time.
    const wire = (messages: typeof slow.messages) =>
      messages.map((entry) => [entry.sentUs, entry.timeUs, entry.kind, entry.source, entry.target]);
    expect(slow.messages.length).toBeGreaterThan(100);
    expect(wire(delay.messages)).toEqual(wire(slow.messages));
    expect(delay.report.eventsRun).toBe(slow.report.eventsRun);
    expect(delay.report.outcome).toBe('pass');
  });
});

describe('docs/scenarios.md fault kinds', () => {
  it('lists exactly the rows the kind modules state, in registry order', () => {
    const text = readFileSync('docs/scenarios.md', 'utf8');
    const start = text.indexOf('<!-- fault-kinds:');
    expect(start).toBeGreaterThan(0);
    const table = text.slice(start).split('\n\n')[1] ?? '';
    const rows = table
      .split('\n')
      .slice(2)
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    const expected = FAULT_KIND_MODULES.flatMap((module) => module.docs).map((row) => [
      `\`${row.kind}\``,
      row.keys,
      row.effect,
      row.eos,
    ]);
    expect(rows).toEqual(expected);
  });
});
