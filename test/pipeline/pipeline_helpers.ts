/**
 * Shared queries for the pipeline suites: a bundled scenario run with a few keys changed, the
 * pipeline transactions of a run, and its eos-violation anomalies.
 */
import { readFileSync } from 'node:fs';
import { runScenario, type RunResult } from '../../sim/runner';
import { parseScenario } from '../../scenarios';
import { CHECKERS, checkHistory, type Anomaly } from '../../sim/checker';
import type { HistoryOp, TxnValue } from '../../sim/history';

/** A pipeline transaction's completion. */
export type PipelineTxn = Extract<HistoryOp, { f: 'txn' }> & {
  readonly value: TxnValue & { readonly consumed: NonNullable<TxnValue['consumed']> };
};

/**
 * Runs `scenarios/<name>.yaml` with one seed after replacing each `[from, to]` text in the file
 * (each must occur), so a test states only what it changes.
 */
export function runEdited(
  name: string,
  seed: string,
  edits: ReadonlyArray<readonly [string, string]> = [],
): RunResult {
  let text = readFileSync(`scenarios/${name}.yaml`, 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`scenarios/${name}.yaml has no "${from}"`);
    text = text.split(from).join(to);
  }
  return runScenario(parseScenario(text, `scenarios/${name}.yaml`), { seed });
}

/** Every completed pipeline transaction, in history order. */
export function pipelineTxns(run: RunResult): PipelineTxn[] {
  return run.history.filter(
    (op): op is PipelineTxn =>
      op.f === 'txn' && op.type !== 'invoke' && op.value.consumed !== undefined,
  );
}

const EOS_CHECKER = CHECKERS.filter((checker) => checker.name === 'eos-violation');

/** Every eos-violation of the run (all of them, not only the report's examples). */
export function eosViolations(run: RunResult): readonly Anomaly[] {
  const options = { examplesMax: Number.MAX_SAFE_INTEGER, checkers: EOS_CHECKER };
  return checkHistory(run.history, run.oracle, options).anomalies;
}

/** `topic-partition@offset` of an input record. */
export function inputKey(input: { topic: string; partition: number; offset: number }): string {
  return `${input.topic}-${input.partition}@${input.offset}`;
}
