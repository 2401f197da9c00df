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
  lastTimestampOf,
  recordDataBatch,
  recordMarker,
  removeExpiredProducers,
} from './producer_state';

const EXPIRATION_US = 20_000_000;

/** A partition whose only state of producer 7 is an ABORT marker at epoch 1, at 2.5 s. */
function fencedByMarker() {
  const entry = emptyEntry(7);
  const marker = { producerEpoch: 1, coordinatorEpoch: 0, appendUs: 2_500_000 };
  recordMarker(entry, marker);
  return { entry, producers: new Map([[7, entry]]) };
}

const FIXED = (): boolean => false;
const BUGGY = (): boolean => true;

describe('KAFKA-9144: a producer timestamp taken from markers', () => {
  it('keeps a marker-only producer for the expiration with the fix', () => {
    const { entry, producers } = fencedByMarker();
    expect(lastTimestampOf(entry, FIXED)).toBe(2_500_000);
    expect(removeExpiredProducers(producers, 22_499_999, EXPIRATION_US, FIXED)).toEqual([]);
    expect(removeExpiredProducers(producers, 22_500_000, EXPIRATION_US, FIXED)).toEqual([7]);
  });

  it('drops it at the first check before the fix: no data batch, no timestamp', () => {
    const { entry, producers } = fencedByMarker();
    expect(lastTimestampOf(entry, BUGGY)).toBe(NO_TIMESTAMP);
    expect(removeExpiredProducers(producers, 3_000_000, EXPIRATION_US, BUGGY)).toEqual([7]);
  });

  it('keeps the last data batch timestamp for a same-epoch marker before the fix', () => {
    const entry = emptyEntry(7);
    const metadata = { firstSequence: 0, lastSequence: 0, firstOffset: 0, lastOffset: 0 };
    recordDataBatch(entry, { producerEpoch: 0, metadata, appendUs: 1_000 });
    recordMarker(entry, { producerEpoch: 0, coordinatorEpoch: 0, appendUs: 9_000 });
    expect(lastTimestampOf(entry, BUGGY)).toBe(1_000);
    expect(lastTimestampOf(entry, FIXED)).toBe(9_000);
  });

  it('asks the switch only where the two rules give different timestamps', () => {
    const entry = emptyEntry(7);
    const metadata = { firstSequence: 0, lastSequence: 0, firstOffset: 0, lastOffset: 0 };
    recordDataBatch(entry, { producerEpoch: 0, metadata, appendUs: 1_000 });
    let asked = 0;
    const counting = (): boolean => (asked += 1) > 0;
    expect(lastTimestampOf(entry, counting)).toBe(1_000);
    expect(removeExpiredProducers(new Map([[7, entry]]), 2_000, EXPIRATION_US, counting)).toEqual(
      [],
    );
    expect(asked).toBe(0);
    recordMarker(entry, { producerEpoch: 0, coordinatorEpoch: 0, appendUs: 9_000 });
    expect(lastTimestampOf(entry, counting)).toBe(1_000);
    expect(asked).toBe(1);
  });
});
