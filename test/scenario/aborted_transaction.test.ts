/**
 * Goal: pin, offset by offset, how aborted and committed transactions look to consumers
 * (TransactionMarkerChannelManager, UnifiedLog.lastStableOffset, CompletedFetch.nextFetchedRecord
 * and FetchCollector.fetchRecords; EXP-02): markers take one offset each and are never delivered;
 * read_uncommitted delivers aborted records; read_committed skips them; and `position()` moves past
 * markers and aborted data even when no record is returned. Method: two tiny inline scenarios on
 * one broker and one partition, without faults, so the log layout is the same on every seed; run a
 * few fixed seeds (`sweepSeeds('1..10')`) and assert exact offsets from the oracle (the log) and
 * the history (what each consumer delivered and its positions).
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';
import type { History } from '../../sim/history';
import { sweepSeeds } from '../seed_range';
import {
  oracleRecords,
  deliveredRecords,
  initGranted,
  logLayout,
  readOps,
} from './history_queries';
import { deliveredRecordsOf } from '../../sim/history';

/** The consumers both scenarios share: one per isolation level, from the start of the log. */
const CONSUMERS = `
  - name: rc
    role: consumer
    config:
      isolation.level: read_committed
      auto.offset.reset: earliest
    workload:
      topics: [t]
  - name: ru
    role: consumer
    config:
      isolation.level: read_uncommitted
      auto.offset.reset: earliest
    workload:
      topics: [t]
`;

const HEADER = `
cluster:
  brokers: 1
  topics:
    - name: t
      partitions: 1
`;

/** tx-abort aborts 3 records, then tx-commit (a different transactional.id) commits 2. */
const ABORT_THEN_COMMIT = `name: abort-then-commit
${HEADER}
clients:
  - name: aborter
    role: producer
    config:
      transactional.id: tx-abort
    workload:
      transactions: 1
      records.per.transaction: 3
      abort.every: 1
      close.when.done: true
      topics: [t]
  - name: committer
    role: producer
    config:
      transactional.id: tx-commit
    workload:
      start.ms: 1000
      transactions: 1
      records.per.transaction: 2
      close.when.done: true
      topics: [t]
${CONSUMERS}
run:
  duration.ms: 3000
`;

/** EXP-02: one committed transaction of 5 records. */
const ONE_COMMIT = `name: one-commit
${HEADER}
clients:
  - name: committer
    role: producer
    config:
      transactional.id: tx-commit
    workload:
      transactions: 1
      records.per.transaction: 5
      close.when.done: true
      topics: [t]
${CONSUMERS}
run:
  duration.ms: 2000
`;

/** Offsets delivered by the polls of a client, or by the final read of an isolation level. */
function offsetsPolled(history: History, client: string): number[] {
  return deliveredRecords(readOps(history, { f: 'poll', client })).map((record) => record.offset);
}

function offsetsFinal(history: History, level: 'read_committed' | 'read_uncommitted'): number[] {
  const ops = readOps(history, { f: 'final-read', isolationLevel: level });
  return deliveredRecords(ops).map((record) => record.offset);
}

/** `position()` of partition t-0 after each poll of a client, in order. */
/** A position entry without the high watermark the fetch reported. */
function positionOnly(entry: { topic: string; partition: number; position: number }): object {
  return { topic: entry.topic, partition: entry.partition, position: entry.position };
}

function positionsPolled(history: History, client: string): number[] {
  return readOps(history, { f: 'poll', client }).map((op) => op.value.positions[0]?.position ?? -1);
}

function onlyPartition(run: RunResult): RunResult['oracle']['partitions'][number] {
  expect(run.oracle.partitions).toHaveLength(1);
  const [partition] = run.oracle.partitions;
  if (partition === undefined) throw new Error('Expected partition t-0');
  return partition;
}

/** A clean, settled run. */
function expectClean(run: RunResult): void {
  expect(run.report.outcome).toBe('pass');
  expect(run.report.check.valid).toBe(true);
  expect(run.report.check.anomalyTypes).toEqual([]);
  expect(run.report.liveness.converged).toBe(true);
}

describe('an aborted transaction followed by a committed one', () => {
  const scenario = parseScenario(ABORT_THEN_COMMIT, 'inline/abort-then-commit.yaml');
  for (const seed of sweepSeeds('1..10')) {
    it(`seed ${seed}: log 0-2 aborted, ABORT@3, 4-5 committed, COMMIT@6`, () => {
      const run = runScenario(scenario, { seed });
      expectClean(run);
      const aborter = initGranted(run.history, 'aborter');
      const committer = initGranted(run.history, 'committer');
      expect(aborter).toBeDefined();
      expect(committer).toBeDefined();
      expect(committer?.producerId).not.toBe(aborter?.producerId);

      const partition = onlyPartition(run);
      const byOffset = oracleRecords(partition).map((record) => ({
        offset: record.offset,
        producerId: record.producerId,
        control: record.control ?? 'data',
        isTransactional: record.isTransactional,
      }));
      const a = aborter?.producerId ?? -2;
      const c = committer?.producerId ?? -2;
      const data = 'data';
      expect(byOffset).toEqual([
        { offset: 0, producerId: a, control: data, isTransactional: true },
        { offset: 1, producerId: a, control: data, isTransactional: true },
        { offset: 2, producerId: a, control: data, isTransactional: true },
        { offset: 3, producerId: a, control: 'ABORT', isTransactional: true },
        { offset: 4, producerId: c, control: data, isTransactional: true },
        { offset: 5, producerId: c, control: data, isTransactional: true },
        { offset: 6, producerId: c, control: 'COMMIT', isTransactional: true },
      ]);
      // offset:value; the workload numbers values from 0 in send order.
      expect(logLayout(partition)).toEqual([
        '0:0',
        '1:1',
        '2:2',
        '3:ABORT',
        '4:3',
        '5:4',
        '6:COMMIT',
      ]);
      expect(partition.logEndOffset).toBe(7);
      expect(partition.highWatermark).toBe(7);
      expect(partition.lastStableOffset).toBe(7);
      expect(partition.openTransactions).toEqual([]);
    });

    it(`seed ${seed}: read_uncommitted gets 0,1,2,4,5; read_committed 4,5 and position 7`, () => {
      const { history } = runScenario(scenario, { seed });
      expect(offsetsPolled(history, 'ru')).toEqual([0, 1, 2, 4, 5]);
      expect(offsetsPolled(history, 'rc')).toEqual([4, 5]);
      expect(positionsPolled(history, 'ru').at(-1)).toBe(7);
      const committedPositions = positionsPolled(history, 'rc');
      expect(committedPositions.at(-1)).toBe(7);
      // The LSO is 0 while tx-abort is open, 4 once its ABORT lands (and while tx-commit is
      // open), 7 once the COMMIT lands; a fetch consumes everything up to it, markers included.
      expect(committedPositions.every((position) => [0, 4, 7].includes(position))).toBe(true);

      expect(offsetsFinal(history, 'read_uncommitted')).toEqual([0, 1, 2, 4, 5]);
      expect(offsetsFinal(history, 'read_committed')).toEqual([4, 5]);
      for (const level of ['read_committed', 'read_uncommitted'] as const) {
        const finals = readOps(history, { f: 'final-read', isolationLevel: level });
        expect(finals.at(-1)?.value.positions.map(positionOnly)).toEqual([
          { topic: 't', partition: 0, position: 7 },
        ]);
      }
    });
  }
});

describe('EXP-02: markers occupy offsets but are never delivered', () => {
  const scenario = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
  for (const seed of sweepSeeds('1..10')) {
    it(`seed ${seed}: records 0-4, COMMIT@5; read_committed ends at 6, last record 4`, () => {
      const run = runScenario(scenario, { seed });
      expectClean(run);
      // offset:value; the workload numbers values from 0 in send order.
      expect(logLayout(onlyPartition(run))).toEqual([
        '0:0',
        '1:1',
        '2:2',
        '3:3',
        '4:4',
        '5:COMMIT',
      ]);
      const { history } = run;
      expect(offsetsPolled(history, 'rc')).toEqual([0, 1, 2, 3, 4]);
      expect(offsetsPolled(history, 'ru')).toEqual([0, 1, 2, 3, 4]);
      expect(positionsPolled(history, 'rc').at(-1)).toBe(6);
      // The poll that returned offset 4 already moved past the COMMIT marker: the open transaction
      // pinned the LSO at 0 until the marker landed, then it jumped to 6
      // (UnifiedLog.lastStableOffset).
      const delivering = readOps(history, { f: 'poll', client: 'rc' }).find((op) =>
        deliveredRecordsOf(op.value).some((record) => record.offset === 4),
      );
      expect(deliveredRecordsOf(delivering?.value ?? { batches: [] }).at(-1)?.offset).toBe(4);
      expect(delivering?.value.positions.map(positionOnly)).toEqual([
        { topic: 't', partition: 0, position: 6 },
      ]);
      expect(offsetsFinal(history, 'read_committed')).toEqual([0, 1, 2, 3, 4]);
      const finals = readOps(history, { f: 'final-read', isolationLevel: 'read_committed' });
      expect(finals.at(-1)?.value.positions.map(positionOnly)).toEqual([
        { topic: 't', partition: 0, position: 6 },
      ]);
    });
  }
});
