/**
 * Rewrites `docs/eos-sim-scenario.schema.json` from the validator: `npm run schema`.
 */
import { writeFileSync } from 'node:fs';
import { SCENARIO_JSON_SCHEMA_PATH, scenarioJsonSchemaText } from './json_schema';

writeFileSync(SCENARIO_JSON_SCHEMA_PATH, scenarioJsonSchemaText());
process.stdout.write(`wrote ${SCENARIO_JSON_SCHEMA_PATH}\n`);
