/**
 * Goal: show that each checker finds the anomaly it names, located exactly in Kafka's terms,
 * and stays quiet on the closest valid history. Method: for every anomaly kind, one hand-built
 * history and oracle that exhibit it (asserting kind, offset, value, producerId/epoch,
 * classification and the faults active at the time) and one near-miss that must check clean;
 * the merge rules over the real checkers are in `verdicts.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import {
  READ_COMMITTED,
  READ_UNCOMMITTED,
  data,
  finalRead,
  historyOf,
  marker,
  nemesis,
  oracleOf,
  oracleOfPartition0,
  partitionOf,
  poll,
  record,
  send,
  txn,
} from './builders';
import { expectClean, onlyAnomaly } from './results';

describe('duplicate', () => {
  it('reports a value the broker wrote twice, with both offsets and the faults around it', () => {
    const history = historyOf(
      nemesis({ fault: 'pause', phase: 'start', description: 'pause b3', atUs: 10 }),
      nemesis({ fault: 'pause', phase: 'end', description: 'pause b3', atUs: 40 }),
      nemesis({ fault: 'partition', phase: 'start', description: 'partition b1|b2', atUs: 50 }),
      send({ client: 'A', partition: 0, value: 1, offset: 1, atUs: 60, producerId: 7 }),
      nemesis({ fault: 'partition', phase: 'end', description: 'partition b1|b2', atUs: 300 }),
      poll('reader', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 1],
          [0, 1, 1],
        ],
        atUs: 500,
      }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [
            data({ offset: 0, value: 1, producerId: 7, appendUs: 70 }),
            data({ offset: 1, value: 1, producerId: 7, appendUs: 100 }),
          ],
        }),
      ],
      faults: [{ description: 'crash b2', startUs: 90 }],
    });
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'duplicate',
      topic: 't',
      partition: 0,
      offset: 0,
      offsets: [0, 1],
      value: 1,
      producerId: 7,
      producerEpoch: 0,
      client: 'A',
      timeUs: 100,
      classification: 'written-twice',
      activeFaults: ['partition b1|b2', 'crash b2'],
    });
    expect(anomaly.message).toContain('t-0@0, t-0@1');
  });

  it('near-miss: one offset delivered by two polls and a final read is not a duplicate', () => {
    const history = historyOf(
      send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('other', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 300 }),
      finalRead('reader', {
        isolationLevel: READ_UNCOMMITTED,
        records: [[0, 0, 1]],
        atUs: 400,
      }),
    );
    const oracle = oracleOfPartition0([data({ offset: 0, value: 1 })]);
    expectClean(checkHistory(history, oracle));
  });
});

describe('lost-write', () => {
  it('reports a committed transaction held back by another producer’s open transaction', () => {
    const history = historyOf(
      txn({ client: 'C', commit: true, sends: [record(0, 3)], atUs: 100, type: 'info' }),
      nemesis({ fault: 'hold', phase: 'start', description: 'hold EndTxn of C', atUs: 150 }),
      txn({
        client: 'B',
        commit: true,
        sends: [record(0, 2, 1)],
        atUs: 200,
        producerId: 8,
        producerEpoch: 0,
      }),
      finalRead('reader', { isolationLevel: READ_COMMITTED, records: [], atUs: 900 }),
    );
    const oracle = oracleOfPartition0(
      [
        data({ offset: 0, value: 3, producerId: 9, isTransactional: true }),
        data({ offset: 1, value: 2, producerId: 8, isTransactional: true }),
        marker({ offset: 2, control: 'COMMIT', producerId: 8 }),
      ],
      {
        lastStableOffset: 0,
      },
    );
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'lost-write',
      topic: 't',
      partition: 0,
      offset: 1,
      value: 2,
      producerId: 8,
      producerEpoch: 0,
      client: 'B',
      timeUs: 210,
      classification: 'held-back-by-last-stable-offset',
      activeFaults: ['hold EndTxn of C'],
    });
    expect(anomaly.message).toContain('acknowledged in a committed transaction at offset 1');
  });

  it('near-miss: visible acknowledged commits, an abort and a failed send are not lost', () => {
    const history = historyOf(
      txn({ client: 'B', commit: true, sends: [record(0, 2, 0)], atUs: 100 }),
      txn({ client: 'B', commit: false, sends: [record(0, 3, 2)], atUs: 200 }),
      send({ client: 'A', partition: 0, value: 4, atUs: 300, type: 'fail' }),
      finalRead('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 2]], atUs: 900 }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: 8, isTransactional: true }),
      marker({ offset: 1, control: 'COMMIT', producerId: 8 }),
      data({ offset: 2, value: 3, producerId: 8, isTransactional: true }),
      marker({ offset: 3, control: 'ABORT', producerId: 8 }),
    ]);
    expectClean(checkHistory(history, oracle));
  });
});

describe('zombie-write', () => {
  const identity = { transactionalId: 'tx-A', producerId: 5 };
  const grants = [
    { ...identity, timeUs: 0, producerEpoch: 0, reason: 'init' as const },
    { ...identity, timeUs: 1000, producerEpoch: 1, reason: 'fence' as const },
  ];

  it('reports a committed record of epoch 0 appended after epoch 1 was granted', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1, 0)], atUs: 400 }),
      nemesis({ fault: 'pause', phase: 'start', description: 'GC pause of A', atUs: 900 }),
      txn({ client: 'A', commit: true, sends: [record(0, 2, 2)], atUs: 1150 }),
      nemesis({ fault: 'pause', phase: 'end', description: 'GC pause of A', atUs: 1250 }),
      finalRead('reader', {
        isolationLevel: READ_COMMITTED,
        records: [
          [0, 0, 1],
          [0, 2, 2],
        ],
        atUs: 2000,
      }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [
            data({ offset: 0, value: 1, producerId: 5, isTransactional: true, appendUs: 500 }),
            marker({ offset: 1, control: 'COMMIT', producerId: 5, appendUs: 600 }),
            data({ offset: 2, value: 2, producerId: 5, isTransactional: true, appendUs: 1200 }),
            marker({ offset: 3, control: 'COMMIT', producerId: 5, appendUs: 1300 }),
          ],
        }),
      ],
      epochGrants: grants,
    });
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'zombie-write',
      topic: 't',
      partition: 0,
      offset: 2,
      value: 2,
      producerId: 5,
      producerEpoch: 0,
      client: 'A',
      timeUs: 1200,
      classification: 'fenced-by-fence',
      activeFaults: ['GC pause of A'],
    });
    expect(anomaly.message).toContain(
      'producerEpoch 1 was granted at 1000us (fence, transactionalId tx-A)',
    );
  });

  it('near-miss: epoch 0 committed before the grant, the zombie’s later write aborted', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1, 0)], atUs: 400 }),
      txn({ client: 'A', commit: true, sends: [record(0, 2)], atUs: 1150, type: 'fail' }),
      finalRead('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 2000 }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [
            data({ offset: 0, value: 1, producerId: 5, isTransactional: true, appendUs: 500 }),
            marker({ offset: 1, control: 'COMMIT', producerId: 5, appendUs: 600 }),
            data({ offset: 2, value: 2, producerId: 5, isTransactional: true, appendUs: 1200 }),
            marker({
              offset: 3,
              control: 'ABORT',
              producerId: 5,
              producerEpoch: 1,
              appendUs: 1300,
            }),
          ],
        }),
      ],
      epochGrants: grants,
    });
    expectClean(checkHistory(history, oracle));
  });
});

describe('aborted-read', () => {
  const oracle = oracleOfPartition0(
    [
      data({ offset: 0, value: 1, producerId: 8, isTransactional: true }),
      marker({ offset: 1, control: 'ABORT', producerId: 8 }),
    ],
    {
      lastStableOffsetChanges: [
        { timeUs: 0, offset: 0 },
        { timeUs: 700, offset: 2 },
      ],
    },
  );

  function abortedHistory(isolationLevel: 'read_committed' | 'read_uncommitted') {
    return historyOf(
      txn({ client: 'B', commit: false, sends: [record(0, 1, 0)], atUs: 100 }),
      nemesis({ fault: 'bug', phase: 'start', description: 'drop abortedTransactions', atUs: 750 }),
      poll('reader', { isolationLevel, records: [[0, 0, 1]], atUs: 800 }),
    );
  }

  it('reports a read_committed consumer delivering an aborted record', () => {
    const anomaly = onlyAnomaly(checkHistory(abortedHistory('read_committed'), oracle));
    expect(anomaly).toMatchObject({
      kind: 'aborted-read',
      topic: 't',
      partition: 0,
      offset: 0,
      value: 1,
      producerId: 8,
      producerEpoch: 0,
      client: 'reader',
      timeUs: 800,
      classification: 'aborted-filter-missed',
      activeFaults: ['drop abortedTransactions'],
    });
  });

  it('near-miss: a read_uncommitted consumer may deliver aborted data', () => {
    expectClean(checkHistory(abortedHistory('read_uncommitted'), oracle));
  });
});

describe('uncommitted-read', () => {
  const oracle = oracleOf({
    partitions: [
      partitionOf({
        partition: 0,
        records: [
          data({ offset: 0, value: 1, producerId: 8, producerEpoch: 3, isTransactional: true }),
          marker({ offset: 1, control: 'COMMIT', producerId: 8, producerEpoch: 3, appendUs: 600 }),
        ],
        lastStableOffsetChanges: [
          { timeUs: 0, offset: 0 },
          { timeUs: 700, offset: 2 },
        ],
      }),
    ],
    faults: [{ description: 'partition b1|b2', startUs: 500, endUs: 650 }],
  });

  function pollAt(atUs: number) {
    return historyOf(
      txn({ client: 'B', commit: true, sends: [record(0, 1, 0)], atUs: 100 }),
      poll('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs }),
    );
  }

  it('reports a read_committed delivery at or above the LSO of its time', () => {
    const anomaly = onlyAnomaly(checkHistory(pollAt(650), oracle));
    expect(anomaly).toMatchObject({
      kind: 'uncommitted-read',
      topic: 't',
      partition: 0,
      offset: 0,
      value: 1,
      producerId: 8,
      producerEpoch: 3,
      client: 'reader',
      timeUs: 650,
      classification: 'above-last-stable-offset',
      activeFaults: ['partition b1|b2'],
    });
    expect(anomaly.message).toContain(
      'lastStableOffset was 0 and the completing marker was at offset 1',
    );
  });

  it('near-miss: a delivery at the instant the LSO passed its marker is stable', () => {
    expectClean(checkHistory(pollAt(700), oracle));
  });
});

describe('invariant', () => {
  it('reports each invariant the simulator recorded as broken', () => {
    const oracle = oracleOf({
      invariantViolations: [
        {
          timeUs: 300,
          topic: 't',
          partition: 1,
          description: 'lastStableOffset 5 > highWatermark 4',
        },
      ],
      faults: [{ description: 'unclean election t-1', startUs: 250, endUs: 300 }],
    });
    const anomaly = onlyAnomaly(checkHistory([], oracle));
    expect(anomaly).toEqual({
      kind: 'invariant',
      message: 'Invariant broken at t-1 at 300us: lastStableOffset 5 > highWatermark 4',
      topic: 't',
      partition: 1,
      timeUs: 300,
      activeFaults: ['unclean election t-1'],
    });
  });

  it('near-miss: a partition with lastStableOffset = highWatermark = logEndOffset is clean', () => {
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 1, records: [data({ offset: 0, value: 1 })] })],
    });
    expectClean(checkHistory([], oracle));
  });
});
