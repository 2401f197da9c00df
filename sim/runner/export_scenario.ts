/**
 * Seed to scenario (`eos-sim run --export-scenario`): the realised scenario of one run, with the
 * random nemesis's drawn faults written out as scripted faults after the scenario's own (the
 * order the nemesis numbers them in, so every fault keeps its random stream) and no nemesis
 * left, and the seed as the file's seed range. Together with swarm mode's drawn configs (already
 * in the scenario it is given) it replays without the seed's nemesis and swarm draws.
 */
import { Rng } from '../kernel';
import { writeScenarioYaml, type ScenarioConfig } from '../../scenarios';
import { drawnFaults } from './drawn_faults';
import { reproduceCommand } from './reproduce';

/**
 * The scenario with its nemesis realised for `seed`.
 * @example realiseScenario(loadScenario('scenarios/replicated-random-faults.yaml'), '7').nemesis
 * // null
 */
export function realiseScenario(scenario: ScenarioConfig, seed: string): ScenarioConfig {
  const drawn = drawnFaults(scenario, new Rng(seed).fork('nemesis'));
  const number = Number(seed);
  const seeds =
    Number.isSafeInteger(number) && number >= 1 ? { first: number, last: number } : scenario.seeds;
  return { ...scenario, faults: [...scenario.faults, ...drawn], nemesis: null, seeds };
}

/**
 * The YAML of the realised scenario, with a header naming where it came from.
 * @example exportScenarioYaml({ scenario, seed: '7', swarm: false })
 */
export function exportScenarioYaml(input: {
  readonly scenario: ScenarioConfig;
  readonly seed: string;
  readonly swarm: boolean;
  readonly note?: string;
}): string {
  const realised = realiseScenario(input.scenario, input.seed);
  const header = [
    `Realised from ${input.scenario.file} seed ${input.seed}${input.swarm ? ' with --swarm' : ''}:`,
    'the random nemesis and swarm draws are written out; replay it with',
    reproduceCommand({ placeholder: '<this file>' }, input.seed),
    ...(input.note === undefined ? [] : [input.note]),
  ];
  return writeScenarioYaml(realised, header);
}
