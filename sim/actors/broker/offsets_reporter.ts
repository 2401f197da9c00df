/**
 * The offsets observations of one partition replica: after every change to its log, a
 * `HighWatermarkChanged` when the high watermark moved and a `LastStableOffsetChanged` when the
 * last stable offset moved, each with all four offsets as they stand (the runner's state checker
 * asserts `logStartOffset ≤ lastStableOffset ≤ highWatermark ≤ logEndOffset` on them).
 */
import type { ObservationSink } from '../protocol';

/** What a report reads of the replica. */
export interface ReplicaOffsetsNow {
  readonly topic: string;
  readonly partition: number;
  readonly logStartOffset: number;
  readonly lastStableOffset: number;
  readonly highWatermark: number;
  readonly logEndOffset: number;
}

/** Remembers the offsets last reported, so only changes are observed. */
export class OffsetsReporter {
  private highWatermark = 0;
  private lastStableOffset = 0;

  /** Observes what moved since the last report; builds nothing when nothing did. */
  report(broker: string, now: ReplicaOffsetsNow, observe: ObservationSink): void {
    const highWatermarkMoved = now.highWatermark !== this.highWatermark;
    const lastStableOffsetMoved = now.lastStableOffset !== this.lastStableOffset;
    if (!highWatermarkMoved && !lastStableOffsetMoved) return;
    const offsets = {
      broker,
      topic: now.topic,
      partition: now.partition,
      logStartOffset: now.logStartOffset,
      lastStableOffset: now.lastStableOffset,
      highWatermark: now.highWatermark,
      logEndOffset: now.logEndOffset,
    };
    if (highWatermarkMoved) {
      this.highWatermark = now.highWatermark;
      observe({ kind: 'HighWatermarkChanged', ...offsets });
    }
    if (lastStableOffsetMoved) {
      this.lastStableOffset = now.lastStableOffset;
      observe({ kind: 'LastStableOffsetChanged', ...offsets });
    }
  }
}
