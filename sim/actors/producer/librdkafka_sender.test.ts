/**
 * Goal: prove confluentinc/librdkafka#4953 both ways on the sender, and librdkafka's reading of
 * OUT_OF_ORDER_SEQUENCE_NUMBER. Method: one idempotent librdkafka producer's RecordSender driven
 * by hand on two partitions (test/harness/record_sender.ts). events-1's batch fails with
 * NETWORK_EXCEPTION (it may be in the log) and waits for its retry; events-0's first batch
 * fails NOT_ENOUGH_REPLICAS and the one behind it OUT_OF_ORDER_SEQUENCE_NUMBER. With #4953 the
 * producer drains, bumps its epoch and resends events-1's batch from sequence 0 under the new
 * epoch (a second copy the broker cannot deduplicate); with the fix (#4972) the retry keeps
 * epoch 0 and sequence 0. Java's rules (no client config) also keep it.
 */
import { describe, expect, it } from 'vitest';
import { handDrivenSender } from '../../../test/harness/record_sender';
import type { ClientRules } from './client_rules';

const LIBRDKAFKA: ClientRules = {
  flavour: 'librdkafka',
  version: '2.15',
  enableGaplessGuarantee: false,
  bumpOnSkippedSequence: true,
  bumpWithoutAbort: false,
};

/** events-1's possibly written batch waits for a retry while events-0 meets a skipped sequence. */
function skippedSequenceAfterLostAnswer(client: ClientRules | undefined) {
  const run = handDrivenSender(client === undefined ? {} : { config: { client } });
  const first = run.send(0);
  const second = run.send(0);
  const other = run.send(1);
  run.reset('b2'); // events-1's answer is lost: NETWORK_EXCEPTION, retried after the backoff
  run.answer(first, 'NOT_ENOUGH_REPLICAS');
  run.answer(second, 'OUT_OF_ORDER_SEQUENCE_NUMBER');
  run.later(200_000);
  const resent = run.sent.filter((entry) => entry.to === 'b2' && entry.request !== other);
  return { run, other, resent: resent.map((entry) => entry.request.batch) };
}

describe('librdkafka OUT_OF_ORDER_SEQUENCE_NUMBER', () => {
  it('#4953 on: the drain-and-bump renumbers the other partition: its retry is a new write', () => {
    const { run, other, resent } = skippedSequenceAfterLostAnswer(LIBRDKAFKA);
    expect(other.batch).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
    expect(resent[0]).toMatchObject({ producerId: 7, producerEpoch: 1, baseSequence: 0 });
    expect(run.fatal).toEqual([]);
  });

  it('#4953 off (#4972): the retry keeps epoch and sequence, the broker deduplicates it', () => {
    const { resent } = skippedSequenceAfterLostAnswer({
      ...LIBRDKAFKA,
      bumpOnSkippedSequence: false,
    });
    expect(resent[0]).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
  });

  it('Java: the same events keep epoch 0 (TransactionManager.canRetry only retries)', () => {
    const { resent } = skippedSequenceAfterLostAnswer(undefined);
    expect(resent[0]).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
  });

  it('is fatal on the next expected sequence ("sequence desynchronization")', () => {
    const run = handDrivenSender({ config: { client: LIBRDKAFKA } });
    const first = run.send(0);
    run.answer(first, 'OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(run.fatal).toEqual(['OUT_OF_ORDER_SEQUENCE_NUMBER']);
  });
});

/**
 * librdkafka's do_test_idempo_possibly_persisted_not_causing_fatal_error on the sender: three
 * batches of events-0 in flight, the connection drops (possibly persisted), and after the
 * backoff the first retry is refused NOT_ENOUGH_REPLICAS and the second
 * OUT_OF_ORDER_SEQUENCE_NUMBER (it is not next in line).
 */
function refusedRetryAfterDisconnect(rules: ClientRules) {
  const run = handDrivenSender({ config: { client: rules } });
  const originals = [run.send(0), run.send(0), run.send(0)];
  run.reset('b1');
  run.later(200_000);
  const retries = run.sent.map((entry) => entry.request).filter((r) => !originals.includes(r));
  run.answer(retries[0]!, 'NOT_ENOUGH_REPLICAS');
  run.answer(retries[1]!, 'OUT_OF_ORDER_SEQUENCE_NUMBER');
  return { run, retries };
}

describe('confluentinc/librdkafka#4438: a possibly persisted batch and the next ack', () => {
  it('before 2.3.0: the refused retry behind them is a rewound sequence, fatal', () => {
    const { run, retries } = refusedRetryAfterDisconnect({
      ...LIBRDKAFKA,
      advanceAckOnPossiblyPersisted: true,
    });
    expect(retries.map((r) => r.batch.baseSequence)).toEqual([0, 1, 2]);
    expect(run.fatal).toEqual(['OUT_OF_ORDER_SEQUENCE_NUMBER']);
  });

  it('2.3.0 (0fd8e30e5): the same answers are skipped sequence numbers, retried', () => {
    const { run } = refusedRetryAfterDisconnect(LIBRDKAFKA);
    expect(run.fatal).toEqual([]);
  });
});
