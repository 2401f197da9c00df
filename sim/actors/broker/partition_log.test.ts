/**
 * Goal: pin the partition leader's append and read rules to the reference:
 * ProducerAppendInfo.checkSequence validation (duplicate window, epoch, sequence, transactional
 * consistency), TransactionMarkerChannelManager.addTxnMarkersToSend marker validation, the last
 * stable offset of ProducerStateManager.ongoingTxns; UnifiedLog.lastStableOffset, the aborted index
 * of TransactionIndex; LocalLog.collectAbortedTransactions, and the bug switch that skips the
 * producer-epoch check. Method: drive one `PartitionLog` directly with hand-built batches and
 * markers at fixed virtual times, and assert exact errors, offsets and state.
 */
import { describe, expect, it } from 'vitest';
import { NO_PRODUCER_ID, SEQUENCE_MAX, type ProducedBatch } from '../protocol';
import { PartitionLog } from './partition_log';
import { NUM_BATCHES_TO_RETAIN } from './producer_state';

const PID = 7;
const OTHER_PID = 8;

function log(
  skipProducerEpochCheck = false,
  bugs: { acceptAnyFirstSequenceOnEmptyLog?: boolean; singleBatchDedupWindow?: boolean } = {},
): PartitionLog {
  return new PartitionLog('t', 0, {
    skipProducerEpochCheck,
    verificationGuardBeforeEpochCheck: false,
    acceptAnyFirstSequenceOnEmptyLog: bugs.acceptAnyFirstSequenceOnEmptyLog ?? false,
    singleBatchDedupWindow: bugs.singleBatchDedupWindow ?? false,
  });
}

/** A log that has held a record (another producer's), so it takes any first sequence. */
function writtenLog(): PartitionLog {
  const partition = log();
  partition.appendAsLeader(batch({ producerId: OTHER_PID, baseSequence: 0 }), 1);
  return partition;
}

/** A batch of `count` records with values 100, 101, … (the values do not matter here). */
function batch(options: {
  readonly producerId?: number;
  readonly producerEpoch?: number;
  readonly baseSequence: number;
  readonly count?: number;
  readonly isTransactional?: boolean;
}): ProducedBatch {
  const count = options.count ?? 1;
  return {
    producerId: options.producerId ?? PID,
    producerEpoch: options.producerEpoch ?? 0,
    baseSequence: options.baseSequence,
    isTransactional: options.isTransactional ?? false,
    values: Array.from({ length: count }, (_, index) => 100 + index),
  };
}

/** A batch without a producer id (idempotence off). */
function plainBatch(count: number): ProducedBatch {
  return batch({ producerId: NO_PRODUCER_ID, producerEpoch: -1, baseSequence: -1, count });
}

function marker(options: {
  readonly producerId?: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch?: number;
  readonly committed: boolean;
}): { producerId: number; producerEpoch: number; coordinatorEpoch: number; committed: boolean } {
  return {
    producerId: options.producerId ?? PID,
    producerEpoch: options.producerEpoch,
    coordinatorEpoch: options.coordinatorEpoch ?? 0,
    committed: options.committed,
  };
}

const appended = (baseOffset: number) => ({ error: 'NONE', baseOffset, duplicate: false });
const refused = (error: string) => ({ error, baseOffset: -1, duplicate: false });

describe('duplicates and the 5-batch window (ProducerAppendInfo.checkSequence)', () => {
  it('answers a retried batch with its original offsets and writes nothing', () => {
    const partition = log();
    expect(partition.appendAsLeader(batch({ baseSequence: 0, count: 3 }), 10)).toEqual(appended(0));
    expect(partition.appendAsLeader(batch({ baseSequence: 3, count: 2 }), 20)).toEqual(appended(3));
    expect(partition.appendAsLeader(batch({ baseSequence: 0, count: 3 }), 30)).toEqual({
      error: 'NONE',
      baseOffset: 0,
      duplicate: true,
    });
    expect(partition.appendAsLeader(batch({ baseSequence: 3, count: 2 }), 40)).toEqual({
      error: 'NONE',
      baseOffset: 3,
      duplicate: true,
    });
    expect(partition.logEndOffset).toBe(5);
    expect(partition.log).toHaveLength(2);
  });

  it('matches the exact sequence range only: an overlapping retry is out of order', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, count: 3 }), 10);
    expect(partition.appendAsLeader(batch({ baseSequence: 0, count: 2 }), 20)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
    expect(partition.appendAsLeader(batch({ baseSequence: 1, count: 2 }), 30)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
  });

  it('evicts the oldest batch on the 6th append, so its retry is out of order', () => {
    const partition = log();
    expect(NUM_BATCHES_TO_RETAIN).toBe(5);
    for (let sequence = 0; sequence < 6; sequence++) {
      expect(partition.appendAsLeader(batch({ baseSequence: sequence }), sequence)).toEqual(
        appended(sequence),
      );
    }
    expect(partition.producerState(PID)?.batchMetadata.map((kept) => kept.firstSequence)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(partition.appendAsLeader(batch({ baseSequence: 0 }), 100)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
    expect(partition.appendAsLeader(batch({ baseSequence: 1 }), 101)).toEqual({
      error: 'NONE',
      baseOffset: 1,
      duplicate: true,
    });
    expect(partition.logEndOffset).toBe(6);
  });
});

describe('epoch and sequence checks (ProducerAppendInfo.checkSequence)', () => {
  it('refuses a stale producerEpoch with INVALID_PRODUCER_EPOCH', () => {
    const partition = log();
    partition.appendAsLeader(batch({ producerEpoch: 1, baseSequence: 0 }), 10);
    expect(partition.appendAsLeader(batch({ producerEpoch: 0, baseSequence: 1 }), 20)).toEqual(
      refused('INVALID_PRODUCER_EPOCH'),
    );
    expect(partition.appendAsLeader(batch({ producerEpoch: 0, baseSequence: 0 }), 30)).toEqual(
      refused('INVALID_PRODUCER_EPOCH'),
    );
    expect(partition.logEndOffset).toBe(1);
    expect(partition.producerState(PID)?.producerEpoch).toBe(1);
  });

  it('requires a new epoch to start at sequence 0, and empties the window', () => {
    const partition = log();
    partition.appendAsLeader(batch({ producerEpoch: 0, baseSequence: 0, count: 4 }), 10);
    expect(partition.appendAsLeader(batch({ producerEpoch: 1, baseSequence: 4 }), 20)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
    expect(partition.appendAsLeader(batch({ producerEpoch: 1, baseSequence: 0 }), 30)).toEqual(
      appended(4),
    );
    expect(partition.producerState(PID)?.batchMetadata).toEqual([
      { firstSequence: 0, lastSequence: 0, firstOffset: 4, lastOffset: 4 },
    ]);
  });

  it('accepts any sequence from an unknown producer on a written log, then the next one', () => {
    const partition = writtenLog();
    expect(partition.appendAsLeader(batch({ producerEpoch: 3, baseSequence: 42 }), 10)).toEqual(
      appended(1),
    );
    expect(partition.appendAsLeader(batch({ producerEpoch: 3, baseSequence: 44 }), 20)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
    expect(partition.appendAsLeader(batch({ producerEpoch: 3, baseSequence: 43 }), 30)).toEqual(
      appended(2),
    );
  });

  it('KAFKA-15591: a never-written log takes only sequence 0 from an unknown producer', () => {
    const partition = log();
    expect(partition.appendAsLeader(batch({ baseSequence: 17 }), 10)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
    expect(partition.producerState(PID)).toBeUndefined();
    expect(partition.appendAsLeader(batch({ baseSequence: 0, count: 17 }), 20)).toEqual(
      appended(0),
    );
    expect(partition.appendAsLeader(batch({ baseSequence: 17 }), 30)).toEqual(appended(17));
  });

  it('KAFKA-15591 on (2.5 to 4.4): a never-written log takes any first sequence', () => {
    const partition = log(false, { acceptAnyFirstSequenceOnEmptyLog: true });
    expect(partition.appendAsLeader(batch({ baseSequence: 17 }), 10)).toEqual(appended(0));
    expect(partition.appendAsLeader(batch({ baseSequence: 0, count: 17 }), 20)).toEqual(
      refused('OUT_OF_ORDER_SEQUENCE_NUMBER'),
    );
  });

  it('redpanda-data/redpanda#3039: a one-batch window answers an older retry out of order', () => {
    for (const singleBatchDedupWindow of [false, true]) {
      const partition = log(false, { singleBatchDedupWindow });
      partition.appendAsLeader(batch({ baseSequence: 0, count: 5 }), 10);
      partition.appendAsLeader(batch({ baseSequence: 5, count: 5 }), 20);
      const retry = partition.appendAsLeader(batch({ baseSequence: 0, count: 5 }), 30);
      if (singleBatchDedupWindow) expect(retry).toEqual(refused('OUT_OF_ORDER_SEQUENCE_NUMBER'));
      else expect(retry).toEqual({ error: 'NONE', baseOffset: 0, duplicate: true });
      // The entry keeps Kafka's five batches; the smaller window applies where it is searched.
      expect(partition.producerState(PID)?.batchMetadata).toHaveLength(2);
    }
  });

  it('wraps the sequence from 2^31 - 1 to 0', () => {
    const partition = writtenLog();
    partition.appendAsLeader(batch({ baseSequence: SEQUENCE_MAX - 1, count: 2 }), 10);
    expect(partition.producerState(PID)?.batchMetadata[0]?.lastSequence).toBe(SEQUENCE_MAX);
    expect(partition.appendAsLeader(batch({ baseSequence: 0 }), 20)).toEqual(appended(3));
  });

  it('refuses a non-transactional batch while the producer has an open transaction', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    expect(partition.appendAsLeader(batch({ baseSequence: 1 }), 20)).toEqual(
      refused('INVALID_TXN_STATE'),
    );
    expect([...partition.openTransactions]).toEqual([[PID, 0]]);
    expect(partition.logEndOffset).toBe(1);
  });

  it('appends batches without a producer id unchecked', () => {
    const partition = log();
    expect(partition.appendAsLeader(plainBatch(2), 10)).toEqual(appended(0));
    expect(partition.appendAsLeader(plainBatch(2), 20)).toEqual(appended(2));
    expect(partition.producerState(NO_PRODUCER_ID)).toBeUndefined();
  });
});

describe('last stable offset (UnifiedLog.lastStableOffset)', () => {
  it('is pinned by an open transaction and jumps to the HW when its COMMIT lands', () => {
    const partition = log();
    partition.appendAsLeader(plainBatch(2), 10);
    expect([partition.highWatermark, partition.lastStableOffset]).toEqual([2, 2]);
    partition.appendAsLeader(batch({ baseSequence: 0, count: 2, isTransactional: true }), 20);
    expect([partition.highWatermark, partition.lastStableOffset]).toEqual([4, 2]);
    // Another producer's records after the open transaction are held back too.
    partition.appendAsLeader(batch({ producerId: OTHER_PID, baseSequence: 0 }), 30);
    expect([partition.highWatermark, partition.lastStableOffset]).toEqual([5, 2]);
    expect(partition.read(0, 'read_committed', 64).batches.map((read) => read.baseOffset)).toEqual([
      0,
    ]);
    expect(partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 40)).toBe('NONE');
    expect(partition.log.at(-1)).toMatchObject({ baseOffset: 5, lastOffset: 5, control: 'COMMIT' });
    expect([partition.highWatermark, partition.lastStableOffset]).toEqual([6, 6]);
    expect(partition.openTransactions.size).toBe(0);
    expect(partition.read(0, 'read_committed', 64).batches.map((read) => read.baseOffset)).toEqual([
      0, 2, 4, 5,
    ]);
    expect(partition.lastStableOffsetChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: 10, offset: 2 },
      { timeUs: 40, offset: 6 },
    ]);
  });

  it('is the earliest first offset of several open transactions', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendAsLeader(
      batch({ producerId: OTHER_PID, baseSequence: 0, isTransactional: true }),
      20,
    );
    expect(partition.lastStableOffset).toBe(0);
    partition.appendMarker(marker({ producerEpoch: 0, committed: false }), 30);
    expect(partition.lastStableOffset).toBe(1);
    const other = marker({ producerId: OTHER_PID, producerEpoch: 0, committed: true });
    partition.appendMarker(other, 40);
    expect([partition.logEndOffset, partition.lastStableOffset]).toEqual([4, 4]);
  });

  it('answers ListOffsets(LATEST) with the LSO for read_committed and the HW otherwise', () => {
    const partition = log();
    partition.appendAsLeader(plainBatch(1), 10);
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 20);
    expect(partition.endOffset('read_committed')).toBe(1);
    expect(partition.endOffset('read_uncommitted')).toBe(2);
  });
});

describe('aborted index and reads (TransactionIndex; LocalLog.collectAbortedTransactions)', () => {
  it('returns the aborted transaction to read_committed reads that overlap it', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, count: 2, isTransactional: true }), 10);
    partition.appendMarker(marker({ producerEpoch: 0, committed: false }), 20);
    partition.appendAsLeader(batch({ producerId: OTHER_PID, baseSequence: 0 }), 30);
    const committed = partition.read(0, 'read_committed', 64);
    expect(committed.error).toBe('NONE');
    expect(committed.batches.map((read) => [read.baseOffset, read.control])).toEqual([
      [0, undefined],
      [2, 'ABORT'],
      [3, undefined],
    ]);
    expect(committed.abortedTransactions).toEqual([{ producerId: PID, firstOffset: 0 }]);
    // From offset 2 the entry still overlaps (its lastOffset is the marker at 2); from 3 not.
    expect(partition.read(2, 'read_committed', 64).abortedTransactions).toEqual([
      { producerId: PID, firstOffset: 0 },
    ]);
    expect(partition.read(3, 'read_committed', 64).abortedTransactions).toEqual([]);
    expect(partition.read(0, 'read_uncommitted', 64).abortedTransactions).toBeNull();
  });

  it('leaves out entries that start at or after the end of the returned data', () => {
    const partition = log();
    partition.appendAsLeader(plainBatch(1), 10);
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 20);
    partition.appendMarker(marker({ producerEpoch: 0, committed: false }), 30);
    const firstBatchOnly = partition.read(0, 'read_committed', 1);
    expect(firstBatchOnly.batches.map((read) => read.baseOffset)).toEqual([0]);
    expect(firstBatchOnly.abortedTransactions).toEqual([]);
    expect(partition.read(0, 'read_committed', 2).abortedTransactions).toEqual([
      { producerId: PID, firstOffset: 1 },
    ]);
  });

  it('adds no index entry for a commit, nor for a marker that completes nothing', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 20);
    partition.appendMarker(marker({ producerEpoch: 0, committed: false }), 30);
    expect(partition.read(0, 'read_committed', 64).abortedTransactions).toEqual([]);
    expect(partition.logEndOffset).toBe(3);
  });

  it('answers OFFSET_OUT_OF_RANGE past the log end offset', () => {
    const partition = log();
    partition.appendAsLeader(plainBatch(1), 10);
    expect(partition.read(1, 'read_uncommitted', 64)).toEqual({
      error: 'NONE',
      batches: [],
      abortedTransactions: null,
      bytes: 0,
    });
    expect(partition.read(2, 'read_uncommitted', 64).error).toBe('OFFSET_OUT_OF_RANGE');
  });

  it('reads within a byte limit, one batch at least (ReplicaManager.readFromLog)', () => {
    const partition = log();
    for (let i = 0; i < 3; i++) partition.appendAsLeader(plainBatch(1), 10 + i);
    partition.setHighWatermark(3, 20);
    // A one-record batch: the 61-byte header and a 15-byte record with an 8-byte value.
    expect(partition.read(0, 'read_uncommitted', 64).bytes).toBe(3 * 76);
    const limited = partition.read(0, 'read_uncommitted', 64, {
      maxBytes: 160,
      minOneMessage: true,
    });
    expect(limited.batches.map((b) => b.baseOffset)).toEqual([0, 1]);
    expect(limited.bytes).toBe(152);
    const tiny = { maxBytes: 10, minOneMessage: true };
    expect(partition.read(0, 'read_uncommitted', 64, tiny).batches).toHaveLength(1);
    const none = { maxBytes: 10, minOneMessage: false };
    expect(partition.read(0, 'read_uncommitted', 64, none)).toMatchObject({
      batches: [],
      bytes: 0,
    });
  });
});

describe('markers (TransactionMarkerChannelManager.addTxnMarkersToSend)', () => {
  it('refuses a marker with an older producerEpoch with INVALID_PRODUCER_EPOCH', () => {
    const partition = log();
    partition.appendAsLeader(
      batch({ producerEpoch: 1, baseSequence: 0, isTransactional: true }),
      10,
    );
    expect(partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 20)).toBe(
      'INVALID_PRODUCER_EPOCH',
    );
    expect(partition.logEndOffset).toBe(1);
    expect([...partition.openTransactions]).toEqual([[PID, 0]]);
  });

  it('refuses a marker from an older coordinator epoch with TRANSACTION_COORDINATOR_FENCED', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    const first = marker({ producerEpoch: 0, coordinatorEpoch: 2, committed: true });
    expect(partition.appendMarker(first, 20)).toBe('NONE');
    partition.appendAsLeader(batch({ baseSequence: 1, isTransactional: true }), 30);
    const stale = marker({ producerEpoch: 0, coordinatorEpoch: 1, committed: false });
    expect(partition.appendMarker(stale, 40)).toBe('TRANSACTION_COORDINATOR_FENCED');
    expect(partition.logEndOffset).toBe(3);
    expect(partition.producerState(PID)?.coordinatorEpoch).toBe(2);
  });

  it('fences the old epoch with a bumped marker even when no transaction is open', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 20);
    expect(partition.appendMarker(marker({ producerEpoch: 1, committed: false }), 30)).toBe('NONE');
    expect(partition.producerState(PID)?.producerEpoch).toBe(1);
    expect(partition.producerState(PID)?.batchMetadata).toEqual([]);
    expect(partition.appendAsLeader(batch({ baseSequence: 1, isTransactional: true }), 40)).toEqual(
      refused('INVALID_PRODUCER_EPOCH'),
    );
    expect(partition.read(0, 'read_committed', 64).abortedTransactions).toEqual([]);
  });
});

describe('bug switch skipProducerEpochCheck (Appendix A12)', () => {
  it('accepts a stale batch, which a later marker of the new epoch then commits', () => {
    const partition = log(true);
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendMarker(marker({ producerEpoch: 1, committed: false }), 20);
    const stale = batch({ producerEpoch: 0, baseSequence: 1, isTransactional: true });
    expect(partition.appendAsLeader(stale, 30)).toEqual(appended(2));
    expect(partition.producerState(PID)?.producerEpoch).toBe(1);
    expect([...partition.openTransactions]).toEqual([[PID, 2]]);
    expect(partition.appendMarker(marker({ producerEpoch: 2, committed: true }), 40)).toBe('NONE');
    expect(partition.lastStableOffset).toBe(4);
    expect(partition.read(0, 'read_committed', 64).abortedTransactions).toEqual([
      { producerId: PID, firstOffset: 0 },
    ]);
  });

  it('is off by default: the same stale batch is refused', () => {
    const partition = log(false);
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendMarker(marker({ producerEpoch: 1, committed: false }), 20);
    const stale = batch({ producerEpoch: 0, baseSequence: 1, isTransactional: true });
    expect(partition.appendAsLeader(stale, 30)).toEqual(refused('INVALID_PRODUCER_EPOCH'));
  });

  it('accepts a marker with a stale epoch', () => {
    const partition = log(true);
    partition.appendAsLeader(
      batch({ producerEpoch: 1, baseSequence: 0, isTransactional: true }),
      10,
    );
    expect(partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 20)).toBe('NONE');
    expect(partition.lastStableOffset).toBe(2);
  });
});

describe('rebuild after a crash (ProducerStateManager.truncateAndReload)', () => {
  /** Producer state, open transactions, offsets and the aborted index, as one comparable text. */
  function state(partition: PartitionLog): string {
    return JSON.stringify({
      producers: [PID, OTHER_PID, 9].map((producerId) => partition.producerState(producerId)),
      open: [...partition.openTransactions],
      offsets: [partition.logEndOffset, partition.highWatermark, partition.lastStableOffset],
      aborted: partition.read(0, 'read_committed', 64).abortedTransactions,
    });
  }

  it('rebuilds, after a process crash, exactly the state the appends had built', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, count: 2, isTransactional: true }), 10);
    partition.appendAsLeader(
      batch({ producerId: OTHER_PID, baseSequence: 0, isTransactional: true }),
      20,
    );
    const fence = marker({ producerEpoch: 1, coordinatorEpoch: 3, committed: false });
    partition.appendMarker(fence, 30);
    partition.appendAsLeader(batch({ producerId: 9, baseSequence: 0 }), 40);
    partition.appendAsLeader(batch({ producerId: 9, baseSequence: 1 }), 45);
    const before = state(partition);
    expect(JSON.parse(before)).toMatchObject({ open: [[OTHER_PID, 2]], offsets: [6, 6, 2] });
    partition.recoverAfterCrash('process', 50);
    expect(state(partition)).toBe(before);
    // The rebuilt window still answers a retry from its original offsets.
    expect(partition.appendAsLeader(batch({ producerId: 9, baseSequence: 1 }), 60)).toEqual({
      error: 'NONE',
      baseOffset: 5,
      duplicate: true,
    });
  });

  it('drops, on power loss, what was appended within the dirty-page window', () => {
    const partition = log();
    partition.appendAsLeader(plainBatch(2), 10);
    partition.appendAsLeader(plainBatch(1), 40_000_000);
    partition.recoverAfterCrash('power-loss', 45_000_000);
    expect(partition.log.map((kept) => kept.baseOffset)).toEqual([0]);
    expect([partition.logEndOffset, partition.highWatermark]).toEqual([2, 2]);
  });
});

describe('KIP-890 verification and sequences (ProducerAppendInfo.checkSequence)', () => {
  it('refuses a batch overtaking a lower sequence still verifying, then appends in order', () => {
    const partition = log();
    const txn = (baseSequence: number): ProducedBatch =>
      batch({ baseSequence, isTransactional: true });
    // Sequences 0 and 2 start verifying; 2's verification finishes first.
    const guard = partition.startVerification(PID, 0, 0, false);
    expect(partition.startVerification(PID, 0, 2, false)).toBe(guard);
    expect(partition.appendAsLeader(txn(2), 1_000, { guard })).toEqual({
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
      baseOffset: -1,
      duplicate: false,
    });
    expect(partition.logEndOffset).toBe(0);
    expect(partition.appendAsLeader(txn(0), 2_000, { guard }).baseOffset).toBe(0);
    // The first transactional append closed the verification; the transaction is open now.
    expect(partition.appendAsLeader(txn(1), 3_000, { guard: 0 }).baseOffset).toBe(1);
    expect(partition.appendAsLeader(txn(2), 4_000, { guard: 0 }).baseOffset).toBe(2);
  });
});

describe('a marker and the next transaction verifying (KAFKA-18654)', () => {
  /**
   * Transaction version 2: the transaction at epoch 0 ends with a marker at the bumped epoch 1,
   * and the next transaction's first batch (epoch 1) started verifying before the marker came.
   */
  function nextTransactionOvertakesMarker(supportsEpochBump: boolean) {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    const guard = partition.startVerification(PID, 1, 0, supportsEpochBump);
    expect(partition.appendMarker(marker({ producerEpoch: 1, committed: true }), 20)).toBe('NONE');
    const next = batch({ producerEpoch: 1, baseSequence: 0, isTransactional: true });
    return partition.appendAsLeader(next, 30, { guard });
  }

  it("keeps a transaction version 2 client's verification at the marker's epoch", () => {
    expect(nextTransactionOvertakesMarker(true)).toEqual(appended(2));
  });

  it('clears any other verification: the batch is refused INVALID_TXN_STATE', () => {
    expect(nextTransactionOvertakesMarker(false)).toEqual(refused('INVALID_TXN_STATE'));
  });
});

describe('producer state expiry (ProducerStateManager.removeExpiredProducers, KIP-854)', () => {
  it('keeps a producer with an open transaction, drops it once idle and closed', () => {
    const partition = log();
    partition.appendAsLeader(batch({ baseSequence: 0, isTransactional: true }), 10);
    partition.appendAsLeader(batch({ producerId: OTHER_PID, baseSequence: 0 }), 20);
    expect(partition.expireProducers(10_000, 1_000)).toEqual([OTHER_PID]);
    expect(partition.producerState(PID)).toBeDefined();
    partition.appendMarker(marker({ producerEpoch: 0, committed: true }), 5_000);
    expect(partition.expireProducers(5_999, 1_000)).toEqual([]);
    expect(partition.expireProducers(6_000, 1_000)).toEqual([PID]);
    expect(partition.appendAsLeader(batch({ baseSequence: 7 }), 7_000).error).toBe('NONE');
  });
});

describe('log.flush.interval.messages, power loss (UnifiedLog.append, LocalLog.truncateTo)', () => {
  const flushing = (interval: number | null): PartitionLog =>
    new PartitionLog(
      't',
      0,
      {
        skipProducerEpochCheck: false,
        verificationGuardBeforeEpochCheck: false,
        acceptAnyFirstSequenceOnEmptyLog: false,
        singleBatchDedupWindow: false,
      },
      interval,
    );
  /** Appends plain batches of these sizes at 1 s, 2 s, …, then loses power at 10 s. */
  const afterPowerLoss = (interval: number | null, sizes: readonly number[]) => {
    const partition = flushing(interval);
    sizes.forEach((size, index) => partition.appendAsLeader(plainBatch(size), (index + 1) * 1e6));
    const lost = partition.recoverAfterCrash('power-loss', 10_000_000);
    return { logEndOffset: partition.logEndOffset, lost: lost.map((b) => b.baseOffset) };
  };

  it("Kafka's default leaves flushing to the OS: the last 30 s are lost", () => {
    expect(afterPowerLoss(null, [2, 2, 2])).toEqual({ logEndOffset: 0, lost: [0, 2, 4] });
  });

  it('at 1 every append is flushed before it returns: nothing is lost', () => {
    expect(afterPowerLoss(1, [2, 2, 2])).toEqual({ logEndOffset: 6, lost: [] });
  });

  it('at 3 the log is flushed by the append that leaves 3 or more unflushed', () => {
    // 2 unflushed, then 4 (flush at 4), then 2 unflushed again: the last batch is lost.
    expect(afterPowerLoss(3, [2, 2, 2])).toEqual({ logEndOffset: 4, lost: [4] });
  });

  it('a truncation moves the recovery point back with the log end offset', () => {
    const partition = flushing(1);
    partition.appendAsLeader(plainBatch(2), 1_000_000);
    partition.appendAsLeader(plainBatch(2), 2_000_000);
    partition.truncateTo(2, 3_000_000, 'diverging-epoch');
    partition.appendAsFollower(
      [{ ...partition.log[0]!, baseOffset: 2, lastOffset: 3, appendUs: 4_000_000 }],
      4_000_000,
    );
    expect(partition.recoverAfterCrash('power-loss', 5_000_000)).toEqual([]);
    expect(partition.logEndOffset).toBe(4);
  });
});
