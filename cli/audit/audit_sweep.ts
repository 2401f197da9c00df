/**
 * The audit's sweeps: the generated scenario file under swarm mode on the sweep engine's worker
 * pool, tallied per anomaly kind: the seeds that found it and whether, in each, the guarantee
 * model called it permitted by Kafka (`kafka:<permission>`) or a violation.
 */
import { SEED_TIMEOUT_MS_DEFAULT } from '../commands/sweep';
import type { SeedRange } from '../seeds';
import { WHOLE } from '../shard';
import { planSweep, runSweep } from '../sweep';

/** What one sweep found of one kind. */
export interface KindTally {
  /** Seeds that found the kind, in seed order. */
  readonly seeds: readonly string[];
  /** Seeds where some anomaly of the kind violates Kafka's guarantee. */
  readonly violatingSeeds: readonly string[];
  /** The permissions that covered it, with the number of seeds each did. */
  readonly permissions: Readonly<Record<string, number>>;
}

/** A finished sweep. */
export interface SweepTallies {
  readonly seedsRun: number;
  readonly kinds: ReadonlyMap<string, KindTally>;
  /** Seeds whose cluster did not settle after the faults healed. */
  readonly livenessSeeds: readonly string[];
  /** Seeds the simulator could not finish (internal error, budget). */
  readonly errorSeeds: readonly string[];
  readonly wallMs: number;
}

function bySeed(a: string, b: string): number {
  return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
}

/**
 * Sweeps `file` under swarm mode over `seeds` on `workers` threads.
 * @example (await auditSweepOf('.eos-sim/audit/audit.yaml', { first: '1', last: '20' }, 2)).kinds
 */
export async function auditSweepOf(
  file: string,
  seeds: SeedRange,
  workers: number,
): Promise<SweepTallies> {
  const output = await runSweep({
    plans: planSweep([file], seeds),
    workers,
    shard: WHOLE,
    out: undefined,
    resume: false,
    seedTimeoutMs: SEED_TIMEOUT_MS_DEFAULT,
    keepLines: true,
    swarm: true,
  });
  const found = new Map<
    string,
    { seeds: string[]; violating: string[]; by: Record<string, number> }
  >();
  const livenessSeeds: string[] = [];
  const errorSeeds: string[] = [];
  for (const line of output.lines ?? []) {
    if (line.outcome === 'liveness') livenessSeeds.push(line.seed);
    if (line.outcome !== 'pass' && line.outcome !== 'fail' && line.outcome !== 'liveness') {
      errorSeeds.push(line.seed);
    }
    for (const kind of Object.keys(line.anomalies)) {
      const entry = found.get(kind) ?? { seeds: [], violating: [], by: {} };
      found.set(kind, entry);
      entry.seeds.push(line.seed);
      const covered = line.covered?.[kind] ?? '';
      if (covered.startsWith('kafka:')) entry.by[covered] = (entry.by[covered] ?? 0) + 1;
      else entry.violating.push(line.seed);
    }
  }
  const kinds = new Map<string, KindTally>();
  for (const [kind, entry] of found) {
    kinds.set(kind, {
      seeds: [...entry.seeds].sort(bySeed),
      violatingSeeds: [...entry.violating].sort(bySeed),
      permissions: entry.by,
    });
  }
  return {
    seedsRun: output.lines?.length ?? 0,
    kinds,
    livenessSeeds: livenessSeeds.sort(bySeed),
    errorSeeds: errorSeeds.sort(bySeed),
    wallMs: output.timing.wallMs,
  };
}
