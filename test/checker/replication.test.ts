/**
 * Goal: show that each replication-era checker (`vanished-read`, `read-above-hw`,
 * `inconsistent-offsets`, `nonmonotonic-poll`, `poll-skip`) finds the anomaly it names, located
 * exactly (offsets, values, brokers, classification, process), and stays quiet on the closest
 * valid history. Method: one hand-built history and oracle per anomaly, checked with every
 * checker through `checkHistory`, and one near-miss per anomaly that must check clean.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import {
  READ_COMMITTED,
  READ_UNCOMMITTED,
  data,
  election,
  finalRead,
  historyOf,
  marker,
  nemesis,
  oracleOf,
  oracleOfPartition0,
  partitionOf,
  poll,
  replica,
  send,
  truncation,
} from './builders';
import { expectClean, onlyAnomaly, onlyOfKind } from './results';

describe('vanished-read', () => {
  const value1 = data({ offset: 0, value: 1, producerId: 7 });
  const value2 = data({ offset: 1, value: 2, producerId: 7, producerEpoch: 1 });
  const reads = historyOf(
    send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
    send({ client: 'A', partition: 0, value: 2, offset: 1, atUs: 150 }),
    nemesis({ fault: 'crash', phase: 'start', description: 'crash b1 b2', atUs: 250 }),
    poll('reader', {
      isolationLevel: READ_UNCOMMITTED,
      records: [
        [0, 0, 1],
        [0, 1, 2],
      ],
      highWatermarks: [[0, 2]],
      atUs: 300,
    }),
  );

  it('reports a read record truncated away after an unclean election', () => {
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: [value1] })],
      elections: [
        election({ timeUs: 0, leader: 'b1', leaderEpoch: 0, kind: 'clean' }),
        election({ timeUs: 400, leader: 'b3', leaderEpoch: 2, kind: 'unclean' }),
      ],
      truncations: [
        truncation({
          timeUs: 500,
          broker: 'b1',
          toOffset: 1,
          reason: 'diverging-epoch',
          removed: [value2],
        }),
      ],
    });
    const anomaly = onlyAnomaly(checkHistory(reads, oracle));
    expect(anomaly).toMatchObject({
      kind: 'vanished-read',
      topic: 't',
      partition: 0,
      offset: 1,
      value: 2,
      producerId: 7,
      producerEpoch: 1,
      brokers: ['b1'],
      client: 'reader',
      timeUs: 300,
      classification: 'truncated-after-unclean-election',
      activeFaults: ['crash b1 b2'],
    });
    expect(anomaly.message).toContain(
      'removed by broker b1 at 500us (diverging-epoch truncation to offset 1), after the ' +
        'unclean election of b3 at leaderEpoch 2 at 400us',
    );
    expect(anomaly.message).toContain('offset 1 now holds nothing');
  });

  it('near-miss: a record truncated by a routine truncation and fetched again is not gone', () => {
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: [value1, value2] })],
      truncations: [
        truncation({
          timeUs: 500,
          broker: 'b2',
          toOffset: 1,
          reason: 'high-watermark',
          removed: [value2],
        }),
      ],
    });
    expectClean(checkHistory(reads, oracle));
  });
});

describe('read-above-hw', () => {
  const oracle = oracleOfPartition0([
    data({ offset: 0, value: 1 }),
    data({ offset: 1, value: 2, producerId: 4, producerEpoch: 3 }),
  ]);

  function readWithHighWatermark(highWatermark: number) {
    return historyOf(
      send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
      send({ client: 'A', partition: 0, value: 2, offset: 1, atUs: 150 }),
      poll('reader', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 1],
          [0, 1, 2],
        ],
        highWatermarks: [[0, highWatermark]],
        atUs: 300,
      }),
    );
  }

  it('reports a record delivered at the high watermark its leader reported', () => {
    const anomaly = onlyAnomaly(checkHistory(readWithHighWatermark(1), oracle));
    expect(anomaly).toMatchObject({
      kind: 'read-above-hw',
      topic: 't',
      partition: 0,
      offset: 1,
      value: 2,
      producerId: 4,
      producerEpoch: 3,
      client: 'reader',
      process: 'reader#0',
      timeUs: 300,
      classification: 'still-in-final-log',
    });
    expect(anomaly.message).toContain('at or above the highWatermark 1');
  });

  it('near-miss: records delivered below the reported high watermark are fine', () => {
    expectClean(checkHistory(readWithHighWatermark(2), oracle));
  });
});

describe('inconsistent-offsets', () => {
  it('reports two consumers delivering different values at one offset', () => {
    const history = historyOf(
      send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
      poll('early', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('late', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 5]], atUs: 700 }),
    );
    const oracle = oracleOf({
      partitions: [partitionOf({ partition: 0, records: [data({ offset: 0, value: 5 })] })],
      elections: [election({ timeUs: 400, leader: 'b3', leaderEpoch: 1, kind: 'unclean' })],
      truncations: [
        truncation({
          timeUs: 500,
          broker: 'b1',
          toOffset: 0,
          reason: 'diverging-epoch',
          removed: [data({ offset: 0, value: 1 })],
        }),
      ],
    });
    const result = checkHistory(history, oracle);
    expect(result.anomalyTypes).toEqual(['inconsistent-offsets', 'vanished-read']);
    expect(onlyOfKind(result, 'inconsistent-offsets')).toMatchObject({
      topic: 't',
      partition: 0,
      offset: 0,
      value: 1,
      values: [1, 5],
      client: 'late',
      timeUs: 700,
      classification: 'different-values-delivered',
    });
    expect(onlyOfKind(result, 'vanished-read').classification).toBe(
      'truncated-after-unclean-election',
    );
  });

  it('reports two in-sync replicas holding different records below the high watermark', () => {
    const leaderLog = [
      data({ offset: 0, value: 1 }),
      data({ offset: 1, value: 2, appendUs: 300 }),
      data({ offset: 2, value: 3 }),
    ];
    const followerLog = [
      data({ offset: 0, value: 1 }),
      data({ offset: 1, value: 5, appendUs: 450 }),
      data({ offset: 2, value: 3 }),
    ];
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: leaderLog,
          replicas: [
            replica({ broker: 'b2', records: followerLog }),
            replica({ broker: 'b1', records: leaderLog }),
          ],
        }),
      ],
      faults: [{ description: 'crash b1', startUs: 400, endUs: 500 }],
    });
    const anomaly = onlyAnomaly(checkHistory([], oracle));
    expect(anomaly).toMatchObject({
      kind: 'inconsistent-offsets',
      topic: 't',
      partition: 0,
      offset: 1,
      brokers: ['b1', 'b2'],
      values: [2, 5],
      timeUs: 450,
      classification: 'replicas-diverged',
      activeFaults: ['crash b1'],
    });
    expect(anomaly.message).toContain('Replicas b1 and b2 of t-0 hold different records');
  });

  it('near-miss: replicas differing above the high watermark, and one value seen twice', () => {
    const leaderLog = [data({ offset: 0, value: 1 }), data({ offset: 1, value: 2 })];
    const staleLog = [data({ offset: 0, value: 1 }), data({ offset: 1, value: 9 })];
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: leaderLog,
          highWatermark: 1,
          replicas: [
            replica({ broker: 'b1', records: leaderLog, highWatermark: 1 }),
            replica({ broker: 'b2', records: staleLog, highWatermark: 1 }),
          ],
        }),
      ],
    });
    const history = historyOf(
      poll('early', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('late', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 700 }),
    );
    expectClean(checkHistory(history, oracle));
  });
});

describe('nonmonotonic-poll', () => {
  const oracle = oracleOfPartition0([data({ offset: 0, value: 1 }), data({ offset: 1, value: 2 })]);
  const both: ReadonlyArray<readonly [number, number, number]> = [
    [0, 0, 1],
    [0, 1, 2],
  ];

  it('reports a process whose next poll went back below its previous poll', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: both, atUs: 200 }),
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 300 }),
    );
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'nonmonotonic-poll',
      topic: 't',
      partition: 0,
      offset: 0,
      offsets: [1, 0],
      value: 1,
      values: [2, 1],
      client: 'reader',
      process: 'reader#0',
      timeUs: 300,
      classification: 'offset-went-backwards',
    });
  });

  it('near-miss: a pipeline that rewound to its committed offset after an abort', () => {
    // The rewind (seek) or a reassignment restarts the order; the same history without the
    // `repositioned` entry is the first test's anomaly.
    const history = historyOf(
      poll('P1', { isolationLevel: READ_COMMITTED, records: both, atUs: 200 }),
      poll('P1', {
        isolationLevel: READ_COMMITTED,
        records: [[0, 0, 1]],
        atUs: 300,
        repositioned: [0],
      }),
      poll('P1', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 400 }),
    );
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    // Only the third poll went back: after the rewind the order restarted at offset 0.
    expect(anomaly).toMatchObject({ kind: 'nonmonotonic-poll', offsets: [0, 0], timeUs: 400 });
  });

  it('near-miss: final reads after the seek to 0 overlap the polls without going back', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: both, atUs: 200 }),
      finalRead('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 800 }),
      finalRead('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 2]], atUs: 900 }),
    );
    expectClean(checkHistory(history, oracle));
  });
});

describe('poll-skip', () => {
  it('reports a consumer that skipped a visible record between two polls', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 2, 3]], atUs: 300 }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 1 }),
      data({ offset: 1, value: 2, producerId: 6 }),
      data({ offset: 2, value: 3 }),
    ]);
    const anomaly = onlyAnomaly(checkHistory(history, oracle));
    expect(anomaly).toMatchObject({
      kind: 'poll-skip',
      topic: 't',
      partition: 0,
      offset: 1,
      offsets: [1],
      value: 2,
      values: [2],
      producerId: 6,
      client: 'reader',
      process: 'reader#0',
      timeUs: 300,
      classification: 'across-polls',
    });
    expect(anomaly.message).toContain('delivered t-0 offset 0 then offset 2');
  });

  it('near-miss: a partition assigned anew starts at the committed offset, past the skip', () => {
    const history = historyOf(
      poll('P1', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('P1', {
        isolationLevel: READ_UNCOMMITTED,
        records: [[0, 2, 3]],
        atUs: 300,
        repositioned: [0],
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 1 }),
      data({ offset: 1, value: 2, producerId: 6 }),
      data({ offset: 2, value: 3 }),
    ]);
    expectClean(checkHistory(history, oracle));
  });

  it('near-miss: read_committed skipping a marker, an aborted batch and its marker', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 200 }),
      poll('reader', { isolationLevel: READ_COMMITTED, records: [[0, 4, 3]], atUs: 300 }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 1, producerId: 8, isTransactional: true }),
      marker({ offset: 1, control: 'COMMIT', producerId: 8 }),
      data({ offset: 2, value: 2, producerId: 9, isTransactional: true }),
      marker({ offset: 3, control: 'ABORT', producerId: 9 }),
      data({ offset: 4, value: 3 }),
    ]);
    expectClean(checkHistory(history, oracle));
  });
});
