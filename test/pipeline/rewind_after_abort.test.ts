/**
 * Goal: the advice of ExactlyOnceMessageProcessor.maybeRetry holds as a test. After an abort, a
 * pipeline that rewinds every assigned partition to its committed offset reprocesses the aborted
 * batch (each of its inputs gets exactly one committed output later); one that does not rewind
 * loses the batch (each of its inputs is reported missing below the committed offset). Method: one
 * pipeline instance (no rebalance hands the batch to anyone else) aborting every third transaction,
 * seeds 1..3.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../../sim/runner';
import { parseScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';
import { eosViolations, inputKey, pipelineTxns, type PipelineTxn } from './pipeline_helpers';

const SEEDS = sweepSeeds('1..3');

/** One pipeline instance aborting every third transaction, rewinding after it or not. */
function runSingle(seed: string, rewind: boolean): RunResult {
  const text = `
name: rewind-after-abort
cluster:
  brokers: 3
  topics:
    - name: in
      partitions: 2
    - name: out
      partitions: 2
clients:
  - name: source
    role: producer
    workload: { sends: 300, send.interval.ms: 40, topics: [in] }
  - name: P1
    role: pipeline
    config:
      transactional.id: etl-1
      group.id: etl
      isolation.level: read_committed
      enable.auto.commit: false
      auto.offset.reset: earliest
    workload:
      topics: [in]
      output.topic: out
      abort.every: 3
      rewind.after.abort: ${String(rewind)}
run:
  duration.ms: 15000
  heal.ms: 20000
`;
  return runScenario(parseScenario(text, 'rewind-after-abort.yaml'), { seed });
}

/** The input records of the application's chosen aborts (acknowledged). */
function abortedInputs(txns: readonly PipelineTxn[]): Set<string> {
  const inputs = new Set<string>();
  for (const txn of txns) {
    if (txn.value.commit || txn.type !== 'ok') continue;
    for (const send of txn.value.sends) if (send.source) inputs.add(inputKey(send.source));
  }
  return inputs;
}

/** Input records with an output in a committed transaction. */
function committedInputs(txns: readonly PipelineTxn[]): Set<string> {
  const inputs = new Set<string>();
  for (const txn of txns) {
    if (!txn.value.commit || txn.type !== 'ok') continue;
    for (const send of txn.value.sends) if (send.source) inputs.add(inputKey(send.source));
  }
  return inputs;
}

describe('abort and rewind (ExactlyOnceMessageProcessor.maybeRetry)', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: with the rewind every aborted input is processed again, exactly once`, () => {
      const run = runSingle(seed, true);
      const txns = pipelineTxns(run);
      const aborted = abortedInputs(txns);
      expect(aborted.size).toBeGreaterThan(0);
      const committed = committedInputs(txns);
      expect([...aborted].filter((input) => !committed.has(input))).toEqual([]);
      expect(eosViolations(run)).toEqual([]);
    });

    it(`seed ${seed}: without the rewind every aborted input is lost`, () => {
      const run = runSingle(seed, false);
      const txns = pipelineTxns(run);
      const aborted = abortedInputs(txns);
      expect(aborted.size).toBeGreaterThan(0);
      const committed = committedInputs(txns);
      expect([...aborted].filter((input) => committed.has(input))).toEqual([]);
      const missing = eosViolations(run).filter((a) => a.classification === 'missing');
      const missingInputs = new Set(
        missing.map((a) =>
          inputKey({ topic: a.topic ?? '', partition: a.partition ?? -1, offset: a.offset ?? -1 }),
        ),
      );
      // The last aborted batch stays unreported when no later commit passed it (liveness).
      const committedOffsets = new Map(
        (run.oracle.groups?.[0]?.committedOffsets ?? []).map((o) => [
          `${o.topic}-${o.partition}`,
          o.offset,
        ]),
      );
      const skipped = [...aborted].filter((input) => {
        const [tp, offset] = input.split('@') as [string, string];
        return Number(offset) < (committedOffsets.get(tp) ?? 0);
      });
      expect(skipped.length).toBeGreaterThan(0);
      expect([...missingInputs].sort()).toEqual(skipped.sort());
      expect(eosViolations(run).filter((a) => a.classification !== 'missing')).toEqual([]);
    });
  }
});
