/**
 * `eos-sim mutants [--seeds A..B] [--base FILE] [--switch ID,...] [--workers N]
 * [--seed-timeout-ms MS]`: for every bug switch (or the ones named), the seeds to its first
 * catch in the generic bases of one scenario under swarm mode (cli/mutants.ts), searched on the
 * sweep worker pool (cli/mutant_search.ts) and printed as a table, then each base's own runs.
 * Progress goes to stderr as it happens: each switch when it is settled, each seed when every
 * run of it is done. The table is the same for any `--workers`. Exits 1 when some switch is
 * never caught within the seeds, or when a base fails without any switch (then its catches may
 * be the base's own failure).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { BUG_IDS, loadScenario, type BugId } from '../../scenarios';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import { UsageError } from '../errors';
import type { CliContext } from '../io';
import {
  searchMutants,
  type BaseCheck,
  type MutantSearchOutput,
  type MutantTask,
  type SearchEvent,
} from '../mutant_search';
import {
  genericBases,
  mutantRunOf,
  renderMutantTable,
  type MutantResult,
  type MutantRun,
} from '../mutants';
import { bundledScenarioDir } from '../paths';
import { parseSeedRange, seedsOf } from '../seeds';
import { lineScenarioOf } from '../sweep';
import { parsePositiveInteger } from '../sweep_output';
import { SeedPool } from '../sweep_pool';

/** The parsed arguments of `eos-sim mutants`. */
export interface MutantsCommandOptions {
  /** `--seeds A..B`: the seed budget. @default {@link MUTANT_SEEDS_DEFAULT} */
  readonly seeds?: string | undefined;
  /** `--base FILE`: the generic scenario. @default scenarios/transactions-random-faults.yaml */
  readonly base?: string | undefined;
  /** `--switch ID,...`: only these switches. @default every switch */
  readonly switches?: string | undefined;
  /** `--workers N`: worker threads. @default os.availableParallelism() */
  readonly workers?: string | undefined;
  /** `--seed-timeout-ms MS`: wall-clock budget of one run. @default 600000 */
  readonly seedTimeoutMs?: string | undefined;
}

/** The seed budget unless `--seeds` says otherwise. */
export const MUTANT_SEEDS_DEFAULT = '1..20';

/**
 * The wall-clock budget of one run unless `--seed-timeout-ms` says otherwise: ten minutes. A run
 * the wall clock stops is not judged, so the table would depend on how busy the machine was; a
 * stall (the outcome some switches make) runs the whole liveness phase and takes longest.
 */
export const MUTANT_SEED_TIMEOUT_MS_DEFAULT = 600_000;

/** The most worker threads `--workers` accepts. */
const WORKERS_MAX = 1024;
/** The largest `--seed-timeout-ms`: one day. */
const SEED_TIMEOUT_MS_MAX = 86_400_000;

/** The switches named by `--switch`, each checked against the registry. */
function switchesOf(text: string | undefined): BugId[] {
  if (text === undefined) return [...BUG_IDS];
  return text.split(',').map((name) => {
    const id = name.trim();
    if (!(BUG_IDS as readonly string[]).includes(id)) {
      throw new UsageError(`--switch must name bug switches (${BUG_IDS.join(', ')}): got "${id}"`);
    }
    return id as BugId;
  });
}

/** One progress line for stderr. */
function progressLine(event: SearchEvent, total: number, startedMs: number): string {
  if (event.type === 'settled') {
    const { result } = event;
    return result.caught
      ? `${result.id}: caught at seed ${result.seed} on ${result.base} (${result.kind})\n`
      : result.note !== undefined
        ? `${result.id}: ${result.note}\n`
        : `${result.id}: not caught in ${result.seedsRun} seeds\n`;
  }
  const seconds = Math.round((performance.now() - startedMs) / 1000);
  return (
    `seed ${event.seed} done (${event.seedsDone}/${total}): ${event.searching} switches ` +
    `still searched, ${event.runs} runs, ${seconds} s\n`
  );
}

/** The lines on each base's own runs: clean, or the seeds it failed at without any switch. */
export function renderBaseChecks(checks: readonly BaseCheck[], seeds: readonly string[]): string {
  return checks
    .map((check) => {
      const range =
        check.seedsRun === 0 ? 'no seeds' : `seeds ${seeds[0]}..${seeds[check.seedsRun - 1]}`;
      if (check.failures.length === 0) return `base ${check.label}: clean over ${range}\n`;
      const failed = check.failures.map((failure) => `${failure.seed} (${failure.kind})`);
      const at = failed.join(', ');
      return `base ${check.label}: FAILED without any switch over ${range} at seeds ${at}\n`;
    })
    .join('');
}

/**
 * Runs `eos-sim mutants` and returns its exit code.
 * @example await mutantsCommand({ seeds: '1..5', switches: 'KAFKA-6119' }, context)
 */
export async function mutantsCommand(
  options: MutantsCommandOptions,
  context: CliContext,
): Promise<ExitCode> {
  const { stdout, stderr } = context.io;
  const seeds = [...seedsOf(parseSeedRange(options.seeds ?? MUTANT_SEEDS_DEFAULT))];
  const ids = switchesOf(options.switches);
  const workers =
    options.workers === undefined
      ? availableParallelism()
      : parsePositiveInteger('--workers', options.workers, WORKERS_MAX);
  const seedTimeoutMs =
    options.seedTimeoutMs === undefined
      ? MUTANT_SEED_TIMEOUT_MS_DEFAULT
      : parsePositiveInteger('--seed-timeout-ms', options.seedTimeoutMs, SEED_TIMEOUT_MS_MAX);
  const file = options.base ?? join(bundledScenarioDir(), 'transactions-random-faults.yaml');
  const startedMs = performance.now();
  stderr.write(
    `mutants: ${ids.length} switches, seeds ${seeds[0]}..${seeds.at(-1)}, ${workers} workers\n`,
  );
  const output = await searchMutantsOnPool({
    file,
    ids,
    seeds,
    workers,
    seedTimeoutMs,
    onEvent: (event) => stderr.write(progressLine(event, seeds.length, startedMs)),
    onUnjudged: (task, run) =>
      stderr.write(
        `${task.bug ?? 'control'} on ${task.base} at seed ${task.seed} not judged: ` +
          `${run.error ?? run.outcome}` +
          `${run.eventHash === '' ? ' (raise --seed-timeout-ms)' : ''}\n`,
      ),
  });
  const labels = output.controls.map((check) => check.label).join(', ');
  stdout.write(`base ${file} (${labels}), swarm mode, ${output.runs} runs\n`);
  stdout.write(renderMutantTable(output.results));
  stdout.write(renderBaseChecks(output.controls, seeds));
  return verdictOf(output.results, output.controls, seeds.length, stdout);
}

/** The input of {@link searchMutantsOnPool}. */
export interface PoolSearchInput {
  /** The generic scenario file the bases are built from. */
  readonly file: string;
  readonly ids: readonly BugId[];
  readonly seeds: readonly string[];
  readonly workers: number;
  readonly seedTimeoutMs: number;
  readonly onEvent?: (event: SearchEvent) => void;
  /** Called for a run stopped by the wall clock or an internal error (never judged). */
  readonly onUnjudged?: (task: MutantTask, run: MutantRun) => void;
}

/**
 * Searches the switches `ids` on the generic bases of `file` with a sweep worker pool of
 * `workers` threads (each run a task of the pool, which rebuilds the base in the worker).
 * @example await searchMutantsOnPool({ file, ids, seeds, workers: 2, seedTimeoutMs: 60000 })
 */
export async function searchMutantsOnPool(input: PoolSearchInput): Promise<MutantSearchOutput> {
  const scenario = loadScenario(input.file);
  const line = lineScenarioOf(scenario, true);
  const pool = new SeedPool({ workers: input.workers, seedTimeoutMs: input.seedTimeoutMs });
  try {
    return await searchMutants({
      ids: input.ids,
      bases: genericBases(scenario),
      seeds: input.seeds,
      concurrency: input.workers * 2,
      run: async (task) => {
        const run = mutantRunOf(
          await pool.run({
            scenario: { ...line, mutant: { base: task.base, bug: task.bug } },
            seed: task.seed,
            out: undefined,
          }),
        );
        if (run.eventHash === '' || run.outcome === 'internal-error') input.onUnjudged?.(task, run);
        return run;
      },
      ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    });
  } finally {
    await pool.destroy();
  }
}

/** Exit 1 when a switch was not caught or a base failed on its own, with a line saying which. */
function verdictOf(
  results: readonly MutantResult[],
  controls: readonly BaseCheck[],
  seedsCount: number,
  stdout: { write: (text: string) => unknown },
): ExitCode {
  const missed = results.filter((result) => !result.caught).map((result) => result.id);
  const unclean = controls.filter((check) => check.failures.length > 0).map((check) => check.label);
  if (missed.length > 0) {
    stdout.write(`not caught within ${seedsCount} seeds: ${missed.join(', ')}\n`);
  }
  if (unclean.length > 0) {
    stdout.write(`bases that fail without any switch (not clean): ${unclean.join(', ')}\n`);
  }
  return missed.length === 0 && unclean.length === 0 ? EXIT_CODES.ok : EXIT_CODES.fail;
}
