/**
 * Goal: pin every classification the checkers give, and the boundaries of their definitions
 * (which final reads count, which grants fence, which deliveries are repeats). Method: minimal
 * hand-built histories and oracles, each varying one fact from a clean case, run through a single
 * checker so the assertion names exactly what that checker reports.
 */
import { describe, expect, it } from 'vitest';
import {
  CheckContext,
  checkAbortedRead,
  checkDuplicate,
  checkLostWrite,
  checkUncommittedRead,
  checkZombieWrite,
} from '../../sim/checker';
import type { Anomaly } from '../../sim/checker';
import type { EpochGrant, History, Oracle, OracleRecord } from '../../sim/history';
import {
  READ_COMMITTED,
  READ_UNCOMMITTED,
  data,
  finalRead,
  historyOf,
  marker,
  oracleOf,
  oracleOfPartition0,
  partitionOf,
  poll,
  record,
  send,
  txn,
} from './builders';

type Checker = (context: CheckContext) => Anomaly[];

/** Runs one checker over a history and oracle. */
function run(checker: Checker, input: { history: History; oracle: Oracle }): Anomaly[] {
  return checker(new CheckContext(input.history, input.oracle));
}

/** A read_committed consumer's read, at `atUs`, of the record `[partition, offset, value]`. */
function committedPoll(atUs: number, delivered: readonly [number, number, number]) {
  return poll('reader', { isolationLevel: READ_COMMITTED, records: [delivered], atUs });
}

describe('lost-write classification', () => {
  const sendValue1 = send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 });
  const emptyFinalRead = finalRead('reader', {
    isolationLevel: READ_COMMITTED,
    records: [],
    atUs: 900,
  });
  const dirtyFinalRead = finalRead('dirty', {
    isolationLevel: READ_UNCOMMITTED,
    records: [[0, 0, 1]],
    atUs: 800,
  });
  const value1Written = oracleOfPartition0([data({ offset: 0, value: 1 })]);

  it('never-written: the partition log does not hold the value', () => {
    const history = historyOf(sendValue1, emptyFinalRead);
    const [anomaly] = run(checkLostWrite, { history, oracle: oracleOfPartition0([]) });
    expect(anomaly).toMatchObject({ value: 1, offset: 0, classification: 'never-written' });
    const [missing] = run(checkLostWrite, { history, oracle: oracleOf({}) });
    expect(missing?.classification).toBe('never-written');
  });

  it('aborted: the acknowledged commit ended in an ABORT marker', () => {
    const history = historyOf(
      txn({ client: 'B', commit: true, sends: [record(0, 1, 0)], atUs: 100 }),
      emptyFinalRead,
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 1, producerId: 8, producerEpoch: 2, isTransactional: true }),
      marker({ offset: 1, control: 'ABORT', producerId: 8, producerEpoch: 2 }),
    ]);
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly).toMatchObject({ producerId: 8, producerEpoch: 2, classification: 'aborted' });
  });

  it('not-delivered: committed and below the LSO, yet the final reads missed it', () => {
    const history = historyOf(sendValue1, emptyFinalRead);
    const [anomaly] = run(checkLostWrite, { history, oracle: value1Written });
    expect(anomaly).toMatchObject({ classification: 'not-delivered', client: 'A', timeUs: 110 });
  });

  it('a run without final reads reports no lost write', () => {
    const history = historyOf(sendValue1);
    expect(run(checkLostWrite, { history, oracle: oracleOfPartition0([]) })).toEqual([]);
  });

  it('read_committed final reads are preferred over read_uncommitted ones', () => {
    const history = historyOf(sendValue1, dirtyFinalRead, emptyFinalRead);
    const [anomaly] = run(checkLostWrite, { history, oracle: value1Written });
    expect(anomaly?.message).toContain('absent from the read_committed final reads');
  });

  it('read_uncommitted final reads count when there are no read_committed ones', () => {
    const history = historyOf(sendValue1, dirtyFinalRead);
    expect(run(checkLostWrite, { history, oracle: value1Written })).toEqual([]);
  });
});

describe('duplicate classification', () => {
  const history = historyOf(
    send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
    poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
    poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 1]], atUs: 300 }),
  );

  it('written-once: the second copy is gone from the log (truncated)', () => {
    const copy = data({ offset: 0, value: 1, producerId: 4, producerEpoch: 1 });
    const oracle = oracleOfPartition0([copy]);
    const [anomaly] = run(checkDuplicate, { history, oracle });
    expect(anomaly).toMatchObject({
      offsets: [0, 1],
      producerId: 4,
      producerEpoch: 1,
      timeUs: 300,
      classification: 'written-once',
    });
  });

  it('not-in-log: the oracle holds no copy', () => {
    const [anomaly] = run(checkDuplicate, { history, oracle: oracleOfPartition0([]) });
    expect(anomaly?.classification).toBe('not-in-log');
    expect(anomaly?.producerId).toBeUndefined();
  });
});

describe('uncommitted-read classification', () => {
  // The same consumer delivers the same offset twice: one observation, one anomaly at most.
  const history = historyOf(committedPoll(100, [0, 0, 1]), committedPoll(150, [0, 0, 1]));
  const transactional = data({ offset: 0, value: 1, producerId: 8, isTransactional: true });

  it('transaction-open: the LSO passed a record whose transaction has no marker', () => {
    const oracle = oracleOfPartition0([transactional], { lastStableOffset: 1 });
    const anomalies = run(checkUncommittedRead, { history, oracle });
    expect(anomalies.map((anomaly) => anomaly.classification)).toEqual(['transaction-open']);
  });

  it('marker-after-read: the LSO passed the record before its transaction was decided', () => {
    const late = marker({ offset: 1, control: 'COMMIT', producerId: 8, appendUs: 120 });
    const lastStableOffsetChanges = [{ timeUs: 50, offset: 1 }];
    const oracle = oracleOfPartition0([transactional, late], { lastStableOffsetChanges });
    const [anomaly] = run(checkUncommittedRead, { history, oracle });
    expect(anomaly?.classification).toBe('marker-after-read');
  });

  it('a decided record below the LSO is stable though its marker is above it', () => {
    // Another producer's transaction, open from offset 1, holds the LSO at 1 while producer 8's
    // transaction at 0 is already committed by the marker at 2.
    const records = [
      transactional,
      data({ offset: 1, value: 2, producerId: 9, isTransactional: true }),
      marker({ offset: 2, control: 'COMMIT', producerId: 8, appendUs: 60 }),
    ];
    const lastStableOffsetChanges = [{ timeUs: 70, offset: 1 }];
    const oracle = oracleOfPartition0(records, { lastStableOffsetChanges });
    expect(run(checkUncommittedRead, { history, oracle })).toEqual([]);
  });

  it('before any recorded LSO change the LSO is 0', () => {
    const records = [data({ offset: 0, value: 1 })];
    const oracle = oracleOfPartition0(records, { lastStableOffsetChanges: [] });
    const [anomaly] = run(checkUncommittedRead, { history, oracle });
    expect(anomaly?.classification).toBe('above-last-stable-offset');
  });

  it('a non-transactional record below the LSO is stable', () => {
    const oracle = oracleOfPartition0([data({ offset: 0, value: 1 })], { lastStableOffset: 1 });
    expect(run(checkUncommittedRead, { history, oracle })).toEqual([]);
  });
});

describe('aborted-read classification', () => {
  const aborted = [
    data({ offset: 0, value: 1, producerId: 8, isTransactional: true }),
    marker({ offset: 1, control: 'ABORT', producerId: 8 }),
  ];

  it('read-above-last-stable-offset: the broker served it before the LSO passed it', () => {
    const history = historyOf(committedPoll(100, [0, 0, 1]));
    const lastStableOffsetChanges = [{ timeUs: 0, offset: 0 }];
    const oracle = oracleOfPartition0(aborted, { lastStableOffsetChanges });
    const [anomaly] = run(checkAbortedRead, { history, oracle });
    expect(anomaly?.classification).toBe('read-above-last-stable-offset');
  });

  it('a delivery whose value the oracle does not hold at that offset is not judged', () => {
    const history = historyOf(committedPoll(100, [0, 0, 99]));
    expect(run(checkAbortedRead, { history, oracle: oracleOfPartition0(aborted) })).toEqual([]);
  });
});

describe('zombie-write boundaries', () => {
  function grant(fields: Pick<EpochGrant, 'timeUs' | 'producerEpoch' | 'reason'>): EpochGrant {
    return { transactionalId: 'tx-A', producerId: 5, ...fields };
  }
  function committedAt(appendUs: number): OracleRecord[] {
    return [
      data({ offset: 0, value: 1, producerId: 5, isTransactional: true, appendUs }),
      marker({ offset: 1, control: 'COMMIT', producerId: 5, appendUs: appendUs + 1 }),
    ];
  }
  const fenceAt600 = grant({ timeUs: 600, producerEpoch: 1, reason: 'fence' });

  it('names the earliest fencing grant, here a timeout abort', () => {
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: committedAt(900) })],
      epochGrants: [
        grant({ timeUs: 700, producerEpoch: 2, reason: 'fence' }),
        grant({ timeUs: 600, producerEpoch: 1, reason: 'timeout' }),
      ],
    });
    const [anomaly] = run(checkZombieWrite, { history: [], oracle });
    expect(anomaly?.classification).toBe('fenced-by-timeout');
    expect(anomaly?.client).toBeUndefined();
  });

  it('a record appended at the very time of the grant is not a zombie', () => {
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: committedAt(600) })],
      epochGrants: [fenceAt600],
    });
    expect(run(checkZombieWrite, { history: [], oracle })).toEqual([]);
  });

  it('a fenced record at or above the final LSO is not visible, so not reported', () => {
    const records = committedAt(900);
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records, lastStableOffset: 0 })],
      epochGrants: [fenceAt600],
    });
    expect(run(checkZombieWrite, { history: [], oracle })).toEqual([]);
  });
});
