/**
 * `linger.ms`, as RecordAccumulator.ready decides it for a partition's next new batch: sendable
 * once it is full (`batch.size` worth of records queued; more queued behind it counts as full
 * too), once `linger.ms` has passed since its first record was appended, or while a flush is in
 * progress. A transaction that completes flushes the accumulator first (commitTransaction and
 * abortTransaction; Sender.maybeSendAndPollTransactionalRequest, RecordAccumulator.beginFlush).
 * Otherwise the sender sleeps until the linger ends (the ready check's nextReadyCheckDelayMs):
 * one `linger` wakeup is armed for the earliest such moment.
 */
import type { ActorContext } from '../../kernel';
import type { KafkaMessage } from '../protocol';
import type { PartitionSendState, PendingRecord } from './producer_batch';
import { BATCH_RECORDS_MAX, type ClientTransactionState } from './producer_config';

/** The producer states in which the accumulator is being flushed. */
const FLUSHING_STATES: ReadonlySet<ClientTransactionState> = new Set([
  'COMMITTING_TRANSACTION',
  'ABORTING_TRANSACTION',
]);

/**
 * Whether a producer in `state` flushes its accumulator: a transaction is completing.
 * @example flushesAccumulator('COMMITTING_TRANSACTION') // true
 */
export function flushesAccumulator(state: ClientTransactionState): boolean {
  return FLUSHING_STATES.has(state);
}

/** The sender's linger: which partitions' new batches may go now, and its wakeup. */
export class Linger {
  /** When the `linger` wakeup set last fires; null when none is pending. */
  private wakeUs: number | null = null;
  /** `linger` wakeups set and not yet fired. */
  private timersPending = 0;

  constructor(private readonly lingerMs: number) {}

  /**
   * A `linger` wakeup fired at `nowUs`. Once the last one pending has fired, nothing is armed,
   * even when the moment it was set for lies ahead: the producer's clock went back since (a
   * clock skew ended), and the next ready check arms the rest again, as the sender thread
   * recomputes its poll timeout from the clock on every loop (RecordAccumulator.ready's
   * nextReadyCheckDelayMs). Without a clock jump the last wakeup fires after the earliest
   * moment, so this changes nothing.
   */
  onWakeup(nowUs: number): void {
    this.timersPending = Math.max(0, this.timersPending - 1);
    const over = this.wakeUs !== null && nowUs >= this.wakeUs;
    if (over || this.timersPending === 0) this.wakeUs = null;
  }

  /**
   * Whether the next new batch of `state` is sendable now; when it is not, the wakeup for the end
   * of its linger is armed.
   */
  headBatchSendable(
    state: PartitionSendState,
    flushing: boolean,
    ctx: ActorContext<KafkaMessage>,
  ): boolean {
    const lingerUs = this.lingerMs * 1000;
    if (lingerUs === 0 || state.queue.length >= BATCH_RECORDS_MAX || flushing) return true;
    const readyUs = (state.queue[0] as PendingRecord).createdUs + lingerUs;
    if (ctx.nowUs() >= readyUs) return true;
    if (this.wakeUs === null || readyUs < this.wakeUs) {
      this.wakeUs = readyUs;
      this.timersPending += 1;
      ctx.setTimer(readyUs - ctx.nowUs(), { owner: 'producer', type: 'linger' });
    }
    return false;
  }
}
