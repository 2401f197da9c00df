/**
 * An audit from files to answers: read the files, build the scenario they imply, sweep it under
 * swarm mode, and for each anomaly kind found give the share of seeds, the guarantee model's
 * reason, a shrunk reproducer and the smallest verified fix.
 */
import { join } from 'node:path';
import { KAFKA_VERSIONS, type ScenarioConfig } from '../../scenarios';
import { ANOMALY_KINDS, type AnomalyKind } from '../../sim/checker';
import { makeFolder, writeOutputFile } from '../file_io';
import { seedCount, type SeedRange } from '../seeds';
import { auditInputOf, type AuditInput } from './audit_files';
import { auditScenario } from './audit_scenario';
import { reasonAt, writeReproducer, type Reproducer } from './audit_reproduce';
import { auditSweepOf, type KindTally, type SweepTallies } from './audit_sweep';
import { searchFix, type FixSearch, type TriedFix } from './audit_verify';
import { readPropertiesFile } from './properties_file';

/** Options of {@link runAudit}. */
export interface AuditOptions {
  readonly files: readonly string[];
  readonly kafkaVersion: string;
  readonly seeds: SeedRange;
  /** Seeds of each fix's sweep. */
  readonly fixSeeds: SeedRange;
  readonly workers: number;
  readonly out: string;
  /** Most runs shrinking one kind may spend. */
  readonly shrinkRunsMax: number;
  /** Progress, one line at a time. */
  readonly progress: (line: string) => void;
}

/** The answer for one anomaly kind. */
export interface KindAnswer {
  readonly kind: AnomalyKind;
  /** Absent when no seed found it. */
  readonly found?: {
    readonly tally: KindTally;
    /** The seed of the reason, reproducer and fix: the first violating one, else the first. */
    readonly seed: string;
    readonly reason: string;
    readonly reproducer: Reproducer;
    /** Every fix tried, the verified one (if any) last. */
    readonly tried: readonly TriedFix[];
  };
}

/** A finished audit. */
export interface AuditResult {
  readonly input: AuditInput;
  readonly kafkaVersion: string;
  readonly scenario: ScenarioConfig;
  readonly scenarioFile: string;
  readonly seeds: SeedRange;
  readonly fixSeeds: SeedRange;
  readonly sweep: SweepTallies;
  readonly answers: readonly KindAnswer[];
  readonly wallMs: number;
}

/** The rank of a release in {@link KAFKA_VERSIONS} (a patch counts as its release). */
function rankOf(version: string): number {
  return KAFKA_VERSIONS.findIndex(
    (release) => version === release || version.startsWith(`${release}.`),
  );
}

/** Reads the files and builds the scenario; writes it to `<out>/audit.yaml`. */
export function prepareAudit(options: Pick<AuditOptions, 'files' | 'kafkaVersion' | 'out'>): {
  input: AuditInput;
  text: string;
  scenario: ScenarioConfig;
  file: string;
} {
  const input = auditInputOf(options.files.map(readPropertiesFile));
  const file = join(options.out, 'audit.yaml');
  const built = auditScenario(input, { kafkaVersion: options.kafkaVersion, file });
  return { input, ...built, file };
}

/**
 * Runs an audit.
 * @throws UsageError for unreadable or refused files; OutputFileError when `out` is not writable.
 */
export async function runAudit(options: AuditOptions): Promise<AuditResult> {
  const startMs = performance.now();
  const { input, text, scenario, file } = prepareAudit(options);
  makeFolder(join(options.out, 'reproducers'));
  makeFolder(join(options.out, 'fixes'));
  writeOutputFile(file, text);
  options.progress(`sweeping ${file} under swarm over ${seedCount(options.seeds)} seeds`);
  const sweep = await auditSweepOf(file, options.seeds, options.workers);
  const search: FixSearch = {
    input,
    kafkaVersion: options.kafkaVersion,
    baseText: text,
    out: options.out,
    seeds: options.fixSeeds,
    workers: options.workers,
    newerThan: (version) => rankOf(version) > rankOf(options.kafkaVersion),
    sweeps: new Map(),
  };
  const answers: KindAnswer[] = [];
  for (const kind of ANOMALY_KINDS) {
    const tally = sweep.kinds.get(kind);
    if (tally === undefined) {
      answers.push({ kind });
      continue;
    }
    const seed = tally.violatingSeeds[0] ?? (tally.seeds[0] as string);
    options.progress(`${kind}: found in ${tally.seeds.length} seeds; shrinking seed ${seed}`);
    const reason = reasonAt(scenario, seed, kind);
    const reproducer = writeReproducer(scenario, {
      seed,
      kind,
      file: join(options.out, 'reproducers', `${kind}.yaml`),
      runsMax: options.shrinkRunsMax,
    });
    options.progress(`${kind}: trying fixes`);
    const tried = await searchFix(search, { kind, reproducer });
    answers.push({ kind, found: { tally, seed, reason, reproducer, tried } });
  }
  const wallMs = Math.round(performance.now() - startMs);
  return {
    input,
    kafkaVersion: options.kafkaVersion,
    scenario,
    scenarioFile: file,
    seeds: options.seeds,
    fixSeeds: options.fixSeeds,
    sweep,
    answers,
    wallMs,
  };
}
