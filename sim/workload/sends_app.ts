/**
 * The application of a non-transactional producer: `records.per.send` single-record `send`
 * operations back to back every `send.interval.ms`, `sends` in all, several in flight at once.
 * `ok` carries the offset; a failure is `info` (the write may have happened) unless the record
 * was certainly never sent. While a topic of the workload has no known partition (created later
 * in the run), `send()` blocks the application on metadata up to `max.block.ms`
 * (KafkaProducer.waitOnMetadata); a send that waited that long fails with REQUEST_TIMED_OUT
 * (Kafka's TimeoutException) at partition -1 (RecordMetadata.UNKNOWN_PARTITION), never sent.
 */
import type { ActorContext } from '../kernel';
import type { KafkaMessage, KafkaProducer, SendError, TopicPartition } from '../actors';

/** What the application reads of the producer's metadata (KafkaProducer.waitOnMetadata). */
export interface TopicMetadata {
  partitionsOf(topic: string): readonly TopicPartition[];
  awaitTopics(
    topics: readonly string[],
    maxBlockMs: number,
    done: (present: boolean) => void,
  ): void;
}
import type { SendMicroOp } from '../history';
import type { HistoryWriter } from './history_writer';
import type { SendRunOps } from './send_run_ops';
import { RecordRouter } from './record_router';
import type { AppTimer } from './transactions_app';
import type { SendsSpec, WorkloadControl } from './workload_types';

/** Errors that prove the record was not written. */
const DEFINITE_FAILURES = new Set<SendError>(['TRANSACTION_ABORTABLE', 'INVALID_TXN_STATE']);

/** A non-transactional producer application. */
export class SendsApp {
  private sent = 0;
  private open = 0;
  private probePending = false;
  /** True once a liveness-probe send was acknowledged. */
  probeDone = false;
  private readonly router: RecordRouter;

  constructor(
    private readonly spec: SendsSpec,
    private readonly producer: KafkaProducer,
    private readonly deps: {
      readonly writer: HistoryWriter;
      readonly control: WorkloadControl;
      readonly partitions: readonly TopicPartition[];
      readonly nextValue: () => number;
      readonly ctx: ActorContext<KafkaMessage>;
      /** The producer's metadata, to wait on for topics created during the run. */
      readonly waitForTopics?: { readonly metadata: TopicMetadata; readonly maxBlockMs: number };
    },
  ) {
    const wait = deps.waitForTopics;
    // The metadata hands out the same array per topic until it learns a partition, so the
    // concatenation is rebuilt only then.
    let lists: ReadonlyArray<readonly TopicPartition[]> = [];
    let joined: readonly TopicPartition[] = [];
    const partitionsNow =
      wait === undefined
        ? () => deps.partitions
        : () => {
            const now = spec.topics.map((topic) => wait.metadata.partitionsOf(topic));
            if (now.length !== lists.length || now.some((list, at) => list !== lists[at])) {
              lists = now;
              joined = now.flat();
            }
            return joined;
          };
    this.router = new RecordRouter(spec, partitionsNow, deps.ctx.rng);
  }

  /** True while `send()` blocks on metadata. */
  private blocked = false;

  /** True while a send awaits its outcome. */
  get busy(): boolean {
    return this.open > 0;
  }

  start(): void {
    this.sendNext();
  }

  onTimer(timer: AppTimer): void {
    if (timer.type === 'next-send') this.sendNext();
  }

  /** Asks for one more acknowledged send (the liveness probe); false when the producer is dead. */
  probe(): boolean {
    if (this.failedFatally()) return false;
    this.probePending = true;
    this.sendNext();
    return true;
  }

  /** Ends the probe: no further sends. */
  endProbe(): void {
    this.probePending = false;
  }

  /**
   * One step: up to `records.per.send` single-record sends back to back (one for a liveness
   * probe once the workload is done), then the timer.
   */
  private sendNext(): void {
    if (this.failedFatally() || this.blocked) return;
    if (this.mustWaitForTopics()) return;
    const more = this.sent < this.spec.sends && !this.deps.control.stopping;
    if (!(more || this.probePending)) return;
    const probe = this.probePending;
    const stepEnd = more
      ? Math.min(this.spec.sends, this.sent + this.spec.recordsPerSend)
      : this.sent + 1;
    if (stepEnd - this.sent > 1) this.sendRuns(stepEnd);
    while (this.sent < stepEnd && !this.failedFatally()) this.sendOne(probe);
    this.deps.ctx.setTimer(this.spec.sendIntervalMs * 1000, {
      owner: 'app',
      type: 'next-send',
    } satisfies AppTimer);
  }

  /**
   * Blocks on metadata when a topic has no known partition: true while blocked. When the wait
   * ends the application goes on; a wait that timed out fails the one send that blocked.
   */
  private mustWaitForTopics(): boolean {
    const wait = this.deps.waitForTopics;
    if (wait === undefined) return false;
    let waiting = true;
    wait.metadata.awaitTopics(this.spec.topics, wait.maxBlockMs, (present) => {
      waiting = false;
      if (!this.blocked) return;
      this.blocked = false;
      if (!present) this.failBlockedSend();
      this.sendNext();
    });
    this.blocked = waiting;
    return waiting;
  }

  /** The send that waited `max.block.ms`: a definite failure, the record never queued. */
  private failBlockedSend(): void {
    this.sent += 1;
    const topic = this.spec.topics[0] as string;
    const send = { topic, partition: -1, value: this.deps.nextValue() };
    const op = this.deps.writer.invoke('send', { send });
    this.deps.writer.complete(op, 'fail', { send }, 'REQUEST_TIMED_OUT');
  }

  /**
   * True once the producer hit a fatal error: the application stops sending for good (it has no
   * restart; librdkafka's ERR__FATAL and Java's KafkaException both leave the instance unusable).
   */
  get stopped(): boolean {
    return this.failedFatally();
  }

  /** True once the producer hit a fatal error: the application stops sending. */
  private failedFatally(): boolean {
    return this.producer.state === 'FATAL_ERROR';
  }

  /**
   * A step of several records: the same send() per record, routed in the same order, but the
   * records sent back to back to one partition (unkeyed) form a run whose history has one
   * `send` operation per producer batch (`SendRunOps`) instead of one per record.
   */
  private sendRuns(stepEnd: number): void {
    let run: SendRunOps | null = null;
    let runTp: TopicPartition | null = null;
    while (this.sent < stepEnd && !this.failedFatally()) {
      this.sent += 1;
      const routed = this.router.next();
      const tp = { topic: routed.topic, partition: routed.partition };
      const value = this.deps.nextValue();
      if (routed.key !== undefined) {
        run = null;
        this.sendRecord({ ...tp, value, key: routed.key }, false);
        continue;
      }
      if (run === null || runTp?.topic !== tp.topic || runTp.partition !== tp.partition) {
        run = this.deps.writer.openSendRun(tp, (error) => DEFINITE_FAILURES.has(error));
        runTp = tp;
      }
      const at = run.add(value);
      const ops = run;
      this.open += 1;
      this.producer.send(tp, value, (result) => {
        this.open -= 1;
        ops.onResult(at, result);
      });
    }
  }

  /** One record: one `send` operation, completed by the producer's callback. */
  private sendOne(probe: boolean): void {
    this.sent += 1;
    const routed = this.router.next();
    const tp = { topic: routed.topic, partition: routed.partition };
    const key = routed.key === undefined ? {} : { key: routed.key };
    this.sendRecord({ ...tp, value: this.deps.nextValue(), ...key }, probe);
  }

  /** Sends one record as its own `send` operation. */
  private sendRecord(send: SendMicroOp, probe: boolean): void {
    const tp = { topic: send.topic, partition: send.partition };
    const op = this.deps.writer.invoke('send', { send });
    this.open += 1;
    this.producer.send(tp, send.value, (result) => {
      this.open -= 1;
      const identity = { producerId: result.producerId, producerEpoch: result.producerEpoch };
      if (result.error === 'NONE') {
        if (probe) {
          this.probeDone = true;
          this.probePending = false;
        }
        this.deps.writer.complete(op, 'ok', {
          send: { ...send, offset: result.offset },
          ...identity,
        });
      } else {
        const type = DEFINITE_FAILURES.has(result.error) ? 'fail' : 'info';
        this.deps.writer.complete(op, type, { send, ...identity }, result.error);
      }
    });
  }
}
