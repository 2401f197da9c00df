/**
 * `eos-sim report merge <results.jsonl...> [--junit F] [--json] [--require-coverage a,b]`:
 * combines the results files of the shards of a sweep (or of a sweep and its resumption) into one
 * summary, exit code and JUnit file. Lines are deduplicated by scenario file and seed; two lines
 * for the same seed that differ in anything but `wallMs` are a conflict: the same seed gave two
 * results, so either the shards ran different builds or the simulator is not deterministic.
 * Conflicts are listed and the command exits 3 (nondeterminism), or 64 when the two lines name
 * different scenario hashes or versions (the shards ran different inputs).
 */
import type { SweepResultLine } from '../../reports';
import { renderSweepSummary } from '../../reports';
import { EXIT_CODES, exitCodeForSweep, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { checkOutputFile } from '../output_paths';
import { comparableLine, readResults, resultKey } from '../results_file';
import { parseCoverageNames, summaryOf, writeJunit } from '../sweep_output';
import { CoverageTally, ScenarioTally, compareSeeds } from '../sweep_tally';

/** The parsed arguments of `eos-sim report merge`. */
export interface MergeCommandOptions {
  /** Results files (`results.jsonl` of each shard). */
  readonly files: readonly string[];
  /** `--junit F`: write JUnit XML to F. */
  readonly junit: string | undefined;
  /** `--json`: print the summary as JSON. @default false */
  readonly json: boolean;
  /** `--require-coverage a,b`. */
  readonly requireCoverage: string | undefined;
  /**
   * `--allow-gaps`: missing seeds and empty input are warnings, not failures (exit 1).
   * @default false
   */
  readonly allowGaps?: boolean;
}

/** Two different results for one seed. */
interface Conflict {
  readonly first: SweepResultLine;
  readonly second: SweepResultLine;
}

/** What differs between two lines of one seed, for the conflict message. */
function describeConflict({ first, second }: Conflict): string {
  const fields = ['hash', 'version', 'outcome', 'eventHash'] as const;
  const differences = fields
    .filter((field) => first[field] !== second[field])
    .map((field) => `${field} ${first[field] || '(none)'} vs ${second[field] || '(none)'}`);
  const detail = differences.length === 0 ? 'the lines differ' : differences.join(', ');
  return `Conflicting results for ${first.file} seed ${first.seed}: ${detail}`;
}

/** Every distinct line of `files`, and the conflicts between lines of one seed. */
function mergeLines(
  files: readonly string[],
  warn: (text: string) => void,
): { lines: SweepResultLine[]; conflicts: Conflict[] } {
  const byKey = new Map<string, SweepResultLine>();
  const conflicts: Conflict[] = [];
  for (const file of files) {
    const read = readResults(file, { repair: false, missingOk: false });
    if (read.truncatedTailBytes > 0) {
      warn(
        `Warning: ${file} ends in an unfinished line (${read.truncatedTailBytes} bytes): skipped`,
      );
    }
    for (const line of read.lines) {
      const key = resultKey(line);
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, line);
      else if (comparableLine(seen) !== comparableLine(line)) {
        conflicts.push({ first: seen, second: line });
      }
    }
  }
  return { lines: [...byKey.values()], conflicts };
}

/** One tally per scenario file, in file order, each over the seeds its lines cover. */
function tallyLines(lines: readonly SweepResultLine[]): ScenarioTally[] {
  const byFile = new Map<string, SweepResultLine[]>();
  for (const line of lines) {
    const group = byFile.get(line.file) ?? [];
    group.push(line);
    byFile.set(line.file, group);
  }
  const files = [...byFile.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return files.map((file) => {
    const group = (byFile.get(file) ?? []).sort((a, b) => compareSeeds(a.seed, b.seed));
    const first = group[0] as SweepResultLine;
    const last = group[group.length - 1] as SweepResultLine;
    const tally = new ScenarioTally({
      scenario: first.scenario,
      file,
      seeds: { first: first.seed, last: last.seed },
      expected: first.expected,
      allowed: first.allowed,
      detectPercentMin: first.detectPercentMin,
    });
    for (const line of group) tally.add(line);
    return tally;
  });
}

/** Missing seeds listed in a gap warning before `…`. */
const MISSING_SHOWN = 10;

/**
 * A warning for each scenario whose recorded seeds leave gaps between its lowest and highest
 * seed: a shard that was not merged, or one that was cancelled. Lines do not record the range a
 * sweep was asked for, so seeds missing below the lowest or above the highest go unseen.
 * @example
 * // 'a.yaml: 6 of the 8 seeds 1..8 are recorded; missing 2, 5 (a shard not merged?)'
 */
function seedGaps(tallies: readonly ScenarioTally[], lines: readonly SweepResultLine[]) {
  const warnings: string[] = [];
  for (const tally of tallies) {
    const { file, seeds } = tally.summary();
    if (!/^\d+$/.test(seeds.first) || !/^\d+$/.test(seeds.last)) continue;
    const present = new Set(lines.filter((line) => line.file === file).map((line) => line.seed));
    const span = BigInt(seeds.last) - BigInt(seeds.first) + 1n;
    if (BigInt(present.size) >= span) continue;
    const missing: string[] = [];
    const last = BigInt(seeds.last);
    for (let seed = BigInt(seeds.first); seed <= last && missing.length <= MISSING_SHOWN; seed++) {
      if (!present.has(seed.toString())) missing.push(seed.toString());
    }
    const shown = missing.slice(0, MISSING_SHOWN).join(', ');
    const more = missing.length > MISSING_SHOWN ? ', …' : '';
    warnings.push(
      `${file}: ${present.size} of the ${span} seeds ${seeds.first}..${seeds.last} ` +
        `are recorded; missing ${shown}${more} (a shard not merged, or one that did not finish?)`,
    );
  }
  return warnings;
}

/**
 * Runs `eos-sim report merge` and returns its exit code.
 * @throws UsageError for a missing or malformed results file, or a --junit path that cannot be
 * written.
 * @example mergeCommand({ files: ['a.jsonl', 'b.jsonl'], junit: 'junit.xml', json: false,
 *   requireCoverage: undefined }, context)
 */
export function mergeCommand(options: MergeCommandOptions, context: CliContext): ExitCode {
  const { stdout, stderr } = context.io;
  if (options.junit !== undefined) checkOutputFile('--junit', options.junit);
  const requireCoverage =
    options.requireCoverage === undefined ? [] : parseCoverageNames(options.requireCoverage);
  const { lines, conflicts } = mergeLines(options.files, (text) => stderr.write(`${text}\n`));
  for (const conflict of conflicts) stderr.write(`${describeConflict(conflict)}\n`);
  const tallies = tallyLines(lines);
  const gaps = seedGaps(tallies, lines);
  if (lines.length === 0) gaps.unshift('the results files hold no result lines');
  // A CI merge job must not go green when shards died: gaps fail unless --allow-gaps.
  const gapLabel = options.allowGaps === true ? 'Warning' : 'Error';
  for (const gap of gaps) stderr.write(`${gapLabel}: ${gap}\n`);
  const coverage = new CoverageTally();
  for (const line of lines) coverage.add(line);
  const summary = summaryOf({ tallies, coverage, requireCoverage });
  if (options.junit !== undefined) writeJunit(options.junit, lines);
  stdout.write(
    options.json
      ? `${JSON.stringify(summary, null, 2)}\n`
      : renderSweepSummary(summary, { colour: context.colour }),
  );
  if (conflicts.length > 0) {
    const inputs = conflicts.some(
      ({ first, second }) => first.hash !== second.hash || first.version !== second.version,
    );
    return inputs ? EXIT_CODES.usage : EXIT_CODES.nondeterminism;
  }
  const verdict = exitCodeForSweep(summary);
  if (gaps.length === 0 || options.allowGaps === true || verdict !== EXIT_CODES.ok) return verdict;
  stderr.write('Merge incomplete: exit 1; pass --allow-gaps to accept the missing seeds\n');
  return EXIT_CODES.fail;
}
