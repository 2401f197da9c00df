/**
 * One producer's RecordSender driven by hand, without a kernel: the tests of the sender's rules
 * (linger.ms, KAFKA-14034's bump, librdkafka's sequence rules) send records, answer or lose the
 * Produce requests and move a fake clock, then read what went out. events-0 is led by b1 and
 * events-1 by b2; the producer is producerId 7, and its epoch moves only when the sender bumps
 * it. Every timer the sender arms is kept with the time it is due; `later` fires a retry wakeup.
 */
import {
  RecordSender,
  type KafkaErrorCode,
  type KafkaMessage,
  type ProduceRequest,
  type ProducerConfig,
  type SenderTimer,
} from '../../sim/actors';
import type { ActorContext, NodeId } from '../../sim/kernel';

/** An idempotent, non-transactional producer at Kafka's defaults but `delivery.timeout.ms`. */
export const IDEMPOTENT_CONFIG: ProducerConfig = {
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

/** A Produce request and the broker it went to. */
export interface SentProduce {
  readonly to: string;
  readonly request: ProduceRequest;
}

/** The hand-driven sender and what it did. */
export interface HandDrivenSender {
  readonly sender: RecordSender;
  /** Every Produce request, in the order sent. */
  readonly sent: SentProduce[];
  /** The errors the sender reported fatal to the producer. */
  readonly fatal: KafkaErrorCode[];
  /** Every timer armed, with the time it is due, µs. */
  readonly timers: Array<{ readonly atUs: number; readonly timer: SenderTimer }>;
  /** Appends one record to events-`partition` now and lets the sender send what is ready. */
  append(partition: number, value?: number): void;
  /** {@link append}, where the record must go out at once: the Produce request it went in. */
  send(partition: number): ProduceRequest;
  /** The last Produce request sent. */
  last(): ProduceRequest;
  /** Answers `request` with `error` (NONE: written at no offset the test reads). */
  answer(request: ProduceRequest, error: KafkaErrorCode): void;
  /** Sets the fake clock, µs. */
  at(timeUs: number): void;
  /** Moves the clock on by `us` and fires the retry wakeup. */
  later(us: number): void;
  /** The connection to `broker` drops: what was in flight there waits to be retried. */
  reset(broker: string): void;
  /** Fires the linger wakeup at the current time. */
  fireLinger(): void;
  /** Lets the sender send what is ready now (as KafkaProducer.send and a flush do). */
  sendReady(): void;
}

/** Options: the sender's config over {@link IDEMPOTENT_CONFIG}, and the flush state. */
export interface HandDrivenOptions {
  readonly config?: Partial<ProducerConfig>;
  /** Whether a flush (a completing transaction) is in progress; false unless given. */
  readonly flushInProgress?: () => boolean;
}

const LEADERS = new Map([
  ['events-0', 'b1'],
  ['events-1', 'b2'],
]);

/** The timers the sender armed, with the time each is due. */
type ArmedTimers = Array<{ atUs: number; timer: SenderTimer }>;

/** A node context that keeps every Produce request and armed timer, with the clock `now`. */
function recordingContext(
  now: () => number,
  sent: SentProduce[],
  timers: ArmedTimers,
): ActorContext<KafkaMessage> {
  return {
    nodeId: 'P' as NodeId,
    nowUs: now,
    send: (to: NodeId, message: KafkaMessage) => {
      if (message.kind === 'Produce') sent.push({ to, request: message });
    },
    setTimer: (delayUs: number, timer: SenderTimer) =>
      timers.push({ atUs: now() + delayUs, timer }),
    cancelTimer: () => undefined,
    closeConnection: () => undefined,
    trace: () => undefined,
    observe: () => undefined,
  } as unknown as ActorContext<KafkaMessage>;
}

/** The sender of producerId 7, whose epoch moves only by the sender's own bumps. */
function senderOf(options: HandDrivenOptions, fatal: KafkaErrorCode[]): RecordSender {
  let epoch = 0;
  let correlationId = 1;
  return new RecordSender(
    { ...IDEMPOTENT_CONFIG, ...options.config },
    {
      transactionVersion: 0,
      leaderOf: (tp) => (LEADERS.get(`${tp.topic}-${tp.partition}`) ?? null) as NodeId | null,
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
      flushInProgress: options.flushInProgress ?? (() => false),
    },
    () => correlationId++,
  );
}

/** A sender on events-0 and events-1 with a fake clock and a context that records everything. */
export function handDrivenSender(options: HandDrivenOptions = {}): HandDrivenSender {
  const sent: SentProduce[] = [];
  const fatal: KafkaErrorCode[] = [];
  const timers: ArmedTimers = [];
  let nowUs = 0;
  const ctx = recordingContext(() => nowUs, sent, timers);
  const sender = senderOf(options, fatal);
  const append = (partition: number, value = 1): void => {
    sender.enqueue(
      { topic: 'events', partition },
      { value, callback: () => undefined, createdUs: nowUs },
    );
    sender.sendReady(ctx);
  };
  const last = (): ProduceRequest => {
    const entry = sent.at(-1);
    if (entry === undefined) throw new Error('nothing was sent');
    return entry.request;
  };
  return {
    sender,
    sent,
    fatal,
    timers,
    append,
    send(partition) {
      const before = sent.length;
      append(partition);
      if (sent.length === before) throw new Error(`events-${partition}: nothing went out`);
      return last();
    },
    last,
    answer(request, error) {
      const { topic, partition, correlationId: id } = request;
      sender.onProduceResponse(
        { kind: 'ProduceResponse', correlationId: id, topic, partition, error, baseOffset: -1 },
        ctx,
      );
    },
    at(timeUs) {
      nowUs = timeUs;
    },
    later(us) {
      nowUs += us;
      sender.onTimer({ owner: 'producer', type: 'produce-retry' }, ctx);
    },
    reset(broker) {
      sender.onConnectionReset(broker as NodeId, ctx);
    },
    fireLinger() {
      sender.onTimer({ owner: 'producer', type: 'linger' }, ctx);
    },
    sendReady() {
      sender.sendReady(ctx);
    },
  };
}
