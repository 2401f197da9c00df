/**
 * Goal: seed to scenario and shrinking keep the anomaly (issue 6 and issue 8 acceptance).
 * Method: find failing seeds of the known-bug scenarios (seeds whose run finds the expected
 * anomaly kind); export each seed's realised scenario as YAML, load it and run it with the same
 * seed: it must find the same kind, and with the same event hash. A swarm seed's export must
 * replay to the same event hash too. The failing seeds are pooled over the known-bug scenarios
 * (a scenario that fails on none of seeds 1..40 contributes none). Shrinking runs on two failing
 * seeds by default and ten when `SIM_SEEDS` is set; the shrunk file must still fail with the
 * kind and hold at most half the faults plus
 * operations.
 */
import { describe, expect, it } from 'vitest';
import { listScenarioFiles, loadScenario, parseScenario } from '../../scenarios';
import {
  drawSwarm,
  exportScenarioYaml,
  runScenario,
  shrinkScenario,
  sizeOf,
} from '../../sim/runner';
import { writeScenarioYaml } from '../../scenarios';
import { sweepSeeds, sweepSeedsWidened } from '../seed_range';

const KNOWN_BUGS = listScenarioFiles('scenarios/known-bugs');

/** The first `count` seeds from 1 up whose run finds `kind`. */
function failingSeeds(file: string, count: number, seeds: readonly string[]): string[] {
  const scenario = loadScenario(file);
  const kind = scenario.expect.anomalies[0] as string;
  const found: string[] = [];
  for (const seed of seeds) {
    if (found.length >= count) break;
    const types: readonly string[] = runScenario(scenario, { seed }).report.check.anomalyTypes;
    if (types.includes(kind)) found.push(seed);
  }
  return found;
}

/** Up to `count` failing seeds over every known-bug scenario, at most `perScenario` each. */
function failingRuns(count: number, perScenario: number): Array<{ file: string; seed: string }> {
  const runs: Array<{ file: string; seed: string }> = [];
  for (const file of KNOWN_BUGS) {
    const wanted = Math.min(perScenario, count - runs.length);
    for (const seed of failingSeeds(file, wanted, sweepSeeds('1..40'))) runs.push({ file, seed });
  }
  return runs;
}

describe('--export-scenario', () => {
  it('20 failing seeds of the known-bug scenarios replay from the exported file', () => {
    const runs = failingRuns(20, 20);
    expect(runs).toHaveLength(20);
    for (const { file, seed } of runs) {
      const scenario = loadScenario(file);
      const kind = scenario.expect.anomalies[0] as string;
      const original = runScenario(scenario, { seed }).report;
      const text = exportScenarioYaml({ scenario, seed, swarm: false });
      const replay = runScenario(parseScenario(text, 'exported.yaml'), { seed }).report;
      expect(replay.check.anomalyTypes as readonly string[]).toContain(kind);
      expect(replay.eventHash).toBe(original.eventHash);
    }
  });

  it('a swarm seed with a random nemesis replays its event hash from the exported file', () => {
    const base = loadScenario('scenarios/replicated-random-faults.yaml');
    for (const seed of ['3', '4']) {
      const { scenario, parameters } = drawSwarm(base, seed);
      const original = runScenario(scenario, { seed, swarm: parameters }).report;
      const text = exportScenarioYaml({ scenario, seed, swarm: true });
      const exported = parseScenario(text, 'exported.yaml');
      expect(exported.nemesis).toBeNull();
      expect(exported.faults.length).toBeGreaterThan(0);
      expect(runScenario(exported, { seed }).report.eventHash).toBe(original.eventHash);
    }
  });
});

describe('shrink', () => {
  const count = sweepSeedsWidened() ? 10 : 2;
  it(`${count} failing seeds shrink to at most half the faults + operations, same kind`, () => {
    const runs = failingRuns(count, Math.ceil(count / KNOWN_BUGS.length) + count);
    expect(runs).toHaveLength(count);
    for (const { file, seed } of runs) {
      const scenario = loadScenario(file);
      const kind = scenario.expect.anomalies[0] as string;
      const result = shrinkScenario(scenario, { seed, kind });
      const before = result.before.faults + result.before.operations;
      const after = result.after.faults + result.after.operations;
      expect(after * 2).toBeLessThanOrEqual(before);
      const shrunk = parseScenario(writeScenarioYaml(result.scenario), 'shrunk.yaml');
      expect(sizeOf(shrunk)).toEqual(result.after);
      const types: readonly string[] = runScenario(shrunk, { seed }).report.check.anomalyTypes;
      expect(types).toContain(kind);
    }
  });
});
