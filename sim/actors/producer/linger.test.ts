/**
 * Goal: prove `linger.ms` both ways on the sender, as RecordAccumulator.ready decides it. Method:
 * one Java idempotent producer's RecordSender driven by hand on one partition with a fake clock
 * (test/harness/record_sender.ts).
 * With `linger.ms` 0 a record goes at once, alone; with 5 ms it waits, records appended during
 * the linger join its batch, and the batch goes at 5 ms after its first record (the sender's
 * wakeup is armed for exactly then). A full batch (`batch.size` worth of records) goes at once,
 * and a flush in progress (a completing transaction) sends a batch before its linger ends.
 */
import { describe, expect, it } from 'vitest';
import { handDrivenSender } from '../../../test/harness/record_sender';
import type { ProduceRequest } from '../protocol';
import { BATCH_RECORDS_MAX } from './producer_config';

/** A hand-driven sender on `events-0`, led by b1: its requests, its linger timers and the clock. */
function harness(lingerMs: number) {
  let flushing = false;
  let value = 0;
  const run = handDrivenSender({
    config: { lingerMs, deliveryTimeoutMs: 120_000 + lingerMs },
    flushInProgress: () => flushing,
  });
  return {
    get sent(): ProduceRequest[] {
      return run.sent.map((entry) => entry.request);
    },
    lingerTimers: () => run.timers.filter(({ timer }) => timer.type === 'linger'),
    /** Appends `count` records now, each followed by a send attempt (KafkaProducer.send). */
    append(count: number): void {
      for (let index = 0; index < count; index++) run.append(0, value++);
    },
    at: (timeUs: number) => run.at(timeUs),
    fireLinger: () => run.fireLinger(),
    flush(): void {
      flushing = true;
      run.sendReady();
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

  it('with 5 ms, re-arms its wakeup when the clock went back before it fired', () => {
    // The first record came at 41.285 s of a clock running 8.8 s ahead (a clock skew); the skew
    // ended, and the wakeup armed for 5 ms later fired at 32.490 s of the corrected clock.
    const producer = harness(5);
    producer.at(41_285_000);
    producer.append(1);
    expect(producer.lingerTimers().map(({ atUs }) => atUs)).toEqual([41_290_000]);
    producer.at(32_490_000);
    producer.fireLinger();
    expect(producer.sent).toEqual([]);
    // The sender sleeps the rest of the linger by its own clock again, as Sender.runOnce does.
    expect(producer.lingerTimers().map(({ atUs }) => atUs)).toEqual([41_290_000, 41_290_000]);
    producer.at(41_290_000);
    producer.fireLinger();
    expect(producer.sent.map((request) => request.batch.values)).toEqual([[0]]);
  });
});
