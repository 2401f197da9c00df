/**
 * Goal: faults triggered by protocol events start at the delivery that fires them on every
 * seed, round-trip through the scenario language, and the controller is a fault target with
 * Kafka's behaviour meanwhile (no elections, brokers keep serving). Method: (1)
 * zombie-fencing-triggered over seeds 1..5: the pause of A starts at the instant of the first
 * ProduceResponse delivered to A (message log) and A is fenced; (2) the loader refuses an
 * unknown node in `on.to` naming the key, and the writer writes `on:` back; (3) a broker crash
 * while the controller is paused: the oracle's elections show no election until the controller
 * resumes, against an election at about `broker.session.timeout.ms` without the pause, and
 * acknowledged writes go on while the controller is crashed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultEntryOf, loadScenario, parseScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner';

describe('a pause triggered by A’s first ProduceResponse (zombie-fencing-triggered)', () => {
  const scenario = loadScenario('scenarios/zombie-fencing-triggered.yaml');

  it.each(['1', '2', '3', '4', '5'])('seed %s: starts at that delivery; A is fenced', (seed) => {
    const result = runScenario(scenario, { seed });
    const first = result.messages.find(
      (entry) => entry.kind === 'ProduceResponse' && entry.target === 'A',
    );
    expect(first).toBeDefined();
    const [pause] = result.report.faults;
    expect(pause?.startUs).toBe(first?.timeUs);
    expect(pause?.endUs).toBe((first?.timeUs ?? 0) + 25_000_000);
    expect(pause?.description).toBe('GC pause of A for 25000 ms on the 1st ProduceResponse * -> A');
    expect(result.report.fencedClients).toContain('A');
    expect(result.report.outcome).toBe('pass');
  });

  it('writes on: back, and refuses an unknown node in on.to naming the key', () => {
    expect(faultEntryOf(scenario.faults[0] as never)).toEqual({
      kind: 'pause',
      target: 'A',
      'at.ms': 0,
      'for.ms': 25000,
      on: { message: 'ProduceResponse', to: 'A', count: 1 },
    });
    const text = readFileSync('scenarios/zombie-fencing-triggered.yaml', 'utf8');
    const bad = text.replace('      to: A\n', '      to: Z\n');
    expect(() => parseScenario(bad, 'bad.yaml')).toThrow(/faults\[0\]\.on\.to.*unknown node Z/);
  });
});

function controllerScenario(faults: string): string {
  return `name: controller-faults
cluster:
  brokers: 3
  topics:
    - name: orders
      partitions: 1
broker:
  min.insync.replicas: 2
clients:
  - name: P
    role: producer
    config:
      enable.idempotence: true
    workload:
      sends: 300
      send.interval.ms: 50
      topics: [orders]
faults:
${faults}
expect:
  allowed: [lost-write, vanished-read, inconsistent-offsets, nonmonotonic-poll, poll-skip]
run:
  duration.ms: 30000
  heal.ms: 30000
`;
}

const CRASH_LEADER = `  - kind: crash
    target: leader:orders-0
    at.ms: 2000
    for.ms: 25000
`;

describe('the controller as a fault target', () => {
  it('elects no new leader while paused; without the pause, after the session timeout', () => {
    const pause = '  - kind: pause\n    target: controller\n    at.ms: 1000\n    for.ms: 15000\n';
    const paused = controllerScenario(CRASH_LEADER + pause);
    const electionsAfter = (text: string): number[] => {
      const result = runScenario(parseScenario(text, 'c.yaml'), { seed: '1' });
      return (result.oracle.elections ?? [])
        .filter((e) => e.topic === 'orders' && e.timeUs > 1_000_000)
        .map((e) => e.timeUs);
    };
    const withPause = electionsAfter(paused);
    const without = electionsAfter(controllerScenario(CRASH_LEADER));
    expect(withPause[0]).toBeGreaterThanOrEqual(16_000_000);
    // broker.session.timeout.ms is 9 s after the crashed leader's last heartbeat, before 2 s.
    expect(without[0]).toBeGreaterThan(9_000_000);
    expect(without[0]).toBeLessThan(11_000_000);
  });

  it('lets brokers serve acks=all writes while the controller is crashed', () => {
    const text = controllerScenario(
      '  - kind: crash\n    target: controller\n    at.ms: 1000\n    for.ms: 20000\n',
    );
    const result = runScenario(parseScenario(text, 'c.yaml'), { seed: '1' });
    const acked = result.history.filter(
      (op) =>
        op.client === 'P' && op.type === 'ok' && op.timeUs > 2_000_000 && op.timeUs < 20_000_000,
    );
    expect(acked.length).toBeGreaterThan(100);
    expect(result.report.outcome).toBe('pass');
    expect(result.report.faults[0]?.description).toBe('crash of controller for 20000 ms');
  });
});
