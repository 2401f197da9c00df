/**
 * Goal: show that `eos-violation` finds an input record of a read-process-write pipeline with
 * two committed outputs, or with none below the group's committed offset, and names the instance
 * responsible (client, transactional.id, producer identity, generation, member id); and that it
 * stays quiet on a clean pipeline, on an aborted output, and on an input not yet processed.
 * Method: hand-built histories of pipeline transactions (outputs carrying their input record)
 * and read_committed final reads of the input topic `in` and the output topic `out`.
 */
import { describe, expect, it } from 'vitest';
import { CHECKERS, checkHistory } from '../../sim/checker';
import type { DeliveredRecord, Oracle, SendMicroOp, TxnGroupMetadata } from '../../sim/history';
import { historyOf, oracleOf, type OpDraft } from './builders';
import { expectClean } from './results';
import { deliveredBatchesOf } from '../../sim/history';

const ONLY_EOS = CHECKERS.filter((checker) => checker.name === 'eos-violation');

/** Input record `in-0` at `offset` with value `100 + offset`. */
function input(offset: number): DeliveredRecord {
  return { topic: 'in', partition: 0, offset, value: 100 + offset };
}

/** An output record of `source`, not yet placed. */
function output(value: number, source: DeliveredRecord, offset?: number): SendMicroOp {
  return { topic: 'out', partition: 0, value, source, ...(offset === undefined ? {} : { offset }) };
}

function group(generationId: number, memberId: string): TxnGroupMetadata {
  return { groupId: 'g', generationId, memberId, groupInstanceId: null };
}

/** One pipeline transaction: invoke at `atUs`, completion at `atUs + 10`. */
function pipelineTxn(options: {
  readonly client: string;
  readonly sends: readonly SendMicroOp[];
  readonly committedOffset: number;
  readonly group: TxnGroupMetadata;
  readonly atUs: number;
  readonly type?: 'ok' | 'fail';
  readonly producerEpoch?: number;
}): OpDraft[] {
  const { client, atUs } = options;
  const base = { process: `${client}#0`, client, f: 'txn' as const };
  const consumed = {
    offsets: [{ topic: 'in', partition: 0, offset: options.committedOffset }],
    commit: 'transaction' as const,
    group: options.group,
  };
  const value = { transactionalId: `tx-${client}`, commit: true, sends: options.sends, consumed };
  const identity = {
    producerId: client === 'P1' ? 1 : 2,
    producerEpoch: options.producerEpoch ?? 0,
  };
  return [
    { ...base, timeUs: atUs, type: 'invoke', value },
    { ...base, timeUs: atUs + 10, type: options.type ?? 'ok', value: { ...value, ...identity } },
  ];
}

/** The read_committed final read delivering `records`. */
function committedRead(records: readonly DeliveredRecord[]): OpDraft[] {
  const base = { process: 'final#0', client: 'final', f: 'final-read' as const };
  const isolationLevel = 'read_committed' as const;
  return [
    {
      ...base,
      timeUs: 900_000,
      type: 'invoke',
      value: { isolationLevel, batches: [], positions: [] },
    },
    {
      ...base,
      timeUs: 900_010,
      type: 'ok',
      value: { isolationLevel, batches: deliveredBatchesOf(records), positions: [] },
    },
  ];
}

function outRecord(offset: number, value: number): DeliveredRecord {
  return { topic: 'out', partition: 0, offset, value };
}

function check(drafts: ReadonlyArray<OpDraft | readonly OpDraft[]>, oracle: Oracle = oracleOf({})) {
  return checkHistory(historyOf(...drafts), oracle, { checkers: ONLY_EOS });
}

describe('eos-violation', () => {
  it('is clean when every committed input has exactly one committed output', () => {
    const result = check([
      pipelineTxn({
        client: 'P1',
        sends: [output(1, input(0), 0), output(2, input(1), 1)],
        committedOffset: 2,
        group: group(1, 'm1'),
        atUs: 1_000,
      }),
      committedRead([input(0), input(1), outRecord(0, 1), outRecord(1, 2)]),
    ]);
    expectClean(result);
  });

  it('names both writers of an input processed twice, with generation and member id', () => {
    const result = check([
      pipelineTxn({
        client: 'P1',
        sends: [output(1, input(0), 0)],
        committedOffset: 1,
        group: group(1, 'm1'),
        atUs: 1_000,
      }),
      pipelineTxn({
        client: 'P2',
        sends: [output(2, input(0), 1)],
        committedOffset: 1,
        group: group(2, 'm2'),
        atUs: 5_000,
        producerEpoch: 3,
      }),
      committedRead([input(0), outRecord(0, 1), outRecord(1, 2)]),
    ]);
    expect(result.anomalies).toHaveLength(1);
    const anomaly = result.anomalies[0];
    expect(anomaly).toMatchObject({
      kind: 'eos-violation',
      classification: 'duplicated',
      topic: 'in',
      partition: 0,
      offset: 0,
      value: 100,
      timeUs: 5_000,
    });
    expect(anomaly?.writers?.map((w) => [w.client, w.offset, w.generationId, w.memberId])).toEqual([
      ['P1', 0, 1, 'm1'],
      ['P2', 1, 2, 'm2'],
    ]);
    expect(anomaly?.writers?.[1]).toMatchObject({ transactionalId: 'tx-P2', producerEpoch: 3 });
    expect(anomaly?.message).toContain('in-0 offset 0 (value 100) of group g has 2 committed');
  });

  it('reports an input skipped below the committed offset and the transaction past it', () => {
    const result = check([
      pipelineTxn({
        client: 'P1',
        sends: [output(1, input(0))],
        committedOffset: 1,
        group: group(1, 'm1'),
        atUs: 1_000,
        type: 'fail',
      }),
      pipelineTxn({
        client: 'P1',
        sends: [output(2, input(1), 0)],
        committedOffset: 2,
        group: group(1, 'm1'),
        atUs: 2_000,
      }),
      committedRead([input(0), input(1), outRecord(0, 2)]),
    ]);
    expect(result.anomalies).toHaveLength(1);
    expect(result.anomalies[0]).toMatchObject({
      kind: 'eos-violation',
      classification: 'missing',
      offset: 0,
      client: 'P1',
      transactionalId: 'tx-P1',
      timeUs: 2_010,
    });
    expect(result.anomalies[0]?.message).toContain("group's committed offset is 2");
  });

  it('leaves an input at or above the committed offset to the liveness check', () => {
    const result = check([
      pipelineTxn({
        client: 'P1',
        sends: [output(1, input(0), 0)],
        committedOffset: 1,
        group: group(1, 'm1'),
        atUs: 1_000,
      }),
      committedRead([input(0), input(1), input(2), outRecord(0, 1)]),
    ]);
    expectClean(result);
  });

  it("takes the group coordinator's committed offset from the oracle when it has one", () => {
    const oracle = oracleOf({
      groups: [
        {
          groupId: 'g',
          coordinator: 'broker-1',
          state: 'Stable',
          generationId: 1,
          committedOffsets: [{ topic: 'in', partition: 0, offset: 3 }],
        },
      ],
    });
    const result = check(
      [
        pipelineTxn({
          client: 'P1',
          sends: [output(1, input(0), 0)],
          committedOffset: 1,
          group: group(1, 'm1'),
          atUs: 1_000,
        }),
        committedRead([input(0), input(1), input(2), outRecord(0, 1)]),
      ],
      oracle,
    );
    expect(result.anomalies.map((a) => [a.classification, a.offset])).toEqual([
      ['missing', 1],
      ['missing', 2],
    ]);
  });
});
