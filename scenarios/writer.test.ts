/**
 * Goal: the scenario writer loses nothing. Method: for every bundled scenario, write the
 * resolved config as YAML, load the text again and compare: equal but for the file hash and the
 * fault lines (which point into the new text).
 */
import { describe, expect, it } from 'vitest';
import { listScenarioFiles, loadScenario, parseScenario, type ScenarioConfig } from './index';
import { writeScenarioYaml } from './writer';

/** A config without what depends on the text rather than the settings. */
function comparable(config: ScenarioConfig): unknown {
  return {
    ...config,
    hash: '',
    faults: config.faults.map((fault) => ({ ...fault, line: 0 })),
  };
}

describe('writeScenarioYaml', () => {
  for (const file of listScenarioFiles('scenarios')) {
    it(`round-trips ${file}`, () => {
      const config = loadScenario(file);
      const text = writeScenarioYaml(config, ['written by a test']);
      expect(text.startsWith('# written by a test\n')).toBe(true);
      expect(comparable(parseScenario(text, file))).toEqual(comparable(config));
    });
  }
});
