/**
 * `results.jsonl`: one canonical JSON line (sorted keys) per (scenario, seed), appended as each
 * seed finishes. A line is written with one `write` call, newline last, so a sweep killed at any
 * moment leaves complete lines and at most one truncated line at the end. Reading tolerates that
 * truncated tail, and `repair` cuts it off before new lines are appended after it. Any other line
 * that does not parse is an error naming the file and line number: a results file is never
 * silently half-read.
 */
import { readFileSync, truncateSync } from 'node:fs';
import { AppendFile } from './file_io';
import { z } from 'zod';
import { SWEEP_OUTCOMES, type SweepResultLine } from '../reports';
import { UsageError } from './errors';

/** The file name of the results stream inside `--out`. */
export const RESULTS_FILE_NAME = 'results.jsonl';

const counts = z.record(z.string(), z.number().int().nonnegative());

/** The shape of a result line; unknown keys are dropped. */
const resultLineSchema = z.object({
  file: z.string(),
  scenario: z.string(),
  hash: z.string(),
  seed: z.string(),
  version: z.string(),
  outcome: z.enum(SWEEP_OUTCOMES as [SweepResultLine['outcome'], ...SweepResultLine['outcome'][]]),
  anomalies: counts,
  expected: z.array(z.string()),
  allowed: z.array(z.string()).default([]),
  detectPercentMin: z.number(),
  unexpected: z.array(z.string()),
  covered: z.record(z.string(), z.string()).optional(),
  unmet: z.array(z.string()),
  coverage: counts,
  eventHash: z.string(),
  eventsRun: z.number().int().nonnegative(),
  simulatedUs: z.number().int().nonnegative(),
  reproduce: z.string(),
  error: z.string().optional(),
  stack: z.string().optional(),
  wallMs: z.number().nonnegative(),
});

/**
 * `value` as JSON with every object's keys sorted, no spaces: the canonical form (style rule 16).
 * @example canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    const entries = Object.entries(item as Record<string, unknown>);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [key, entry] of entries) sorted[key] = entry;
    return sorted;
  });
}

/**
 * The line without `wallMs`, canonical: equal for two runs of the same seed on any worker.
 * @example comparableLine(line) === comparableLine({ ...line, wallMs: 0 }) // true
 */
export function comparableLine(line: SweepResultLine): string {
  const { wallMs: _wallMs, ...rest } = line;
  return canonicalJson(rest);
}

/**
 * The key that identifies a result: scenario file and seed.
 * @example resultKey({ file: 'a.yaml', seed: '7' }) // 'a.yaml 7'
 */
export function resultKey(line: Pick<SweepResultLine, 'file' | 'seed'>): string {
  return `${line.file} ${line.seed}`;
}

/** What {@link readResults} found. */
export interface ResultsRead {
  readonly lines: SweepResultLine[];
  /** Bytes of an incomplete last line (a write cut short by a kill); 0 when none. */
  readonly truncatedTailBytes: number;
}

/** Options of {@link readLineFile}. */
export interface LineFileOptions {
  /** Cut a truncated last line off the file, so appends start on a fresh line. */
  readonly repair: boolean;
  /** A missing file reads as empty. */
  readonly missingOk: boolean;
}

/**
 * Reads a file of JSON lines written as {@link ResultsWriter} writes them: each complete line is
 * parsed by `parse` (given the line and `path:line` for its error), and an incomplete last line
 * (a kill during a write) is ignored, and with `repair` cut off the file.
 * @throws {@link UsageError} for a missing file (unless `missingOk`), or what `parse` throws.
 * @example readLineFile('out/runs.jsonl', { repair: true, missingOk: true }, parseRunLine)
 */
export function readLineFile<T>(
  path: string,
  options: LineFileOptions,
  parse: (raw: string, where: string) => T,
): { readonly lines: T[]; readonly truncatedTailBytes: number } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    if (missing && options.missingOk) return { lines: [], truncatedTailBytes: 0 };
    if (missing) throw new UsageError(`results file not found: ${path}`);
    throw error;
  }
  const end = text.lastIndexOf('\n') + 1;
  const tail = text.slice(end);
  if (tail !== '' && options.repair) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  const lines = text
    .slice(0, end)
    .split('\n')
    .slice(0, -1)
    .map((raw, index) => parse(raw, `${path}:${index + 1}`));
  return { lines, truncatedTailBytes: Buffer.byteLength(tail) };
}

/**
 * Reads a results file. A missing file reads as empty when `missingOk`.
 * @param repair - Cut a truncated last line off the file, so appends start on a fresh line.
 * @throws {@link UsageError} for a line that is not a result line, or a missing file.
 * @example readResults('.eos-sim/sweep/results.jsonl', { repair: true, missingOk: true })
 */
export function readResults(path: string, options: LineFileOptions): ResultsRead {
  return readLineFile(path, options, parseLine);
}

function parseLine(raw: string, where: string): SweepResultLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UsageError(`${where} is not a result line: not JSON`);
  }
  const parsed = resultLineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue === undefined ? '' : issue.path.join('.');
    throw new UsageError(`${where} is not a result line: ${key} ${issue?.message ?? ''}`.trim());
  }
  const { error, stack, covered, ...rest } = parsed.data;
  return {
    ...rest,
    ...(covered === undefined ? {} : { covered }),
    ...(error === undefined ? {} : { error }),
    ...(stack === undefined ? {} : { stack }),
  };
}

/** Appends result lines to a file, one `write` per line. */
export class ResultsWriter {
  private readonly file: AppendFile;

  /**
   * Opens `path` for appending, creating it when missing; a symbolic link there is refused
   * (exit 73) rather than followed.
   */
  constructor(readonly path: string) {
    this.file = new AppendFile(path, { truncate: false });
  }

  /** Appends `line` in canonical form, newline last, in one write. */
  append(line: SweepResultLine): void {
    this.file.append(`${canonicalJson(line)}\n`);
  }

  close(): void {
    this.file.close();
  }
}
