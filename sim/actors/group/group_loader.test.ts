/**
 * Goal: loading a `__consumer_offsets` partition (GroupMetadataManager.partitionFor;
 * GroupMetadata.prepareTxnOffsetCommit) rebuilds exactly what the live coordinator held: the last
 * group metadata record (Stable with members, Empty without), plain commits in log order,
 * transactional offsets pending until their producer's marker, COMMIT materialising them unless a
 * later-appended commit exists, ABORT discarding them, and tombstones. Method: hand-built batches
 * replayed by `loadGroups`.
 */
import { describe, expect, it } from 'vitest';
import type { GroupLogRecord, LogBatch } from '../protocol';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../protocol';
import { loadGroups } from './group_loader';

let nextOffset = 0;

function batch(record: GroupLogRecord, producerId = NO_PRODUCER_ID): LogBatch {
  const offset = nextOffset++;
  return {
    baseOffset: offset,
    lastOffset: offset,
    producerId,
    producerEpoch: producerId === NO_PRODUCER_ID ? NO_PRODUCER_EPOCH : 0,
    baseSequence: -1,
    isTransactional: producerId !== NO_PRODUCER_ID,
    values: [0],
    groupLog: record,
    appendUs: offset,
    leaderEpoch: 0,
  };
}

function marker(producerId: number, control: 'COMMIT' | 'ABORT'): LogBatch {
  const offset = nextOffset++;
  return {
    baseOffset: offset,
    lastOffset: offset,
    producerId,
    producerEpoch: 0,
    baseSequence: -1,
    isTransactional: true,
    control,
    coordinatorEpoch: 0,
    values: [],
    appendUs: offset,
    leaderEpoch: 0,
  };
}

function offset(partition: number, value: number | null): GroupLogRecord {
  return {
    type: 'offset',
    groupId: 'g',
    topic: 'in',
    partition,
    value: value === null ? null : { offset: value, commitTimestampUs: 0 },
  };
}

const metadata: GroupLogRecord = {
  type: 'group',
  groupId: 'g',
  value: {
    protocolType: 'consumer',
    generationId: 4,
    protocolName: 'range',
    leader: 'm1',
    members: [
      {
        memberId: 'm1',
        groupInstanceId: null,
        sessionTimeoutMs: 10_000,
        rebalanceTimeoutMs: 30_000,
        subscription: ['in'],
        assignment: [{ topic: 'in', partition: 0 }],
      },
    ],
  },
};

describe('loadGroups', () => {
  it('restores the generation and members of the last group record as Stable', () => {
    const group = loadGroups([batch(metadata)]).get('g');
    expect(group?.state).toBe('Stable');
    expect(group?.generationId).toBe(4);
    expect(group?.leaderId).toBe('m1');
    expect([...(group?.members.keys() ?? [])]).toEqual(['m1']);
    expect(group?.members.get('m1')?.assignment).toEqual([{ topic: 'in', partition: 0 }]);
  });

  it('keeps offsets pending until their marker and decides them by append offset', () => {
    const groups = loadGroups([
      batch(offset(0, 3)),
      batch(offset(0, 7), 11),
      batch(offset(1, 5), 12),
      batch(offset(0, 9)),
      marker(11, 'COMMIT'),
      batch(offset(1, 6), 13),
      marker(12, 'ABORT'),
    ]);
    const offsets = groups.get('g')?.offsets;
    // 7 was appended before the plain commit of 9, so the COMMIT leaves 9.
    expect(offsets?.committedOffset({ topic: 'in', partition: 0 })).toBe(9);
    expect(offsets?.committedOffset({ topic: 'in', partition: 1 })).toBe(-1);
    // Producer 13 has no marker in the log yet: still pending.
    expect(offsets?.pendingProducers()).toEqual([13]);
    expect(offsets?.hasPendingTransactional({ topic: 'in', partition: 1 })).toBe(true);
    // A group with offsets but no metadata record loads Empty at generation 0.
    expect(groups.get('g')?.state).toBe('Empty');
    expect(groups.get('g')?.generationId).toBe(0);
  });

  it('applies tombstones to offsets and groups', () => {
    const tombstone: GroupLogRecord = { type: 'group', groupId: 'g', value: null };
    expect(loadGroups([batch(metadata), batch(tombstone)]).has('g')).toBe(false);
    const offsets = loadGroups([batch(offset(0, 3)), batch(offset(0, null))]).get('g')?.offsets;
    expect(offsets?.committedOffset({ topic: 'in', partition: 0 })).toBe(-1);
  });
});
