/**
 * `duplicate`: one value (one logical message, sent once) delivered at more than one distinct
 * (topic, partition, offset), by any consumer, in any `poll` or `final-read`. The same offset
 * delivered twice (a rewind, two consumers) is not a duplicate. The oracle classifies the
 * anomaly: `written-twice` when its log holds the value at two or more offsets (a retried batch
 * the broker did not deduplicate), `written-once` when it holds one copy (the other delivery came
 * from a log that was later truncated), `not-in-log` when it holds none, and
 * `written-after-producer-expired` when the copies are one producer's and a replica expired that
 * producer between them (`expired_producer.ts`).
 *
 * `epoch-bump-duplicate` is reported instead when the copies and the history are exactly what
 * an idempotent producer's own epoch bump writes (KIP-360; the conditions, judged per record,
 * are in `epoch_bump.ts`): Kafka's behaviour, which only transactions rule out (KAFKA-14034,
 * apache/kafka#13796; confluentinc/librdkafka#4953). Copies under one epoch, under different
 * producerIds, or whose earlier copy was acknowledged stay `duplicate`.
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext, OracleCopy } from './check_context';
import {
  epochBumpRoute,
  indexSendOutcomes,
  type EpochBumpRoute,
  type SendOutcomes,
} from './epoch_bump';
import { writtenAfterProducerExpired } from './expired_producer';
import { mayDeliverValueTwice } from './delivered_runs';
import { recordKey, topicPartitionName } from './topic_partition';
import type { DeliveredBatch } from '../history';

/** The send index of a context, built once per check (only when a duplicate needs it). */
const sendOutcomesByContext = new WeakMap<CheckContext, SendOutcomes>();

function sendOutcomes(context: CheckContext): SendOutcomes {
  let outcomes = sendOutcomesByContext.get(context);
  if (outcomes === undefined) {
    outcomes = indexSendOutcomes(context.history);
    sendOutcomesByContext.set(context, outcomes);
  }
  return outcomes;
}

/** Where a value was delivered, and the first operation that delivered it there. */
interface Location {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly deliveredUs: number;
}

/**
 * Reports every value delivered at more than one distinct offset, one anomaly per value. Its
 * `offset` is the lowest offset delivered in the first partition, `offsets` all of them there;
 * `producerId`/`producerEpoch` are the oracle's for its last copy; `timeUs` is when that copy was
 * appended, or, without two oracle copies, when the second location was first delivered.
 * @example checkDuplicate(new CheckContext(history, oracle))[0]?.classification
 */
export function checkDuplicate(context: CheckContext): Anomaly[] {
  // Run against run first: most histories deliver every value at one location only.
  if (!mayDeliverValueTwice(context)) return [];
  // Each value's first location as references (no object per record); a map of locations only
  // for a value delivered at a second one.
  const firstBatch = new Map<number, DeliveredBatch>();
  const firstOffset = new Map<number, number>();
  const firstUs = new Map<number, number>();
  const locationsByValue = new Map<number, Map<string, Location>>();
  for (const op of context.deliveries) {
    for (const batch of op.value.batches) {
      const { topic, partition } = batch;
      batch.values.forEach((value, at) => {
        const offset = batch.offset + at;
        const first = firstBatch.get(value);
        if (first === undefined) {
          firstBatch.set(value, batch);
          firstOffset.set(value, offset);
          firstUs.set(value, op.timeUs);
          return;
        }
        const firstAt = firstOffset.get(value) as number;
        const same = first.topic === topic && first.partition === partition && firstAt === offset;
        let locations = locationsByValue.get(value);
        if (same && locations === undefined) return;
        if (locations === undefined) {
          const deliveredUs = firstUs.get(value) as number;
          const origin = { topic: first.topic, partition: first.partition, offset: firstAt };
          locations = new Map([
            [recordKey(origin.topic, origin.partition, firstAt), { ...origin, deliveredUs }],
          ]);
          locationsByValue.set(value, locations);
        }
        const key = recordKey(topic, partition, offset);
        if (!locations.has(key))
          locations.set(key, { topic, partition, offset, deliveredUs: op.timeUs });
      });
    }
  }
  const anomalies: Anomaly[] = [];
  // In the order values were first delivered, as one map of every value would list them.
  for (const value of firstBatch.keys()) {
    const locations = locationsByValue.get(value);
    if (locations === undefined || locations.size < 2) continue;
    anomalies.push(duplicateAnomaly(context, { value, locations: [...locations.values()] }));
  }
  return anomalies;
}

/**
 * The classification of an epoch-bump rewrite by what asked for the bump: a batch that failed
 * (KAFKA-14034's path), or OUT_OF_ORDER_SEQUENCE_NUMBER (a gap; bumps at once in every release).
 */
const REWRITE_CLASSIFICATIONS: Record<EpochBumpRoute, string> = {
  'after-failed-batch': 'rewritten-after-failed-batch-bump',
  'after-out-of-order': 'rewritten-after-out-of-order-bump',
};

function duplicateAnomaly(
  context: CheckContext,
  delivered: { readonly value: number; readonly locations: readonly Location[] },
): Anomaly {
  const { value, locations: locationsDelivered } = delivered;
  // The second location in delivery order is when the duplicate first became visible.
  const secondDeliveredUs = locationsDelivered[1]?.deliveredUs ?? 0;
  const locations = [...locationsDelivered].sort(compareLocations);
  const first = locations[0];
  if (first === undefined) throw new Error('A duplicate needs at least two locations');
  const offsets = locations
    .filter((location) => location.topic === first.topic && location.partition === first.partition)
    .map((location) => location.offset);
  const copies = context.oracleCopiesOf(value);
  // The last copy is the extra one; with two or more copies its append is when it was made.
  const latest = copies[copies.length - 1];
  const timeUs =
    latest !== undefined && copies.length >= 2 ? latest.record.appendUs : secondDeliveredUs;
  const sent = context.sentValues.get(value);
  const evidence = { outcomes: sendOutcomes(context), faults: context.faultIntervals };
  const route = epochBumpRoute(evidence, value, copies);
  const rewritten = route !== null;
  const classification = rewritten
    ? REWRITE_CLASSIFICATIONS[route]
    : writtenAfterProducerExpired(context.oracle, copies)
      ? 'written-after-producer-expired'
      : classifyCopies(copies.length);
  const sender = sent === undefined ? '' : ` sent by client ${sent.client}`;
  const resent =
    sent !== undefined && sent.invokeCount > 1 ? ` (sent ${sent.invokeCount} times)` : '';
  const message =
    `Value ${value}${sender}${resent} was delivered at ${locations.length} offsets: ` +
    `${locations.map(describeLocation).join(', ')}; the oracle log holds ${copies.length} ` +
    `cop${copies.length === 1 ? 'y' : 'ies'}${copies.length === 0 ? '' : ': '}` +
    `${copies.map(describeCopy).join(', ')} (${classification})`;
  return {
    kind: rewritten ? 'epoch-bump-duplicate' : 'duplicate',
    message,
    topic: first.topic,
    partition: first.partition,
    offset: first.offset,
    offsets,
    value,
    ...(latest === undefined ? {} : { producerId: latest.record.producerId }),
    ...(latest === undefined ? {} : { producerEpoch: latest.record.producerEpoch }),
    ...(sent === undefined ? {} : { client: sent.client }),
    timeUs,
    classification,
    activeFaults: context.activeFaultsAt(timeUs),
  };
}

function classifyCopies(copyCount: number): string {
  if (copyCount >= 2) return 'written-twice';
  return copyCount === 1 ? 'written-once' : 'not-in-log';
}

/** Orders by topic, partition, offset: unique per location, so the order is total. */
function compareLocations(a: Location, b: Location): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1;
  if (a.partition !== b.partition) return a.partition - b.partition;
  return a.offset - b.offset;
}

function describeLocation(location: Location): string {
  return `${topicPartitionName(location.topic, location.partition)}@${location.offset}`;
}

function describeCopy(copy: OracleCopy): string {
  const { record } = copy;
  return (
    `${topicPartitionName(copy.topic, copy.partition)}@${record.offset} ` +
    `(producerId ${record.producerId}, producerEpoch ${record.producerEpoch})`
  );
}
