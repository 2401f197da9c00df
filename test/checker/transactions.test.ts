/**
 * Goal: show that `torn-transaction` and `hanging-transaction` find what they name, located in
 * Kafka's terms, and stay quiet on the states Kafka allows. Method: one hand-built history and
 * oracle per rule (a committed transaction aborted on one partition, or missing from it; an
 * aborted transaction committed by the producer's next transaction; an open transaction no
 * coordinator has in Ongoing, pinning the last stable offset past transaction.max.timeout.ms),
 * and one per non-rule (transient cross-partition visibility, KIP-98; a transaction still pending
 * at the end; an open transaction the coordinator holds as Ongoing; a pin shorter than the
 * maximum timeout).
 */
import { describe, expect, it } from 'vitest';
import { checkHistory, pinnedSinceUs } from '../../sim/checker';
import type { OracleCoordinatorTransaction } from '../../sim/history';
import {
  READ_COMMITTED,
  READ_UNCOMMITTED,
  data,
  finalRead,
  historyOf,
  marker,
  nemesis,
  oracleOf,
  partitionOf,
  poll,
  record,
  txn,
} from './builders';
import { expectClean, onlyAnomaly, onlyOfKind } from './results';

/** A transactional data record of producer 7, epoch 0 unless told. */
function txData(offset: number, value: number, producerEpoch = 0): ReturnType<typeof data> {
  return data({ offset, value, producerId: 7, producerEpoch, isTransactional: true });
}

function txMarker(offset: number, control: 'COMMIT' | 'ABORT'): ReturnType<typeof marker> {
  return marker({ offset, control, producerId: 7 });
}

describe('torn-transaction', () => {
  it('reports a committed transaction visible on one partition and aborted on another', () => {
    const history = historyOf(
      nemesis({ fault: 'pause', phase: 'start', description: 'pause b2', atUs: 50 }),
      txn({
        client: 'A',
        commit: true,
        sends: [record(0, 1, 0), record(1, 2, 0)],
        atUs: 100,
        producerId: 7,
        producerEpoch: 0,
      }),
      finalRead('final', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
      finalRead('final-u', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 1],
          [1, 0, 2],
        ],
        atUs: 900,
      }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({ partition: 0, records: [txData(0, 1), txMarker(1, 'COMMIT')] }),
        partitionOf({ partition: 1, records: [txData(0, 2), txMarker(1, 'ABORT')] }),
      ],
    });
    const result = checkHistory(history, oracle);
    // The acknowledged record that never became visible is also a lost-write.
    expect(result.anomalyTypes).toEqual(['lost-write', 'torn-transaction']);
    const anomaly = onlyOfKind(result, 'torn-transaction');
    expect(anomaly).toMatchObject({
      kind: 'torn-transaction',
      topic: 't',
      partition: 1,
      offset: 0,
      value: 2,
      transactionalId: 'tx-A',
      producerId: 7,
      producerEpoch: 0,
      client: 'A',
      timeUs: 100,
      classification: 'partly-committed',
      activeFaults: ['pause b2'],
      transactionRecords: [
        { topic: 't', partition: 0, offset: 0, value: 1, fate: 'visible' },
        { topic: 't', partition: 1, offset: 0, value: 2, fate: 'aborted' },
      ],
    });
    expect(anomaly.message).toContain('visible to read_committed: t-0@0 value 1');
    expect(anomaly.message).toContain('aborted: t-1@0 value 2, marker at 1');
  });

  it('reports a committed transaction whose record on another partition is gone', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1, 0), record(1, 2, 0)], atUs: 100 }),
      finalRead('final', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({ partition: 0, records: [txData(0, 1), txMarker(1, 'COMMIT')] }),
        partitionOf({ partition: 1, records: [] }),
      ],
    });
    const anomaly = onlyOfKind(checkHistory(history, oracle), 'torn-transaction');
    expect(anomaly).toMatchObject({ partition: 1, value: 2, classification: 'partly-committed' });
    expect(anomaly.offset).toBeUndefined();
    expect(anomaly.transactionRecords?.[1]).toEqual({
      topic: 't',
      partition: 1,
      offset: null,
      value: 2,
      fate: 'absent',
    });
  });

  it('reports an aborted transaction committed with the same producer`s next one (H2)', () => {
    const history = historyOf(
      txn({ client: 'A', commit: false, sends: [record(0, 1)], atUs: 100, producerId: 7 }),
      txn({ client: 'A', commit: true, sends: [record(0, 2, 1)], atUs: 300, producerId: 7 }),
      finalRead('final', {
        isolationLevel: READ_COMMITTED,
        records: [
          [0, 0, 1],
          [0, 1, 2],
        ],
        atUs: 900,
      }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [txData(0, 1), txData(1, 2), txMarker(2, 'COMMIT')],
        }),
      ],
    });
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'torn-transaction',
      partition: 0,
      offset: 0,
      value: 1,
      transactionalId: 'tx-A',
      producerId: 7,
      timeUs: 200,
      classification: 'aborted-committed-by-later-transaction',
    });
    expect(anomaly.message).toContain('transaction invoked at history index 2');
  });

  it('reports a failed transaction whose own marker committed it', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1)], atUs: 100, type: 'fail' }),
      finalRead('final', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
    );
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: [txData(0, 1), txMarker(1, 'COMMIT')] })],
    });
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly.classification).toBe('aborted-but-committed');
  });

  it('near-miss: an aborted record delivered by a broken filter is aborted-read, not torn', () => {
    const history = historyOf(
      txn({ client: 'A', commit: false, sends: [record(0, 1)], atUs: 100 }),
      finalRead('final', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
    );
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: [txData(0, 1), txMarker(1, 'ABORT')] })],
    });
    expect(checkHistory(history, oracle).anomalyTypes).toEqual(['aborted-read']);
  });

  it('near-miss: visible on one partition first mid-run (KIP-98), whole at the end', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1, 0), record(1, 2, 0)], atUs: 100 }),
      poll('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 150 }),
      finalRead('final', {
        isolationLevel: READ_COMMITTED,
        records: [
          [0, 0, 1],
          [1, 0, 2],
        ],
        atUs: 900,
      }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [txData(0, 1), marker({ offset: 1, control: 'COMMIT', producerId: 7 })],
          lastStableOffsetChanges: [{ timeUs: 140, offset: 2 }],
        }),
        partitionOf({
          partition: 1,
          records: [txData(0, 2), marker({ offset: 1, control: 'COMMIT', producerId: 7 })],
          lastStableOffsetChanges: [
            { timeUs: 0, offset: 0 },
            { timeUs: 200, offset: 2 },
          ],
        }),
      ],
    });
    expectClean(checkHistory(history, oracle));
  });

  it('near-miss: a record still open at the end (no marker yet) is pending, not torn', () => {
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [record(0, 1, 0), record(1, 2, 0)], atUs: 100 }),
      finalRead('final', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({ partition: 0, records: [txData(0, 1), txMarker(1, 'COMMIT')] }),
        partitionOf({ partition: 1, records: [txData(0, 2)], lastStableOffset: 0 }),
      ],
    });
    // The missing record is a lost-write held back by the last stable offset, not a tear.
    expect(checkHistory(history, oracle).anomalyTypes).toEqual(['lost-write']);
  });

  it('near-miss: an aborted transaction wholly invisible, a committed one wholly visible', () => {
    const history = historyOf(
      txn({ client: 'A', commit: false, sends: [record(0, 1), record(1, 2)], atUs: 100 }),
      txn({ client: 'A', commit: true, sends: [record(0, 3, 2), record(1, 4, 2)], atUs: 300 }),
      finalRead('final', {
        isolationLevel: READ_COMMITTED,
        records: [
          [0, 2, 3],
          [1, 2, 4],
        ],
        atUs: 900,
      }),
    );
    const partition = (
      index: number,
      values: readonly [number, number],
    ): ReturnType<typeof partitionOf> =>
      partitionOf({
        partition: index,
        records: [
          txData(0, values[0]),
          txMarker(1, 'ABORT'),
          txData(2, values[1]),
          txMarker(3, 'COMMIT'),
        ],
      });
    const oracle = oracleOf({ partitions: [partition(0, [1, 3]), partition(1, [2, 4])] });
    expectClean(checkHistory(history, oracle));
  });
});

/** A coordinator entry of `tx-A` for producer 7. */
function coordinatorEntry(
  overrides: Partial<OracleCoordinatorTransaction>,
): OracleCoordinatorTransaction {
  return {
    transactionalId: 'tx-A',
    coordinator: 'b2',
    producerId: 7,
    producerEpoch: 0,
    state: 'CompleteAbort',
    partitions: [],
    ...overrides,
  };
}

/**
 * Partition 0 with producer 7's transaction open from offset 2 (epoch 0); the last stable
 * offset reaches 2 at 1000us; the run ends at `endUs`; transaction.max.timeout.ms is 1000.
 */
function hangingOracle(options: {
  readonly endUs: number;
  readonly coordinatorTransactions: readonly OracleCoordinatorTransaction[];
  readonly transactionAbortCleanupIntervalMs?: number;
}): ReturnType<typeof oracleOf> {
  return oracleOf({
    partitions: [
      partitionOf({
        partition: 0,
        records: [txData(0, 1), txMarker(1, 'ABORT'), txData(2, 2), data({ offset: 3, value: 3 })],
        lastStableOffset: 2,
        lastStableOffsetChanges: [
          { timeUs: 0, offset: 0 },
          { timeUs: 500, offset: 2 },
          { timeUs: 600, offset: 1 },
          { timeUs: 1000, offset: 2 },
        ],
        openTransactions: [{ producerId: 7, producerEpoch: 0, firstOffset: 2 }],
      }),
    ],
    coordinatorTransactions: options.coordinatorTransactions,
    transactionMaxTimeoutMs: 1000,
    ...(options.transactionAbortCleanupIntervalMs === undefined
      ? {}
      : { transactionAbortCleanupIntervalMs: options.transactionAbortCleanupIntervalMs }),
    endUs: options.endUs,
  });
}

describe('hanging-transaction', () => {
  it('reports an open transaction its coordinator has completed, pinned past the maximum', () => {
    const history = historyOf(
      nemesis({ fault: 'delay', phase: 'start', description: 'delay A->b1', atUs: 400 }),
    );
    const oracle = hangingOracle({
      endUs: 2_000_000,
      coordinatorTransactions: [coordinatorEntry({})],
    });
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'hanging-transaction',
      topic: 't',
      partition: 0,
      offset: 2,
      producerId: 7,
      producerEpoch: 0,
      transactionalId: 'tx-A',
      timeUs: 500,
      durationUs: 1_999_500,
      coordinatorState: 'CompleteAbort',
      classification: 'coordinator-not-ongoing',
      activeFaults: ['delay A->b1'],
    });
    expect(anomaly.message).toContain('t-0 from offset 2');
    expect(anomaly.message).toContain(
      'coordinator b2 holds transactional.id tx-A in CompleteAbort',
    );
  });

  it('says so when no coordinator knows the producerId', () => {
    const oracle = hangingOracle({ endUs: 2_000_000, coordinatorTransactions: [] });
    const anomaly = onlyAnomaly(checkHistory(historyOf(), oracle));
    expect(anomaly).toMatchObject({
      coordinatorState: 'none',
      classification: 'unknown-producer-id',
    });
    expect(anomaly.transactionalId).toBeUndefined();
    expect(anomaly.message).toContain('no coordinator knows the producerId');
  });

  it('classifies an Ongoing entry with another epoch or without the partition', () => {
    const bumped = coordinatorEntry({
      state: 'Ongoing',
      producerEpoch: 1,
      partitions: [{ topic: 't', partition: 0 }],
    });
    const elsewhere = coordinatorEntry({
      state: 'Ongoing',
      partitions: [{ topic: 't', partition: 1 }],
    });
    const classify = (entry: OracleCoordinatorTransaction): string | undefined =>
      onlyAnomaly(
        checkHistory(
          historyOf(),
          hangingOracle({ endUs: 2_000_000, coordinatorTransactions: [entry] }),
        ),
      ).classification;
    expect(classify(bumped)).toBe('producer-epoch-mismatch');
    expect(classify(elsewhere)).toBe('partition-not-in-transaction');
  });

  it('near-miss: the coordinator holds the transaction as Ongoing with that partition', () => {
    const ongoing = coordinatorEntry({
      state: 'Ongoing',
      partitions: [{ topic: 't', partition: 0 }],
    });
    const oracle = hangingOracle({ endUs: 2_000_000, coordinatorTransactions: [ongoing] });
    expectClean(checkHistory(historyOf(), oracle));
  });

  describe('an Ongoing entry its coordinator never aborts (KAFKA-20090)', () => {
    // Started at 500us with a 100 ms timeout: due at 100_500us. The grace is
    // transaction.max.timeout.ms (1 s) plus two 100 ms cleanup intervals: 1_200_000us.
    const overdue = (endUs: number, heldSinceUs = 0) =>
      checkHistory(
        historyOf(),
        hangingOracle({
          endUs,
          transactionAbortCleanupIntervalMs: 100,
          coordinatorTransactions: [
            coordinatorEntry({
              state: 'Ongoing',
              partitions: [{ topic: 't', partition: 0 }],
              txnStartUs: 500,
              txnTimeoutMs: 100,
              heldSinceUs,
            }),
          ],
        }),
      );

    it('is hanging once the grace after its deadline has passed', () => {
      const anomaly = onlyAnomaly(overdue(1_300_501));
      expect(anomaly).toMatchObject({
        classification: 'timeout-never-aborts',
        coordinatorState: 'Ongoing',
        durationUs: 1_300_001,
      });
    });

    it('near-miss: exactly the grace after its deadline', () => {
      expectClean(overdue(1_300_500));
    });

    it('near-miss: a coordinator that loaded it late gets the grace from its load', () => {
      expectClean(overdue(2_000_000, 900_000));
    });
  });

  it('near-miss: pinned for exactly transaction.max.timeout.ms, not longer', () => {
    const oracle = hangingOracle({ endUs: 1_000_500, coordinatorTransactions: [] });
    expectClean(checkHistory(historyOf(), oracle));
    const longer = hangingOracle({ endUs: 1_000_501, coordinatorTransactions: [] });
    expect(onlyAnomaly(checkHistory(historyOf(), longer)).durationUs).toBe(1_000_001);
  });

  it('reports nothing without the coordinators` view (a history from another source)', () => {
    const oracle = { ...hangingOracle({ endUs: 2_000_000, coordinatorTransactions: [] }) };
    delete (oracle as { coordinatorTransactions?: unknown }).coordinatorTransactions;
    expectClean(checkHistory(historyOf(), oracle));
  });
});

describe('pinnedSinceUs', () => {
  it('starts at the first arrival at the offset after the LSO was last above it', () => {
    const changes = [
      { timeUs: 0, offset: 0 },
      { timeUs: 10, offset: 5 },
      { timeUs: 20, offset: 7 },
      { timeUs: 30, offset: 5 },
      { timeUs: 40, offset: 3 },
      { timeUs: 50, offset: 5 },
    ];
    expect(pinnedSinceUs(changes, 5)).toBe(30);
    expect(pinnedSinceUs(changes, 7)).toBeNull();
    expect(pinnedSinceUs(changes, 4)).toBeNull();
  });
});
