/**
 * Goal: offset retention as Kafka's group coordinator applies it (KIP-211,
 * GroupMetadata.removeExpiredOffsets) and KAFKA-8069 both ways: a v1 offset record (written
 * below inter.broker.protocol.version 2.1) with the default expire timestamp -1 loads as "no
 * expire timestamp" since apache/kafka#6401, so an Empty group keeps its offsets for
 * `offsets.retention.minutes` after it became Empty; with the bug on (Kafka 2.1) -1 loads as a
 * real expire timestamp, in the past, and every such offset expires at the first check. Method:
 * hand-built `__consumer_offsets` batches replayed by `loadGroups`, then `expiredOffsets`.
 */
import { describe, expect, it } from 'vitest';
import type { GroupLogRecord, LogBatch } from '../protocol';
import { NO_PRODUCER_EPOCH, NO_PRODUCER_ID } from '../protocol';
import { loadGroups } from './group_loader';
import { ClassicGroup } from './group_metadata';
import {
  DEFAULT_EXPIRE_TIMESTAMP,
  expiredOffsets,
  loadedExpireTimestampMs,
} from './offset_expiration';

const MINUTE_US = 60_000_000;
/** Kafka's default `offsets.retention.minutes` since 2.0 (KIP-186): seven days. */
const RETENTION_MINUTES = 10_080;

function batch(offset: number, record: GroupLogRecord): LogBatch {
  return {
    baseOffset: offset,
    lastOffset: offset,
    producerId: NO_PRODUCER_ID,
    producerEpoch: NO_PRODUCER_EPOCH,
    baseSequence: -1,
    isTransactional: false,
    values: [0],
    groupLog: record,
    appendUs: offset,
    leaderEpoch: 0,
  };
}

/** An offset commit record of group g; v1 carries the default expire timestamp. */
function commit(partition: number, version: 1 | 3): GroupLogRecord {
  const expire = version === 1 ? { expireTimestampMs: DEFAULT_EXPIRE_TIMESTAMP } : {};
  return {
    type: 'offset',
    groupId: 'g',
    topic: 'in',
    partition,
    value: { offset: 10 + partition, commitTimestampUs: 1_000_000, ...expire },
  };
}

/** The group record written when g became Empty at 5 s (v1: no current state timestamp). */
function emptyGroup(version: 1 | 3): GroupLogRecord {
  return {
    type: 'group',
    groupId: 'g',
    value: {
      protocolType: 'consumer',
      generationId: 2,
      protocolName: null,
      leader: null,
      members: [],
      ...(version === 1 ? {} : { currentStateTimestampUs: 5_000_000 }),
    },
  };
}

function load(version: 1 | 3, defaultExpireTimestampKept: boolean): ClassicGroup {
  const batches = [batch(0, commit(0, version)), batch(1, commit(1, version))];
  batches.push(batch(2, emptyGroup(version)));
  const group = loadGroups(batches, { defaultExpireTimestampKept }).get('g');
  if (group === undefined) throw new Error('group g not loaded');
  return group;
}

describe('KAFKA-8069: the default expire timestamp of a v1 offset record', () => {
  it('loads as none since the fix: the Empty group keeps its offsets until the retention', () => {
    const group = load(1, false);
    expect(group.state).toBe('Empty');
    expect(group.offsets.committedOffsets().map((o) => o.expireTimestampMs)).toEqual([
      undefined,
      undefined,
    ]);
    // No group timestamp in a v1 group record: the base is each offset's commit time (1 s).
    expect(group.currentStateTimestampUs).toBeNull();
    expect(expiredOffsets(group, 2_000_000, RETENTION_MINUTES)).toEqual([]);
    const justBefore = 1_000_000 + RETENTION_MINUTES * MINUTE_US - 1;
    expect(expiredOffsets(group, justBefore, RETENTION_MINUTES)).toEqual([]);
    expect(expiredOffsets(group, justBefore + 1, RETENTION_MINUTES)).toHaveLength(2);
  });

  it('loads as -1 with the bug on (2.1): every offset of the Empty group expires at once', () => {
    const group = load(1, true);
    expect(group.offsets.committedOffsets().map((o) => o.expireTimestampMs)).toEqual([-1, -1]);
    const expired = expiredOffsets(group, 2_000_000, RETENTION_MINUTES);
    expect(expired.map((o) => o.partition)).toEqual([0, 1]);
  });

  it('does not touch v3 records, which have no expire timestamp, with the bug on', () => {
    const group = load(3, true);
    expect(group.currentStateTimestampUs).toBe(5_000_000);
    expect(expiredOffsets(group, 2_000_000, RETENTION_MINUTES)).toEqual([]);
    // KIP-211: counted from when the group became Empty (5 s), not from the commit (1 s).
    const atRetention = 5_000_000 + RETENTION_MINUTES * MINUTE_US;
    expect(expiredOffsets(group, atRetention - 1, RETENTION_MINUTES)).toEqual([]);
    expect(expiredOffsets(group, atRetention, RETENTION_MINUTES)).toHaveLength(2);
  });

  it('keeps the expire timestamp of a v1 record that has a real one, fix or not', () => {
    const value = { offset: 1, commitTimestampUs: 0, expireTimestampMs: 9_000 };
    expect(loadedExpireTimestampMs(value, false)).toBe(9_000);
    expect(loadedExpireTimestampMs(value, true)).toBe(9_000);
    expect(loadedExpireTimestampMs({ offset: 1, commitTimestampUs: 0 }, true)).toBeUndefined();
  });
});

describe('offset retention (KIP-211, GroupMetadata.removeExpiredOffsets)', () => {
  it('never expires the offsets of a group with members, even with an old expiry', () => {
    const group = load(1, true);
    group.state = 'Stable';
    expect(expiredOffsets(group, 2_000_000, RETENTION_MINUTES)).toEqual([]);
  });

  it("expires a simple consumer's offsets (no protocol type) from their commit time", () => {
    const group = new ClassicGroup('simple');
    group.offsets.commit({
      topic: 'in',
      partition: 0,
      offset: 3,
      commitTimestampUs: 1_000_000,
      appendOffset: 0,
    });
    const atRetention = 1_000_000 + 60 * MINUTE_US;
    expect(expiredOffsets(group, atRetention - 1, 60)).toEqual([]);
    expect(expiredOffsets(group, atRetention, 60)).toHaveLength(1);
  });
});

describe('KAFKA-4682: offsets of a group with members (KIP-211)', () => {
  /** A Stable group whose one offset was committed at 1 s under a one-minute retention (2.0). */
  function liveGroup(): ClassicGroup {
    const group = new ClassicGroup('live');
    group.protocolType = 'consumer';
    group.state = 'Stable';
    const expireTimestampMs = 1_000 + 60_000;
    const stored = { topic: 'in', partition: 0, offset: 7, commitTimestampUs: 1_000_000 };
    group.offsets.commit({ ...stored, expireTimestampMs, appendOffset: 0 });
    return group;
  }

  it('with the bug on (before 2.1) expires them once their expire timestamp is past', () => {
    const group = liveGroup();
    // 2.0's GroupMetadata.removeExpiredOffsets: expireTimestamp < now, whatever the state.
    expect(expiredOffsets(group, 61_000_000, 1, true)).toEqual([]);
    expect(expiredOffsets(group, 61_001_000, 1, true).map((o) => o.offset)).toEqual([7]);
  });

  it('since the fix keeps them while the group has members', () => {
    expect(expiredOffsets(liveGroup(), 3_600_000_000, 1, false)).toEqual([]);
  });
});
