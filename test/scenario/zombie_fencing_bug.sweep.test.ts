/**
 * Goal: prove the zombie-write checker catches what the bug switch
 * `partition.skip.producer.epoch.check` lets through in
 * `scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml`: the fenced instance A's late
 * batches are appended with its stale producerEpoch and committed by instance B's next marker
 * (reference Appendix A12). Method: sweep seeds (`sweepSeeds('1..200')`); count the seeds whose
 * check reports `zombie-write` (at least 90%, the scenario's `detect.percent.min`), and on every
 * seed require each reported zombie-write to be located exactly: topic, partition and offset of
 * a record the oracle holds, written by A's producerId with A's epoch, sent by client A, and
 * appended after the coordinator granted a higher epoch. The same runs prove `torn-transaction`
 * on a real configuration: A's records written before the pause stay aborted while its late ones
 * are committed by B's marker, so A's transaction must be reported torn on as many seeds, naming
 * orders-tx, client A and A's producerId, with both visible and aborted records. No other
 * anomaly kind may appear.
 */
import { describe, expect, it } from 'vitest';
import type { Anomaly } from '../../sim/checker';
import { runScenario, type RunResult } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';
import { oracleRecords, initGranted, valuesSentBy } from './history_queries';

const DETECT_PERCENT_MIN = 90;

/** Everything wrong with one zombie-write anomaly, as text. */
function anomalyProblems(run: RunResult, anomaly: Anomaly): string[] {
  const a = initGranted(run.history, 'A');
  if (a === undefined) return ['A never initialized'];
  const problems: string[] = [];
  const { topic, partition, offset, producerId, producerEpoch, client, value } = anomaly;
  if (topic === undefined || partition === undefined || offset === undefined) {
    return [`unlocated anomaly: ${anomaly.message}`];
  }
  if (producerId !== a.producerId) problems.push(`producerId ${String(producerId)}`);
  if (producerEpoch !== a.producerEpoch) problems.push(`producerEpoch ${String(producerEpoch)}`);
  if (client !== 'A') problems.push(`client ${String(client)}`);
  const log = run.oracle.partitions.find(
    (candidate) => candidate.topic === topic && candidate.partition === partition,
  );
  const record = oracleRecords(log).find((candidate) => candidate.offset === offset);
  if (record === undefined || record.value !== value) {
    problems.push(`${topic}-${partition}@${offset} does not hold value ${String(value)}`);
  } else {
    if (record.producerEpoch !== a.producerEpoch) problems.push('oracle epoch differs');
    if (!valuesSentBy(run.history, 'A').has(record.value ?? -1)) problems.push('not sent by A');
    const fenced = run.oracle.epochGrants.some(
      (grant) => grant.producerEpoch > a.producerEpoch && grant.timeUs < record.appendUs,
    );
    if (!fenced) problems.push('appended before any higher epoch was granted');
  }
  return problems.map((problem) => `${topic}-${partition}@${offset}: ${problem}`);
}

/** Everything wrong with one torn-transaction anomaly, as text. */
function tornProblems(run: RunResult, anomaly: Anomaly): string[] {
  const a = initGranted(run.history, 'A');
  if (a === undefined) return ['A never initialized'];
  const problems: string[] = [];
  if (anomaly.transactionalId !== 'orders-tx') problems.push('transactionalId');
  if (anomaly.client !== 'A') problems.push(`client ${String(anomaly.client)}`);
  if (anomaly.producerId !== a.producerId)
    problems.push(`producerId ${String(anomaly.producerId)}`);
  const fates = anomaly.transactionRecords ?? [];
  const sentByA = valuesSentBy(run.history, 'A');
  if (!fates.some((fate) => fate.fate === 'visible')) problems.push('no visible record');
  if (!fates.some((fate) => fate.fate === 'aborted')) problems.push('no aborted record');
  if (!fates.every((fate) => sentByA.has(fate.value))) problems.push('records not sent by A');
  return problems.map((problem) => `torn-transaction: ${problem}`);
}

describe('zombie-fencing-no-epoch-check.yaml (bug switch on)', () => {
  it(`finds zombie-write and torn-transaction on ${DETECT_PERCENT_MIN}% of seeds or more`, () => {
    const scenario = loadScenario('scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml');
    const seeds = sweepSeeds('1..200');
    const problems: string[] = [];
    let detected = 0;
    let tornDetected = 0;
    for (const seed of seeds) {
      const run = runScenario(scenario, { seed });
      const { check, outcome } = run.report;
      if (outcome !== 'pass') problems.push(`seed ${seed}: outcome ${outcome}`);
      const others = check.anomalyTypes.filter(
        (kind) => kind !== 'zombie-write' && kind !== 'torn-transaction',
      );
      if (others.length > 0) problems.push(`seed ${seed}: unexpected ${others.join(',')}`);
      const zombies = check.anomalies.filter((anomaly) => anomaly.kind === 'zombie-write');
      if (zombies.length > 0) detected += 1;
      const torn = check.anomalies.filter((anomaly) => anomaly.kind === 'torn-transaction');
      if (torn.length > 0) tornDetected += 1;
      for (const anomaly of torn) {
        problems.push(...tornProblems(run, anomaly).map((problem) => `seed ${seed}: ${problem}`));
      }
      for (const anomaly of zombies) {
        const found = anomalyProblems(run, anomaly);
        problems.push(...found.map((problem) => `seed ${seed}: ${problem}`));
      }
    }
    expect(problems).toEqual([]);
    expect(detected * 100).toBeGreaterThanOrEqual(DETECT_PERCENT_MIN * seeds.length);
    expect(tornDetected * 100).toBeGreaterThanOrEqual(DETECT_PERCENT_MIN * seeds.length);
  });
});
