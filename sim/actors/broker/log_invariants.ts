/**
 * The invariants a partition replica's code relies on, asserted where it relies on them. Each
 * throws the kernel's InvariantError naming the invariant; a failure is a model bug (exit 70 with
 * the seed), never an anomaly of the run: what Kafka itself may break is for the runner's state
 * checker and the history checkers to judge, not for these asserts.
 */
import { invariant } from '../../kernel';
import type { ReplicaOffsetsNow } from './offsets_reporter';

/** The four offsets of one replica's log. */
type LogOffsets = ReplicaOffsetsNow;

/**
 * `logStartOffset ≤ lastStableOffset ≤ highWatermark ≤ logEndOffset` after every change of the
 * log (UnifiedLog: the HW is capped by the LEO in updateHighWatermark, the LSO is
 * min(first unstable offset, HW)); consumer reads up to the HW or LSO rely on it.
 */
export function assertOffsetsOrdered(log: LogOffsets): void {
  const where = (): string =>
    `${log.topic}-${log.partition}: logStartOffset ${log.logStartOffset}, lastStableOffset ` +
    `${log.lastStableOffset}, highWatermark ${log.highWatermark}, logEndOffset ${log.logEndOffset}`;
  invariant(log.highWatermark <= log.logEndOffset, 'highWatermark <= logEndOffset', where);
  invariant(log.lastStableOffset <= log.highWatermark, 'lastStableOffset <= highWatermark', where);
  invariant(
    log.logStartOffset <= log.lastStableOffset,
    'logStartOffset <= lastStableOffset',
    where,
  );
}

/**
 * A replica's leader epoch never goes back (Partition.makeLeader/makeFollower take only a newer
 * or equal epoch); fencing of fetches and produces by `currentLeaderEpoch` relies on it.
 */
export function assertLeaderEpochForward(
  log: {
    readonly topic: string;
    readonly partition: number;
    readonly leaderEpoch: number;
  },
  next: number,
): void {
  invariant(
    next >= log.leaderEpoch,
    'leaderEpoch monotonic on a replica',
    () => `${log.topic}-${log.partition}: leaderEpoch ${log.leaderEpoch} then ${next}`,
  );
}
