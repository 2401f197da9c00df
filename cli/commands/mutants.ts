/**
 * `eos-sim mutants [--seeds A..B] [--base FILE] [--switch ID,...] [--workers N]
 * [--seed-timeout-ms MS] [--out DIR [--resume]]`: for every bug switch (or the ones named), the
 * seeds to its first catch in the generic bases of one scenario under swarm mode
 * (cli/mutants.ts), searched on the sweep worker pool (cli/mutant_search.ts) and printed as a
 * table, then each base's own runs. Progress goes to stderr as it happens: each switch when it
 * is settled, each seed when every run of it is done. With `--out` every finished run is
 * streamed to `DIR/runs.jsonl` and the table written to `DIR/table.md` and `table.json`;
 * `--resume` carries on a killed search without running again what it recorded
 * (cli/mutant_runs.ts). The table is the same for any `--workers` and after any kill and
 * resume. Exits 1 when some switch is never caught within the seeds, or when a base fails
 * without any switch (then its catches may be the base's own failure).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { BUG_IDS, loadScenario, type BugId } from '../../scenarios';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import { UsageError } from '../errors';
import type { CliContext } from '../io';
import { EOS_SIM_VERSION } from '../../sim/runner';
import { interruptible } from '../interrupt';
import { openMutantOut, type MutantRunner, type MutantSettings } from '../mutant_runs';
import {
  searchMutants,
  type BaseCheck,
  type MutantSearchOutput,
  type MutantTask,
  type SearchEvent,
} from '../mutant_search';
import {
  controlBases,
  genericBases,
  mutantRunOf,
  renderBaseChecks,
  renderMutantTable,
  type MutantResult,
  type MutantRun,
} from '../mutants';
import { makeOutputFolder } from '../output_paths';
import { bundledScenarioDir } from '../paths';
import { parseSeedRange, seedsOf, type SeedRange } from '../seeds';
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
  /** `--out DIR`: stream every run to `DIR/runs.jsonl`, the table to `DIR/table.md`. */
  readonly out?: string | undefined;
  /** `--resume`: do not run again the runs `<out>/runs.jsonl` records. @default false */
  readonly resume?: boolean | undefined;
  /**
   * `--run-unreached`: run also the switch runs whose control never consulted the switch, and
   * fail (internal error) if one executed other events than its control. @default false
   */
  readonly runUnreached?: boolean | undefined;
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

/** The validated settings of `eos-sim mutants`. */
function settingsOf(options: MutantsCommandOptions) {
  if (options.resume === true && options.out === undefined) {
    throw new UsageError('--resume needs --out DIR: the folder whose runs.jsonl to carry on');
  }
  return {
    range: parseSeedRange(options.seeds ?? MUTANT_SEEDS_DEFAULT),
    ids: switchesOf(options.switches),
    workers:
      options.workers === undefined
        ? availableParallelism()
        : parsePositiveInteger('--workers', options.workers, WORKERS_MAX),
    seedTimeoutMs:
      options.seedTimeoutMs === undefined
        ? MUTANT_SEED_TIMEOUT_MS_DEFAULT
        : parsePositiveInteger('--seed-timeout-ms', options.seedTimeoutMs, SEED_TIMEOUT_MS_MAX),
    file: options.base ?? join(bundledScenarioDir(), 'transactions-random-faults.yaml'),
  };
}

/**
 * The settings line of `runs.jsonl` for a search of `ids` over `range` on the bases of `file`.
 * @example mutantSettingsOf('scenarios/transactions-random-faults.yaml', ids, range)
 */
export function mutantSettingsOf(
  file: string,
  ids: readonly BugId[],
  range: SeedRange,
): MutantSettings {
  const scenario = loadScenario(file);
  return {
    version: EOS_SIM_VERSION,
    file,
    hash: scenario.hash,
    seeds: { first: range.first, last: range.last },
    switches: [...ids],
    bases: controlBases(ids, genericBases(scenario)).map((base) => base.label),
  };
}

/**
 * Runs `eos-sim mutants` and returns its exit code. With `--out` every finished run is
 * appended to `<out>/runs.jsonl` and the table written to `<out>/table.md` and `table.json`;
 * with `--resume` the runs recorded there are not run again (cli/mutant_runs.ts).
 * @example await mutantsCommand({ seeds: '1..5', switches: 'KAFKA-6119' }, context)
 */
export async function mutantsCommand(
  options: MutantsCommandOptions,
  context: CliContext,
): Promise<ExitCode> {
  const { stdout, stderr } = context.io;
  const { range, ids, workers, seedTimeoutMs, file } = settingsOf(options);
  const seeds = [...seedsOf(range)];
  if (options.out !== undefined) makeOutputFolder('--out', options.out);
  const out =
    options.out === undefined
      ? undefined
      : openMutantOut({
          out: options.out,
          resume: options.resume === true,
          settings: mutantSettingsOf(file, ids, range),
        });
  try {
    const startedMs = performance.now();
    stderr.write(
      `mutants: ${ids.length} switches, seeds ${seeds[0]}..${seeds.at(-1)}, ${workers} workers` +
        `${out === undefined ? '' : `, ${out.recordedRuns} runs recorded in ${out.path}`}\n`,
    );
    const search = (): Promise<MutantSearchOutput> =>
      searchMutantsOnPool({
        file,
        ids,
        seeds,
        workers,
        seedTimeoutMs,
        onEvent: (event) => stderr.write(progressLine(event, seeds.length, startedMs)),
        onUnjudged: (task, run) => stderr.write(unjudgedLine(task, run)),
        runUnreached: options.runUnreached === true,
        ...(out === undefined ? {} : { record: out.record }),
      });
    const output =
      out === undefined
        ? await search()
        : await interruptible(search, { results: out.path, what: 'runs', stderr, stop: noop });
    const labels = output.controls.map((check) => check.label).join(', ');
    const replayed = out === undefined ? '' : ` (${out.replayed()} of them read from ${out.path})`;
    stdout.write(
      `base ${file} (${labels}), swarm mode, ${output.runs} runs${replayed}, ` +
        `${output.skipped} switch runs skipped (their control never consulted the switch)\n`,
    );
    stdout.write(renderMutantTable(output.results));
    stdout.write(renderBaseChecks(output.controls, seeds));
    if (out !== undefined) {
      stdout.write(`runs: ${out.path}; table: ${out.writeTables(output, seeds).join(', ')}\n`);
    }
    return verdictOf(output.results, output.controls, seeds.length, stdout);
  } finally {
    out?.close();
  }
}

function noop(): void {}

/** The stderr line of a run stopped by the wall clock or an internal error. */
function unjudgedLine(task: MutantTask, run: MutantRun): string {
  return (
    `${task.bug ?? 'control'} on ${task.base} at seed ${task.seed} not judged: ` +
    `${run.error ?? run.outcome}` +
    `${run.eventHash === '' ? ' (raise --seed-timeout-ms)' : ''}\n`
  );
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
  /** Wraps the pool's runner, e.g. to record its runs and answer recorded ones (`--out`). */
  readonly record?: (run: MutantRunner) => MutantRunner;
  /** See {@link MutantsCommandOptions.runUnreached}. @default false */
  readonly runUnreached?: boolean;
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
  const run: MutantRunner = async (task) => {
    const result = mutantRunOf(
      await pool.run({
        scenario: { ...line, mutant: { base: task.base, bug: task.bug } },
        seed: task.seed,
        out: undefined,
      }),
    );
    if (result.eventHash === '' || result.outcome === 'internal-error') {
      input.onUnjudged?.(task, result);
    }
    return result;
  };
  try {
    return await searchMutants({
      ids: input.ids,
      bases: genericBases(scenario),
      seeds: input.seeds,
      concurrency: input.workers * 2,
      runUnreached: input.runUnreached === true,
      run: input.record === undefined ? run : input.record(run),
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
