/**
 * Loading one `__consumer_offsets` partition when a broker becomes its leader (Kafka's
 * GroupMetadataManager.loadGroupsAndOffsets, ClassicGroup; GroupMetadata.prepareTxnOffsetCommit):
 * the log is replayed from its start in offset order. A non-transactional offset record sets the
 * committed offset (a tombstone deletes it); a transactional one becomes a pending offset of its
 * producer; a COMMIT or ABORT marker completes that producer's pending offsets exactly as the live
 * coordinator does, so offsets whose marker is not in the log yet stay pending. The last group
 * metadata record of a group restores its generation, protocol, leader and members (Stable with
 * members, Empty without); a tombstone removes the group. Groups with offsets but no metadata
 * record load as Empty. A v1 offset record's expire timestamp loads as offset_expiration.ts says;
 * a v2 group record restores the time the group entered its state.
 */
import type { GroupMetadataRecord, LogBatch } from '../protocol';
import { ClassicGroup, memberFromRecord } from './group_metadata';
import { loadedExpireTimestampMs } from './offset_expiration';

/** How records load, by release. */
export interface GroupLoadRules {
  /**
   * KAFKA-8069 on (2.1): a v1 offset record's default expire timestamp (-1) loads as a real one
   * (offset_expiration.ts).
   */
  readonly defaultExpireTimestampKept: boolean;
}

/** The groups of one partition, rebuilt from its batches (oldest first). */
export function loadGroups(
  batches: readonly LogBatch[],
  rules: GroupLoadRules = { defaultExpireTimestampKept: false },
): Map<string, ClassicGroup> {
  const groups = new Map<string, ClassicGroup>();
  const groupOf = (groupId: string): ClassicGroup => {
    let group = groups.get(groupId);
    if (group === undefined) {
      group = new ClassicGroup(groupId);
      groups.set(groupId, group);
    }
    return group;
  };
  for (const batch of batches) {
    if (batch.control !== undefined) {
      for (const group of groups.values()) {
        group.offsets.completeTransaction(batch.producerId, batch.control === 'COMMIT');
      }
      continue;
    }
    const record = batch.groupLog;
    if (record === undefined) continue;
    if (record.type === 'group') {
      if (record.value === null) groups.delete(record.groupId);
      else restoreMetadata(groupOf(record.groupId), record);
      continue;
    }
    const offsets = groupOf(record.groupId).offsets;
    const tp = { topic: record.topic, partition: record.partition };
    if (record.value === null) {
      if (batch.isTransactional) offsets.deletePending(batch.producerId, tp);
      else offsets.delete(tp);
      continue;
    }
    const { offset, commitTimestampUs } = record.value;
    const expireTimestampMs = loadedExpireTimestampMs(
      record.value,
      rules.defaultExpireTimestampKept,
    );
    const stored = {
      ...tp,
      offset,
      commitTimestampUs,
      ...(expireTimestampMs === undefined ? {} : { expireTimestampMs }),
      appendOffset: batch.baseOffset,
    };
    if (batch.isTransactional) offsets.addPending(batch.producerId, stored);
    else offsets.commit(stored);
  }
  return groups;
}

/** Kafka's GroupMetadata.loadGroup: state Stable with members, Empty without. */
function restoreMetadata(group: ClassicGroup, record: GroupMetadataRecord): void {
  const value = record.value;
  if (value === null) return;
  for (const memberId of [...group.members.keys()]) group.remove(memberId);
  group.generationId = value.generationId;
  group.protocolType = value.protocolType;
  group.protocolName = value.protocolName;
  for (const member of value.members) {
    group.add(memberFromRecord(member, value.protocolName ?? ''));
  }
  group.leaderId = value.leader;
  group.state = value.members.length > 0 ? 'Stable' : 'Empty';
  group.currentStateTimestampUs = value.currentStateTimestampUs ?? null;
}
