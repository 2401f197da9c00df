/**
 * What of a partition's log is on disk (Kafka's recovery point): what a power loss cannot take.
 * Kafka does not fsync by default (`log.flush.interval.messages` is Long.MAX_VALUE), so the OS
 * writes dirty pages back after {@link DIRTY_EXPIRE_US}; with `log.flush.interval.messages` N
 * the log is fsynced once an append leaves N or more messages unflushed, before that append
 * returns (UnifiedLog.append → flush), on leaders and followers alike.
 */
import type { LogBatch } from '../protocol';

/**
 * How long the OS keeps written pages dirty before writing them back (Linux
 * `vm.dirty_expire_centisecs` = 3000): a power loss drops what was appended within this window
 * and after the log's last flush.
 */
export const DIRTY_EXPIRE_US = 30_000_000;

/** The recovery point of one log and the messages appended since it. */
export class RecoveryPoint {
  /** Everything below this offset was fsynced (UnifiedLog.flush). */
  private flushedOffset = 0;
  /** Messages appended since the last flush (LocalLog.unflushedMessages). */
  private unflushedMessages = 0;

  /** @param intervalMessages `log.flush.interval.messages`; null is Long.MAX_VALUE, never. */
  constructor(private readonly intervalMessages: number | null) {}

  /** A batch entered the log. */
  appended(batch: LogBatch): void {
    this.unflushedMessages += batch.lastOffset - batch.baseOffset + 1;
  }

  /** The end of an append: flush when the interval is reached. */
  afterAppend(logEndOffset: number): void {
    if (this.intervalMessages === null || this.unflushedMessages < this.intervalMessages) return;
    this.flushedOffset = logEndOffset;
    this.unflushedMessages = 0;
  }

  /** LocalLog.truncateTo: the recovery point does not pass the new log end offset. */
  truncated(logEndOffset: number): void {
    this.flushedOffset = Math.min(this.flushedOffset, logEndOffset);
    this.unflushedMessages = logEndOffset - this.flushedOffset;
  }

  /** Log recovery after a crash leaves the recovery point at the log end offset. */
  recovered(logEndOffset: number): void {
    this.flushedOffset = logEndOffset;
    this.unflushedMessages = 0;
  }

  /** The first batch a power loss at `nowUs` drops (and every one after it), if any. */
  firstLostOnPowerLoss(batches: readonly LogBatch[], nowUs: number): LogBatch | undefined {
    const writtenBackBeforeUs = nowUs - DIRTY_EXPIRE_US;
    return batches.find(
      (batch) => batch.appendUs > writtenBackBeforeUs && batch.baseOffset >= this.flushedOffset,
    );
  }
}
