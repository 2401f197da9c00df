/**
 * `initTransactions()` as the application sees it (KafkaProducer.initTransactions,
 * TransactionManager.initializeTransactions). The call waits at most `max.block.ms` (KAFKA-6446,
 * 2.0) and then throws TimeoutException (here REQUEST_TIMED_OUT), while the InitProducerId goes
 * on in the background; the javadoc says "It is safe to retry". A retry while the request is
 * still pending waits for the same result (handleCachedTransactionRequestResult, 2.3). A retry
 * after the answer came in the background is KAFKA-13412: before 3.1.1 and 3.2.0 the pending
 * result was kept only while the state was still INITIALIZING, so the retry tried READY ->
 * INITIALIZING and threw KafkaException ("Invalid transition attempted"), which the model
 * reports as INVALID_TXN_STATE as it does every call in the wrong state. Since the fix
 * (apache/kafka#11452, PendingStateTransition) the result is kept until the application has
 * seen it, and the retry returns it. Without `max.block.ms` the call waits until the end, which is
 * what an application that retries at once gets (2.3+).
 */
import type { ActorContext } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage } from '../protocol';

/** The timer of a call that waits at most `max.block.ms`. */
export interface InitTimeoutTimer {
  readonly owner: 'producer';
  readonly type: 'init-timeout';
  readonly call: number;
}

/** What the call needs of its producer. */
export interface InitCallHost {
  /** Null: fine; else the sticky error of a producer in FATAL_ERROR. */
  fatalError(): KafkaErrorCode | null;
  /** True while the producer has not started initialising (UNINITIALIZED). */
  uninitialized(): boolean;
  /** Moves to INITIALIZING and sends FindCoordinator and InitProducerId. */
  start(): void;
}

/** One producer's initTransactions calls and the result they wait for. */
export class InitTransactionsCall {
  /** The application's call waiting now. */
  private waiting: { readonly callback: (error: KafkaErrorCode) => void; id: number } | null = null;
  /** The InitProducerId result the application has not seen: pending, or its outcome. */
  private unseen: 'pending' | KafkaErrorCode | null = null;
  private calls = 0;

  constructor(
    private readonly ctx: ActorContext<KafkaMessage>,
    /**
     * KAFKA-13412 on: a retry after the answer came in the background throws. Asked only when
     * such a retry happens (a bug switch is read where the releases part ways).
     */
    private readonly retryAfterAnswerThrows: () => boolean,
    private readonly host: InitCallHost,
  ) {}

  /** One call; `maxBlockMs` null: it waits for the result however long it takes. */
  call(callback: (error: KafkaErrorCode) => void, maxBlockMs: number | null): void {
    const fatal = this.host.fatalError();
    if (fatal !== null) return callback(fatal);
    if (this.unseen === null) {
      if (!this.host.uninitialized()) return callback('INVALID_TXN_STATE');
      this.unseen = 'pending';
      this.host.start();
      return this.await(callback, maxBlockMs);
    }
    if (this.unseen === 'pending') return this.await(callback, maxBlockMs);
    const outcome = this.unseen;
    this.unseen = null;
    if (this.retryAfterAnswerThrows()) {
      this.ctx.trace('initTransactions retried after its answer: READY -> INITIALIZING');
      return callback('INVALID_TXN_STATE');
    }
    callback(outcome);
  }

  /** The InitProducerId came back (NONE) or the producer failed (its fatal error). */
  complete(error: KafkaErrorCode): void {
    const waiting = this.waiting;
    if (waiting === null) {
      if (this.unseen === 'pending') this.unseen = error;
      return;
    }
    this.waiting = null;
    this.unseen = null;
    waiting.callback(error);
  }

  /** `max.block.ms` of call `timer.call` ran out: TimeoutException, the request goes on. */
  onTimeout(timer: InitTimeoutTimer): void {
    const waiting = this.waiting;
    if (waiting?.id !== timer.call) return;
    this.waiting = null;
    waiting.callback('REQUEST_TIMED_OUT');
  }

  private await(callback: (error: KafkaErrorCode) => void, maxBlockMs: number | null): void {
    const id = ++this.calls;
    this.waiting = { callback, id };
    if (maxBlockMs === null) return;
    const timer: InitTimeoutTimer = { owner: 'producer', type: 'init-timeout', call: id };
    this.ctx.setTimer(maxBlockMs * 1000, timer);
  }
}
