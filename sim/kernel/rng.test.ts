/**
 * Goal: pin the replay contract of `Rng` (style rules 6 and 7). The first draws of the root
 * stream and of the `network` and `workload` forks are literal numbers, so a seedrandom upgrade
 * or a change to forking shows up here rather than as silently different runs. Method: fixed
 * seeds only; bounds and bias are checked over many draws of one seed with tolerances wide
 * enough to be stable and narrow enough to catch modulo bias.
 */
import { describe, expect, it } from 'vitest';
import { AssertionError } from './assert';
import { ratio } from './ids';
import { Rng } from './rng';

function draws(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, () => rng.uint32());
}

describe('Rng pinned streams', () => {
  it('pins the first five uint32 draws of seed 42', () => {
    expect(draws(new Rng('42'), 5)).toEqual([
      2941466319, 2346445722, 3631795649, 855065811, 2421236797,
    ]);
  });

  it('pins the first five draws of fork("network")', () => {
    expect(draws(new Rng('42').fork('network'), 5)).toEqual([
      2818042691, 125159801, 3429361116, 779637324, 2275750427,
    ]);
  });

  it('pins the first five draws of fork("workload")', () => {
    expect(draws(new Rng('42').fork('workload'), 5)).toEqual([
      72591762, 271421597, 71775182, 78667692, 2925610259,
    ]);
  });

  it('seeds a fork with `${parentSeed}/${label}`', () => {
    const fork = new Rng('42').fork('network');
    expect(fork.seed).toBe('42/network');
    expect(draws(fork, 5)).toEqual(draws(new Rng('42/network'), 5));
  });
});

describe('Rng fork independence', () => {
  it('extra draws on one fork, or on the parent, do not change another fork', () => {
    const quiet = new Rng('7');
    const expected = draws(quiet.fork('workload'), 20);

    const busy = new Rng('7');
    busy.uint32();
    const network = busy.fork('network');
    draws(network, 1000);
    const workload = busy.fork('workload');
    draws(network, 1000);
    expect(draws(workload, 20)).toEqual(expected);
  });

  it('gives different labels different streams', () => {
    const root = new Rng('7');
    expect(draws(root.fork('broker/1'), 5)).not.toEqual(draws(root.fork('broker/2'), 5));
  });
});

describe('Rng.intInclusive', () => {
  it('stays within bounds and reaches both ends', () => {
    const rng = new Rng('bounds');
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i++) seen.add(rng.intInclusive(-3, 3));
    expect([...seen].sort((a, b) => a - b)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(new Rng('x').intInclusive(5, 5)).toBe(5);
  });

  it('is roughly uniform over a small range', () => {
    const rng = new Rng('uniform');
    const counts = new Array<number>(6).fill(0);
    const total = 60_000;
    for (let i = 0; i < total; i++) {
      const face = rng.intInclusive(1, 6);
      counts[face - 1] = (counts[face - 1] as number) + 1;
    }
    // Each face expects 10 000; 5 standard deviations is about ±460.
    for (const count of counts) expect(Math.abs(count - total / 6)).toBeLessThan(500);
  });

  it('has no modulo bias on a range of 3 * 2^30 values', () => {
    // With `draw % range`, values below 2^30 would come up half of the time instead of a third.
    const range = 3 * 2 ** 30;
    const rng = new Rng('bias');
    const total = 30_000;
    let low = 0;
    for (let i = 0; i < total; i++) if (rng.intInclusive(0, range - 1) < 2 ** 30) low += 1;
    expect(Math.abs(low / total - 1 / 3)).toBeLessThan(0.02);
    // Rejection sampling throws away a quarter of the raw draws at this range.
    expect(rng.drawCount).toBeGreaterThan(total * 1.2);
    expect(rng.drawCount).toBeLessThan(total * 1.45);
  });

  it('rejects bad bounds', () => {
    const rng = new Rng('x');
    expect(() => rng.intInclusive(3, 2)).toThrow(AssertionError);
    expect(() => rng.intInclusive(0, 1.5)).toThrow(AssertionError);
    expect(() => rng.intInclusive(0, 2 ** 32)).toThrow(AssertionError);
  });
});

describe('Rng.chance, pick and shuffle', () => {
  it('never fires at 0 and always fires at 1, without drawing', () => {
    const rng = new Rng('chance');
    for (let i = 0; i < 1000; i++) {
      expect(rng.chance(ratio(0, 7))).toBe(false);
      expect(rng.chance(ratio(7, 7))).toBe(true);
    }
    expect(rng.drawCount).toBe(0);
  });

  it('fires at about the ratio in between', () => {
    const rng = new Rng('chance');
    let fired = 0;
    for (let i = 0; i < 40_000; i++) if (rng.chance(ratio(1, 4))) fired += 1;
    expect(Math.abs(fired - 10_000)).toBeLessThan(500);
  });

  it('rejects ratios that are not probabilities', () => {
    const rng = new Rng('chance');
    expect(() => rng.chance(ratio(2, 1))).toThrow(AssertionError);
    expect(() => rng.chance(ratio(-1, 2))).toThrow(AssertionError);
    expect(() => rng.chance(ratio(1, 0))).toThrow(AssertionError);
    expect(() => rng.chance(ratio(0.5, 1))).toThrow(AssertionError);
  });

  it('picks members and shuffles into a permutation', () => {
    const rng = new Rng('pick');
    const items = ['a', 'b', 'c', 'd', 'e'];
    for (let i = 0; i < 100; i++) expect(items).toContain(rng.pick(items));
    const shuffled = rng.shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(() => rng.pick([])).toThrow(AssertionError);
  });
});

describe('Rng construction', () => {
  it('rejects an empty seed and an empty fork label', () => {
    expect(() => new Rng('')).toThrow(AssertionError);
    expect(() => new Rng('1').fork('')).toThrow(AssertionError);
  });

  it('counts draws', () => {
    const rng = new Rng('count');
    draws(rng, 3);
    rng.intInclusive(0, 1);
    expect(rng.drawCount).toBe(4);
  });
});
