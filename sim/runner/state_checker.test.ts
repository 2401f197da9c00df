/**
 * Goal: prove each invariant of the state checker both ways on hand-built observations: a stream
 * Kafka allows stays silent, and the smallest stream that breaks the invariant is reported with
 * the invariant's name, the event index and the true time of the observation that broke it.
 * Method: feed stamped observations to a StateChecker and an ObservedCluster in the order the
 * runner does (checker first), then read `found`.
 */
import { describe, expect, it } from 'vitest';
import type { KafkaObservation, LogBatch } from '../actors';
import { nodeId } from '../kernel';
import { ObservedCluster } from './observed_cluster';
import { PRODUCER_EPOCH_MAX, StateChecker } from './state_checker';

const TP = { topic: 'orders', partition: 0 };
const B1 = { ...TP, broker: 'b1' };
const B2 = { ...TP, broker: 'b2' };

/** A checker and cluster fed observations one event each, from event 1 at 1000 µs steps. */
function harness(transactionVersion = 2) {
  const cluster = new ObservedCluster();
  const checker = new StateChecker(cluster, { transactionVersion });
  let eventIndex = 0;
  const feed = (...observations: KafkaObservation[]): void => {
    for (const observation of observations) {
      eventIndex += 1;
      const stamped = { timeUs: eventIndex * 1000, eventIndex, node: nodeId('b1'), observation };
      checker.observe(stamped);
      cluster.observe(stamped);
    }
  };
  return { cluster, checker, feed };
}

function batch(fields: Partial<LogBatch> & { baseOffset: number }): LogBatch {
  const values = fields.values ?? [0];
  return {
    lastOffset: fields.baseOffset + Math.max(values.length, 1) - 1,
    producerId: 7,
    producerEpoch: 0,
    baseSequence: 0,
    isTransactional: true,
    values,
    appendUs: 0,
    leaderEpoch: 0,
    ...fields,
  };
}

function marker(baseOffset: number, fields: Partial<LogBatch> = {}): LogBatch {
  return batch({
    baseOffset,
    values: [],
    baseSequence: -1,
    control: 'COMMIT',
    coordinatorEpoch: 0,
    ...fields,
  });
}

function offsets(
  kind: 'HighWatermarkChanged' | 'LastStableOffsetChanged',
  replica: typeof B1,
  values: [number, number, number],
): KafkaObservation {
  const [lastStableOffset, highWatermark, logEndOffset] = values;
  return { kind, ...replica, logStartOffset: 0, lastStableOffset, highWatermark, logEndOffset };
}

const names = (checker: StateChecker): Array<string | undefined> =>
  checker.found.map((violation) => violation.invariant);

describe('StateChecker offsets', () => {
  it('stays silent on ordered offsets and a new leader whose HW is below the old one', () => {
    const { checker, feed } = harness();
    feed(
      { kind: 'LeaderEpochStarted', ...B1, leaderEpoch: 0 },
      {
        kind: 'BatchAppended',
        ...B1,
        origin: 'leader',
        batch: batch({ baseOffset: 0, values: [1, 2] }),
      },
      offsets('HighWatermarkChanged', B1, [2, 2, 2]),
      {
        kind: 'BatchAppended',
        ...B2,
        origin: 'follower',
        batch: batch({ baseOffset: 0, values: [1, 2] }),
      },
      offsets('HighWatermarkChanged', B2, [1, 1, 2]),
      { kind: 'LeaderEpochEnded', ...B1, leaderEpoch: 0 },
      // KIP-101: b2 leads epoch 1 with HW 1 < b1's 2 until its followers fetch.
      { kind: 'LeaderEpochStarted', ...B2, leaderEpoch: 1 },
      offsets('HighWatermarkChanged', B2, [2, 2, 2]),
    );
    expect(checker.found).toEqual([]);
  });

  it('reports offsets out of order, with the event index and time', () => {
    const { checker, feed } = harness();
    feed(offsets('HighWatermarkChanged', B1, [0, 3, 2]));
    expect(checker.found[0]).toMatchObject({
      invariant: 'offsets-ordered',
      eventIndex: 1,
      timeUs: 1000,
      topic: 'orders',
      partition: 0,
      broker: 'b1',
    });
    // The replica's log is empty: a log end offset of 2 does not match it either.
    expect(names(checker)).toEqual(['offsets-ordered', 'log-end-offset-matches-log']);
  });

  it('reports a leader HW or LSO going back within one leader epoch', () => {
    const { checker, feed } = harness();
    feed(
      {
        kind: 'BatchAppended',
        ...B1,
        origin: 'leader',
        batch: batch({ baseOffset: 0, values: [1, 2, 3] }),
      },
      { kind: 'LeaderEpochStarted', ...B1, leaderEpoch: 3 },
      offsets('HighWatermarkChanged', B1, [3, 3, 3]),
      offsets('HighWatermarkChanged', B1, [2, 2, 3]),
    );
    expect(names(checker)).toEqual(['leader-offsets-monotonic']);
    expect(checker.found[0]?.description).toContain('highWatermark 3 → 2');
    expect(checker.found[0]?.eventIndex).toBe(4);
  });

  it('reports two leaders for one leader epoch', () => {
    const { checker, feed } = harness();
    feed(
      { kind: 'LeaderEpochStarted', ...B1, leaderEpoch: 2 },
      { kind: 'LeaderEpochStarted', ...B2, leaderEpoch: 2 },
    );
    expect(names(checker)).toEqual(['one-leader-per-epoch']);
  });
});

describe('StateChecker logs', () => {
  const append = (replica: typeof B1, appended: LogBatch): KafkaObservation =>
    appended.control === undefined
      ? { kind: 'BatchAppended', ...replica, origin: 'leader', batch: appended }
      : { kind: 'MarkerWritten', ...replica, batch: appended };

  it('stays silent on gap-free sequences, a retried marker and a new epoch at 0', () => {
    const { checker, feed } = harness();
    feed(
      append(B1, batch({ baseOffset: 0, values: [1, 2], baseSequence: 0 })),
      append(B1, batch({ baseOffset: 2, values: [3], baseSequence: 2 })),
      append(B1, marker(3, { producerEpoch: 1 })),
      // A WriteTxnMarkers retry writes the same marker again: Kafka's appendEndTxnMarker takes it.
      append(B1, marker(4, { producerEpoch: 1 })),
      append(B1, batch({ baseOffset: 5, producerEpoch: 1, baseSequence: 0 })),
    );
    expect(checker.found).toEqual([]);
  });

  it('reports a sequence gap within one producerId and epoch', () => {
    const { checker, feed } = harness();
    feed(
      append(B1, batch({ baseOffset: 0, values: [1, 2], baseSequence: 0 })),
      append(B1, batch({ baseOffset: 2, values: [3], baseSequence: 3 })),
    );
    expect(names(checker)).toEqual(['sequences-gap-free']);
    expect(checker.found[0]).toMatchObject({ producerId: 7, producerEpoch: 0 });
  });

  it('forgets truncated batches: the tail written again after a truncation is not a gap', () => {
    const { checker, feed } = harness();
    const removed = batch({ baseOffset: 1, baseSequence: 1 });
    feed(
      append(B2, batch({ baseOffset: 0, baseSequence: 0 })),
      append(B2, removed),
      {
        kind: 'LogTruncated',
        ...B2,
        toOffset: 1,
        logEndOffset: 1,
        reason: 'diverging-epoch',
        removed: [removed],
      },
      append(B2, batch({ baseOffset: 1, baseSequence: 1 })),
    );
    expect(checker.found).toEqual([]);
  });

  // Swarm seed 6 of producer-id-expiration: b1 dropped producer 7's state 5 s after its last
  // append; the retry of sequences 1-2 then went in again after sequence 2 (a duplicate the
  // checkers judge), which is no gap in what the broker knew.
  it('starts the sequences again after the replica expired the producer, on that replica', () => {
    const { checker, feed } = harness();
    const expired: KafkaObservation = { kind: 'ProducerStateExpired', ...B1, producerIds: [7] };
    feed(
      append(B1, batch({ baseOffset: 0, values: [1, 2], baseSequence: 1 })),
      append(B2, batch({ baseOffset: 0, values: [1, 2], baseSequence: 1 })),
      expired,
      append(B1, batch({ baseOffset: 2, values: [1, 2], baseSequence: 1 })),
    );
    expect(checker.found).toEqual([]);
    // b2 did not expire it: the same batch there is a gap.
    feed(append(B2, batch({ baseOffset: 2, values: [1, 2], baseSequence: 1 })));
    expect(names(checker)).toEqual(['sequences-gap-free']);
    expect(checker.found[0]).toMatchObject({ broker: 'b2' });
  });

  // Swarm seed 7 of producer-id-expiration: the leader expired the producer and appended a retry
  // at sequence 1 after sequence 2; followers that had not expired it copy that batch as it is.
  it('judges sequences where Kafka checks them: on a leader appending for a client', () => {
    const { checker, feed } = harness();
    const copied = (appended: LogBatch): KafkaObservation => ({
      kind: 'BatchAppended',
      ...B2,
      origin: 'follower',
      batch: appended,
    });
    feed(
      copied(batch({ baseOffset: 0, values: [1, 2], baseSequence: 1 })),
      copied(batch({ baseOffset: 2, values: [1, 2], baseSequence: 1 })),
    );
    expect(checker.found).toEqual([]);
  });

  it('reports a marker whose coordinator epoch is below the last one for the producer', () => {
    const { checker, feed } = harness(0);
    feed(
      append(B1, batch({ baseOffset: 0 })),
      append(B1, marker(1, { coordinatorEpoch: 5 })),
      append(B1, batch({ baseOffset: 2, baseSequence: 1 })),
      append(B1, marker(3, { coordinatorEpoch: 4 })),
    );
    expect(names(checker)).toEqual(['coordinator-epoch-monotonic']);
  });

  it('reports two markers of one epoch under transaction version 2, not under version 1', () => {
    const stream = (feed: (...o: KafkaObservation[]) => void): void =>
      feed(
        append(B1, batch({ baseOffset: 0, producerEpoch: 4 })),
        append(B1, marker(1, { producerEpoch: 5 })),
        append(B1, batch({ baseOffset: 2, producerEpoch: 5, baseSequence: 0 })),
        append(B1, marker(3, { producerEpoch: 5, control: 'ABORT' })),
      );
    const version2 = harness(2);
    stream(version2.feed);
    expect(names(version2.checker)).toEqual(['one-marker-per-epoch']);
    const version1 = harness(1);
    stream(version1.feed);
    expect(version1.checker.found).toEqual([]);
  });
});

describe('StateChecker coordinators', () => {
  let stateLogOffset = 0;
  /** A grant whose record sits at `place` (coordinator epoch, offset); by default the next. */
  const grant = (
    producerId: number,
    producerEpoch: number,
    place: { coordinatorEpoch: number; stateLogOffset: number } = {
      coordinatorEpoch: 0,
      stateLogOffset: stateLogOffset++,
    },
  ): KafkaObservation => ({
    kind: 'ProducerEpochGranted',
    coordinator: place.coordinatorEpoch === 0 ? 'b2' : 'b3',
    transactionalId: 'tx',
    producerId,
    producerEpoch,
    reason: 'end',
    stateLogPartition: 19,
    ...place,
  });
  const at = (coordinatorEpoch: number, offset: number) => ({
    coordinatorEpoch,
    stateLogOffset: offset,
  });

  it('stays silent while producerIds and epochs grow, up to 32767', () => {
    const { checker, feed } = harness();
    feed(grant(1, 0), grant(1, 1), grant(1, PRODUCER_EPOCH_MAX), grant(2, 0));
    expect(checker.found).toEqual([]);
  });

  it('reports an epoch granted twice, a reused producerId, an epoch above Short.MAX_VALUE', () => {
    const { checker, feed } = harness();
    // 2 is lower than 3 but never granted: another broker's producer id block (KIP-730).
    feed(grant(3, 1), grant(3, 1), grant(2, 5), grant(3, 9), grant(3, PRODUCER_EPOCH_MAX + 1));
    expect(names(checker)).toEqual([
      'producer-identity-grows',
      'producer-identity-grows',
      'producer-epoch-in-range',
    ]);
    expect(checker.found[1]?.description).toContain('producerId 3 was granted before');
    expect(checker.found[2]).toMatchObject({ transactionalId: 'tx', producerEpoch: 32_768 });
  });

  // Swarm seed 796 of replicated-random-faults: b2 writes epoch 39 under coordinator epoch 0, is
  // paused before it learns the record is replicated; b3 loads the record under coordinator
  // epoch 1 and grants 40 and 41; b2 resumes and answers 39.
  it('stays silent on a paused coordinator answering late an epoch decided before', () => {
    const { checker, feed } = harness();
    feed(grant(1000, 38, at(0, 10)), grant(1000, 40, at(1, 13)), grant(1000, 41, at(1, 15)));
    feed(grant(1000, 39, at(0, 11)));
    expect(checker.found).toEqual([]);
  });

  // Swarm seed 203 of late-transaction-metric: the record at offset 7 (epoch 3, written under
  // coordinator epoch 8) answered again by the coordinator that loaded it, under epoch 19.
  it('stays silent on the same record answered again under a later coordinator epoch', () => {
    const { checker, feed } = harness();
    feed(grant(2000, 3, at(8, 7)), grant(2000, 3, at(19, 7)), grant(2000, 4, at(19, 9)));
    expect(checker.found).toEqual([]);
  });

  it('reports an old epoch in a new record, and a late answer that does not fit its place', () => {
    const regranted = harness();
    regranted.feed(grant(1000, 39, at(0, 11)), grant(1000, 40, at(1, 13)));
    // A fresh record (after 40's) with epoch 39 again, as a coordinator that lost its state.
    regranted.feed(grant(1000, 39, at(1, 14)));
    expect(names(regranted.checker)).toEqual(['producer-identity-grows']);
    expect(regranted.checker.found[0]?.description).toContain(
      'after producerId 1000 epoch 40 (record at offset 13, coordinator epoch 1)',
    );
    const misplaced = harness();
    misplaced.feed(grant(1000, 40, at(1, 13)), grant(1000, 45, at(0, 11)));
    expect(names(misplaced.checker)).toEqual(['producer-identity-grows']);
    expect(misplaced.checker.found[0]).toMatchObject({ producerEpoch: 45, eventIndex: 2 });
    expect(misplaced.checker.found[0]?.description).toContain('placed before producerId 1000');
  });

  // Swarm seed 394 of late-transaction-metric: two power losses took __transaction_state-19's
  // unflushed tail; the next coordinator, under epoch 4, granted epoch 1 again at offset 2, below
  // the lost record at offset 4.
  it('classifies an identity granted again after its record left __transaction_state', () => {
    const lost = harness();
    lost.feed(grant(2000, 0, at(0, 2)), grant(2000, 1, at(0, 4)), grant(2000, 1, at(4, 2)));
    expect(names(lost.checker)).toEqual(['producer-identity-grows']);
    expect(lost.checker.found[0]).toMatchObject({
      classification: 'grant-record-truncated',
      topic: '__transaction_state',
      partition: 19,
    });
    expect(lost.checker.found[0]?.description).toContain('__transaction_state lost it');
    // Above the earlier record's offset the log may still hold it: no such classification.
    const kept = harness();
    kept.feed(grant(2000, 1, at(0, 4)), grant(2000, 1, at(4, 5)));
    expect(names(kept.checker)).toEqual(['producer-identity-grows']);
    expect(kept.checker.found[0]?.classification).toBeUndefined();
  });

  // Swarm seed 2900 of zombie-fencing-replicated: b3 lost power with offsets 4..9 unflushed and
  // was elected its last known leader; under coordinator epoch 5 it wrote records 4..9 again, so
  // its epoch-2 grant at offset 9 sits above the lost epoch-3 record at offset 8.
  it('classifies a grant above the lost record when the granting replica was cut below it', () => {
    const cut: KafkaObservation = {
      kind: 'LogTruncated',
      topic: '__transaction_state',
      partition: 19,
      broker: 'b3',
      toOffset: 4,
      logEndOffset: 4,
      reason: 'power-loss',
      removed: [batch({ baseOffset: 4 })],
    };
    const lost = harness();
    lost.feed(grant(1000, 3, at(0, 8)), cut, grant(1000, 2, at(5, 9)));
    expect(lost.checker.found[0]?.classification).toBe('grant-record-truncated');
    // A cut of another replica, or above the record, leaves the granting log holding it.
    for (const other of [
      { ...cut, broker: 'b1' },
      { ...cut, toOffset: 9 },
    ]) {
      const kept = harness();
      kept.feed(grant(1000, 3, at(0, 8)), other, grant(1000, 2, at(5, 9)));
      expect(names(kept.checker)).toEqual(['producer-identity-grows']);
      expect(kept.checker.found[0]?.classification).toBeUndefined();
    }
  });

  it('judges a producerId change by place: new after a rotation, reused when placed later', () => {
    const rotated = harness();
    // Rotation to 2000 at offset 12; the late answer of 1000's last epoch fits before it.
    rotated.feed(grant(1000, 5, at(0, 10)), grant(2000, 0, at(1, 12)), grant(1000, 6, at(0, 11)));
    expect(rotated.checker.found).toEqual([]);
    const reused = harness();
    reused.feed(grant(1000, 5, at(0, 10)), grant(2000, 0, at(1, 12)), grant(1000, 6, at(1, 13)));
    expect(names(reused.checker)).toEqual(['producer-identity-grows']);
    expect(reused.checker.found[0]?.description).toContain('producerId 1000 was granted before');
  });

  const prepared = (state: string): KafkaObservation => ({
    kind: 'TransactionStateTransition',
    coordinator: 'b1',
    stateLogPartition: 0,
    coordinatorEpoch: 0,
    from: 'Ongoing',
    to: state,
    view: {
      transactionalId: 'tx',
      producerId: 7,
      producerEpoch: 1,
      state,
      partitions: [TP],
      txnStartUs: 0,
      txnTimeoutMs: 60_000,
    },
  });

  it('reports a coordinator left in PrepareCommit after every marker was written', () => {
    const { checker, feed } = harness();
    feed(prepared('PrepareCommit'), {
      kind: 'MarkerWritten',
      ...B2,
      batch: marker(0, { producerEpoch: 1 }),
    });
    checker.finish(() => 'b1');
    expect(names(checker)).toEqual(['coordinator-completes-after-markers']);
    expect(checker.found[0]).toMatchObject({ eventIndex: 2, timeUs: 2000, transactionalId: 'tx' });
  });

  it('lists a transaction awaiting its completion until the coordinator writes it', () => {
    const { checker, feed } = harness();
    feed(prepared('PrepareAbort'), {
      kind: 'MarkerWritten',
      ...B2,
      batch: marker(0, { producerEpoch: 1, control: 'ABORT' }),
    });
    expect(checker.awaitingCompletion(() => 'b1')).toMatchObject([
      { coordinator: 'b1', control: 'ABORT', lastMarker: { eventIndex: 2, timeUs: 2000 } },
    ]);
    // Another broker is the coordinator now: this one's view is stale, not awaited.
    expect(checker.awaitingCompletion(() => 'b3')).toEqual([]);
    feed({ ...(prepared('CompleteAbort') as object), from: 'PrepareAbort' } as KafkaObservation);
    expect(checker.awaitingCompletion(() => 'b1')).toEqual([]);
  });

  it('stays silent while a marker is missing, or once the coordinator completed', () => {
    const missing = harness();
    missing.feed(prepared('PrepareCommit'));
    missing.checker.finish(() => 'b1');
    expect(missing.checker.found).toEqual([]);
    const completed = harness();
    completed.feed(
      prepared('PrepareCommit'),
      { kind: 'MarkerWritten', ...B2, batch: marker(0, { producerEpoch: 1 }) },
      { ...(prepared('CompleteCommit') as object), from: 'PrepareCommit' } as KafkaObservation,
    );
    completed.checker.finish(() => 'b1');
    expect(completed.checker.found).toEqual([]);
  });
});
