/**
 * Offset retention at the group coordinator (KIP-211, Kafka 2.1;
 * GroupMetadata.removeExpiredOffsets, GroupMetadataManager.cleanupGroupMetadata and
 * readOffsetMessageValue).
 *
 * - Every `offsets.retention.check.interval.ms` the coordinator removes expired offsets. An offset
 *   without an expire timestamp expires `offsets.retention.minutes` after its base time: for a
 *   consumer group only while it is Empty, counted from when it became Empty (its commit time if
 *   that is unknown); for a group without a protocol type (a simple consumer's) from its commit.
 *   A group with members keeps its offsets. An offset with an expire timestamp (the pre-KIP-211
 *   rule) expires at that time, whatever the group's state. (Kafka spares an offset whose plain
 *   commit is still being appended; in the model a plain commit applies only once durable, so
 *   there is none.) An Empty group left without offsets becomes Dead and is removed.
 * - Below `inter.broker.protocol.version` 2.1 offsets are written as OffsetCommitValue v1, whose
 *   expire timestamp holds OffsetCommitRequest.DEFAULT_TIMESTAMP (-1) when the commit asked for
 *   no retention. Loading such a record, Kafka 2.1 (KAFKA-8069) kept -1 as the expire timestamp,
 *   so after a coordinator move every such offset of an Empty group expired at the next check;
 *   since 2.2 (apache/kafka#6401) -1 loads as "no expire timestamp".
 *
 * - Before 2.1 (KAFKA-4682, fixed by KIP-211's apache/kafka#4896) every commit got an expire
 *   timestamp of its time plus `offsets.retention.minutes`, and an offset expired once that was
 *   past even while its group had members: a low-traffic partition of a live group lost its
 *   offset, and the next rebalance restarted it from `auto.offset.reset`.
 *
 * Not modelled: KIP-496's expiry of a Stable group's offsets for topics it no longer subscribes
 * to (2.4; the model's subscriptions do not change).
 */
import type { OffsetCommitRecord } from '../protocol';
import type { ClassicGroup } from './group_metadata';
import type { StoredOffset } from './offset_store';

/** OffsetCommitRequest.DEFAULT_TIMESTAMP: a v1 record's expire timestamp when none was asked. */
export const DEFAULT_EXPIRE_TIMESTAMP = -1;

/**
 * The expire timestamp an offset record loads with (readOffsetMessageValue): none for v3; a v1
 * record's own, except the default, which loads as none since KAFKA-8069's fix. With
 * `defaultExpireTimestampKept` (the bug, Kafka 2.1) the default -1 is kept, in the past.
 */
export function loadedExpireTimestampMs(
  value: NonNullable<OffsetCommitRecord['value']>,
  defaultExpireTimestampKept: boolean,
): number | undefined {
  const expire = value.expireTimestampMs;
  if (expire === undefined) return undefined;
  if (expire === DEFAULT_EXPIRE_TIMESTAMP && !defaultExpireTimestampKept) return undefined;
  return expire;
}

/**
 * GroupMetadata.removeExpiredOffsets: the committed offsets of `group` that have expired at
 * `nowUs` under `offsets.retention.minutes` (the caller removes them). With
 * `expireWhateverState` (KAFKA-4682 on, before 2.1) it is 2.0's rule: every offset whose expire
 * timestamp is before now, also in a group with members.
 */
export function expiredOffsets(
  group: ClassicGroup,
  nowUs: number,
  offsetsRetentionMinutes: number,
  expireWhateverState = false,
): StoredOffset[] {
  if (expireWhateverState) {
    return group.offsets.committedOffsets().filter((offset) => {
      const expire = offset.expireTimestampMs;
      return expire !== undefined && expire < nowUs / 1000;
    });
  }
  const retentionUs = offsetsRetentionMinutes * 60_000_000;
  let baseUs: (offset: StoredOffset) => number;
  if (group.protocolType !== null && group.state === 'Empty') {
    const emptySinceUs = group.currentStateTimestampUs;
    baseUs = (offset) => emptySinceUs ?? offset.commitTimestampUs;
  } else if (group.protocolType === null) {
    baseUs = (offset) => offset.commitTimestampUs;
  } else {
    return [];
  }
  return group.offsets.committedOffsets().filter((offset) => {
    if (offset.expireTimestampMs !== undefined) return nowUs / 1000 >= offset.expireTimestampMs;
    return nowUs - baseUs(offset) >= retentionUs;
  });
}

/** GroupMetadata.hasOffsets: committed or pending offsets are left. */
export function hasOffsets(group: ClassicGroup): boolean {
  return group.offsets.committedOffsets().length > 0 || group.offsets.pendingProducers().length > 0;
}
