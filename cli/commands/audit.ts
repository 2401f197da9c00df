/**
 * `eos-sim audit server.properties [producer.properties|consumer.properties ...]
 * [--kafka-version V] [--expect K] [--seeds A..B] [--report F.md|F.html]`: what the user's own
 * Kafka configuration can lose, duplicate or expose under the faults swarm mode draws (every
 * fault kind), with the guarantee model's reason, a shrunk reproducer and the smallest verified
 * fix per anomaly kind. Exit 0 when nothing `--expect` forbids was found, 1 otherwise, 64 for a
 * usage error or a file Kafka (or the model) would refuse.
 */
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { NEWEST_KAFKA_VERSION } from '../../scenarios';
import { answerRows, expectationBroken, verdictLine } from '../audit/audit_answers';
import { EXPECTATIONS, isExpectation, type Expectation } from '../audit/audit_expect';
import { auditHtml } from '../audit/audit_html';
import { auditMarkdown } from '../audit/audit_markdown';
import { runAudit, type AuditResult } from '../audit/audit_run';
import { UsageError } from '../errors';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import { writeOutputFile } from '../file_io';
import type { CliContext } from '../io';
import { parseKafkaVersion } from '../kafka_version';
import { checkOutputFile } from '../output_paths';
import { parseSeedRange, seedCount, type SeedRange } from '../seeds';
import { parsePositiveInteger } from '../sweep_output';

/** The default seeds: 4 to 5 minutes per bundled example on two shared cores (docs/audit.md). */
export const AUDIT_SEEDS_DEFAULT = '1..20';
/** The default output folder of the scenario, reproducers and fixes. */
export const AUDIT_OUT_DEFAULT = '.eos-sim/audit';
/** Runs shrinking one kind may spend by default. */
const SHRINK_RUNS_DEFAULT = 40;

/** The parsed arguments of `eos-sim audit`. */
export interface AuditCommandOptions {
  readonly files: readonly string[];
  readonly kafkaVersion?: string | undefined;
  /** @default 'exactly-once' */
  readonly expect?: string | undefined;
  readonly seeds?: string | undefined;
  /** `--fix-seeds`: each fix's sweep. @default the first quarter of --seeds, at least 10 */
  readonly fixSeeds?: string | undefined;
  readonly workers?: string | undefined;
  readonly out?: string | undefined;
  readonly reports?: readonly string[];
  readonly shrinkRunsMax?: string | undefined;
}

function expectationOf(text: string | undefined): Expectation {
  const value = text ?? 'exactly-once';
  if (isExpectation(value)) return value;
  throw new UsageError(`--expect must be one of ${EXPECTATIONS.join(', ')}: got "${value}"`);
}

/** The first quarter of `seeds`, at least 10 seeds (all of them when fewer). */
function fixSeedsOf(seeds: SeedRange): SeedRange {
  const count = BigInt(Math.min(seedCount(seeds), Math.max(10, Math.ceil(seedCount(seeds) / 4))));
  return { first: seeds.first, last: String(BigInt(seeds.first) + count - 1n) };
}

function checkReports(reports: readonly string[]): void {
  for (const report of reports) {
    if (!['.md', '.html'].includes(extname(report))) {
      throw new UsageError(`--report must end in .md or .html: got "${report}"`);
    }
    checkOutputFile('--report', report);
  }
}

/** The answer as the console prints it: the verdict, then one block per found kind. */
function consoleText(result: AuditResult, expectation: Expectation): string {
  const rows = answerRows(result, expectation);
  const lines = [verdictLine(result, expectation), ''];
  for (const row of rows.filter((item) => item.found)) {
    lines.push(
      `${row.kind}${row.forbidden ? ' (forbidden)' : ''}: ${row.possible}`,
      `  why        ${row.why}`,
      `  fix        ${row.fix}`,
      `  reproducer ${row.reproducer ?? ''}`,
    );
  }
  const absent = rows.filter((item) => !item.found).map((item) => item.kind);
  lines.push(`not found: ${absent.length === 0 ? 'none' : absent.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

/**
 * Runs `eos-sim audit` and returns its exit code.
 * @throws UsageError for bad arguments or files; OutputFileError when `--out` is not writable.
 * @example await auditCommand({ files: ['examples/audit/durable/server.properties'] }, context)
 */
export async function auditCommand(
  options: AuditCommandOptions,
  context: CliContext,
): Promise<ExitCode> {
  const expectation = expectationOf(options.expect);
  const kafkaVersion = parseKafkaVersion(options.kafkaVersion) ?? NEWEST_KAFKA_VERSION;
  const seeds = parseSeedRange(options.seeds ?? AUDIT_SEEDS_DEFAULT);
  const fixSeeds =
    options.fixSeeds === undefined ? fixSeedsOf(seeds) : parseSeedRange(options.fixSeeds);
  const workers =
    options.workers === undefined
      ? availableParallelism()
      : parsePositiveInteger('--workers', options.workers, 256);
  const shrinkRunsMax =
    options.shrinkRunsMax === undefined
      ? SHRINK_RUNS_DEFAULT
      : parsePositiveInteger('--shrink-runs-max', options.shrinkRunsMax, 100_000);
  const reports = options.reports ?? [];
  checkReports(reports);
  const out = options.out ?? AUDIT_OUT_DEFAULT;
  const { stdout, stderr } = context.io;
  const result = await runAudit({
    files: options.files,
    kafkaVersion,
    seeds,
    fixSeeds,
    workers,
    out,
    shrinkRunsMax,
    progress: (line) => stderr.write(`audit: ${line}\n`),
  });
  for (const report of reports) {
    const text =
      extname(report) === '.md'
        ? auditMarkdown(result, expectation, report)
        : auditHtml(result, expectation, report);
    writeOutputFile(report, text);
  }
  stdout.write(consoleText(result, expectation));
  stdout.write(`scenario, reproducers and fixes in ${join(out, '')}\n`);
  return expectationBroken(result, expectation) ? EXIT_CODES.fail : EXIT_CODES.ok;
}
