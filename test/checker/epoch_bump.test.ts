/**
 * Goal: `epoch-bump-duplicate` is named only for the copies Kafka's idempotent producer makes
 * itself (KIP-360: a failed batch or OUT_OF_ORDER_SEQUENCE_NUMBER, an epoch bump, the in-flight
 * batches rewritten from sequence 0), judged per record from the history; every other copy
 * under two epochs of one producerId is a plain `duplicate`. Method: hand-built histories and
 * oracles, the checker run on each.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import type { OpDraft } from './builders';
import {
  READ_UNCOMMITTED,
  data,
  finalRead,
  historyOf,
  nemesis,
  oracleOfPartition0,
  record,
} from './builders';

const PRODUCER_ID = 4;

/** A `send` of P with its completion at `doneUs`, carrying the identity it completed under. */
function sendOf(options: {
  readonly value: number;
  readonly atUs: number;
  readonly doneUs: number;
  readonly type: 'ok' | 'info';
  readonly producerEpoch: number;
  readonly offset?: number;
}): OpDraft[] {
  const base = { process: 'P#0', client: 'P', f: 'send' as const };
  const sent =
    options.type === 'ok' ? record(0, options.value, options.offset) : record(0, options.value);
  const identity = { producerId: PRODUCER_ID, producerEpoch: options.producerEpoch };
  return [
    { ...base, timeUs: options.atUs, type: 'invoke', value: { send: record(0, options.value) } },
    {
      ...base,
      timeUs: options.doneUs,
      type: options.type,
      value: { send: sent, ...identity },
      ...(options.type === 'info' ? { error: 'REQUEST_TIMED_OUT' } : {}),
    },
  ];
}

/** Kinds the checker reports, with their counts. */
function kindsOf(
  history: ReturnType<typeof historyOf>,
  oracle: ReturnType<typeof oracleOfPartition0>,
) {
  return checkHistory(history, oracle).anomalyCounts;
}

describe('epoch-bump-duplicate is judged per record from the history', () => {
  it('values 0-24 acknowledged under epoch 0, then again under epoch 1: duplicates', () => {
    // A broker that lost its deduplication window: every earlier copy was acknowledged.
    const values = Array.from({ length: 25 }, (_, value) => value);
    const sends = values.map((value) =>
      sendOf({
        value,
        atUs: 1000 + value * 10,
        doneUs: 2000,
        type: 'ok',
        producerEpoch: 0,
        offset: value,
      }),
    );
    const records = [
      ...values.map((value) =>
        data({ offset: value, value, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 1500 }),
      ),
      ...values.map((value) =>
        data({
          offset: 25 + value,
          value,
          producerId: PRODUCER_ID,
          producerEpoch: 1,
          appendUs: 3000,
        }),
      ),
    ];
    const delivered = records.map((copy) => [0, copy.offset, copy.value ?? -1] as const);
    const history = historyOf(
      nemesis({ fault: 'pause', phase: 'start', description: 'GC pause of b1', atUs: 500 }),
      ...sends,
      finalRead('final', { isolationLevel: READ_UNCOMMITTED, records: delivered, atUs: 9000 }),
    );
    expect(kindsOf(history, oracleOfPartition0(records))).toEqual([
      { kind: 'duplicate', count: 25 },
    ]);
  });

  it('a batch in flight across a failed batch and the bump: epoch-bump-duplicate', () => {
    const history = historyOf(
      // Value 1's batch timed out: the failed batch that asks for the bump.
      sendOf({ value: 1, atUs: 100, doneUs: 900, type: 'info', producerEpoch: 0 }),
      // Value 2 was appended under epoch 0, unacknowledged, and rewritten under epoch 1.
      sendOf({ value: 2, atUs: 110, doneUs: 1500, type: 'ok', producerEpoch: 1, offset: 1 }),
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 2],
          [0, 1, 2],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 2, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    const result = checkHistory(history, oracle);
    expect(result.anomalyCounts).toEqual([{ kind: 'epoch-bump-duplicate', count: 1 }]);
    expect(result.anomalies[0]?.classification).toBe('rewritten-after-failed-batch-bump');
  });

  it('near-miss: the same copies without a failed batch or a fault are a duplicate', () => {
    const history = historyOf(
      sendOf({ value: 2, atUs: 110, doneUs: 1500, type: 'ok', producerEpoch: 1, offset: 1 }),
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 2],
          [0, 1, 2],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 2, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    expect(kindsOf(history, oracle)).toEqual([{ kind: 'duplicate', count: 1 }]);
  });

  it('near-miss: an earlier copy acknowledged under epoch 0 is a duplicate', () => {
    const history = historyOf(
      nemesis({ fault: 'crash', phase: 'start', description: 'crash of b1', atUs: 50 }),
      sendOf({ value: 1, atUs: 100, doneUs: 900, type: 'info', producerEpoch: 0 }),
      sendOf({ value: 2, atUs: 110, doneUs: 400, type: 'ok', producerEpoch: 0, offset: 0 }),
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 2],
          [0, 1, 2],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 2, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    expect(kindsOf(history, oracle)).toEqual([{ kind: 'duplicate', count: 1 }]);
  });
  /**
   * swarm seed 270 of scenarios/producer-id-expiration.yaml: value 1's batch was lost by a drop
   * fault; value 2, sent after the fault ended, was appended across the gap by a leader that had
   * expired the producer's state, and its acknowledgement was lost when the connection broke;
   * value 1's retry met OUT_OF_ORDER_SEQUENCE_NUMBER, the bump rewrote both under epoch 1.
   */
  function lostEarlierBatch(value1DoneUs: number) {
    const history = historyOf(
      nemesis({ fault: 'drop', phase: 'start', description: 'drop P -> *', atUs: 50 }),
      nemesis({ fault: 'drop', phase: 'end', description: 'drop P -> *', atUs: 150 }),
      sendOf({
        value: 1,
        atUs: 100,
        doneUs: value1DoneUs,
        type: 'ok',
        producerEpoch: 1,
        offset: 1,
      }),
      sendOf({ value: 2, atUs: 200, doneUs: 1500, type: 'ok', producerEpoch: 1, offset: 2 }),
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 2],
          [0, 1, 1],
          [0, 2, 2],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 1, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1100 }),
      data({ offset: 2, value: 2, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    return checkHistory(history, oracle);
  }

  it('an earlier batch lost by a fault while the value was in flight: epoch-bump-duplicate', () => {
    const result = lostEarlierBatch(1400);
    expect(result.anomalyCounts).toEqual([{ kind: 'epoch-bump-duplicate', count: 1 }]);
    expect(result.anomalies[0]?.classification).toBe('rewritten-after-out-of-order-bump');
  });

  it('near-miss: the earlier batch completed before the value was sent: a duplicate', () => {
    // Value 1 done at 180 us, before value 2's invoke at 200 us: nothing of the fault was in
    // flight with value 2. (Its ok carries epoch 1 only to keep the histories alike.)
    expect(lostEarlierBatch(180).anomalyCounts).toEqual([{ kind: 'duplicate', count: 1 }]);
  });

  /**
   * swarm seed 929 of scenarios/late-transaction-metric.yaml: value 6 was appended under epoch 0
   * while a partition cut P off, its answer was lost, the bump rewrote it under epoch 1, and P
   * lost power before any answer came: the send has no completion in the history.
   */
  function neverCompleted(withFault: boolean) {
    const invoke = sendOf({ value: 6, atUs: 100, doneUs: 0, type: 'ok', producerEpoch: 1 })[0];
    if (invoke === undefined) throw new Error('no invoke');
    const fault = { fault: 'partition', description: 'network partition [P]' } as const;
    const history = historyOf(
      ...(withFault
        ? [
            nemesis({ ...fault, phase: 'start', atUs: 150 }),
            nemesis({ ...fault, phase: 'end', atUs: 250 }),
          ]
        : []),
      invoke,
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 6],
          [0, 1, 6],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 6, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 6, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    return checkHistory(history, oracle);
  }

  it('a send never completed (its client stopped) was in flight: epoch-bump-duplicate', () => {
    const result = neverCompleted(true);
    expect(result.anomalyCounts).toEqual([{ kind: 'epoch-bump-duplicate', count: 1 }]);
    expect(result.anomalies[0]?.classification).toBe('rewritten-after-out-of-order-bump');
  });

  it('near-miss: never completed, and nothing asked for a bump: a duplicate', () => {
    expect(neverCompleted(false).anomalyCounts).toEqual([{ kind: 'duplicate', count: 1 }]);
  });
});

describe('a rewrite appended after its client gave up on it (info)', () => {
  // eos-pipeline swarm seed 3451 (100k safe sweep): value 36, appended under epoch 0 and never
  // acknowledged, was rewritten under epoch 1 after value 31's batch timed out; that request
  // timed out too (info at 101.497 s), and its bytes were appended 1.6 ms later.
  function rewriteDoneAt(type: 'info' | 'ok') {
    const history = historyOf(
      sendOf({ value: 1, atUs: 100, doneUs: 900, type: 'info', producerEpoch: 0 }),
      sendOf({ value: 2, atUs: 110, doneUs: 1100, type, producerEpoch: 1, offset: 1 }),
      finalRead('final', {
        isolationLevel: READ_UNCOMMITTED,
        records: [
          [0, 0, 2],
          [0, 1, 2],
        ],
        atUs: 5000,
      }),
    );
    const oracle = oracleOfPartition0([
      data({ offset: 0, value: 2, producerId: PRODUCER_ID, producerEpoch: 0, appendUs: 300 }),
      data({ offset: 1, value: 2, producerId: PRODUCER_ID, producerEpoch: 1, appendUs: 1200 }),
    ]);
    return checkHistory(history, oracle);
  }

  it('an info completion before the last copy: still in flight, epoch-bump-duplicate', () => {
    const result = rewriteDoneAt('info');
    expect(result.anomalyCounts).toEqual([{ kind: 'epoch-bump-duplicate', count: 1 }]);
    expect(result.anomalies[0]?.classification).toBe('rewritten-after-failed-batch-bump');
  });

  it('near-miss: an ok completion before the last copy is a duplicate', () => {
    expect(rewriteDoneAt('ok').anomalyCounts).toEqual([{ kind: 'duplicate', count: 1 }]);
  });
});
