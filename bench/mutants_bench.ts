/**
 * Mutants benchmark: `eos-sim mutants` over a short seed budget, every bug switch in the
 * registry, on the sweep worker pool. Per switch, the seeds to its first catch (with the kind
 * and base) or that it was not caught within the budget; then how many were caught, how many
 * runs the search took, how many it skipped (switch never consulted) and the wall time per
 * run, from which the time of a longer budget follows (docs/versions.md gives the 2,000-seed
 * figures).
 */
import { join } from 'node:path';
import { BUG_IDS } from '../scenarios';
import { MUTANT_SEED_TIMEOUT_MS_DEFAULT, searchMutantsOnPool } from '../cli/index';
import type { BenchFigure } from './bench_table';

/** The generic scenario the bases are built from. */
const MUTANTS_BASE_FILE = join('scenarios', 'transactions-random-faults.yaml');

/** ` (note)`, or nothing. */
function noteOf(note: string | undefined): string {
  return note === undefined ? '' : ` (${note})`;
}

/** Runs the search over seeds 1..`seedsCount` with `workers` threads and returns its figures. */
export async function runMutantsBench(
  seedsCount: number,
  workers: number,
): Promise<readonly BenchFigure[]> {
  const seeds = Array.from({ length: seedsCount }, (_, index) => String(index + 1));
  const startedMs = performance.now();
  const output = await searchMutantsOnPool({
    file: MUTANTS_BASE_FILE,
    ids: BUG_IDS,
    seeds,
    workers,
    seedTimeoutMs: MUTANT_SEED_TIMEOUT_MS_DEFAULT,
  });
  const wallMs = performance.now() - startedMs;
  const budget = `seeds 1..${seedsCount}`;
  const perSwitch = output.results.map((result): BenchFigure =>
    result.caught
      ? {
          name: `${result.id}: seeds to first catch (${result.kind} on ${result.base})`,
          value: result.seedsRun,
          unit: 'seeds',
        }
      : {
          name: `${result.id}: not caught in ${budget}${noteOf(result.note)}`,
          value: result.seedsRun,
          unit: 'seeds run',
        },
  );
  const caught = output.results.filter((result) => result.caught).length;
  return [
    ...perSwitch,
    { name: `switches caught in ${budget}`, value: caught, unit: `of ${output.results.length}` },
    {
      name: `runs (switch on, and controls), ${workers} workers`,
      value: output.runs,
      unit: 'runs',
    },
    {
      name: 'switch runs skipped: their control never consulted the switch',
      value: output.skipped,
      unit: 'runs',
    },
    { name: 'wall time', value: wallMs / 1000, unit: 's' },
    { name: `wall time per run with ${workers} workers`, value: wallMs / output.runs, unit: 'ms' },
  ];
}
