/**
 * Finding the smallest fix of a kind: each candidate (smallest first) is applied to the user's
 * files, the reproducer is re-run with the changed settings, and, when the reproducer no longer
 * shows the kind, a fresh sweep of the changed files must not find it in any seed. The first
 * candidate that passes both is the answer; every one tried is recorded with what it did.
 */
import { join } from 'node:path';
import { foundKinds, runScenario } from '../../sim/runner';
import type { AnomalyKind } from '../../sim/checker';
import { writeOutputFile } from '../file_io';
import type { SeedRange } from '../seeds';
import { UsageError } from '../errors';
import type { AuditInput } from './audit_files';
import { applyFix, candidateFixes, fixText, type Fix } from './audit_fixes';
import { auditScenario } from './audit_scenario';
import { fixedReproducer, reasonAt, type Reproducer } from './audit_reproduce';
import { auditSweepOf, type SweepTallies } from './audit_sweep';

/** One candidate tried, and what became of it. */
export interface TriedFix {
  readonly fix: string;
  readonly result:
    | 'verified'
    | 'no change'
    | 'refused by Kafka'
    | 'reproducer still fails'
    | 'sweep still finds it';
  /** Kafka's refusal, or the seeds the sweep still found it in. */
  readonly detail?: string;
  /** For 'sweep still finds it': the guarantee model's label at the first seed that still does. */
  readonly reason?: string;
  /** The changed files' scenario, when it was built. */
  readonly scenarioFile?: string;
}

/** What the fix search needs. */
export interface FixSearch {
  readonly input: AuditInput;
  readonly kafkaVersion: string;
  readonly baseText: string;
  readonly out: string;
  readonly seeds: SeedRange;
  readonly workers: number;
  readonly newerThan: (version: string) => boolean;
  /** Sweeps already run, by scenario text: a fix shared by two kinds is swept once. */
  readonly sweeps: Map<string, SweepTallies>;
}

/** A file name for a fix: `acks-all`, `min.insync.replicas-2+acks-all`. */
function slugOf(fix: Fix): string {
  const parts = fix.edits.map((edit) => `${edit.key}-${String(edit.value)}`);
  if (fix.kafkaVersion !== undefined) parts.push(`kafka-${fix.kafkaVersion}`);
  return parts.join('+').replace(/[^A-Za-z0-9_.+-]/g, '_');
}

/** Tries one candidate. */
async function tryFix(
  search: FixSearch,
  fix: Fix,
  evidence: { kind: AnomalyKind; reproducer: Reproducer },
): Promise<TriedFix> {
  const text = fixText(fix);
  const file = join(search.out, 'fixes', `${slugOf(fix)}.yaml`);
  let built;
  try {
    built = auditScenario(applyFix(search.input, fix), {
      kafkaVersion: fix.kafkaVersion ?? search.kafkaVersion,
      file,
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return {
      fix: text,
      result: 'refused by Kafka',
      detail: error.message.replace(/^Usage error: /, ''),
    };
  }
  if (built.text === search.baseText) return { fix: text, result: 'no change' };
  writeOutputFile(file, built.text);
  const { seed, scenario } = evidence.reproducer;
  const replay = runScenario(fixedReproducer(scenario, built.scenario), {
    seed,
    messageLog: false,
  });
  if (foundKinds(replay.report).includes(evidence.kind)) {
    return { fix: text, result: 'reproducer still fails', scenarioFile: file };
  }
  let sweep = search.sweeps.get(built.text);
  if (sweep === undefined) {
    sweep = await auditSweepOf(file, search.seeds, search.workers);
    search.sweeps.set(built.text, sweep);
  }
  const still = sweep.kinds.get(evidence.kind)?.seeds ?? [];
  if (still.length > 0) {
    const first = still[0] as string;
    const detail = `found in ${still.length} of ${sweep.seedsRun} seeds, first ${first}`;
    const reason = reasonAt(built.scenario, first, evidence.kind);
    return { fix: text, result: 'sweep still finds it', detail, reason, scenarioFile: file };
  }
  return {
    fix: text,
    result: 'verified',
    detail: `0 of ${sweep.seedsRun} seeds`,
    scenarioFile: file,
  };
}

/**
 * Tries the candidates of `kind` in order and stops at the first verified one.
 * @returns every candidate tried, the verified one (if any) last.
 */
export async function searchFix(
  search: FixSearch,
  evidence: { kind: AnomalyKind; reproducer: Reproducer },
): Promise<TriedFix[]> {
  const tried: TriedFix[] = [];
  for (const fix of candidateFixes(evidence.kind, search.newerThan)) {
    const result = await tryFix(search, fix, evidence);
    if (result.result === 'no change') continue;
    tried.push(result);
    if (result.result === 'verified') break;
  }
  return tried;
}
