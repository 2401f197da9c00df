/**
 * Goal: a broker whose controller link stalled reconnects when its heartbeat times out, as
 * Kafka's NodeToControllerChannelManager does, instead of waiting behind the stalled bytes: the
 * controller's answers reach it again soon after the stall ends, and what was sent on the old
 * connection is never delivered. Swarm seed 321 of pipeline-random-faults showed the gap: a
 * +176 s delay of everything the controller sent b2 kept the restarted b2 unregistered past the
 * final reads, where Kafka's b2 would have reconnected 6.4 s after its first unanswered
 * heartbeat. Method: a scripted +100 s delay of controller -> b2 from 1 s to 5 s; the
 * deliveries to b2 are logged from the kernel's delivery observer.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenarios';
import { buildWorld } from '../../sim/runner';

const SCENARIO = `
name: controller-link-stall
cluster: { brokers: 3, topics: [{ name: orders, partitions: 1 }] }
clients:
  - name: C1
    role: consumer
    config: { auto.offset.reset: earliest }
    workload: { poll.interval.ms: 100, topics: [orders] }
faults:
  - { kind: delay, from: controller, to: b2, delay.ms: 100000, at.ms: 1000, for.ms: 4000 }
run: { duration.ms: 30000, heal.ms: 20000, seeds: 1..1 }
`;

/** Virtual times (µs) at which b2 received a message from the controller, and when it was sent. */
function controllerDeliveriesToB2(text: string): Array<{ sentUs: number; atUs: number }> {
  const world = buildWorld(parseScenario(text, 'controller-link-stall.yaml'), { seed: '1' });
  const seen: Array<{ sentUs: number; atUs: number }> = [];
  world.sim.deliveryObserver = ({ timeUs, envelope }) => {
    if (envelope.source === 'controller' && envelope.target === 'b2') {
      seen.push({ sentUs: envelope.sentUs, atUs: timeUs });
    }
  };
  world.sim.runUntil(120_000_000);
  return seen;
}

describe('the heartbeat channel after a stalled controller link', () => {
  it('hears the controller again within the request timeout after the stall ends', () => {
    const seen = controllerDeliveriesToB2(SCENARIO);
    // broker.session.timeout.ms 9000: the first unanswered heartbeat (2 s) times out 4.5 s
    // later; the first heartbeat after that (8 s, every 2 s) goes on a new connection.
    // Before the channel timed out, nothing reached b2 until the delay ran out (about 101 s).
    const after = seen.filter(({ atUs }) => atUs > 5_000_000);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]?.atUs).toBeGreaterThan(8_000_000);
    expect(after[0]?.atUs).toBeLessThan(8_100_000);
    // What the controller sent on the old connection during the stall is never delivered.
    const stalled = seen.filter(({ sentUs }) => sentUs >= 1_000_000 && sentUs < 5_000_000);
    expect(stalled).toEqual([]);
  });

  it('without the stall, the controller answers b2 every heartbeat interval', () => {
    const seen = controllerDeliveriesToB2(SCENARIO.replace(/faults:\n.*\n/, 'faults: []\n'));
    const inWindow = seen.filter(({ atUs }) => atUs >= 1_000_000 && atUs < 8_000_000);
    expect(inWindow.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...seen.map(({ atUs, sentUs }) => atUs - sentUs))).toBeLessThan(10_000);
  });
});
