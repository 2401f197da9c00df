/**
 * What `eos-sim sweep` and `eos-sim report merge` share once the result lines are in: building
 * the summary (with coverage and `--require-coverage`), validating the coverage names and the
 * numeric flags, and writing JUnit XML.
 */
import { writeOutputFile } from './file_io';
import { hostname } from 'node:os';
import { COVERAGE_CATEGORIES, coverageCategoryOf } from '../sim/runner';
import { renderJunit, type SweepResultLine, type SweepSummary, type SweepTiming } from '../reports';
import { UsageError } from './errors';
import {
  compareSeeds,
  requiredCoverageOf,
  type CoverageTally,
  type ScenarioTally,
} from './sweep_tally';

/**
 * Parses `--require-coverage a,b`: names are `category:name` with a known category, or bare.
 * @throws {@link UsageError} for an empty list or an unknown category.
 * @example parseCoverageNames('fault:pause,PRODUCER_FENCED') // ['fault:pause', 'PRODUCER_FENCED']
 */
export function parseCoverageNames(text: string): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--require-coverage must name at least one item');
  for (const name of names) {
    if (name.includes(':') && coverageCategoryOf(name) === undefined) {
      throw new UsageError(
        `--require-coverage items are category:name with a category of ` +
          `${COVERAGE_CATEGORIES.join(', ')}: got "${name}"`,
      );
    }
  }
  return names;
}

/**
 * Parses a positive integer flag such as `--workers 4`.
 * @throws {@link UsageError} for anything else, or a value above `max`.
 * @example parsePositiveInteger('--workers', '4', 1024) // 4
 */
export function parsePositiveInteger(flag: string, text: string, max: number): number {
  if (!/^[1-9][0-9]*$/.test(text) || Number(text) > max) {
    throw new UsageError(`${flag} must be an integer from 1 to ${max}: got "${text}"`);
  }
  return Number(text);
}

/** The summary of tallied lines. */
export function summaryOf(input: {
  readonly tallies: readonly ScenarioTally[];
  readonly coverage: CoverageTally;
  readonly requireCoverage: readonly string[];
  readonly timing?: SweepTiming;
}): SweepSummary {
  const coverage = input.coverage.counts();
  return {
    scenarios: input.tallies.map((tally) => tally.summary()),
    coverage,
    ...(input.requireCoverage.length === 0
      ? {}
      : { requiredCoverage: requiredCoverageOf(input.requireCoverage, coverage) }),
    ...(input.timing === undefined ? {} : { timing: input.timing }),
  };
}

/** The local time as JUnit's timestamp wants it: ISO 8601 without a zone. */
function junitTimestamp(): string {
  return new Date().toISOString().slice(0, 19);
}

/**
 * Writes the JUnit XML of `lines` to `path`: one suite per scenario file, in first-seen order,
 * test cases in seed order.
 * @example writeJunit('junit.xml', lines, (line) => artifactDir(out, line.scenario, line.seed))
 */
export function writeJunit(
  path: string,
  lines: readonly SweepResultLine[],
  artifactDirOf?: (line: SweepResultLine) => string,
): void {
  const byFile = new Map<string, SweepResultLine[]>();
  for (const line of lines) {
    const group = byFile.get(line.file) ?? [];
    group.push(line);
    byFile.set(line.file, group);
  }
  const suites = [...byFile].map(([file, group]) => {
    group.sort((a, b) => compareSeeds(a.seed, b.seed));
    const first = group[0] as SweepResultLine;
    return { scenario: first.scenario, file, hash: first.hash, lines: group };
  });
  const options = {
    timestamp: junitTimestamp(),
    hostname: hostname(),
    ...(artifactDirOf === undefined ? {} : { artifactDirOf }),
  };
  writeOutputFile(path, renderJunit(suites, options));
}
