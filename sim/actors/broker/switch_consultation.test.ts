/**
 * Goal: prove that the partition-level bug switches are consulted only where the release with
 * the bug and the one without it part ways (sim/runner/switch_reads.ts: a run that never reads
 * a switch runs the same events with it on or off, and `eos-sim mutants` skips it). Method:
 * flags that count their reads, on hand-built partitions, epoch caches and fetches; the answers
 * both ways are pinned by the tests of each rule.
 */
import { describe, expect, it } from 'vitest';
import type { ProducedBatch } from '../protocol';
import { LeaderEpochCache } from './leader_epoch_cache';
import { PartitionLog } from './partition_log';

function batch(baseSequence: number, count: number): ProducedBatch {
  const values = Array.from({ length: count }, (_, index) => 100 + index);
  return { producerId: 7, producerEpoch: 0, baseSequence, isTransactional: false, values };
}

describe('bug switches consulted where the releases part ways', () => {
  it('redpanda#3039: the dedup window only for a retry of a batch older than the last', () => {
    let asked = 0;
    const partition = new PartitionLog('t', 0, {
      skipProducerEpochCheck: false,
      verificationGuardBeforeEpochCheck: false,
      acceptAnyFirstSequenceOnEmptyLog: false,
      get singleBatchDedupWindow() {
        asked += 1;
        return true;
      },
    });
    partition.appendAsLeader(batch(0, 5), 10);
    partition.appendAsLeader(batch(5, 5), 20);
    expect(partition.appendAsLeader(batch(5, 5), 30)).toEqual({
      error: 'NONE',
      baseOffset: 5,
      duplicate: true,
    });
    expect(asked).toBe(0);
    expect(partition.appendAsLeader(batch(0, 5), 40).error).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(asked).toBe(1);
  });

  it('the epoch-check mutation only for a batch of an older epoch', () => {
    let asked = 0;
    const partition = new PartitionLog('t', 0, {
      get skipProducerEpochCheck() {
        asked += 1;
        return false;
      },
      verificationGuardBeforeEpochCheck: false,
      acceptAnyFirstSequenceOnEmptyLog: false,
      singleBatchDedupWindow: false,
    });
    partition.appendAsLeader({ ...batch(0, 1), producerEpoch: 1 }, 10);
    expect(asked).toBe(0);
    expect(partition.appendAsLeader(batch(1, 1), 20).error).toBe('INVALID_PRODUCER_EPOCH');
    expect(asked).toBe(1);
  });

  it('KAFKA-6361: the epoch-end answer rule only for an epoch this log never had', () => {
    let asked = 0;
    const cache = new LeaderEpochCache();
    cache.answersLargestEpochAtOrBelow = () => (asked += 1) < 0;
    cache.assign(1, 0);
    cache.assign(3, 10);
    cache.assign(5, 20);
    expect(cache.endOffsetFor(3, 30)).toEqual({ epoch: 3, startOffset: 20 });
    expect(asked).toBe(0);
    expect(cache.endOffsetFor(4, 30)).toEqual({ epoch: 4, startOffset: 20 });
    expect(asked).toBe(1);
  });
});
