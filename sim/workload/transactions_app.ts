/**
 * The application of a transactional producer: `initTransactions()`, then transactions of
 * `records.per.transaction` sends spread over the topic partitions, `records.per.send` of them
 * back to back every `send.interval.ms`, each transaction committed (or aborted every
 * `abort.every` transactions). An abortable error makes it abort, as Kafka documents; a
 * fatal error (fencing) ends this instance. Each transaction is one `txn` operation: `ok` when
 * the commit (or the chosen abort) was acknowledged, `fail` when it certainly did not commit,
 * `info` when a commit was sent and the outcome is unknown.
 *
 * With `on.fenced: restart` a fenced instance is replaced by a new producer that calls
 * initTransactions again (and so fences whoever holds the id). After the heal phase the runner
 * may ask for a probe: one more transaction that must commit, the liveness check's evidence that
 * the producer still makes progress.
 */
import type { ActorContext } from '../kernel';
import type {
  KafkaErrorCode,
  KafkaMessage,
  KafkaProducer,
  SendError,
  TopicPartition,
} from '../actors';
import { isRetriable } from '../actors';
import type { SendMicroOp } from '../history';
import type { HistoryWriter, OpenOp } from './history_writer';
import { RecordRouter } from './record_router';
import type { TransactionsSpec, WorkloadControl } from './workload_types';

type Ctx = ActorContext<KafkaMessage>;

/** Timer of the application. */
export interface AppTimer {
  readonly owner: 'app';
  readonly type: 'start' | 'next-send' | 'next-transaction' | 'poll';
}

interface CurrentTxn {
  readonly op: OpenOp<'txn'>;
  readonly commit: boolean;
  readonly sends: SendMicroOp[];
  readonly offsets: number[];
  /** Started while a liveness probe was wanted. */
  readonly probe: boolean;
  sent: number;
  firstError: SendError | null;
  /** When commitTransaction() or abortTransaction() was called (for phase timings). */
  endTxnUs?: number;
}

/** A transactional producer application. */
export class TransactionsApp {
  private transactionsStarted = 0;
  private current: CurrentTxn | null = null;
  private dead = false;
  private probePending = false;
  /** True once a probe transaction committed. */
  probeDone = false;
  private readonly router: RecordRouter;
  /** True while an operation is open. */
  get busy(): boolean {
    return this.current !== null;
  }

  constructor(
    private readonly spec: TransactionsSpec & { transactionalId: string },
    private producer: KafkaProducer,
    private readonly deps: {
      /** A fresh producer instance for `on.fenced: restart`. */
      readonly restart?: () => KafkaProducer;
      readonly writer: HistoryWriter;
      readonly control: WorkloadControl;
      readonly partitions: readonly TopicPartition[];
      readonly nextValue: () => number;
      readonly ctx: Ctx;
    },
  ) {
    this.router = new RecordRouter(spec, () => deps.partitions, deps.ctx.rng);
  }

  start(): void {
    const transactionalId = this.spec.transactionalId;
    const op = this.deps.writer.invoke('init', { transactionalId });
    const retryMs = this.spec.initRetryMs;
    this.producer.initTransactions((error) => {
      if (error === 'REQUEST_TIMED_OUT' && retryMs !== null) {
        // TimeoutException after max.block.ms: "It is safe to retry" (KafkaProducer javadoc).
        this.deps.writer.complete(op, 'info', { transactionalId }, error);
        const timer: AppTimer = { owner: 'app', type: 'start' };
        return void this.deps.ctx.setTimer(retryMs * 1000, timer);
      }
      if (error === 'NONE') {
        const identity = {
          transactionalId,
          producerId: this.producer.producerId,
          producerEpoch: this.producer.producerEpoch,
        };
        this.deps.writer.complete(op, 'ok', identity);
        this.nextTransaction();
      } else {
        this.deps.writer.complete(
          op,
          isRetriable(error) ? 'info' : 'fail',
          { transactionalId },
          error,
        );
        this.dead = true;
      }
    }, retryMs !== null);
  }

  onTimer(timer: AppTimer): void {
    if (timer.type === 'next-send') this.sendNext();
    else if (timer.type === 'next-transaction') this.nextTransaction();
  }

  /**
   * Asks for one more committed transaction (the liveness probe); false when this instance was
   * fenced and does not restart, so it is not expected to make progress.
   */
  probe(): boolean {
    if (this.dead && this.spec.onFenced !== 'restart') return false;
    if (this.closed) return false;
    this.probePending = true;
    if (this.dead) this.restart();
    else if (this.current === null && this.producer.state === 'READY') this.nextTransaction();
    return true;
  }

  /** Ends the probe: no transaction starts after the current one. */
  endProbe(): void {
    this.probePending = false;
  }

  /** A new producer instance that initializes again (`on.fenced: restart`). */
  private restart(): void {
    if (this.deps.restart === undefined) {
      this.dead = true;
      return;
    }
    this.dead = false;
    this.producer = this.deps.restart();
    this.start();
  }

  /** True once this instance stopped and will not restart (`on.fenced: stop`). */
  get stopped(): boolean {
    return this.dead && this.spec.onFenced !== 'restart';
  }

  /** True once the application closed its producer after its last transaction. */
  get closed(): boolean {
    return this.spec.closeWhenDone === true && this.transactionsStarted >= this.spec.transactions;
  }

  private nextTransaction(): void {
    // The liveness probe and the timer after the last transaction may both call this.
    if (this.current !== null) return;
    const more = this.transactionsStarted < this.spec.transactions && !this.deps.control.stopping;
    if (this.dead || !(more || this.probePending)) return;
    const error = this.producer.beginTransaction();
    if (error !== 'NONE') {
      this.dead = true;
      return;
    }
    this.transactionsStarted += 1;
    // A liveness probe must commit: it is the evidence of progress, not a chosen abort.
    const commit =
      this.probePending ||
      this.spec.abortEvery === 0 ||
      this.transactionsStarted % this.spec.abortEvery !== 0;
    const sends: SendMicroOp[] = [];
    for (let i = 0; i < this.spec.recordsPerTransaction; i++) {
      const routed = this.router.next();
      const key = routed.key === undefined ? {} : { key: routed.key };
      const tp = { topic: routed.topic, partition: routed.partition };
      sends.push({ ...tp, value: this.deps.nextValue(), ...key });
    }
    const op = this.deps.writer.invoke('txn', {
      transactionalId: this.spec.transactionalId,
      commit,
      sends,
    });
    const offsets = sends.map(() => -1);
    const probe = this.probePending;
    this.current = { op, commit, sends, offsets, probe, sent: 0, firstError: null };
    this.sendNext();
  }

  /** One step: the next `records.per.send` records go to `send()` back to back. */
  private sendNext(): void {
    const txn = this.current;
    if (txn === null) return;
    if (txn.sent >= txn.sends.length) return this.finish(txn);
    const stepEnd = Math.min(txn.sends.length, txn.sent + this.spec.recordsPerSend);
    while (txn.sent < stepEnd) {
      const index = txn.sent;
      const send = txn.sends[index] as SendMicroOp;
      txn.sent += 1;
      this.producer.send(send, send.value, (result) => {
        if (result.error === 'NONE') txn.offsets[index] = result.offset;
        else if (txn.firstError === null) txn.firstError = result.error;
      });
    }
    this.deps.ctx.setTimer(this.spec.sendIntervalMs * 1000, {
      owner: 'app',
      type: 'next-send',
    } satisfies AppTimer);
  }

  private finish(txn: CurrentTxn): void {
    txn.endTxnUs = this.deps.writer.nowUs();
    if (!txn.commit) {
      this.producer.abortTransaction((error) =>
        this.complete(txn, error === 'NONE' ? 'ok' : 'fail', error),
      );
      return;
    }
    this.producer.commitTransaction((error) => {
      if (error === 'NONE') return this.complete(txn, 'ok', 'NONE');
      if (this.producer.state === 'ABORTABLE_ERROR') {
        // Kafka's advice for an abortable error: abort, then carry on with a new transaction.
        this.producer.abortTransaction((abortError) =>
          this.complete(
            txn,
            this.producer.commitRequested ? 'info' : 'fail',
            abortError === 'NONE' ? error : abortError,
          ),
        );
        return;
      }
      this.complete(txn, this.producer.commitRequested ? 'info' : 'fail', error);
    });
  }

  private complete(txn: CurrentTxn, type: 'ok' | 'fail' | 'info', error: KafkaErrorCode): void {
    this.current = null;
    const sends = txn.sends.map((send, index) => {
      const offset = txn.offsets[index] as number;
      return type === 'ok' && offset >= 0 ? { ...send, offset } : send;
    });
    const value = {
      transactionalId: this.spec.transactionalId,
      commit: txn.commit,
      sends,
      producerId: this.producer.producerId,
      producerEpoch: this.producer.producerEpoch,
      ...(txn.endTxnUs === undefined ? {} : { endTxnUs: txn.endTxnUs }),
    };
    this.deps.writer.complete(txn.op, type, value, error === 'NONE' ? undefined : error);
    // The probe window stays open after the first commit: the application keeps running (and
    // restarting when fenced) until the runner ends the probe, which it does once every
    // producer has committed one.
    if (type === 'ok' && txn.commit && txn.probe) this.probeDone = true;
    if (this.producer.state === 'FATAL_ERROR') {
      const restart = !this.deps.control.stopping || this.probePending;
      if (this.spec.onFenced === 'restart' && restart) this.restart();
      else this.dead = true;
      return;
    }
    this.deps.ctx.setTimer(this.spec.transactionIntervalMs * 1000, {
      owner: 'app',
      type: 'next-transaction',
    } satisfies AppTimer);
  }
}
