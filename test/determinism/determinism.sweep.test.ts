/**
 * Goal: different seeds explore different schedules (sweeps tier). Method: sweep seeds of
 * zombie-fencing (`sweepSeeds('1..100')`, widened by SIM_SEEDS) and count distinct event hashes.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';

const ZOMBIE_FENCING = 'scenarios/zombie-fencing.yaml';
/** At least this share of seeds must produce a schedule of their own. */
const DISTINCT_HASHES_PERCENT_MIN = 95;

describe('different seeds', () => {
  it(`${DISTINCT_HASHES_PERCENT_MIN}% or more of zombie-fencing seeds give distinct hashes`, () => {
    const scenario = loadScenario(ZOMBIE_FENCING);
    const seeds = sweepSeeds('1..100');
    const hashes = new Set<string>();
    for (const seed of seeds) hashes.add(runScenario(scenario, { seed }).report.eventHash);
    expect(hashes.size * 100).toBeGreaterThanOrEqual(DISTINCT_HASHES_PERCENT_MIN * seeds.length);
  });
});
