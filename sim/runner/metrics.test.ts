/**
 * Goal: pin the metrics arithmetic on hand-built histories and offset series, where every
 * expected number can be worked out by hand: nearest-rank percentiles, commit and abort phase
 * timings from `endTxnUs`, fencing and abort counts, the HW-LSO gap and how long it lasted, and
 * consumer lag against LEO, HW and LSO at each poll. Method: small literal inputs.
 */
import { describe, expect, it } from 'vitest';
import type { History, HistoryOp, Oracle, OraclePartition } from '../history';
import { buildMetrics, consumerLag, latencySummary, stableOffsetGap } from './metrics';
import { thin, valueAt } from './series_thinning';
import { compactSteps, partitionSeries } from './timeline';

describe('latencySummary', () => {
  it('gives nearest-rank percentiles, the floor of the mean and the max', () => {
    const samples = Array.from({ length: 100 }, (_, i) => (100 - i) * 10);
    expect(latencySummary(samples)).toEqual({
      count: 100,
      meanUs: 505,
      p50Us: 500,
      p90Us: 900,
      p99Us: 990,
      maxUs: 1000,
    });
    expect(latencySummary([7])).toMatchObject({ p50Us: 7, p99Us: 7, maxUs: 7 });
    expect(latencySummary([], 'none')).toEqual({
      count: 0,
      meanUs: 0,
      p50Us: 0,
      p90Us: 0,
      p99Us: 0,
      maxUs: 0,
      note: 'none',
    });
  });
});

describe('step series helpers', () => {
  const series = [
    { timeUs: 0, offset: 0 },
    { timeUs: 10, offset: 3 },
    { timeUs: 20, offset: 5 },
  ];

  it('reads the value in force at a time', () => {
    expect([0, 9, 10, 19, 20, 99].map((t) => valueAt(series, t))).toEqual([0, 0, 3, 3, 5, 5]);
    expect(valueAt([], 5)).toBe(0);
  });

  it('drops repeats and keeps the last value at one instant', () => {
    const raw = [
      { timeUs: 0, offset: 0 },
      { timeUs: 5, offset: 0 },
      { timeUs: 10, offset: 2 },
      { timeUs: 10, offset: 4 },
    ];
    expect(compactSteps(raw)).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: 10, offset: 4 },
    ]);
  });

  it('thins evenly and keeps both ends', () => {
    expect(thin([1, 2, 3, 4, 5], 3)).toEqual([1, 3, 5]);
    expect(thin([1, 2], 5)).toEqual([1, 2]);
  });
});

function partition(overrides: Partial<OraclePartition>): OraclePartition {
  return {
    topic: 't',
    partition: 0,
    leader: 'b1',
    logStartOffset: 0,
    logEndOffset: 4,
    highWatermark: 4,
    lastStableOffset: 4,
    records: [0, 1, 2, 3].map((offset) => ({
      offset,
      value: offset,
      producerId: 1,
      producerEpoch: 0,
      sequence: offset,
      isTransactional: true,
      appendUs: 100 * (offset + 1),
    })),
    highWatermarkChanges: [
      { timeUs: 0, offset: 0 },
      { timeUs: 150, offset: 2 },
      { timeUs: 450, offset: 4 },
    ],
    lastStableOffsetChanges: [
      { timeUs: 0, offset: 0 },
      { timeUs: 500, offset: 4 },
    ],
    openTransactions: [],
    ...overrides,
  };
}

describe('gap and lag', () => {
  const series = partitionSeries(partition({}));

  it('rebuilds the log end offset from append times', () => {
    expect(series.logEndOffset).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: 100, offset: 1 },
      { timeUs: 200, offset: 2 },
      { timeUs: 300, offset: 3 },
      { timeUs: 400, offset: 4 },
    ]);
  });

  it('measures HW minus LSO and how long it stayed above zero', () => {
    const gap = stableOffsetGap(series);
    expect(gap.series).toEqual([
      { timeUs: 0, gap: 0 },
      { timeUs: 150, gap: 2 },
      { timeUs: 450, gap: 4 },
      { timeUs: 500, gap: 0 },
    ]);
    expect(gap.gapMax).toBe(4);
    expect(gap.unstableUs).toBe(350);
  });

  it('measures lag three ways at each poll', () => {
    const poll = (index: number, timeUs: number, position: number): HistoryOp => ({
      index,
      timeUs,
      type: 'ok',
      process: 'r#0',
      client: 'r',
      f: 'poll',
      value: {
        isolationLevel: 'read_committed',
        batches: [],
        positions: [{ topic: 't', partition: 0, position }],
      },
    });
    const [lag] = consumerLag([poll(0, 320, 0), poll(1, 600, 4)], [series]);
    expect(lag?.series).toEqual([
      { timeUs: 320, position: 0, logEndOffsetLag: 3, highWatermarkLag: 2, lastStableOffsetLag: 0 },
      { timeUs: 600, position: 4, logEndOffsetLag: 0, highWatermarkLag: 0, lastStableOffsetLag: 0 },
    ]);
    expect(lag?.highWatermarkLagMax).toBe(2);
  });
});

describe('buildMetrics', () => {
  it('times init, commit and abort calls and counts outcomes and fencing', () => {
    const base = { process: 'p#0', client: 'p' } as const;
    const txn = (commit: boolean) => ({ transactionalId: 'x', commit, sends: [] });
    const history: History = [
      { ...base, index: 0, timeUs: 0, type: 'invoke', f: 'init', value: { transactionalId: 'x' } },
      { ...base, index: 1, timeUs: 40, type: 'ok', f: 'init', value: { transactionalId: 'x' } },
      { ...base, index: 2, timeUs: 100, type: 'invoke', f: 'txn', value: txn(true) },
      {
        ...base,
        index: 3,
        timeUs: 190,
        type: 'ok',
        f: 'txn',
        value: { ...txn(true), endTxnUs: 150 },
      },
      { ...base, index: 4, timeUs: 200, type: 'invoke', f: 'txn', value: txn(false) },
      {
        ...base,
        index: 5,
        timeUs: 230,
        type: 'ok',
        f: 'txn',
        value: { ...txn(false), endTxnUs: 220 },
      },
      { ...base, index: 6, timeUs: 300, type: 'invoke', f: 'txn', value: txn(true) },
      {
        ...base,
        index: 7,
        timeUs: 380,
        type: 'fail',
        f: 'txn',
        value: { ...txn(true), endTxnUs: 310 },
        error: 'PRODUCER_FENCED',
      },
    ];
    const oracle: Oracle = {
      partitions: [],
      epochGrants: [
        { timeUs: 20, transactionalId: 'x', producerId: 1, producerEpoch: 0, reason: 'init' },
        { timeUs: 250, transactionalId: 'x', producerId: 1, producerEpoch: 1, reason: 'fence' },
      ],
      faults: [],
      invariantViolations: [],
    };
    const metrics = buildMetrics(history, oracle);
    expect(metrics.transactionPhases.init).toMatchObject({ count: 1, maxUs: 40 });
    expect(metrics.transactionPhases.begin).toMatchObject({ count: 3, maxUs: 0 });
    expect(metrics.transactionPhases.commit).toMatchObject({ count: 2, p50Us: 40, maxUs: 70 });
    expect(metrics.transactionPhases.abort).toMatchObject({ count: 1, maxUs: 10 });
    expect(metrics.commitLatency).toMatchObject({ count: 1, maxUs: 40 });
    expect(metrics.transactionLatency).toMatchObject({ count: 1, maxUs: 90 });
    expect(metrics.counts).toEqual({
      transactions: 3,
      committed: 1,
      aborted: 1,
      failed: 1,
      unknown: 0,
      fencingErrors: 1,
      fencedClients: 1,
      epochBumps: { init: 1, fence: 1, timeout: 0, end: 0 },
    });
  });
});
