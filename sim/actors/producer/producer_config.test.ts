import { describe, expect, it } from 'vitest';
import { RECORD_BATCH_OVERHEAD, recordSizeInBytes } from '../protocol';
import { BATCH_RECORDS_MAX, recordsPerBatch } from './producer_config';

describe('recordsPerBatch (MemoryRecordsBuilder.hasRoomFor, uncompressed)', () => {
  it('fills a batch.size of 16,384 bytes with 1,024 of the model records', () => {
    // 61-byte header, 64 records of 15 bytes (offset delta < 64), then 16 bytes each.
    expect(RECORD_BATCH_OVERHEAD + 64 * 15 + 960 * 16).toBe(16_381);
    expect(recordSizeInBytes(63, -1, 8)).toBe(15);
    expect(recordSizeInBytes(64, -1, 8)).toBe(16);
    expect(recordsPerBatch()).toBe(1024);
    expect(BATCH_RECORDS_MAX).toBe(1024);
  });

  it('always takes the first record, even when it alone exceeds batch.size', () => {
    expect(recordsPerBatch(1)).toBe(1);
    expect(recordsPerBatch(RECORD_BATCH_OVERHEAD + 15 + 15)).toBe(2);
    expect(recordsPerBatch(RECORD_BATCH_OVERHEAD + 15 + 14)).toBe(1);
  });

  it('is bounded by max.request.size when that is the smaller', () => {
    expect(recordsPerBatch(1_048_576, 16_384)).toBe(1024);
  });
});
