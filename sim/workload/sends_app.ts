/**
 * The application of a non-transactional producer: `records.per.send` single-record `send`
 * operations back to back every `send.interval.ms`, `sends` in all, several in flight at once.
 * `ok` carries the offset; a failure is `info` (the write may have happened) unless the record
 * was certainly never sent.
 */
import type { ActorContext } from '../kernel';
import type { KafkaErrorCode, KafkaMessage, KafkaProducer, TopicPartition } from '../actors';
import type { HistoryWriter } from './history_writer';
import { RecordRouter } from './record_router';
import type { AppTimer } from './transactions_app';
import type { SendsSpec, WorkloadControl } from './workload_types';

/** Errors that prove the record was not written. */
const DEFINITE_FAILURES = new Set<KafkaErrorCode>(['TRANSACTION_ABORTABLE', 'INVALID_TXN_STATE']);

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
    },
  ) {
    this.router = new RecordRouter(spec, deps.partitions, deps.ctx.rng);
  }

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
    if (this.failedFatally()) return;
    const more = this.sent < this.spec.sends && !this.deps.control.stopping;
    if (!(more || this.probePending)) return;
    const probe = this.probePending;
    const stepEnd = more
      ? Math.min(this.spec.sends, this.sent + this.spec.recordsPerSend)
      : this.sent + 1;
    while (this.sent < stepEnd && !this.failedFatally()) this.sendOne(probe);
    this.deps.ctx.setTimer(this.spec.sendIntervalMs * 1000, {
      owner: 'app',
      type: 'next-send',
    } satisfies AppTimer);
  }

  /** True once the producer hit a fatal error: the application stops sending. */
  private failedFatally(): boolean {
    return this.producer.state === 'FATAL_ERROR';
  }

  /** One record: one `send` operation, completed by the producer's callback. */
  private sendOne(probe: boolean): void {
    this.sent += 1;
    const routed = this.router.next();
    const tp = { topic: routed.topic, partition: routed.partition };
    const key = routed.key === undefined ? {} : { key: routed.key };
    const send = { ...tp, value: this.deps.nextValue(), ...key };
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
