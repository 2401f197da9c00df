/**
 * Goal: prove confluentinc/librdkafka#4953 both ways on the sender, and librdkafka's reading of
 * OUT_OF_ORDER_SEQUENCE_NUMBER. Method: one idempotent librdkafka producer's RecordSender driven
 * by hand on two partitions. events-1's batch fails with NETWORK_EXCEPTION (it may be in the
 * log) and waits for its retry; events-0's first batch fails NOT_ENOUGH_REPLICAS and the one
 * behind it OUT_OF_ORDER_SEQUENCE_NUMBER. With #4953 the producer drains, bumps its epoch and
 * resends events-1's batch from sequence 0 under the new epoch (a second copy the broker cannot
 * deduplicate); with the fix (#4972) the retry keeps epoch 0 and sequence 0. Java's rules (no
 * client config) also keep it.
 */
import { describe, expect, it } from 'vitest';
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage, ProduceRequest } from '../protocol';
import type { ClientRules } from './client_rules';
import type { ProducerConfig } from './producer_config';
import { RecordSender } from './record_sender';

const LIBRDKAFKA: ClientRules = {
  flavour: 'librdkafka',
  version: '2.15',
  enableGaplessGuarantee: false,
  bumpOnSkippedSequence: true,
  bumpWithoutAbort: false,
};

const CONFIG: ProducerConfig = {
  transactionalId: null,
  enableIdempotence: true,
  acks: -1,
  maxInFlightRequestsPerConnection: 5,
  retries: 2147483647,
  requestTimeoutMs: 30000,
  deliveryTimeoutMs: 300000,
  retryBackoffMs: 100,
  transactionTimeoutMs: 60000,
};

/** A node context that keeps the Produce requests sent and reads the time from `now`. */
function fakeContext(
  now: () => number,
  sent: Array<{ to: string; request: ProduceRequest }>,
): ActorContext<KafkaMessage> {
  let timers = 0;
  return {
    nodeId: 'P' as NodeId,
    nowUs: now,
    send: (to: NodeId, message: KafkaMessage) => {
      if (message.kind === 'Produce') sent.push({ to, request: message });
    },
    setTimer: () => ++timers,
    cancelTimer: () => undefined,
    closeConnection: () => undefined,
    trace: () => undefined,
    observe: () => undefined,
  } as unknown as ActorContext<KafkaMessage>;
}

/** A hand-driven sender: its Produce requests, the time, and what the producer was told. */
function harness(client: ClientRules | undefined) {
  const sent: Array<{ to: string; request: ProduceRequest }> = [];
  const fatal: KafkaErrorCode[] = [];
  let nowUs = 0;
  let epoch = 0;
  const ctx = fakeContext(() => nowUs, sent);
  const leaders = new Map([
    ['events-0', 'b1'],
    ['events-1', 'b2'],
  ]);
  let correlationId = 1;
  const sender = new RecordSender(
    client === undefined ? CONFIG : { ...CONFIG, client },
    {
      transactionVersion: 0,
      leaderOf: (tp) => (leaders.get(`${tp.topic}-${tp.partition}`) ?? null) as NodeId | null,
      requestRefresh: () => undefined,
    },
    {
      identity: () => ({ producerId: 7, producerEpoch: epoch }),
      maySend: () => true,
      onBatchFailed: () => undefined,
      onBatchSucceeded: () => undefined,
      bumpEpoch: () => (epoch += 1),
      onFatal: (error) => fatal.push(error),
      onDrainedForBump: () => false,
      flushInProgress: () => false,
    },
    () => correlationId++,
  );
  const record = { value: 1, callback: () => undefined, createdUs: 0 };
  const send = (partition: number): ProduceRequest => {
    sender.enqueue({ topic: 'events', partition }, record);
    sender.sendReady(ctx);
    return (sent.at(-1) as { request: ProduceRequest }).request;
  };
  const answer = (request: ProduceRequest, error: KafkaErrorCode): void =>
    sender.onProduceResponse(
      {
        kind: 'ProduceResponse',
        correlationId: request.correlationId,
        ...at(request),
        error,
        baseOffset: -1,
      },
      ctx,
    );
  const at = (request: ProduceRequest) => ({ topic: request.topic, partition: request.partition });
  return {
    sender,
    sent,
    fatal,
    send,
    answer,
    later: (us: number) => {
      nowUs += us;
      sender.onTimer({ owner: 'producer', type: 'produce-retry' }, ctx);
    },
    reset: (broker: string) => sender.onConnectionReset(broker as NodeId, ctx),
  };
}

/** events-1's possibly written batch waits for a retry while events-0 meets a skipped sequence. */
function skippedSequenceAfterLostAnswer(client: ClientRules | undefined) {
  const run = harness(client);
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
    const run = harness(LIBRDKAFKA);
    const first = run.send(0);
    run.answer(first, 'OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(run.fatal).toEqual(['OUT_OF_ORDER_SEQUENCE_NUMBER']);
  });
});
