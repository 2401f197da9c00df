/**
 * Kafka's `PartitionsWithLateTransactionsCount` broker gauge (KIP-664), as the run's observations
 * show it: ReplicaManager.lateTransactionsCount counts the partitions a broker leads whose
 * ProducerStateManager.hasLateTransaction(now) holds, that is whose oldest open transaction's
 * producer last wrote there more than `transaction.max.timeout.ms` +
 * ProducerStateManager.LATE_TRANSACTION_BUFFER_MS (5 minutes) ago:
 * `lastTimestamp > 0 && now - lastTimestamp > threshold`, in milliseconds. The "last write" is
 * oldestTxnLastTimestamp: the lastTimestamp of the producer entry of the transaction with the
 * lowest first offset (ProducerStateManager.updateOldestTxnTimestamp), which every batch of that
 * producer on the partition refreshes. Kafka takes the batch's timestamp; the model takes the time
 * the leader appended it, in true virtual time, and reads the gauge against true virtual time.
 *
 * A gauge is read when scraped, not computed on a timer: this tracker keeps, per replica, the
 * segments in which its leadership and oldest transaction stayed the same, and turns each into
 * the interval during which the replica counted as late, so the report gives the exact time the
 * count first became non-zero without adding any event to the run.
 */
import type { KafkaObservation, LogBatch } from '../actors';
import { NO_PRODUCER_ID } from '../actors';
import type { LateTransactionInterval, LateTransactionsGauge } from '../history';
import type { StampedObservation } from '../kernel';
import type { ObservedCluster, ObservedReplica } from './observed_cluster';

/** ProducerStateManager.LATE_TRANSACTION_BUFFER_MS: 5 minutes. */
export const LATE_TRANSACTION_BUFFER_MS = 300_000;

/** What hasLateTransaction reads of one replica, since `sinceUs`. */
interface Segment {
  readonly leader: boolean;
  /** The producer of the oldest open transaction, or NO_PRODUCER_ID when none is open. */
  readonly producerId: number;
  /** Its last write here (µs), or -1. */
  readonly lastUs: number;
  readonly sinceUs: number;
}

const NO_SEGMENT: Omit<Segment, 'sinceUs'> = {
  leader: false,
  producerId: NO_PRODUCER_ID,
  lastUs: -1,
};

/** Follows every replica's late-transaction state from the observations. */
export class LateTransactionTracker {
  private readonly segments = new Map<ObservedReplica, Segment>();
  private readonly intervals: LateTransactionInterval[] = [];

  /** `transactionMaxTimeoutMs`: the brokers' `transaction.max.timeout.ms`. */
  constructor(
    private readonly transactionMaxTimeoutMs: number,
    private readonly appendUs: (batch: LogBatch) => number = (batch) => batch.appendUs,
  ) {}

  private get thresholdMs(): number {
    return this.transactionMaxTimeoutMs + LATE_TRANSACTION_BUFFER_MS;
  }

  /** Call after `observed` has folded `stamped` in. */
  afterObservation(stamped: StampedObservation, observed: ObservedCluster): void {
    const observation = stamped.observation as KafkaObservation;
    switch (observation.kind) {
      case 'BatchAppended':
      case 'MarkerWritten':
      case 'LogTruncated':
      case 'LeaderEpochStarted':
      case 'LeaderEpochEnded':
        break;
      default:
        return;
    }
    const { topic, partition, broker } = observation;
    const replica = observed.replica(topic, partition, broker);
    const batch = 'batch' in observation ? observation.batch : null;
    const previous = this.segments.get(replica);
    const next = this.stateOf(replica, previous, batch);
    if (
      previous !== undefined &&
      previous.leader === next.leader &&
      previous.producerId === next.producerId &&
      previous.lastUs === next.lastUs
    ) {
      return;
    }
    if (previous !== undefined) {
      const late = this.lateInterval(replica, previous, stamped.timeUs, false);
      if (late !== null) this.intervals.push(late);
    }
    this.segments.set(replica, { ...next, sinceUs: stamped.timeUs });
  }

  /** The gauge over the whole run, which ended at `endUs`. */
  result(endUs: number): LateTransactionsGauge {
    const intervals = [...this.intervals];
    for (const [replica, segment] of this.segments) {
      const late = this.lateInterval(replica, segment, endUs, true);
      if (late !== null) intervals.push(late);
    }
    intervals.sort((a, b) => a.fromUs - b.fromUs);
    return { thresholdMs: this.thresholdMs, ...countOver(intervals), intervals };
  }

  /** The replica's leadership and oldest open transaction now. */
  private stateOf(
    replica: ObservedReplica,
    previous: Segment | undefined,
    batch: LogBatch | null,
  ): Omit<Segment, 'sinceUs'> {
    const leader = replica.leaderEpoch !== null;
    const oldest = replica.openTransactions.keys().next();
    if (oldest.done === true) return { ...NO_SEGMENT, leader };
    const producerId = oldest.value;
    if (batch !== null && batch.producerId === producerId) {
      return { leader, producerId, lastUs: this.appendUs(batch) };
    }
    if (previous !== undefined && previous.producerId === producerId && batch !== null) {
      return { leader, producerId, lastUs: previous.lastUs };
    }
    return { leader, producerId, lastUs: this.lastWriteOf(replica, producerId) };
  }

  /** The append time of the producer's last batch in the replica's log. */
  private lastWriteOf(replica: ObservedReplica, producerId: number): number {
    for (let index = replica.batches.length - 1; index >= 0; index--) {
      const batch = replica.batches[index] as LogBatch;
      if (batch.producerId === producerId) return this.appendUs(batch);
    }
    return -1;
  }

  /**
   * When within [sinceUs, endUs) the segment counted as late, if it did; `stillLate` for a
   * segment the run ended in (the interval then has no end).
   */
  private lateInterval(
    replica: ObservedReplica,
    segment: Segment,
    endUs: number,
    stillLate: boolean,
  ): LateTransactionInterval | null {
    const lastMs = Math.floor(segment.lastUs / 1000);
    if (!segment.leader || lastMs <= 0) return null;
    // The first millisecond with now - lastTimestamp > threshold.
    const fromUs = Math.max(segment.sinceUs, (lastMs + this.thresholdMs + 1) * 1000);
    if (stillLate ? fromUs > endUs : fromUs >= endUs) return null;
    const { broker, topic, partition } = replica;
    const { producerId } = segment;
    return { broker, topic, partition, producerId, fromUs, toUs: stillLate ? null : endUs };
  }
}

/**
 * The cluster-wide count (the brokers' gauges summed) over the intervals: when it first became
 * non-zero, its largest value and when it was first reached, and its value at the end.
 */
function countOver(intervals: readonly LateTransactionInterval[]): {
  firstNonZeroUs: number | null;
  max: number;
  maxAtUs: number | null;
  atEnd: number;
} {
  // Ends before starts at the same time: a replica that stops and another that starts being
  // late at one instant never count together.
  const changes = intervals
    .flatMap((interval) => [
      { timeUs: interval.fromUs, delta: 1 },
      ...(interval.toUs === null ? [] : [{ timeUs: interval.toUs, delta: -1 }]),
    ])
    .sort((a, b) => a.timeUs - b.timeUs || a.delta - b.delta);
  let count = 0;
  let max = 0;
  let maxAtUs: number | null = null;
  for (const change of changes) {
    count += change.delta;
    if (count > max) {
      max = count;
      maxAtUs = change.timeUs;
    }
  }
  const firstNonZeroUs = intervals[0]?.fromUs ?? null;
  return { firstNonZeroUs, max, maxAtUs, atEnd: count };
}
