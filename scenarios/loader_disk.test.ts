/**
 * Goal: pin how scenario files are found and read on disk: loadScenario reads and hashes a file,
 * listScenarioFiles walks a directory in plain code-unit order, and a missing path or a
 * directory given as a file is a typed error. Method: a temporary directory with a few copies
 * of a small valid scenario.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ScenarioInvalidError,
  ScenarioNotFoundError,
  listScenarioFiles,
  loadScenario,
  parseScenario,
} from './index';

const FILE = 'scenarios/test.yaml';

/** A small valid scenario. */
const BASE = `name: disk
cluster:
  topics:
    - name: events
clients:
  - name: P
    role: producer
    workload:
      sends: 10
      topics: [events]
run:
  duration.ms: 1000
`;

describe('loadScenario and listScenarioFiles on disk', () => {
  let directory = '';

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'eos-sim-scenarios-'));
    mkdirSync(join(directory, 'nested'));
    writeFileSync(join(directory, 'b.yaml'), BASE);
    writeFileSync(join(directory, 'a.yml'), BASE);
    writeFileSync(join(directory, 'nested', 'c.yaml'), BASE);
    writeFileSync(join(directory, 'notes.txt'), 'not a scenario');
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('loads a file and hashes its bytes with SHA-256', () => {
    const path = join(directory, 'b.yaml');
    const config = loadScenario(path);
    expect(config.file).toBe(path);
    expect(config.hash).toBe(createHash('sha256').update(BASE).digest('hex'));
    expect(config.hash).toBe(parseScenario(BASE, FILE).hash);
  });

  it('lists scenario files below a directory in plain code-unit order', () => {
    expect(listScenarioFiles(directory)).toEqual([
      join(directory, 'a.yml'),
      join(directory, 'b.yaml'),
      join(directory, 'nested', 'c.yaml'),
    ]);
    expect(listScenarioFiles(join(directory, 'b.yaml'))).toEqual([join(directory, 'b.yaml')]);
  });

  it('throws ScenarioNotFoundError for an unknown path', () => {
    const path = join(directory, 'missing.yaml');
    expect(() => loadScenario(path)).toThrow(ScenarioNotFoundError);
    expect(() => listScenarioFiles(path)).toThrow(ScenarioNotFoundError);
    expect(() => loadScenario(path)).toThrow(`Scenario file not found: ${path}`);
    try {
      loadScenario(path);
    } catch (error) {
      expect(error).toMatchObject({
        code: 'SIM_SCENARIO_NOT_FOUND',
        file: path,
        line: undefined,
        key: undefined,
      });
    }
  });

  it('reports a directory given to loadScenario as an invalid scenario', () => {
    expect(() => loadScenario(directory)).toThrow(ScenarioInvalidError);
  });
});
