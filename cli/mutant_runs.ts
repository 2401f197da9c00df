/**
 * `eos-sim mutants --out DIR [--resume]`: the search's runs on disk, so a search of hours
 * survives a kill and spans sessions. `<out>/runs.jsonl` starts with one settings line (the
 * base file's hash, the seed range, the switches, the bases) and then holds one canonical JSON
 * line per finished run (switch or control, base, seed and what `judgeCatch` needs),
 * appended in one write the moment the run finishes, as `results.jsonl` of `eos-sim sweep`
 * (cli/results_file.ts, whose reader this shares: a truncated last line is ignored and cut off).
 * `--resume` reads the runs back and hands them to the search instead of running them again;
 * since the search's results do not depend on the order runs finish in (cli/mutant_search.ts),
 * the table after a kill and a resume is the one an uninterrupted search prints. A resume under
 * other settings is refused: the recorded runs would answer another question. At the end the
 * table goes to `<out>/table.md` and `<out>/table.json`. The folder is locked for the search
 * (cli/out_lock.ts), as a sweep's.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { SWEEP_OUTCOMES, type SweepResultLine } from '../reports';
import { UsageError } from './errors';
import { AppendFile, makeFolder, writeOutputFile } from './file_io';
import type { MutantSearchOutput, MutantTask } from './mutant_search';
import { renderBaseChecks, renderMutantTable, type MutantRun, type MutantResult } from './mutants';
import { lockOut } from './out_lock';
import { canonicalJson, readLineFile } from './results_file';

/** The file name of the runs stream inside `--out`. */
export const RUNS_FILE_NAME = 'runs.jsonl';
/** The file names of the final table inside `--out`. */
export const TABLE_FILE_NAMES = { markdown: 'table.md', json: 'table.json' } as const;

/** What a search asks: the runs of `runs.jsonl` answer these settings and no others. */
export interface MutantSettings {
  /** The eos-sim version the runs were made with. */
  readonly version: string;
  /** The generic scenario file, as given. */
  readonly file: string;
  /** Its scenario hash: another version of the file is another search. */
  readonly hash: string;
  readonly seeds: { readonly first: string; readonly last: string };
  readonly switches: readonly string[];
  /** The labels of the bases the switches are tried on (cli/mutants.ts `controlBases`). */
  readonly bases: readonly string[];
}

const outcome = z.enum(
  SWEEP_OUTCOMES as [SweepResultLine['outcome'], ...SweepResultLine['outcome'][]],
);

const settingsLine = z.object({
  type: z.literal('settings'),
  version: z.string(),
  file: z.string(),
  hash: z.string(),
  seeds: z.object({ first: z.string(), last: z.string() }),
  switches: z.array(z.string()),
  bases: z.array(z.string()),
});

const runLine = z.object({
  type: z.literal('run'),
  base: z.string(),
  bug: z.string().nullable(),
  seed: z.string(),
  outcome,
  eventHash: z.string(),
  kind: z.string(),
  found: z.array(z.string()).optional(),
  error: z.string().optional(),
  reached: z.array(z.string()).optional(),
});

const line = z.discriminatedUnion('type', [settingsLine, runLine]);
type Line = z.infer<typeof line>;

function parseLine(raw: string, where: string): Line {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(`${where} is not a mutants run line: not JSON`);
  }
  const parsed = line.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue === undefined ? '' : issue.path.join('.');
    throw new UsageError(`${where} is not a mutants run line: ${key} ${issue?.message ?? ''}`);
  }
  return parsed.data;
}

/**
 * The key of a run among the recorded ones: seed, base and switch (`control` for none).
 * @example runKey({ seed: '7', base: 'tv0', bug: null }) // '7 tv0 control'
 */
export function runKey(task: MutantTask): string {
  return `${task.seed} ${task.base} ${task.bug ?? 'control'}`;
}

/** The recorded line of a finished run. */
function lineOf(task: MutantTask, run: MutantRun): Line {
  return {
    type: 'run',
    base: task.base,
    bug: task.bug,
    seed: task.seed,
    outcome: run.outcome,
    eventHash: run.eventHash,
    kind: run.kind,
    ...(run.found === undefined ? {} : { found: [...run.found] }),
    ...(run.error === undefined ? {} : { error: run.error }),
    ...(run.reached === undefined ? {} : { reached: [...run.reached] }),
  };
}

/** The run a recorded line stands for. */
function runOf(recorded: z.infer<typeof runLine>): MutantRun {
  const { outcome: result, eventHash, kind, found, error, reached } = recorded;
  return {
    outcome: result,
    eventHash,
    kind,
    ...(found === undefined ? {} : { found }),
    ...(error === undefined ? {} : { error }),
    ...(reached === undefined ? {} : { reached }),
  };
}

/** How `recorded` differs from `wanted`, one phrase per setting; empty when it does not. */
function differences(recorded: MutantSettings, wanted: MutantSettings): string[] {
  const phrases: string[] = [];
  const range = (settings: MutantSettings): string =>
    `${settings.seeds.first}..${settings.seeds.last}`;
  const compare = (name: string, there: string, here: string): void => {
    if (there !== here) phrases.push(`${name} ${there} there, ${here} here`);
  };
  compare('seeds', range(recorded), range(wanted));
  compare('switches', recorded.switches.join(',') || '(none)', wanted.switches.join(','));
  compare('bases', recorded.bases.join(',') || '(none)', wanted.bases.join(','));
  if (recorded.hash !== wanted.hash) {
    phrases.push(`base file ${recorded.file} (another file or version) there, ${wanted.file} here`);
  }
  compare('eos-sim version', recorded.version, wanted.version);
  return phrases;
}

/**
 * The recorded runs of `path` by {@link runKey} (the first line of a key wins), after checking
 * its settings line against `settings`; undefined when the file holds no settings line yet.
 * @throws {@link UsageError} for other settings, or a line that is not a mutants line.
 */
function readRecorded(path: string, settings: MutantSettings): Map<string, MutantRun> | undefined {
  const { lines } = readLineFile(path, { repair: true, missingOk: true }, parseLine);
  const [first, ...runs] = lines;
  if (first === undefined) return undefined;
  if (first.type !== 'settings') {
    throw new UsageError(`${path}:1 is not the settings line of a mutants search`);
  }
  const { type: _type, ...recorded } = first;
  const differ = differences(recorded, settings);
  if (differ.length > 0) {
    throw new UsageError(
      `${path} records another mutants search (${differ.join('; ')}): rerun with its ` +
        'settings, use another --out, or drop --resume to start over',
    );
  }
  const byKey = new Map<string, MutantRun>();
  runs.forEach((run, index) => {
    if (run.type !== 'run') throw new UsageError(`${path}:${index + 2} is a second settings line`);
    const key = runKey({ seed: run.seed, base: run.base, bug: run.bug as MutantTask['bug'] });
    if (!byKey.has(key)) byKey.set(key, runOf(run));
  });
  return byKey;
}

/** A runner of the search, as {@link MutantSearchOutput} is computed from. */
export type MutantRunner = (task: MutantTask) => Promise<MutantRun>;

/** The open `--out` folder of a search: see {@link openMutantOut}. */
export interface MutantOut {
  /** `<out>/runs.jsonl`. */
  readonly path: string;
  /** Runs read back from `runs.jsonl` (0 for a fresh search). */
  readonly recordedRuns: number;
  /** How many runs the search took from `runs.jsonl` instead of running them. */
  replayed(): number;
  /** `run`, answering recorded runs from the file and appending every new one to it. */
  record(run: MutantRunner): MutantRunner;
  /** Writes `table.md` and `table.json`; returns their paths. */
  writeTables(output: MutantSearchOutput, seeds: readonly string[]): string[];
  /** Closes `runs.jsonl` and releases the folder's lock. */
  close(): void;
}

/**
 * Opens `out` for a search with `settings`: locks it, and either starts `runs.jsonl` afresh
 * (its settings line first) or, with `resume`, reads the runs it records.
 * @throws {@link UsageError} when another live process holds `out`, or the recorded settings
 * are not `settings`.
 * @example const out = openMutantOut({ out: 'sweeps/mutants-2000', resume: true, settings })
 */
export function openMutantOut(input: {
  readonly out: string;
  readonly resume: boolean;
  readonly settings: MutantSettings;
}): MutantOut {
  const { out, settings } = input;
  makeFolder(out);
  const release = lockOut(out);
  const path = join(out, RUNS_FILE_NAME);
  let file: AppendFile;
  let recorded: Map<string, MutantRun> | undefined;
  try {
    recorded = input.resume ? readRecorded(path, settings) : undefined;
    file = new AppendFile(path, { truncate: recorded === undefined });
    if (recorded === undefined)
      file.append(`${canonicalJson({ type: 'settings', ...settings })}\n`);
  } catch (error) {
    release();
    throw error;
  }
  const known = recorded ?? new Map<string, MutantRun>();
  let replayed = 0;
  return {
    path,
    recordedRuns: known.size,
    replayed: () => replayed,
    record: (run) => async (task) => {
      const answer = known.get(runKey(task));
      if (answer !== undefined) {
        replayed += 1;
        return answer;
      }
      const result = await run(task);
      file.append(`${canonicalJson(lineOf(task, result))}\n`);
      return result;
    },
    writeTables: (output, seeds) => writeTables(out, { settings, output, seeds }),
    close: () => {
      try {
        file.close();
      } finally {
        release();
      }
    },
  };
}

/** The table in Markdown: the settings, the table (with its rule row) and the bases' checks. */
export function renderMutantMarkdown(input: {
  readonly settings: MutantSettings;
  readonly output: MutantSearchOutput;
  readonly seeds: readonly string[];
}): string {
  const { settings, output } = input;
  const [header = '', ...rows] = renderMutantTable(output.results).trimEnd().split('\n');
  const rule = header
    .split(' | ')
    .map((cell) => '-'.repeat(Math.max(3, cell.length)))
    .join(' | ');
  const checks = renderBaseChecks(output.controls, input.seeds)
    .trimEnd()
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => `- ${text}`);
  return [
    '# eos-sim mutants',
    '',
    `Base \`${settings.file}\` (${settings.bases.join(', ')}), swarm mode, seeds ` +
      `${settings.seeds.first}..${settings.seeds.last}, eos-sim ${settings.version}.`,
    '',
    header,
    rule,
    ...rows,
    '',
    ...checks,
    '',
  ].join('\n');
}

/** Writes `table.md` and `table.json` into `out`; returns their paths. */
function writeTables(
  out: string,
  input: {
    readonly settings: MutantSettings;
    readonly output: MutantSearchOutput;
    readonly seeds: readonly string[];
  },
): string[] {
  const markdown = join(out, TABLE_FILE_NAMES.markdown);
  const json = join(out, TABLE_FILE_NAMES.json);
  writeOutputFile(markdown, renderMutantMarkdown(input));
  const { results, controls } = input.output;
  const table: { settings: MutantSettings; results: readonly MutantResult[]; controls: unknown } = {
    settings: input.settings,
    results,
    controls,
  };
  writeOutputFile(json, `${JSON.stringify(table, null, 2)}\n`);
  return [markdown, json];
}
