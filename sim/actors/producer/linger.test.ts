/**
 * Goal: prove `linger.ms` both ways on the sender, as RecordAccumulator.ready decides it. Method:
 * one Java idempotent producer's RecordSender driven by hand on one partition with a fake clock.
 * With `linger.ms` 0 a record goes at once, alone; with 5 ms it waits, records appended during
 * the linger join its batch, and the batch goes at 5 ms after its first record (the sender's
 * wakeup is armed for exactly then). A full batch (`batch.size` worth of records) goes at once,
 * and a flush in progress (a completing transaction) sends a batch before its linger ends.
 */
import { describe, expect, it } from 'vitest';
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaMessage, ProduceRequest } from '../protocol';
import { BATCH_RECORDS_MAX, type ProducerConfig } from './producer_config';
import { RecordSender, type SenderTimer } from './record_sender';

const CONFIG: ProducerConfig = {
  transactionalId: null,
  enableIdempotence: true,
  acks: -1,
  maxInFlightRequestsPerConnection: 5,
  retries: 2147483647,
  requestTimeoutMs: 30000,
  deliveryTimeoutMs: 120005,
  retryBackoffMs: 100,
  transactionTimeoutMs: 60000,
};

/** A hand-driven sender on `events-0`, led by b1: its requests, its timers and the clock. */
function harness(lingerMs: number) {
  const sent: ProduceRequest[] = [];
  const timers: Array<{ atUs: number; timer: SenderTimer }> = [];
  let nowUs = 0;
  let flushing = false;
  const ctx = {
    nodeId: 'P' as NodeId,
    nowUs: () => nowUs,
    send: (_to: NodeId, message: KafkaMessage) => {
      if (message.kind === 'Produce') sent.push(message);
    },
    setTimer: (delayUs: number, timer: SenderTimer) =>
      timers.push({ atUs: nowUs + delayUs, timer }),
    cancelTimer: () => undefined,
    closeConnection: () => undefined,
    trace: () => undefined,
    observe: () => undefined,
  } as unknown as ActorContext<KafkaMessage>;
  let correlationId = 1;
  const sender = new RecordSender(
    { ...CONFIG, lingerMs },
    { transactionVersion: 0, leaderOf: () => 'b1' as NodeId, requestRefresh: () => undefined },
    {
      identity: () => ({ producerId: 7, producerEpoch: 0 }),
      maySend: () => true,
      onBatchFailed: () => undefined,
      onBatchSucceeded: () => undefined,
      bumpEpoch: () => undefined,
      onFatal: () => undefined,
      onDrainedForBump: () => false,
      flushInProgress: () => flushing,
    },
    () => correlationId++,
  );
  let value = 0;
  return {
    sent,
    lingerTimers: () => timers.filter(({ timer }) => timer.type === 'linger'),
    /** Appends `count` records now, each followed by a send attempt (KafkaProducer.send). */
    append(count: number): void {
      for (let index = 0; index < count; index++) {
        sender.enqueue(
          { topic: 'events', partition: 0 },
          {
            value: value++,
            callback: () => undefined,
            createdUs: nowUs,
          },
        );
        sender.sendReady(ctx);
      }
    },
    at(timeUs: number): void {
      nowUs = timeUs;
    },
    fireLinger(): void {
      sender.onTimer({ owner: 'producer', type: 'linger' }, ctx);
    },
    flush(): void {
      flushing = true;
      sender.sendReady(ctx);
    },
  };
}

describe('linger.ms (RecordAccumulator.ready)', () => {
  it('with 0, sends a record at once, alone', () => {
    const producer = harness(0);
    producer.append(1);
    expect(producer.sent.map((request) => request.batch.values)).toEqual([[0]]);
    expect(producer.lingerTimers()).toEqual([]);
  });

  it('with 5 ms, batches the records appended during the linger and sends at its end', () => {
    const producer = harness(5);
    producer.append(1);
    producer.at(2_000);
    producer.append(2);
    expect(producer.sent).toEqual([]);
    expect(producer.lingerTimers().map(({ atUs }) => atUs)).toEqual([5_000]);
    producer.at(4_999);
    producer.fireLinger();
    expect(producer.sent).toEqual([]);
    producer.at(5_000);
    producer.fireLinger();
    expect(producer.sent.map((request) => request.batch.values)).toEqual([[0, 1, 2]]);
  });

  it('with 5 ms, sends a full batch at once', () => {
    const producer = harness(5);
    producer.append(BATCH_RECORDS_MAX);
    expect(producer.sent.map((request) => request.batch.values.length)).toEqual([
      BATCH_RECORDS_MAX,
    ]);
  });

  it('with 5 ms, a flush (a completing transaction) sends before the linger ends', () => {
    const producer = harness(5);
    producer.append(3);
    producer.at(1_000);
    expect(producer.sent).toEqual([]);
    producer.flush();
    expect(producer.sent.map((request) => request.batch.values)).toEqual([[0, 1, 2]]);
  });
});
