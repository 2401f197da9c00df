/**
 * Helpers for the sweep suites: read a results file as the set of its lines without `wallMs`,
 * and drop the wall-clock part of a JSON summary. Test files import `cli.ts` themselves (only
 * test files may, rule 3) and call it through `runCli` of the CLI suite's helpers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_FILE_NAME, comparableLine, readResults } from '../../cli/index';
import type { SweepResultLine } from '../../reports';

/** The bundled scenario the sweep tests run. */
export const ZOMBIE = 'scenarios/zombie-fencing.yaml';

/** The lines of `<out>/results.jsonl`. */
export function resultLines(out: string): SweepResultLine[] {
  return readResults(join(out, RESULTS_FILE_NAME), { repair: false, missingOk: false }).lines;
}

/** The lines of `<out>/results.jsonl` without `wallMs`, sorted: the set a sweep produced. */
export function resultSet(out: string): string[] {
  return resultLines(out)
    .map(comparableLine)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The raw text of `<out>/results.jsonl`. */
export function resultsText(out: string): string {
  return readFileSync(join(out, RESULTS_FILE_NAME), 'utf8');
}

/** A `--json` summary without its wall-clock `timing`. */
export function deterministicSummary(stdout: string): unknown {
  const summary = JSON.parse(stdout) as Record<string, unknown>;
  delete summary['timing'];
  return summary;
}
