/**
 * Goal: `eos-sim shrink` does not take a seed its event budget stopped for a liveness failure:
 * such a run never reached its liveness check, so there is nothing to keep, and the refusal says
 * the budget stopped it (found by a fresh-user review: shrink reported "kind liveness" and wrote
 * a file that replays to BUDGET EXCEEDED). A real liveness failure still shrinks as `liveness`.
 * Method: zombie-fencing.yaml with `run.events.max: 1000`, seed 1, through the CLI in-process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { foundKinds } from '../../sim/runner/shrink';
import { loadScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner';
import { runCli, scratchDir } from './cli_helpers';

const scratch = scratchDir();
afterAll(() => scratch.remove());

function budgetFile(): string {
  const file = join(scratch.path, 'budget.yaml');
  const text = readFileSync('scenarios/zombie-fencing.yaml', 'utf8');
  writeFileSync(file, text.replace(/^run:$/m, 'run:\n  events.max: 1000'));
  return file;
}

describe('shrink on a seed its event budget stopped', () => {
  it('finds no liveness failure in it', () => {
    const { report } = runScenario(loadScenario(budgetFile()), { seed: '1' });
    expect(report.outcome).toBe('budget-exceeded');
    expect(report.liveness.converged).toBe(false);
    expect(foundKinds(report)).toEqual([]);
  });

  it('refuses it, saying the budget stopped it, and writes nothing', async () => {
    const out = join(scratch.path, 'min.yaml');
    const call = await runCli(main, ['shrink', budgetFile(), '--seed', '1', '--out', out]);
    expect(call.code).toBe(1);
    expect(call.stderr).toContain(
      'Cannot shrink: seed 1 finds no anomaly before its event budget stopped it ' +
        '(Run exceeded eventsMax: 1000 events)',
    );
    expect(() => readFileSync(out)).toThrow();
  });
});
