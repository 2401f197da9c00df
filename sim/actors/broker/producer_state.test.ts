/**
 * Goal: prove KAFKA-9144's switch both ways on one producer entry: since the fix (2.5,
 * apache/kafka#7687) a marker sets the producer's last timestamp, so a producer whose only state
 * is a fence's ABORT marker outlives producer.id.expiration.ms from that marker; before it the
 * last timestamp was the last retained data batch's (ProducerStateEntry.lastTimestamp), none
 * after an epoch-bumping marker emptied them, and removeExpiredProducers dropped the entry at
 * the next check. A marker at the same epoch kept the data batch's timestamp.
 * Method: recordDataBatch/recordMarker/removeExpiredProducers on hand-built entries.
 */
import { describe, expect, it } from 'vitest';
import {
  NO_TIMESTAMP,
  emptyEntry,
  recordDataBatch,
  recordMarker,
  removeExpiredProducers,
} from './producer_state';

const EXPIRATION_US = 20_000_000;

/** A partition whose only state of producer 7 is an ABORT marker at epoch 1, at 2.5 s. */
function fencedByMarker(markerTimestampIgnored: boolean) {
  const entry = emptyEntry(7);
  const marker = { producerEpoch: 1, coordinatorEpoch: 0, appendUs: 2_500_000 };
  recordMarker(entry, marker, markerTimestampIgnored);
  return { entry, producers: new Map([[7, entry]]) };
}

describe('KAFKA-9144: a producer timestamp taken from markers', () => {
  it('keeps a marker-only producer for the expiration with the fix', () => {
    const { entry, producers } = fencedByMarker(false);
    expect(entry.lastTimestampUs).toBe(2_500_000);
    expect(removeExpiredProducers(producers, 22_499_999, EXPIRATION_US)).toEqual([]);
    expect(removeExpiredProducers(producers, 22_500_000, EXPIRATION_US)).toEqual([7]);
  });

  it('drops it at the first check before the fix: no data batch, no timestamp', () => {
    const { entry, producers } = fencedByMarker(true);
    expect(entry.lastTimestampUs).toBe(NO_TIMESTAMP);
    expect(removeExpiredProducers(producers, 3_000_000, EXPIRATION_US)).toEqual([7]);
  });

  it('keeps the last data batch timestamp for a same-epoch marker before the fix', () => {
    const entry = emptyEntry(7);
    const metadata = { firstSequence: 0, lastSequence: 0, firstOffset: 0, lastOffset: 0 };
    recordDataBatch(entry, { batchesToRetain: 5, producerEpoch: 0, metadata, appendUs: 1_000 });
    recordMarker(entry, { producerEpoch: 0, coordinatorEpoch: 0, appendUs: 9_000 }, true);
    expect(entry.lastTimestampUs).toBe(1_000);
    recordMarker(entry, { producerEpoch: 0, coordinatorEpoch: 0, appendUs: 9_000 }, false);
    expect(entry.lastTimestampUs).toBe(9_000);
  });
});
