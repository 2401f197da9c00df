/**
 * The JSON Schema of scenario files, generated from the zod validator (`z.toJSONSchema`, the
 * input side: what a file may contain, defaults noted), so editors with a YAML language server
 * check scenario files as they are typed. The committed copy is
 * `docs/eos-sim-scenario.schema.json`; `npm run schema` rewrites it and a test fails when it is
 * stale. Rules across keys (node names, topic references, idempotence coupling) are not
 * expressible in JSON Schema and stay with the loader.
 */
import { z } from 'zod';
import { scenarioFileSchema } from './schema';

/** Where the committed schema lives, relative to the repository root. */
export const SCENARIO_JSON_SCHEMA_PATH = 'docs/eos-sim-scenario.schema.json';

/**
 * The JSON Schema of a scenario file, as pretty JSON text ending in a newline.
 * @example JSON.parse(scenarioJsonSchemaText()).title // 'eos-sim scenario file'
 */
export function scenarioJsonSchemaText(): string {
  const generated = z.toJSONSchema(scenarioFileSchema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  const schema = {
    $id: 'https://eos-sim.invalid/eos-sim-scenario.schema.json',
    title: 'eos-sim scenario file',
    description: 'A scenario of eos-sim: docs/scenarios.md documents every key.',
    ...generated,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
