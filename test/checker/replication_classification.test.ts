/**
 * Goal: pin how the oracle's replication facts (replica logs, elections, truncations) classify
 * lost writes and vanished reads, and the boundaries of the replication-era checkers: which
 * truncation is blamed, which replicas vouch for an offset, which deliveries form one sequence,
 * which gaps are legitimate, and that an oracle without the optional replication fields still
 * checks. Method: minimal hand-built histories and oracles varying one fact at a time, mostly run
 * through a single checker so each assertion names exactly what that checker reports.
 */
import { describe, expect, it } from 'vitest';
import {
  CheckContext,
  checkHistory,
  checkInconsistentOffsets,
  checkLostWrite,
  checkNonmonotonicPoll,
  checkPollSkip,
  checkReadAboveHw,
  checkVanishedRead,
} from '../../sim/checker';
import type { Anomaly } from '../../sim/checker';
import type { History, Oracle, OracleElection, OracleTruncation } from '../../sim/history';
import {
  READ_COMMITTED,
  READ_UNCOMMITTED,
  data,
  election,
  finalRead,
  historyOf,
  marker,
  oracleOf,
  partitionOf,
  poll,
  replica,
  send,
  truncation,
} from './builders';

type Checker = (context: CheckContext) => Anomaly[];

function run(checker: Checker, input: { history: History; oracle: Oracle }): Anomaly[] {
  return checker(new CheckContext(input.history, input.oracle));
}

/** Value 2 at offset 1, as the replicas held it before it was truncated. */
const value2 = data({ offset: 1, value: 2, producerId: 7 });
const survivor = data({ offset: 0, value: 1 });

/** An oracle whose partition 0 lost value 2, with the given elections and truncations. */
function lostValue2(facts: {
  readonly elections: readonly OracleElection[];
  readonly truncations: readonly OracleTruncation[];
}): Oracle {
  return oracleOf({ partitions: [partitionOf({ partition: 0, records: [survivor] })], ...facts });
}

const initialElection = election({ timeUs: 0, leader: 'b1', leaderEpoch: 0, kind: 'clean' });
const cleanElection = election({ timeUs: 25, leader: 'b2', leaderEpoch: 1, kind: 'clean' });

function truncated(
  fields: Pick<OracleTruncation, 'timeUs' | 'broker' | 'reason'>,
): OracleTruncation {
  return truncation({ ...fields, toOffset: 1, removed: [value2] });
}

describe('lost-write classification by truncation', () => {
  const history = historyOf(
    send({ client: 'A', partition: 0, value: 2, offset: 1, atUs: 5 }),
    finalRead('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
  );

  it('truncated-after-unclean-election names the unclean election and the broker', () => {
    const oracle = lostValue2({
      elections: [
        initialElection,
        election({ timeUs: 400, leader: 'b3', leaderEpoch: 2, kind: 'unclean' }),
      ],
      truncations: [truncated({ timeUs: 500, broker: 'b1', reason: 'diverging-epoch' })],
    });
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly).toMatchObject({
      value: 2,
      offset: 1,
      producerId: 7,
      brokers: ['b1'],
      classification: 'truncated-after-unclean-election',
    });
    expect(anomaly?.message).toContain(
      'truncated-after-unclean-election (was at offset 1, removed by broker b1 at 500us ' +
        '(diverging-epoch truncation to offset 1), after the unclean election of b3 at ' +
        'leaderEpoch 2 at 400us)',
    );
  });

  it('truncated-by-legacy-hw-truncation blames the first lasting truncation (BUG-23)', () => {
    const oracle = lostValue2({
      elections: [initialElection, cleanElection],
      truncations: [
        truncated({ timeUs: 20, broker: 'b2', reason: 'high-watermark' }),
        truncated({ timeUs: 100, broker: 'b1', reason: 'leader-behind' }),
      ],
    });
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly).toMatchObject({
      brokers: ['b2'],
      classification: 'truncated-by-legacy-hw-truncation',
    });
    expect(anomaly?.message).toContain(
      'removed by broker b2 at 20us (high-watermark truncation to offset 1), after the clean ' +
        'election of b1 at leaderEpoch 0 at 0us',
    );
  });

  it('lost-on-power-loss: the unflushed tail was lost', () => {
    const oracle = lostValue2({
      elections: [],
      truncations: [truncated({ timeUs: 300, broker: 'b1', reason: 'power-loss' })],
    });
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly).toMatchObject({ brokers: ['b1'], classification: 'lost-on-power-loss' });
    expect(anomaly?.message).toContain('at 300us (power-loss truncation to offset 1), with no');
  });

  it('truncated-after-clean-election: an acks=1 write on a deposed leader (A4)', () => {
    const oracle = lostValue2({
      elections: [initialElection, cleanElection],
      truncations: [truncated({ timeUs: 300, broker: 'b1', reason: 'diverging-epoch' })],
    });
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly).toMatchObject({
      brokers: ['b1'],
      classification: 'truncated-after-clean-election',
    });
    expect(anomaly?.message).toContain('after the clean election of b2 at leaderEpoch 1 at 25us');
  });

  it('never-written when truncations removed only other values', () => {
    const other = data({ offset: 1, value: 99 });
    const oracle = lostValue2({
      elections: [initialElection],
      truncations: [
        truncation({
          timeUs: 300,
          broker: 'b1',
          toOffset: 1,
          reason: 'power-loss',
          removed: [other],
        }),
      ],
    });
    const [anomaly] = run(checkLostWrite, { history, oracle });
    expect(anomaly?.classification).toBe('never-written');
    expect(anomaly?.brokers).toBeUndefined();
  });
});

describe('vanished-read blame', () => {
  const history = historyOf(
    poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 2]], atUs: 10 }),
  );

  it('an earlier removal the broker undid by fetching again is not the cause', () => {
    const oracle = lostValue2({
      elections: [initialElection, cleanElection],
      truncations: [
        truncated({ timeUs: 15, broker: 'b1', reason: 'power-loss' }),
        truncated({ timeUs: 300, broker: 'b1', reason: 'diverging-epoch' }),
      ],
    });
    const [anomaly] = run(checkVanishedRead, { history, oracle });
    expect(anomaly).toMatchObject({
      offset: 1,
      value: 2,
      brokers: ['b1'],
      classification: 'truncated-after-clean-election',
    });
  });

  it('a broker whose final replica holds the value again is not the cause', () => {
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [survivor],
          replicas: [
            replica({ broker: 'b1', records: [survivor] }),
            replica({ broker: 'b2', records: [survivor, value2], inSyncReplica: false }),
          ],
        }),
      ],
      elections: [initialElection, cleanElection],
      truncations: [
        truncated({ timeUs: 20, broker: 'b2', reason: 'high-watermark' }),
        truncated({ timeUs: 300, broker: 'b1', reason: 'diverging-epoch' }),
      ],
    });
    const [anomaly] = run(checkVanishedRead, { history, oracle });
    expect(anomaly).toMatchObject({
      brokers: ['b1'],
      classification: 'truncated-after-clean-election',
    });
  });

  it('no-truncation-recorded when the oracle knows of no truncation', () => {
    const oracle = oracleOf({ partitions: [partitionOf({ partition: 0, records: [survivor] })] });
    const [anomaly] = run(checkVanishedRead, { history, oracle });
    expect(anomaly?.classification).toBe('no-truncation-recorded');
    expect(anomaly?.message).toContain('no recorded truncation removed it');
  });

  it('a partition the oracle does not hold is not judged', () => {
    expect(run(checkVanishedRead, { history, oracle: oracleOf({}) })).toEqual([]);
  });
});

describe('read-above-hw boundaries', () => {
  it('final reads count, and a record no longer in the log is gone-from-final-log', () => {
    const history = historyOf(
      finalRead('reader', {
        isolationLevel: READ_COMMITTED,
        records: [[0, 1, 2]],
        highWatermarks: [[0, 1]],
        atUs: 900,
      }),
    );
    const oracle = oracleOf({ partitions: [partitionOf({ partition: 0, records: [survivor] })] });
    const [anomaly] = run(checkReadAboveHw, { history, oracle });
    expect(anomaly).toMatchObject({ offset: 1, value: 2, classification: 'gone-from-final-log' });
  });

  it('a poll without a reported high watermark is not judged', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 5, 2]], atUs: 100 }),
    );
    expect(run(checkReadAboveHw, { history, oracle: oracleOf({}) })).toEqual([]);
  });
});

describe('inconsistent-offsets replica boundaries', () => {
  const leaderLog = [survivor, value2, data({ offset: 2, value: 3 })];
  const divergentLog = [survivor, data({ offset: 1, value: 5 })];

  function divergence(follower: { highWatermark: number; inSyncReplica: boolean }): Oracle {
    const replicas = [
      replica({ broker: 'b1', records: leaderLog }),
      replica({ broker: 'b2', records: divergentLog, ...follower }),
    ];
    return oracleOf({ partitions: [partitionOf({ partition: 0, records: leaderLog, replicas })] });
  }

  it('an ISR member vouches for offsets below the leader’s high watermark', () => {
    const oracle = divergence({ highWatermark: 1, inSyncReplica: true });
    const [anomaly] = run(checkInconsistentOffsets, { history: [], oracle });
    expect(anomaly).toMatchObject({ offset: 1, brokers: ['b1', 'b2'], values: [2, 5] });
  });

  it('an out-of-sync replica vouches only for offsets below its own high watermark', () => {
    const oracle = divergence({ highWatermark: 1, inSyncReplica: false });
    expect(run(checkInconsistentOffsets, { history: [], oracle })).toEqual([]);
    const stale = divergence({ highWatermark: 2, inSyncReplica: false });
    expect(run(checkInconsistentOffsets, { history: [], oracle: stale })).toHaveLength(1);
  });

  it('a marker against a data record at one offset differs; a broker twice is unknown', () => {
    const withMarker = [survivor, marker({ offset: 1, control: 'COMMIT', producerId: 7 })];
    const replicas = [
      replica({ broker: 'b1', records: [survivor, value2] }),
      replica({ broker: 'b2', records: withMarker }),
    ];
    const records = [survivor, value2];
    const oracle = oracleOf({ partitions: [partitionOf({ partition: 0, records, replicas })] });
    const [anomaly] = run(checkInconsistentOffsets, { history: [], oracle });
    expect(anomaly).toMatchObject({ offset: 1, values: [2, null] });
    expect(anomaly?.message).toContain('b2 holds a COMMIT marker of producerId 7');
    const twice = [replica({ broker: 'b1', records }), replica({ broker: 'b1', records })];
    const malformed = oracleOf({
      partitions: [partitionOf({ partition: 0, records, replicas: twice })],
    });
    expect(checkHistory([], malformed).checkerErrors).toEqual([
      {
        checker: 'inconsistent-offsets',
        error: 'CheckerInputError: Oracle holds a replica twice: t-0 on broker b1',
      },
    ]);
  });
});

describe('nonmonotonic-poll boundaries', () => {
  const oracle = oracleOf({
    partitions: [partitionOf({ partition: 0, records: [survivor, value2] })],
  });

  it('final reads are compared among themselves: the same offset again', () => {
    const history = historyOf(
      finalRead('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 2]], atUs: 800 }),
      finalRead('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 2]], atUs: 900 }),
    );
    const [anomaly] = run(checkNonmonotonicPoll, { history, oracle });
    expect(anomaly).toMatchObject({
      offsets: [1, 1],
      classification: 'offset-delivered-again',
      timeUs: 900,
    });
    expect(anomaly?.message).toContain('in a final read at 900us');
  });

  it('a restarted process and another consumer start afresh', () => {
    const history = historyOf(
      poll('reader', { isolationLevel: READ_UNCOMMITTED, records: [[0, 1, 2]], atUs: 100 }),
      poll('reader', {
        isolationLevel: READ_UNCOMMITTED,
        records: [[0, 0, 1]],
        process: 'reader#1',
        atUs: 200,
      }),
      poll('other', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 300 }),
    );
    expect(run(checkNonmonotonicPoll, { history, oracle })).toEqual([]);
  });
});

describe('poll-skip boundaries', () => {
  const abortedBetween = oracleOf({
    partitions: [
      partitionOf({
        partition: 0,
        records: [
          survivor,
          data({ offset: 1, value: 2, producerId: 9, isTransactional: true }),
          marker({ offset: 2, control: 'ABORT', producerId: 9 }),
          data({ offset: 3, value: 4 }),
        ],
      }),
    ],
  });
  const skipping: ReadonlyArray<readonly [number, number, number]> = [
    [0, 0, 1],
    [0, 3, 4],
  ];

  it('read_uncommitted sees aborted records: skipping one inside a poll is a skip', () => {
    const history = historyOf(
      poll('dirty', { isolationLevel: READ_UNCOMMITTED, records: skipping, atUs: 100 }),
    );
    const [anomaly] = run(checkPollSkip, { history, oracle: abortedBetween });
    expect(anomaly).toMatchObject({
      offsets: [1],
      values: [2],
      producerId: 9,
      classification: 'within-poll',
    });
    const committed = historyOf(
      poll('clean', { isolationLevel: READ_COMMITTED, records: skipping, atUs: 100 }),
    );
    expect(run(checkPollSkip, { history: committed, oracle: abortedBetween })).toEqual([]);
  });

  it('a pair whose delivered value the final log no longer holds is not judged', () => {
    const history = historyOf(
      poll('dirty', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 100 }),
      poll('dirty', { isolationLevel: READ_UNCOMMITTED, records: [[0, 3, 77]], atUs: 200 }),
    );
    expect(run(checkPollSkip, { history, oracle: abortedBetween })).toEqual([]);
  });

  it('final reads skip within their own sequence, not from the last poll', () => {
    const history = historyOf(
      poll('dirty', { isolationLevel: READ_UNCOMMITTED, records: [[0, 0, 1]], atUs: 100 }),
      finalRead('dirty', { isolationLevel: READ_UNCOMMITTED, records: [[0, 3, 4]], atUs: 900 }),
    );
    expect(run(checkPollSkip, { history, oracle: abortedBetween })).toEqual([]);
  });
});

describe('an oracle without replication fields', () => {
  it('checks every checker without error, classifying from the logs alone', () => {
    const history = historyOf(
      send({ client: 'A', partition: 0, value: 2, offset: 1, atUs: 5 }),
      poll('reader', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 1],
          [0, 1, 2],
        ],
        highWatermarks: [[0, 2]],
        atUs: 100,
      }),
      finalRead('reader', { isolationLevel: READ_COMMITTED, records: [[0, 0, 1]], atUs: 900 }),
    );
    const oracle = oracleOf({ partitions: [partitionOf({ partition: 0, records: [survivor] })] });
    expect(oracle.elections).toBeUndefined();
    expect(oracle.truncations).toBeUndefined();
    expect(oracle.partitions[0]?.replicas).toBeUndefined();
    const result = checkHistory(history, oracle);
    expect(result.checkerErrors).toEqual([]);
    expect(result.anomalyTypes).toEqual(['lost-write', 'vanished-read']);
    const classifications = result.anomalies.map((anomaly) => anomaly.classification);
    expect(classifications).toEqual(['never-written', 'no-truncation-recorded']);
  });
});
