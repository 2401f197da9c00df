/**
 * Goal: pin a failed log directory at a partition leader (KIP-112's LogDirFailureChannel;
 * ReplicaManager.appendToLocalLog): after the disk fails, every write is answered
 * KAFKA_STORAGE_ERROR with nothing appended, only the first takes the directory offline (the
 * halt is asked for once), reads go on, and after the repair writes succeed again. Method: the
 * 3-broker replication cluster (1 ms network delay); b1's disk fails at 2 s; produces at 1 s,
 * 3 s, 3.5 s and, after the repair at 4 s, 5 s.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, lazy } from './cluster_harness';

const D = 1000;

function failedLeaderDisk() {
  const cluster = new Cluster();
  const offline: number[] = [];
  const logDir = cluster.brokers.get('b1')?.logDir;
  const before = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
  cluster.at(2_000_000, () => logDir?.fail(() => offline.push(cluster.sim.nowUs)));
  const first = cluster.produceAt(3_000_000, { target: 'b1', acks: -1, values: [11] });
  const second = cluster.produceAt(3_500_000, { target: 'b1', acks: 1, values: [12] });
  const latest = cluster.listLatestAt(3_600_000, 'b1');
  cluster.at(4_000_000, () => logDir?.repair());
  const repaired = cluster.produceAt(5_000_000, { target: 'b1', acks: -1, values: [13] });
  cluster.runTo(8_000_000);
  return { cluster, offline, before, first, second, latest, repaired };
}

describe('a failed log directory at the leader', () => {
  const run = lazy(failedLeaderDisk);

  it('answers every write KAFKA_STORAGE_ERROR and appends nothing', () => {
    const { cluster, before, first, second } = run();
    expect(before()).toMatchObject({ error: 'NONE', baseOffset: 0 });
    expect(first()).toEqual({
      timeUs: 3_000_000 + 2 * D,
      error: 'KAFKA_STORAGE_ERROR',
      baseOffset: -1,
    });
    expect(second()).toMatchObject({ error: 'KAFKA_STORAGE_ERROR', baseOffset: -1 });
    expect(cluster.records('b1')).toEqual(['0=10', '1=13']);
  });

  it('takes the directory offline once, at the first failed write', () => {
    expect(run().offline).toEqual([3_000_000 + D]);
  });

  it('still serves reads, and writes again after the repair', () => {
    const { latest, repaired } = run();
    expect(latest()).toBe('NONE:1');
    expect(repaired()).toMatchObject({ error: 'NONE', baseOffset: 1 });
  });
});
