/**
 * Goal: prove redpanda-data/redpanda#22670 both ways on the partition leader: after the
 * producer's state expired (`producer.id.expiration.ms`, removeExpiredProducers) its next batch
 * continues the sequence on a log that holds its earlier records. Kafka accepts it (an unknown
 * producer may start anywhere, ProducerAppendInfo.checkSequence since KIP-360); with the bug the
 * leader wants sequence 0 and answers OUT_OF_ORDER_SEQUENCE_NUMBER. Method: drive one
 * `PartitionLog` directly with hand-built batches at fixed virtual times.
 */
import { describe, expect, it } from 'vitest';
import type { ProducedBatch } from '../protocol';
import { PartitionLog } from './partition_log';

function log(unknownProducerNeedsSequenceZero: boolean): PartitionLog {
  return new PartitionLog('t', 0, {
    skipProducerEpochCheck: false,
    verificationGuardBeforeEpochCheck: false,
    acceptAnyFirstSequenceOnEmptyLog: false,
    singleBatchDedupWindow: false,
    unknownProducerNeedsSequenceZero,
  });
}

function batch(baseSequence: number): ProducedBatch {
  return { producerId: 7, producerEpoch: 0, baseSequence, isTransactional: false, values: [1] };
}

describe('redpanda-data/redpanda#22670: the next sequence after the producer state expired', () => {
  for (const bug of [false, true]) {
    it(`bug ${bug ? 'on: refused' : 'off: accepted'}`, () => {
      const partition = log(bug);
      expect(partition.appendAsLeader(batch(0), 1_000).error).toBe('NONE');
      expect(partition.expireProducers(10_000_000, 5_000_000)).toEqual([7]);
      expect(partition.producerState(7)).toBeUndefined();
      const next = partition.appendAsLeader(batch(1), 10_000_001);
      expect(next.error).toBe(bug ? 'OUT_OF_ORDER_SEQUENCE_NUMBER' : 'NONE');
      // Sequence 0 from an unknown producer is taken either way.
      expect(log(bug).appendAsLeader(batch(0), 1).error).toBe('NONE');
    });
  }
});
