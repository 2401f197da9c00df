/**
 * Goal: prove twmb/franz-go#1217 and IBM/sarama#1661 both ways on the sender. Method: one
 * idempotent producer's RecordSender driven by hand (test/harness/record_sender.ts), retries 2,
 * one request in flight. franz-go: the first batch of events-0 is answered
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND (written) and its two retries NOT_ENOUGH_REPLICAS; with #1217
 * the batch fails and the next record is sent with its sequence under the same epoch (the
 * leader will call it a duplicate), fixed (v1.20.7) the batch is retried again and again. A
 * batch refused outright rewinds in both (the broker has not got it), and a transport error
 * never fails a batch. sarama: the batch fails at its retry limit; with #1661 the next batch
 * leaves a gap and its OUT_OF_ORDER_SEQUENCE_NUMBER is not retried, fixed (1.26.2) the epoch is
 * bumped and the next batch starts at sequence 0.
 */
import { describe, expect, it } from 'vitest';
import { handDrivenSender } from '../../../test/harness/record_sender';
import type { KafkaErrorCode } from '../protocol';
import type { ClientRules } from './client_rules';

const BASE: ClientRules = {
  flavour: 'franz-go',
  version: '1.20.6',
  enableGaplessGuarantee: false,
  bumpOnSkippedSequence: false,
  bumpWithoutAbort: false,
};

/** A producer with `client`: the first batch answered `errors` in turn, then one more record. */
function failedThenNext(client: ClientRules, errors: readonly KafkaErrorCode[]) {
  const run = handDrivenSender({
    config: { client, retries: 2, maxInFlightRequestsPerConnection: 1 },
  });
  const first = run.send(0);
  for (const error of errors) {
    run.answer(run.last(), error);
    run.later(200_000);
  }
  run.append(0);
  return { run, first: first.batch, next: run.last().batch };
}

const AMBIGUOUS: readonly KafkaErrorCode[] = [
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS',
];

describe('twmb/franz-go#1217', () => {
  it('on: the ambiguously answered batch fails and its sequence goes to the next record', () => {
    const client = { ...BASE, reuseAmbiguousSequence: true };
    const { run, first, next } = failedThenNext(client, AMBIGUOUS);
    expect(run.sent).toHaveLength(4);
    expect(next).toMatchObject({ producerEpoch: 0, baseSequence: first.baseSequence });
    expect(next.values).not.toEqual([]);
  });

  it('off (v1.20.7): the batch is retried past its retry limit, the sequence is not reused', () => {
    const client = { ...BASE, version: '1.20.7', reuseAmbiguousSequence: false };
    const { run, next } = failedThenNext(client, AMBIGUOUS);
    // The fourth Produce is the same batch again, not the new record.
    expect(run.sent).toHaveLength(4);
    expect(next).toMatchObject({ baseSequence: 0, values: [1] });
    run.answer(run.last(), 'NONE');
    expect(run.last().batch.baseSequence).toBe(1);
  });

  it('both: a batch refused outright rewinds (nothing of it was written)', () => {
    const refused: KafkaErrorCode[] = ['NOT_ENOUGH_REPLICAS', 'NOT_ENOUGH_REPLICAS'];
    const fixed = failedThenNext({ ...BASE, reuseAmbiguousSequence: false }, [
      ...refused,
      'NOT_ENOUGH_REPLICAS',
    ]);
    expect(fixed.next).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
  });

  it('both: a batch whose request died in transport is retried whatever the limits', () => {
    const run = handDrivenSender({
      config: { client: BASE, retries: 0, maxInFlightRequestsPerConnection: 1 },
    });
    const first = run.send(0);
    run.reset('b1');
    run.later(200_000);
    expect(run.sent).toHaveLength(2);
    expect(run.last().batch).toMatchObject({ baseSequence: first.batch.baseSequence });
  });
});

describe('IBM/sarama#1661', () => {
  const SARAMA: ClientRules = { ...BASE, flavour: 'sarama', version: '1.26.1' };
  const REFUSED: readonly KafkaErrorCode[] = [
    'NOT_ENOUGH_REPLICAS',
    'NOT_ENOUGH_REPLICAS',
    'NOT_ENOUGH_REPLICAS',
  ];

  it('on: the failed batch keeps its sequence; the gap is refused and not retried', () => {
    const { run, next } = failedThenNext({ ...SARAMA, keepFailedSequence: true }, REFUSED);
    expect(next).toMatchObject({ producerEpoch: 0, baseSequence: 1 });
    const before = run.sent.length;
    run.answer(run.last(), 'OUT_OF_ORDER_SEQUENCE_NUMBER');
    run.later(200_000);
    expect(run.sent).toHaveLength(before);
    expect(run.fatal).toEqual([]);
  });

  it('off (1.26.2): the failure bumps the epoch and the next batch starts at 0', () => {
    const client = { ...SARAMA, version: '1.26.2', keepFailedSequence: false };
    const { next } = failedThenNext(client, REFUSED);
    expect(next).toMatchObject({ producerEpoch: 1, baseSequence: 0 });
  });
});
