/**
 * Goal: KAFKA-8069 at the group coordinator, both ways. Below inter.broker.protocol.version 2.1
 * offsets are written as OffsetCommitValue v1 with the default expire timestamp -1. A simple
 * consumer's offsets (no protocol type) expire `offsets.retention.minutes` after their commit
 * (GroupMetadata.removeExpiredOffsets). After a coordinator failover the new coordinator loads
 * them: since apache/kafka#6401 -1 loads as no expire timestamp and the offset stays; with the
 * bug on (Kafka 2.1) -1 is a real, past expire timestamp and the next expired-offsets check
 * removes the offset. Without the reload nothing changes, bug or not: a live commit holds no
 * expire timestamp. Method: real brokers with a one-second `offsets.retention.check.interval.ms`;
 * the coordinator's broker crashes and the controller elects another leader.
 */
import { describe, expect, it } from 'vitest';
import type { NodeId } from '../../sim/kernel';
import { GroupCluster, IN0 } from './harness';
import { fetchOffsets } from './members';

const GROUP = 'simple';

/** Commits IN0 at 5 for a simple consumer (generation -1), then optionally fails over. */
function committedAfter(options: { bug: boolean; failover: boolean }): string[] {
  const cluster = new GroupCluster({
    group: {
      offsetsRetentionCheckIntervalMs: 1000,
      recordValueVersion: 1,
      defaultExpireTimestampKept: options.bug,
    },
  });
  const coordinator = cluster.findCoordinator('c1', GROUP, 'group');
  const commit = cluster.call(
    'c1',
    coordinator,
    {
      kind: 'OffsetCommit',
      groupId: GROUP,
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
      offsets: [{ ...IN0, offset: 5 }],
    },
    { answer: 'OffsetCommitResponse' },
  );
  expect(commit.results.map((result) => result.error)).toEqual(['NONE']);
  if (options.failover) {
    cluster.sim.crash(coordinator as NodeId, 'process');
    cluster.advance(8_000_000);
    expect(cluster.findCoordinator('c1', GROUP, 'group')).not.toBe(coordinator);
  }
  // A few checks after the load.
  cluster.advance(3_000_000);
  return fetchOffsets(cluster, { client: 'c1', groupId: GROUP, partitions: [IN0], stable: true });
}

describe('KAFKA-8069: v1 offset records reloaded by a new group coordinator', () => {
  it('keep their offset since the fix: -1 loads as no expire timestamp', () => {
    expect(committedAfter({ bug: false, failover: true })).toEqual(['NONE:5']);
  });

  it('lose it at the next check with the bug on: -1 loads as a past expire timestamp', () => {
    expect(committedAfter({ bug: true, failover: true })).toEqual(['NONE:-1']);
  });

  it('are not needed for a live commit, which holds no expire timestamp, bug or not', () => {
    expect(committedAfter({ bug: true, failover: false })).toEqual(['NONE:5']);
  });
});
