/**
 * Goal: followers fetch in incremental fetch sessions (KIP-227), so an idle partition costs no
 * request or response entry: per (follower, leader) the first fetch is full (session epoch 0)
 * and lists every partition the follower follows there; later fetches carry the session id and
 * consecutive epochs and list only partitions whose fetch offset or epochs changed since they
 * were last sent; answers to incremental fetches carry only partitions with records or a new
 * high watermark. Method: run the first 12 s of zombie-fencing seed 1 (3 brokers, `orders` and
 * the 50 `__transaction_state` partitions, one producer's transaction then a pause) with a
 * delivery observer that keeps the raw follower Fetch requests and their answers, and check
 * each pair's sequence.
 */
import { describe, expect, it } from 'vitest';
import { buildWorld } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import type { FetchRequest, FetchResponse, KafkaMessage } from '../../sim/actors';

interface Seen {
  readonly source: string;
  readonly target: string;
  readonly message: KafkaMessage;
}

function observedRun(): { seen: Seen[]; followed: (follower: string, leader: string) => number } {
  const world = buildWorld(loadScenario('scenarios/zombie-fencing.yaml'), { seed: '1' });
  const seen: Seen[] = [];
  world.sim.deliveryObserver = ({ envelope }) => {
    const message = envelope.payload as KafkaMessage;
    const follower = message.kind === 'Fetch' && message.replicaId !== null;
    const toBroker = message.kind === 'FetchResponse' && envelope.target.startsWith('b');
    if (follower || toBroker)
      seen.push({ source: envelope.source, target: envelope.target, message });
  };
  world.sim.runUntil(12_000_000);
  const followed = (follower: string, leader: string): number => {
    const broker = world.brokers.find(({ id }) => id === follower)?.broker;
    return [...(broker?.partitions.values() ?? [])].filter(
      (replica) => replica.role === 'follower' && replica.state.leader === leader,
    ).length;
  };
  return { seen, followed };
}

const { seen, followed } = observedRun();
const pairs = [
  ...new Set(seen.filter((s) => s.message.kind === 'Fetch').map((s) => `${s.source}>${s.target}`)),
];

describe('KIP-227 incremental fetch sessions of followers', () => {
  it('opens each session with a full fetch of every followed partition', () => {
    expect(pairs).toHaveLength(6);
    for (const pair of pairs) {
      const [follower, leader] = pair.split('>') as [string, string];
      const first = seen.find((s) => `${s.source}>${s.target}` === pair)?.message as FetchRequest;
      expect(first.sessionEpoch).toBe(0);
      expect(first.partitions.length).toBe(followed(follower, leader));
      expect(first.partitions.length).toBeGreaterThan(15);
    }
  });

  it('then sends consecutive epochs listing only partitions whose fetch state changed', () => {
    for (const pair of pairs) {
      const fetches = seen
        .filter((s) => `${s.source}>${s.target}` === pair && s.message.kind === 'Fetch')
        .map((s) => s.message as FetchRequest);
      const lastSent = new Map<string, number>();
      fetches.forEach((fetch, index) => {
        expect(fetch.sessionEpoch).toBe(index);
        if (index > 0) expect(fetch.sessionId).toBeGreaterThan(0);
        for (const partition of fetch.partitions) {
          const key = `${partition.topic}-${partition.partition}`;
          if (index > 0) expect(partition.fetchOffset).not.toBe(lastSent.get(key));
          lastSent.set(key, partition.fetchOffset);
        }
      });
      const incremental = fetches.slice(1);
      expect(incremental.length).toBeGreaterThan(10);
      const idle = incremental.filter((fetch) => fetch.partitions.length === 0);
      expect(idle.length / incremental.length).toBeGreaterThan(0.5);
    }
  });

  it('answers incremental fetches with only the partitions that changed', () => {
    const answers = seen
      .filter((s) => s.message.kind === 'FetchResponse')
      .map((s) => s.message as FetchResponse);
    const full = answers.filter((answer) => answer.partitions.length > 15);
    // One full answer per session, however many answers there were.
    expect(full.length).toBe(6);
    expect(answers.length).toBeGreaterThan(60);
    for (const answer of answers) expect(answer.error ?? 'NONE').toBe('NONE');
  });
});
