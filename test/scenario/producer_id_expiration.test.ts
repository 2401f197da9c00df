/**
 * Goal: the bundled producer-id-expiration scenario shows producer state expiring as Kafka's
 * ProducerStateManager.removeExpiredProducers does (KIP-854): at the first
 * `producer.id.expiration.check.interval.ms` tick at least `producer.id.expiration.ms` after the
 * producer's last append, on every replica; and the producer's next batch, at its next sequence,
 * is accepted without error by a partition that no longer knows it (KIP-360: no
 * UNKNOWN_PRODUCER_ID). Method: run seed 1 with the world driven by the test, sample every
 * replica's producer state just after each check tick and pair P's Produce requests with their
 * answers (fixed 1 ms network delay, so times are exact).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaMessage } from '../../sim/actors';
import { buildWorld } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';

function observe() {
  const world = buildWorld(loadScenario('scenarios/producer-id-expiration.yaml'), { seed: '1' });
  const produces: string[] = [];
  world.sim.deliveryObserver = ({ timeUs, envelope }) => {
    const message = envelope.payload as KafkaMessage;
    if (message.kind === 'Produce' && envelope.source === 'P')
      produces.push(`${timeUs} seq ${message.batch.baseSequence}`);
    if (message.kind === 'ProduceResponse' && envelope.target === 'P')
      produces.push(`${timeUs} ${message.error} offset ${message.baseOffset}`);
  };
  const known: string[] = [];
  for (let second = 1; second <= 20; second++) {
    world.sim.runUntil(second * 1_000_000 + 1);
    const holders = world.brokers.filter(({ broker }) => {
      const log = broker.replicaManager.replicas.get('orders-0')?.log;
      return [...(log?.producerEntries() ?? [])].length > 0;
    });
    known.push(`${second}s:${holders.length}`);
  }
  return { produces, known };
}

describe('producer.id.expiration.ms (ProducerStateManager.removeExpiredProducers)', () => {
  const { produces, known } = observe();

  it('drops the state on all three replicas at the first check 5 s after the last append', () => {
    // Records appended at about 0.5 s, 7.5 s and 14.5 s; state from 1 s, gone at the 6 s, 13 s
    // and 20 s checks (the first tick at least 5000 ms after each append).
    expect(known.join(' ')).toBe(
      '1s:3 2s:3 3s:3 4s:3 5s:3 6s:0 7s:0 8s:3 9s:3 10s:3 11s:3 12s:3 13s:0 14s:0 ' +
        '15s:3 16s:3 17s:3 18s:3 19s:3 20s:0',
    );
  });

  it('accepts the next sequence from a forgotten producer without an error (KIP-360)', () => {
    expect(produces.filter((line) => line.includes('seq'))).toHaveLength(3);
    expect(produces.map((line) => line.replace(/^\d+ /, ''))).toEqual([
      'seq 0',
      'NONE offset 0',
      'seq 1',
      'NONE offset 1',
      'seq 2',
      'NONE offset 2',
    ]);
  });
});
