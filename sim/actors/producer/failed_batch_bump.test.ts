/**
 * Goal: prove KAFKA-14034's switch both ways on the Java sender. An idempotent producer has
 * three batches of events-0 in flight when the connection drops; all three wait to retry and
 * may be in the log. The first one's retry fails for good (UNKNOWN_SERVER_ERROR). With the bug
 * (every release) the producer bumps its epoch at once and rewrites the two others, so the next
 * retry goes out at epoch 1, sequence 0: a new write the broker cannot deduplicate. With the fix
 * proposed in apache/kafka#13796 the partition's sequence is unresolved and the next retry keeps
 * epoch 0, sequence 1 (a duplicate the broker recognises); the epoch moves only after.
 * Method: one RecordSender driven by hand, as librdkafka_sender.test.ts does.
 */
import { describe, expect, it } from 'vitest';
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage, ProduceRequest } from '../protocol';
import type { ProducerConfig } from './producer_config';
import { RecordSender } from './record_sender';

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
function harness(bumpWithoutWaitingForInFlight: boolean) {
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
    { ...CONFIG, bumpWithoutWaitingForInFlight },
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

/**
 * Three batches of events-0 are in flight when the connection drops (an answer was lost): all
 * three are retried, and may all be in the log. The first one's retry fails for good.
 */
function failedRetryBeforeOthers(bumpWithoutWaitingForInFlight: boolean) {
  const run = harness(bumpWithoutWaitingForInFlight);
  run.send(0);
  run.send(0);
  run.send(0);
  run.reset('b1');
  run.later(200_000);
  const retry = (run.sent.at(-1) as { request: ProduceRequest }).request;
  expect(retry.batch).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
  const before = run.sent.length;
  run.answer(retry, 'UNKNOWN_SERVER_ERROR');
  run.later(200_000);
  return run.sent.slice(before).map((entry) => entry.request.batch);
}

describe('KAFKA-14034: the epoch bump after a failed batch', () => {
  it('on (every release): rewrites the batches waiting to retry, resent as new writes', () => {
    const resent = failedRetryBeforeOthers(true);
    expect(resent[0]).toMatchObject({ producerId: 7, producerEpoch: 1, baseSequence: 0 });
  });

  it('off (apache/kafka#13796): the next retry keeps its epoch and sequence', () => {
    const resent = failedRetryBeforeOthers(false);
    expect(resent[0]).toMatchObject({ producerId: 7, producerEpoch: 0, baseSequence: 1 });
  });
});
