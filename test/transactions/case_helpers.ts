/**
 * Shared queries for the transaction case tests: one run of a bundled scenario, a partition as
 * its leader holds it at the end, and what a client delivered or was told.
 */
import { runScenario, type RunResult } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import type { OraclePartition } from '../../sim/history';
import { deliveredRecords, readOps, valuesSentBy } from '../scenario/history_queries';

/** Runs `scenarios/<name>.yaml` with one seed. */
export function runCase(name: string, seed: string): RunResult {
  return runScenario(loadScenario(`scenarios/${name}.yaml`), { seed });
}

/** The final state of one partition. */
export function partitionOf(run: RunResult, topic: string, partition = 0): OraclePartition {
  const found = run.oracle.partitions.find(
    (candidate) => candidate.topic === topic && candidate.partition === partition,
  );
  if (found === undefined) throw new Error(`no partition ${topic}-${partition}`);
  return found;
}

/** The values a client's polls delivered from one topic. */
export function polledValues(run: RunResult, client: string, topic: string): number[] {
  return deliveredRecords(readOps(run.history, { f: 'poll', client }))
    .filter((record) => record.topic === topic)
    .map((record) => record.value);
}

/** The values the final read at one isolation level delivered from one topic. */
export function finalValues(
  run: RunResult,
  isolationLevel: 'read_committed' | 'read_uncommitted',
  topic: string,
): number[] {
  return deliveredRecords(readOps(run.history, { f: 'final-read', isolationLevel }))
    .filter((record) => record.topic === topic)
    .map((record) => record.value);
}

/** Every value a client sent. */
export function sentValues(run: RunResult, client: string): Set<number> {
  return valuesSentBy(run.history, client);
}

/** The errors a client's transactions completed with, in order. */
export function txnErrors(run: RunResult, client: string): string[] {
  return run.history.flatMap((op) =>
    op.client === client && op.f === 'txn' && op.type !== 'invoke' ? [op.error ?? 'NONE'] : [],
  );
}

/** The descriptions the operator recorded. */
export function operatorResults(run: RunResult): string[] {
  return run.history.flatMap((op) =>
    op.f === 'nemesis' && op.value.fault === 'operator' && op.value.phase === 'end'
      ? [op.value.description]
      : [],
  );
}
