/**
 * Per-partition producer state, as Kafka's ProducerStateManager keeps it: for each producerId the
 * current producerEpoch, the metadata of the last NUM_BATCHES_TO_RETAIN batches (the dedup window),
 * the coordinator epoch of the last marker, and the first offset of the producer's open transaction
 * on this partition. Validation follows Kafka's
 * ProducerAppendInfo (checkProducerEpoch, checkSequence, appendEndTxnMarker).
 */
import type { KafkaErrorCode } from '../protocol';
import { NO_PRODUCER_EPOCH, NO_SEQUENCE, SEQUENCE_MAX } from '../protocol';

/** Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN: the dedup window, in batches. */
export const NUM_BATCHES_TO_RETAIN = 5;

/**
 * RecordBatch.NO_TIMESTAMP: a producer entry without a last timestamp (before KAFKA-9144's fix,
 * one whose batches an epoch-bumping marker emptied).
 */
export const NO_TIMESTAMP = -1;

/** The metadata of one retained batch. */
export interface BatchMetadata {
  readonly firstSequence: number;
  readonly lastSequence: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
}

/** What a partition remembers about one producerId. */
export interface ProducerStateEntry {
  readonly producerId: number;
  producerEpoch: number;
  /** Oldest first; at most {@link NUM_BATCHES_TO_RETAIN}. */
  batchMetadata: BatchMetadata[];
  coordinatorEpoch: number;
  /** First offset of this producer's open transaction here, or -1. */
  currentTxnFirstOffset: number;
  /** The last append's time, markers included (KAFKA-9144's fix): see {@link lastTimestampOf}. */
  lastTimestampUs: number;
  /**
   * The last timestamp before KAFKA-9144's fix (Kafka before 2.5): the last retained data
   * batch's, none once an epoch-bumping marker emptied them. Kept beside the fixed one so the
   * switch is consulted only where the two differ.
   */
  dataTimestampUs: number;
}

/** A new entry for a producer this partition has not seen (epoch unknown). */
export function emptyEntry(producerId: number): ProducerStateEntry {
  return {
    producerId,
    producerEpoch: NO_PRODUCER_EPOCH,
    batchMetadata: [],
    coordinatorEpoch: -1,
    currentTxnFirstOffset: -1,
    lastTimestampUs: NO_TIMESTAMP,
    dataTimestampUs: NO_TIMESTAMP,
  };
}

/** Whether this release takes the producer's last timestamp from data batches only (KAFKA-9144). */
export type MarkerTimestampIgnored = () => boolean;

/**
 * The producer's last timestamp (ProducerStateEntry.lastTimestamp) under the release's rule;
 * `markerTimestampIgnored` is asked only when the two rules give different times.
 */
export function lastTimestampOf(
  entry: ProducerStateEntry,
  markerTimestampIgnored: MarkerTimestampIgnored,
): number {
  if (entry.lastTimestampUs === entry.dataTimestampUs) return entry.lastTimestampUs;
  return markerTimestampIgnored() ? entry.dataTimestampUs : entry.lastTimestampUs;
}

/** Sets both last timestamps (an append both rules count: a data batch). */
export function touchEntry(entry: ProducerStateEntry, nowUs: number): void {
  entry.lastTimestampUs = nowUs;
  entry.dataTimestampUs = nowUs;
}

/**
 * The retained batch with exactly this sequence range under the same epoch
 * (ProducerAppendInfo.checkSequence), if any, among the last `dedupWindow()` batches (Kafka:
 * {@link NUM_BATCHES_TO_RETAIN}). The entry always keeps that many; the window is asked only
 * when the match is older than the last batch, where a smaller window would miss it.
 */
export function findDuplicateBatch(
  entry: ProducerStateEntry,
  batch: { producerEpoch: number; firstSequence: number; lastSequence: number },
  dedupWindow: () => number = () => NUM_BATCHES_TO_RETAIN,
): BatchMetadata | undefined {
  if (entry.producerEpoch !== batch.producerEpoch) return undefined;
  const retained = entry.batchMetadata;
  const index = retained.findIndex(
    (candidate) =>
      candidate.firstSequence === batch.firstSequence &&
      candidate.lastSequence === batch.lastSequence,
  );
  if (index === -1) return undefined;
  const age = retained.length - index;
  return age === 1 || age <= dedupWindow() ? retained[index] : undefined;
}

/** True when `nextSequence` directly follows `lastSequence`, wrapping at int32 max. */
function inSequence(lastSequence: number, nextSequence: number): boolean {
  return nextSequence === lastSequence + 1 || (lastSequence === SEQUENCE_MAX && nextSequence === 0);
}

/**
 * ProducerAppendInfo.checkSequence: the producer-epoch check, then the sequence check. Returns the
 * error Kafka returns, or NONE. A batch without a sequence comes from a coordinator (a
 * transactional offset commit, Kafka's AppendOrigin.COORDINATOR): its epoch is checked, its
 * sequence is not.
 */
export function validateDataBatch(
  entry: ProducerStateEntry,
  batch: { producerEpoch: number; firstSequence: number },
): KafkaErrorCode {
  if (batch.producerEpoch < entry.producerEpoch) return 'INVALID_PRODUCER_EPOCH';
  if (batch.firstSequence === NO_SEQUENCE) return 'NONE';
  if (batch.producerEpoch !== entry.producerEpoch) {
    // A new epoch must restart at sequence 0, unless this partition never knew an epoch.
    if (batch.firstSequence !== 0 && entry.producerEpoch !== NO_PRODUCER_EPOCH) {
      return 'OUT_OF_ORDER_SEQUENCE_NUMBER';
    }
    return 'NONE';
  }
  // Same epoch: the batch must follow the last retained one. With none retained (the epoch came
  // from a marker) the last sequence is NO_SEQUENCE, so the batch must start at 0.
  const last = entry.batchMetadata[entry.batchMetadata.length - 1];
  const lastSequence = last === undefined ? NO_SEQUENCE : last.lastSequence;
  return inSequence(lastSequence, batch.firstSequence) ? 'NONE' : 'OUT_OF_ORDER_SEQUENCE_NUMBER';
}

/**
 * Records an appended data batch: a new epoch empties the dedup window, which keeps the last
 * {@link NUM_BATCHES_TO_RETAIN} batches (a smaller window is applied where it is searched,
 * {@link findDuplicateBatch}).
 */
export function recordDataBatch(
  entry: ProducerStateEntry,
  batch: { producerEpoch: number; metadata: BatchMetadata; appendUs: number },
): void {
  if (batch.producerEpoch !== entry.producerEpoch) {
    entry.producerEpoch = batch.producerEpoch;
    entry.batchMetadata = [];
  }
  if (batch.metadata.firstSequence !== NO_SEQUENCE) {
    entry.batchMetadata.push(batch.metadata);
    if (entry.batchMetadata.length > NUM_BATCHES_TO_RETAIN) entry.batchMetadata.shift();
  }
  touchEntry(entry, batch.appendUs);
}

/** How a partition leader checks a marker's producer epoch, by release. */
export interface MarkerEpochRules {
  /**
   * KAFKA-19446 on (4.0, 4.1): a transaction version 2 marker is checked as any other, its epoch
   * only not below the producer's; a late marker of the previous transaction, which carries the
   * epoch the next one runs at, then ends that next transaction.
   */
  readonly tv2MarkerEpochNotBumpedAccepted?: boolean;
  /**
   * KAFKA-19999 on (KAFKA-19446's fix without apache/kafka#21176): a transaction version 2 marker
   * at the producer's current epoch is refused even when no transaction is open, so the resend of
   * a marker already written (a lost answer, a coordinator reload) is INVALID_PRODUCER_EPOCH.
   */
  readonly tv2MarkerRetryRefused?: boolean;
}

/** Kafka's marker epoch check today (KAFKA-19446 and KAFKA-19999 fixed). */
export const MARKER_EPOCH_RULES: MarkerEpochRules = {
  tv2MarkerEpochNotBumpedAccepted: false,
  tv2MarkerRetryRefused: false,
};

/**
 * A marker with an older epoch or coordinator epoch is refused
 * (ProducerStateManager.checkProducerEpoch via ProducerAppendInfo.appendEndTxnMarker).
 */
export function validateMarker(
  entry: ProducerStateEntry,
  marker: { producerEpoch: number; coordinatorEpoch: number; transactionVersion: number },
  rules: MarkerEpochRules = MARKER_EPOCH_RULES,
): KafkaErrorCode {
  if (markerEpochStale(entry, marker, rules)) return 'INVALID_PRODUCER_EPOCH';
  if (marker.coordinatorEpoch < entry.coordinatorEpoch) return 'TRANSACTION_COORDINATOR_FENCED';
  return 'NONE';
}

/**
 * checkProducerEpoch for a marker. Since KAFKA-19446 (apache/kafka#20882) a transaction
 * version 2 marker, which carries the epoch its EndTxn bumped to, must be above the producer's
 * epoch here (the check undoes the bump): a marker of the previous transaction arriving while
 * the next is open at that same epoch is refused. Since KAFKA-19999 (apache/kafka#21176) a
 * marker at the same epoch is taken as an idempotent retry when the producer has no open
 * transaction on the partition (currentTxnFirstOffset empty).
 */
function markerEpochStale(
  entry: ProducerStateEntry,
  marker: { producerEpoch: number; transactionVersion: number },
  rules: MarkerEpochRules,
): boolean {
  if (marker.producerEpoch < entry.producerEpoch) return true;
  if (marker.transactionVersion < 2) return false;
  if (entry.producerEpoch === NO_PRODUCER_EPOCH || marker.producerEpoch > entry.producerEpoch)
    return false;
  // The switches are consulted in the order the releases part ways: a same-epoch marker with a
  // transaction open, or (KAFKA-19999) any same-epoch marker, and only then KAFKA-19446.
  const refused = entry.currentTxnFirstOffset !== -1 || rules.tv2MarkerRetryRefused === true;
  return refused && rules.tv2MarkerEpochNotBumpedAccepted !== true;
}

/**
 * Records an appended marker: updates epochs; an epoch change empties the dedup window. The
 * marker's time becomes the producer's last timestamp (KAFKA-9144's fix); before it the last
 * timestamp was the last retained data batch's, none once an epoch change emptied them.
 */
export function recordMarker(
  entry: ProducerStateEntry,
  marker: { producerEpoch: number; coordinatorEpoch: number; appendUs: number },
): void {
  if (marker.producerEpoch !== entry.producerEpoch) {
    entry.producerEpoch = marker.producerEpoch;
    entry.batchMetadata = [];
    // An entry without batches had no last timestamp before 2.5.
    entry.dataTimestampUs = NO_TIMESTAMP;
  }
  entry.coordinatorEpoch = marker.coordinatorEpoch;
  entry.currentTxnFirstOffset = -1;
  entry.lastTimestampUs = marker.appendUs;
}

/**
 * ProducerStateManager.removeExpiredProducers (KIP-854): drops every producer without an open
 * transaction whose last append is at least `expirationUs` old (isProducerExpired); returns
 * their ids. A later batch from such a producer is accepted with any sequence (checkSequence on
 * an entry without an epoch), so a retry of a batch written before is then a duplicate.
 */
export function removeExpiredProducers(
  producers: Map<number, ProducerStateEntry>,
  nowUs: number,
  expirationUs: number,
  markerTimestampIgnored: MarkerTimestampIgnored = () => false,
): number[] {
  const expired: number[] = [];
  for (const [producerId, entry] of producers) {
    if (entry.currentTxnFirstOffset !== -1) continue;
    // Kafka compares wall-clock milliseconds, to which NO_TIMESTAMP is over fifty years ago; the
    // simulated clock starts at 0, so an entry without a timestamp is expired explicitly.
    const idle = (timestampUs: number): boolean =>
      timestampUs === NO_TIMESTAMP || nowUs - timestampUs >= expirationUs;
    // Both rules agree unless exactly one of the two timestamps is idle.
    const fixed = idle(entry.lastTimestampUs);
    const expires =
      fixed === idle(entry.dataTimestampUs)
        ? fixed
        : idle(lastTimestampOf(entry, markerTimestampIgnored));
    if (!expires) continue;
    expired.push(producerId);
  }
  for (const producerId of expired) producers.delete(producerId);
  return expired;
}
