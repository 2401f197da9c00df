/**
 * Goal: show what idempotence buys under lost ProduceResponses (KAFKA-5494;
 * ProducerAppendInfo.checkSequence and Appendix A1). Without it
 * (`known-bugs/retry-without-idempotence.yaml`) a retried batch carries no producerId, the leader
 * appends it again, and the checker reports `duplicate`, classified `written-twice`. With it
 * (`retry-duplicates.yaml`) the leader answers retries from its 5-batch window with the original
 * offsets, so the log holds every value once. Method: sweep seeds (`sweepSeeds('1..200')` and
 * `sweepSeeds('1..500')`); for the bug, require detection on at least 90% of seeds (the scenario's
 * `detect.percent.min`) and an exact location for every reported duplicate; for idempotence,
 * require a clean check, one log copy per value at the offset the client was told, and retries that
 * really happened (sends completed only after request.timeout.ms), so the clean result is not
 * vacuous.
 */
import { describe, expect, it } from 'vitest';
import type { History, Oracle } from '../../sim/history';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';
import { oracleRecords } from './history_queries';
import { sentRecordsOf, type SendMicroOp } from '../../sim/history';

const DETECT_PERCENT_MIN = 90;
/** `request.timeout.ms` of both scenarios: a send that took longer was retried. */
const REQUEST_TIMEOUT_US = 1_000_000;

/** Every log copy of each value: `topic-partition@offset`. */
function copiesByValue(oracle: Oracle): Map<number, string[]> {
  const copies = new Map<number, string[]>();
  for (const partition of oracle.partitions) {
    for (const record of oracleRecords(partition)) {
      if (record.value === null) continue;
      const where = `${partition.topic}-${partition.partition}@${record.offset}`;
      copies.set(record.value, [...(copies.get(record.value) ?? []), where]);
    }
  }
  return copies;
}

/** The client's view of its sends: each `ok` with where it landed, and how long it took. */
function completedSends(history: History): Array<{ value: number; where: string; tookUs: number }> {
  const invokedUs = new Map<string, number>();
  const sends: Array<{ value: number; where: string; tookUs: number }> = [];
  for (const op of history) {
    if (op.f !== 'send') continue;
    if (op.type === 'invoke') invokedUs.set(op.process, op.timeUs);
    if (op.type !== 'ok') continue;
    const { topic, partition, offset, value } = sentRecordsOf(op.value)[0] as SendMicroOp;
    const where = `${topic}-${partition}@${String(offset)}`;
    sends.push({ value, where, tookUs: op.timeUs - (invokedUs.get(op.process) ?? op.timeUs) });
  }
  return sends;
}

describe('retry-without-idempotence.yaml (known-bad configuration)', () => {
  it(`finds duplicate on ${DETECT_PERCENT_MIN}% of seeds or more, written twice by pid -1`, () => {
    const scenario = loadScenario('scenarios/known-bugs/retry-without-idempotence.yaml');
    const seeds = sweepSeeds('1..200');
    const problems: string[] = [];
    let firstSeed: string | undefined;
    let detected = 0;
    for (const seed of seeds) {
      const { report, oracle } = runScenario(scenario, { seed });
      if (report.outcome !== 'pass') problems.push(`seed ${seed}: outcome ${report.outcome}`);
      if (!report.check.anomalyTypes.includes('duplicate')) continue;
      detected += 1;
      firstSeed ??= seed;
      const copies = copiesByValue(oracle);
      for (const anomaly of report.check.anomalies) {
        const logged = copies.get(anomaly.value ?? -1) ?? [];
        const ok =
          anomaly.kind === 'duplicate' &&
          anomaly.classification === 'written-twice' &&
          anomaly.producerId === -1 &&
          anomaly.client === 'P' &&
          logged.length >= 2;
        if (!ok) problems.push(`seed ${seed}: ${anomaly.message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(firstSeed).toBeDefined();
    expect(detected * 100).toBeGreaterThanOrEqual(DETECT_PERCENT_MIN * seeds.length);
  });
});

describe('retry-duplicates.yaml (idempotence on)', () => {
  it('has no anomaly, one copy per value at the acknowledged offset, and real retries', () => {
    const scenario = loadScenario('scenarios/retry-duplicates.yaml');
    const problems: string[] = [];
    for (const seed of sweepSeeds('1..500')) {
      const { report, history, oracle } = runScenario(scenario, { seed });
      if (report.outcome !== 'pass') problems.push(`seed ${seed}: outcome ${report.outcome}`);
      if (report.check.anomalyTypes.length > 0) {
        problems.push(`seed ${seed}: anomalies ${report.check.anomalyTypes.join(',')}`);
      }
      const copies = copiesByValue(oracle);
      for (const [value, where] of copies) {
        if (where.length !== 1) problems.push(`seed ${seed}: value ${value} at ${where.join(' ')}`);
      }
      const sends = completedSends(history);
      for (const send of sends) {
        const logged = copies.get(send.value) ?? [];
        if (logged[0] !== send.where) {
          problems.push(`seed ${seed}: value ${send.value} acked at ${send.where}, log ${logged}`);
        }
      }
      if (!sends.some((send) => send.tookUs >= REQUEST_TIMEOUT_US)) {
        problems.push(`seed ${seed}: no send outlived request.timeout.ms, so nothing was retried`);
      }
    }
    expect(problems).toEqual([]);
  });
});
