/**
 * Goal: the committed JSON Schema (`docs/eos-sim-scenario.schema.json`) is the one the validator
 * generates, and it carries what an editor needs. Method: regenerate and compare the text; then
 * check that mappings are closed, every fault kind is there, and a bundled scenario's top-level
 * keys are all known to the schema. Run `npm run schema` after changing the validator.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from './fault_schema';
import { SCENARIO_JSON_SCHEMA_PATH, scenarioJsonSchemaText } from './json_schema';

const committed = readFileSync(SCENARIO_JSON_SCHEMA_PATH, 'utf8');

describe('scenario JSON Schema', () => {
  it('the committed file equals the generated one (run npm run schema if not)', () => {
    expect(committed).toBe(scenarioJsonSchemaText());
  });

  it('closes every mapping and lists every fault kind', () => {
    const schema = JSON.parse(committed) as {
      properties: Record<string, unknown>;
      additionalProperties: unknown;
    };
    expect(schema.additionalProperties).toBe(false);
    for (const kind of FAULT_KINDS) expect(committed).toContain(`"const": "${kind}"`);
  });

  it('knows every top-level key of a bundled scenario', () => {
    const schema = JSON.parse(committed) as { properties: Record<string, unknown> };
    const file = parse(readFileSync('scenarios/zombie-fencing-replicated.yaml', 'utf8')) as object;
    for (const key of Object.keys(file)) expect(Object.keys(schema.properties)).toContain(key);
  });
});
