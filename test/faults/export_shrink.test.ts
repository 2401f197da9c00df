/**
 * Goal: seed to scenario and shrinking keep the anomaly (issue 6 and issue 8 acceptance).
 * Method: find failing seeds of the known-bug scenarios (seeds whose run finds the expected
 * anomaly kind); export each seed's realised scenario as YAML, load it and run it with the same
 * seed: it must find the same kind, and with the same event hash. A swarm seed's export must
 * replay to the same event hash too. Shrinking runs on one failing seed per known-bug scenario
 * by default (`SIM_SEEDS` widens it: up to 5 failing seeds per scenario are taken from that
 * range); the shrunk file must still fail with the kind and hold at most half the faults plus
 * operations.
 */
import { describe, expect, it } from 'vitest';
import { listScenarioFiles, loadScenario, parseScenario } from '../../scenarios';
import { drawSwarm, exportScenarioYaml, runScenario, shrinkScenario, sizeOf } from '../../runner';
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

describe('--export-scenario', () => {
  const perScenario = Math.ceil(20 / KNOWN_BUGS.length);
  for (const file of KNOWN_BUGS) {
    it(`${file}: ${perScenario} failing seeds replay from the exported file`, () => {
      const scenario = loadScenario(file);
      const kind = scenario.expect.anomalies[0] as string;
      const seeds = failingSeeds(file, perScenario, sweepSeeds('1..40'));
      expect(seeds).toHaveLength(perScenario);
      for (const seed of seeds) {
        const original = runScenario(scenario, { seed }).report;
        const text = exportScenarioYaml({ scenario, seed, swarm: false });
        const replay = runScenario(parseScenario(text, 'exported.yaml'), { seed }).report;
        expect(replay.check.anomalyTypes as readonly string[]).toContain(kind);
        expect(replay.eventHash).toBe(original.eventHash);
      }
    });
  }

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
  const perScenario = sweepSeedsWidened() ? 5 : 1;
  for (const file of KNOWN_BUGS) {
    it(`${file}: shrunk files keep the kind with at most half the faults + operations`, () => {
      const scenario = loadScenario(file);
      const kind = scenario.expect.anomalies[0] as string;
      for (const seed of failingSeeds(file, perScenario, sweepSeeds('1..40'))) {
        const result = shrinkScenario(scenario, { seed, kind });
        const before = result.before.faults + result.before.operations;
        const after = result.after.faults + result.after.operations;
        expect(after * 2).toBeLessThanOrEqual(before);
        const text = writeScenarioYaml(result.scenario);
        const shrunk = parseScenario(text, 'shrunk.yaml');
        expect(sizeOf(shrunk)).toEqual(result.after);
        const types: readonly string[] = runScenario(shrunk, { seed }).report.check.anomalyTypes;
        expect(types).toContain(kind);
      }
    });
  }
});
