/**
 * Goal: DelayedFetch.tryComplete's cases on hand-built partition state: bytes counted up to the
 * LSO for read_committed, the HW for read_uncommitted and the LEO for followers (case G), a
 * fetch offset past the end offset (case F), a lost leadership or fenced epoch (cases A, E).
 * Method: one PartitionLog holding an open transaction of two records; a fake replica lookup.
 */
import { describe, expect, it } from 'vitest';
import type { FetchPartition, KafkaErrorCode } from '../protocol';
import { batchSizeInBytes, recordSizeInBytes, sizeOfVarint } from '../protocol';
import { bytesBetween, canCompleteFetch, type FetchState } from './delayed_fetch';
import { PartitionLog } from './partition_log';
import type { PartitionReplica } from './partition_replica';

const BUGS = {
  skipProducerEpochCheck: false,
  verificationGuardBeforeEpochCheck: false,
  acceptAnyFirstSequenceOnEmptyLog: false,
  singleBatchDedupWindow: false,
};

/** `t-0`: one committed record (offsets 0-1 with its marker), then an open transaction at 2-3. */
function partition(): PartitionLog {
  const log = new PartitionLog('t', 0, BUGS);
  const txn = { producerId: 7, producerEpoch: 0, isTransactional: true };
  log.appendAsLeader({ ...txn, baseSequence: 0, values: [1] }, 10);
  log.appendMarker({ producerId: 7, producerEpoch: 0, coordinatorEpoch: 0, committed: true }, 20);
  log.appendAsLeader({ ...txn, baseSequence: 1, values: [2, 3] }, 30);
  log.setHighWatermark(4, 40);
  return log;
}

function state(log: PartitionLog, error: KafkaErrorCode = 'NONE'): FetchState {
  const replica = { log } as unknown as PartitionReplica;
  return { replicaOf: () => replica, epochError: () => error, diverges: () => false };
}

const at = (fetchOffset: number): FetchPartition => ({
  topic: 't',
  partition: 0,
  fetchOffset,
  currentLeaderEpoch: 0,
  lastFetchedEpoch: -1,
});

describe('record batch sizes (DefaultRecordBatch, DefaultRecord.sizeInBytes)', () => {
  it('sizes varints, records and batches as Kafka v2 does', () => {
    expect([0, -1, 63, 64, -65, 8191, 8192].map(sizeOfVarint)).toEqual([1, 1, 1, 2, 2, 2, 3]);
    expect(recordSizeInBytes(0, -1, 8)).toBe(15);
    const log = partition();
    expect(log.log.map(batchSizeInBytes)).toEqual([76, 78, 61 + 15 + 15]);
  });
});

describe('DelayedFetch.tryComplete', () => {
  it('counts bytes up to the LSO under read_committed and up to the HW otherwise (case G)', () => {
    const log = partition();
    expect(log.lastStableOffset).toBe(2);
    expect(bytesBetween(log.log, 0, log.lastStableOffset, Infinity)).toBe(76 + 78);
    const committed = { isolation: 'TXN_COMMITTED' as const, minBytes: 155 };
    expect(canCompleteFetch([at(0)], committed, state(log))).toBe(false);
    expect(canCompleteFetch([at(0)], { ...committed, minBytes: 154 }, state(log))).toBe(true);
    const uncommitted = { isolation: 'HIGH_WATERMARK' as const, minBytes: 155 };
    expect(canCompleteFetch([at(0)], uncommitted, state(log))).toBe(true);
  });

  it('waits at the end offset, completes past it (case F) or on a leadership error (A-E)', () => {
    const log = partition();
    const follower = { isolation: 'LOG_END' as const, minBytes: 1 };
    expect(canCompleteFetch([at(4)], follower, state(log))).toBe(false);
    expect(canCompleteFetch([at(5)], follower, state(log))).toBe(true);
    const committed = { isolation: 'TXN_COMMITTED' as const, minBytes: 1 };
    expect(canCompleteFetch([at(2)], committed, state(log))).toBe(false);
    expect(canCompleteFetch([at(2)], committed, state(log, 'NOT_LEADER_OR_FOLLOWER'))).toBe(true);
    expect(canCompleteFetch([at(2)], committed, state(log, 'FENCED_LEADER_EPOCH'))).toBe(true);
  });
});
