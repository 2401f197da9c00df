/**
 * Goal: the bundled long-poll-read-committed scenario shows a parked read_committed fetch
 * (DelayedFetch) answered with the LSO and data as of its completion: empty after
 * fetch.max.wait.ms when nothing is below the LSO (even with records below the HW), and early
 * when a COMMIT marker moves the LSO. Method: run seed 1 with the world driven by the test, pair
 * each Fetch of `reader` that reached the leader with its answer, and pin the exact values (the
 * network delay is a fixed 1 ms).
 */
import { describe, expect, it } from 'vitest';
import type { FetchRequest, FetchResponse, KafkaMessage } from '../../sim/actors';
import { buildWorld } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';

interface Exchange {
  arrivedUs: number;
  fetchOffset: number;
  answeredUs?: number;
  answer?: string;
}

function exchanges(): Map<number, Exchange> {
  const scenario = loadScenario('scenarios/long-poll-read-committed.yaml');
  const world = buildWorld(scenario, { seed: '1' });
  const byId = new Map<number, Exchange>();
  world.sim.deliveryObserver = ({ timeUs, envelope }) => {
    const message = envelope.payload as KafkaMessage;
    if (message.kind === 'Fetch' && envelope.source === 'reader') {
      const fetchOffset = (message as FetchRequest).partitions[0]?.fetchOffset ?? -1;
      byId.set(message.correlationId, { arrivedUs: timeUs, fetchOffset });
    }
    if (message.kind === 'FetchResponse' && envelope.target === 'reader') {
      const partition = (message as FetchResponse).partitions[0];
      const exchange = byId.get(message.correlationId);
      if (partition === undefined || exchange === undefined) return;
      const records = partition.batches.flatMap((batch) =>
        batch.control === undefined
          ? batch.values.map((value, i) => `${batch.baseOffset + i}=${value}`)
          : [`${batch.baseOffset}=${batch.control}`],
      );
      exchange.answeredUs = timeUs;
      const { highWatermark, lastStableOffset } = partition;
      exchange.answer = `hw ${highWatermark} lso ${lastStableOffset} [${records.join(' ')}]`;
    }
  };
  world.sim.runUntil(4_000_000);
  return byId;
}

describe('long poll under read_committed (DelayedFetch, fetch.max.wait.ms 500)', () => {
  const byId = exchanges();

  it('answers empty 500 ms after arrival when nothing is below the LSO', () => {
    expect(byId.get(5)).toEqual({
      arrivedUs: 1_316_000,
      fetchOffset: 3,
      answeredUs: 1_316_000 + 500_000 + 1000,
      answer: 'hw 3 lso 3 []',
    });
  });

  it('does not count an open transaction below the HW: it waits, and answers that LSO', () => {
    expect(byId.get(6)).toEqual({
      arrivedUs: 1_916_000,
      fetchOffset: 3,
      answeredUs: 2_417_000,
      answer: 'hw 5 lso 3 []',
    });
  });

  it('answers when the COMMIT marker moves the LSO, with the LSO and records of then', () => {
    expect(byId.get(9)).toEqual({
      arrivedUs: 3_218_000,
      fetchOffset: 6,
      answeredUs: 3_623_000,
      answer: 'hw 9 lso 9 [6=4 7=5 8=COMMIT]',
    });
  });
});
