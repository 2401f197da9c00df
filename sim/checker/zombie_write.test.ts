/**
 * Goal: prove that the zombie-write checker's fence lookup (a binary search over one
 * producerId's grants) finds exactly the grant the plain rule names: the earliest grant, in time
 * order, of a strictly higher epoch made strictly before the append. Method: random grant lists
 * (epochs that go up, repeat and come back, times with ties) from a fixed linear congruential
 * stream, each lookup compared with a scan.
 */
import { describe, expect, it } from 'vitest';
import type { EpochGrant } from '../history';
import { ProducerFences } from './zombie_write';

/** A fixed pseudo-random stream in [0, bound). */
function stream(seed: number): (bound: number) => number {
  let state = seed;
  return (bound) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % bound;
  };
}

function grantsOf(next: (bound: number) => number, count: number): EpochGrant[] {
  const grants: EpochGrant[] = [];
  let timeUs = 0;
  for (let index = 0; index < count; index++) {
    timeUs += next(3); // ties on purpose
    const reasons = ['init', 'fence', 'timeout', 'end'] as const;
    grants.push({
      timeUs,
      transactionalId: 'tx',
      producerId: 7,
      producerEpoch: next(40),
      reason: reasons[next(4)] ?? 'init',
    });
  }
  return grants;
}

describe('ProducerFences.fenceOf', () => {
  it('names the grant a scan of the time-ordered grants names, on 200 random lists', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = stream(seed);
      const grants = grantsOf(next, 1 + next(60));
      const fences = new ProducerFences(grants);
      for (let probe = 0; probe < 50; probe++) {
        const epoch = next(42) - 1;
        const appendUs = next(130);
        const scanned = grants.find(
          (grant) => grant.producerEpoch > epoch && grant.timeUs < appendUs,
        );
        expect(fences.fenceOf(epoch, appendUs)).toBe(scanned);
      }
    }
  });

  it('finds none without grants, and none above the highest epoch granted', () => {
    expect(new ProducerFences([]).fenceOf(0, 10)).toBeUndefined();
    const grants = grantsOf(stream(3), 20);
    const highest = Math.max(...grants.map((grant) => grant.producerEpoch));
    expect(new ProducerFences(grants).fenceOf(highest, 1_000_000)).toBeUndefined();
    expect(new ProducerFences(grants).fenceOf(-1, 1_000_000)).toBe(grants[0]);
  });
});
