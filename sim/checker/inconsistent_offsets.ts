/**
 * `inconsistent-offsets`: one offset of a partition holding two different records. Two sources:
 * - `different-values-delivered` (from the history, Jepsen's definition): consumers (any, at any
 *   time, polls and final reads alike) delivered different values at one (topic, partition,
 *   offset). After an unclean election offsets are reused with different data (A6).
 * - `replicas-diverged` (from the oracle's replica logs, absent outside the simulator): two
 *   replicas hold different records (value, control type or producerId differ) at one offset that
 *   both vouch for. A replica vouches for the offsets below its own high watermark; an ISR member
 *   also for those below the leader's, because the leader counts an offset in its high watermark
 *   only once every ISR member holds it (Partition.maybeIncrementLeaderHW) while a follower learns
 *   that one fetch later (ReplicaFetcherThread.processPartitionData). Differences above that are a
 *   follower's tail still to be truncated, which is legitimate. Legacy truncation after two quick
 *   failovers produces real divergence (A8).
 */
import type { OracleBatch, OraclePartition, OracleRecord, OracleReplica } from '../history';
import { oracleBatchIndexAt, oracleBatchesOf, oracleRecordAt, oracleRecordOf } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import type { DeliveryOp } from './history_index';
import { firstDeliveries } from './delivered_runs';
import { requireInput } from './input_error';
import { topicPartitionKey, topicPartitionName } from './topic_partition';

/** Where the inconsistency was seen. */
export type InconsistentOffsetsClassification = 'different-values-delivered' | 'replicas-diverged';

/**
 * Reports both kinds: one anomaly per delivered (partition, offset) with two or more values, at
 * the first delivery of its second value; one per (partition, offset, pair of replicas) that
 * diverge, at the later append of the two records, with `brokers` and `values` paired.
 * @example checkInconsistentOffsets(new CheckContext(history, oracle))[0]?.values // [2, 7]
 */
export function checkInconsistentOffsets(context: CheckContext): Anomaly[] {
  return [...deliveredInconsistencies(context), ...replicaInconsistencies(context)];
}

/** One delivered offset and the distinct values delivered there, in delivery order. */
interface DeliveredOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly values: number[];
  readonly clients: string[];
  /** The first operation that delivered a second value. */
  divergedBy: DeliveryOp | null;
}

/** The first value delivered at each offset of one partition, and by which delivery. */
interface FirstDeliveries {
  readonly values: Map<number, number>;
  /** Position in `context.deliveries` of the operation that first delivered the offset. */
  readonly ops: Map<number, number>;
  /** The order offsets were first delivered in (over every partition), which anomalies keep. */
  readonly orders: Map<number, number>;
  /** Offsets delivered with a second value. */
  readonly diverged: Map<number, DeliveredOffset & { readonly order: number }>;
}

function deliveredInconsistencies(context: CheckContext): Anomaly[] {
  // Run against run first: most histories deliver one value per offset.
  if (!firstDeliveries(context).differing) return [];
  // Per partition, numbers keyed by offset: an object only for an offset that diverged.
  const partitions = new Map<string, FirstDeliveries>();
  const diverged: Array<DeliveredOffset & { readonly order: number }> = [];
  let order = 0;
  context.deliveries.forEach((op, opAt) => {
    for (const { topic, partition, offset: base, values } of op.value.batches) {
      const key = topicPartitionKey(topic, partition);
      let known = partitions.get(key);
      if (known === undefined) {
        known = { values: new Map(), ops: new Map(), orders: new Map(), diverged: new Map() };
        partitions.set(key, known);
      }
      values.forEach((value, at) => {
        const offset = base + at;
        const first = known.values.get(offset);
        if (first === undefined) {
          known.values.set(offset, value);
          known.ops.set(offset, opAt);
          known.orders.set(offset, order++);
          return;
        }
        if (first === value) return;
        let entry = known.diverged.get(offset);
        if (entry === undefined) {
          const firstOp = context.deliveries[known.ops.get(offset) as number] as DeliveryOp;
          const clients = [firstOp.client];
          const firstOrder = known.orders.get(offset) as number;
          const values = [first];
          entry = {
            topic,
            partition,
            offset,
            values,
            clients,
            divergedBy: null,
            order: firstOrder,
          };
          known.diverged.set(offset, entry);
          diverged.push(entry);
        }
        if (entry.values.includes(value)) return;
        entry.values.push(value);
        entry.clients.push(op.client);
        entry.divergedBy ??= op;
      });
    }
  });
  diverged.sort((a, b) => a.order - b.order);
  return diverged.map((delivered) => {
    const op = delivered.divergedBy as DeliveryOp;
    return deliveredAnomaly(context, { delivered, op });
  });
}

function deliveredAnomaly(
  context: CheckContext,
  found: { readonly delivered: DeliveredOffset; readonly op: DeliveryOp },
): Anomaly {
  const { delivered, op } = found;
  const { topic, partition, offset, values } = delivered;
  const seen = values.map((value, at) => `${value} (client ${delivered.clients[at] ?? '?'})`);
  const now = context.partitionIndex(topic, partition)?.recordAt(offset);
  const finalLog =
    now === undefined
      ? 'the final log holds nothing there'
      : now.control !== undefined
        ? `the final log holds a ${now.control} marker there`
        : `the final log holds value ${now.value ?? 'none'} there`;
  const message =
    `${topicPartitionName(topic, partition)} offset ${offset} was delivered with different ` +
    `values: ${seen.join(', ')}, the second first seen at ${op.timeUs}us; ${finalLog}`;
  return {
    kind: 'inconsistent-offsets',
    message,
    topic,
    partition,
    offset,
    ...(values[0] === undefined ? {} : { value: values[0] }),
    values: [...values],
    client: op.client,
    timeUs: op.timeUs,
    classification: 'different-values-delivered',
    activeFaults: context.activeFaultsAt(op.timeUs),
  };
}

/** One replica's record at a divergent offset. */
interface DivergentCopy {
  readonly indexed: IndexedReplica;
  readonly record: OracleRecord;
}

/** A replica with its batches and the offsets it vouches for. */
interface IndexedReplica {
  readonly replica: OracleReplica;
  readonly batches: readonly OracleBatch[];
  /** Offsets below this are committed as far as this replica knows. */
  readonly vouchedBelow: number;
}

function replicaInconsistencies(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  for (const { partition } of context.partitionIndexes.values()) {
    const replicas = indexReplicas(partition);
    for (let first = 0; first < replicas.length; first += 1) {
      for (let second = first + 1; second < replicas.length; second += 1) {
        const source = replicas[first];
        const target = replicas[second];
        if (source === undefined || target === undefined) continue;
        for (const pair of divergences(source, target)) {
          anomalies.push(divergenceAnomaly(context, { partition, pair }));
        }
      }
    }
  }
  return anomalies;
}

/**
 * The offsets both replicas vouch for where they hold different records, in offset order. A
 * batch the other replica holds as it is (the same batch, as replication copies it) is skipped
 * whole; only other batches are compared record by record.
 */
function divergences(
  source: IndexedReplica,
  target: IndexedReplica,
): Array<readonly [DivergentCopy, DivergentCopy]> {
  const limit = Math.min(source.vouchedBelow, target.vouchedBelow);
  const found: Array<readonly [DivergentCopy, DivergentCopy]> = [];
  for (const batch of source.batches) {
    if (batch.baseOffset >= limit) break;
    const position = oracleBatchIndexAt(target.batches, batch.baseOffset);
    if (sameBatch(batch, target.batches[position])) continue;
    const last = Math.min(batch.lastOffset, limit - 1);
    for (let offset = batch.baseOffset; offset <= last; offset++) {
      const other = oracleRecordAt(target.batches, offset);
      const record = oracleRecordOf(batch, offset);
      if (other === undefined || sameRecord(record, other)) continue;
      found.push([
        { indexed: source, record },
        { indexed: target, record: other },
      ]);
    }
  }
  return found;
}

function sameBatch(a: OracleBatch, b: OracleBatch | undefined): boolean {
  if (a === b) return true;
  return (
    b !== undefined &&
    a.baseOffset === b.baseOffset &&
    a.lastOffset === b.lastOffset &&
    a.producerId === b.producerId &&
    a.control === b.control &&
    a.values === b.values
  );
}

/** The partition's replicas in broker order, each indexed; a broker twice is malformed. */
function indexReplicas(partition: OraclePartition): IndexedReplica[] {
  const name = topicPartitionName(partition.topic, partition.partition);
  const replicas = [...(partition.replicas ?? [])].sort((a, b) =>
    a.broker < b.broker ? -1 : a.broker > b.broker ? 1 : 0,
  );
  return replicas.map((replica, position) => {
    const previous = replicas[position - 1];
    requireInput(
      previous === undefined || previous.broker !== replica.broker,
      `Oracle holds a replica twice: ${name} on broker ${replica.broker}`,
    );
    const batches = oracleBatchesOf(replica);
    let offsetBefore = -1;
    for (const batch of batches) {
      requireInput(
        batch.baseOffset > offsetBefore && batch.lastOffset >= batch.baseOffset,
        `Oracle replica offsets must strictly increase: ${name} on ${replica.broker}`,
      );
      offsetBefore = batch.lastOffset;
    }
    const vouchedBelow = replica.inSyncReplica
      ? Math.max(replica.highWatermark, partition.highWatermark)
      : replica.highWatermark;
    return { replica, batches, vouchedBelow };
  });
}

function sameRecord(a: OracleRecord, b: OracleRecord): boolean {
  return a.value === b.value && a.control === b.control && a.producerId === b.producerId;
}

function divergenceAnomaly(
  context: CheckContext,
  found: {
    readonly partition: OraclePartition;
    readonly pair: readonly [DivergentCopy, DivergentCopy];
  },
): Anomaly {
  const { partition, pair } = found;
  const [source, target] = pair;
  const offset = source.record.offset;
  const timeUs = Math.max(source.record.appendUs, target.record.appendUs);
  const message =
    `Replicas ${source.indexed.replica.broker} and ${target.indexed.replica.broker} of ` +
    `${topicPartitionName(partition.topic, partition.partition)} hold different records at ` +
    `offset ${offset}, which both vouch for as committed (leader highWatermark ` +
    `${partition.highWatermark}): ${describeReplicaRecord(source)}; ` +
    `${describeReplicaRecord(target)}`;
  return {
    kind: 'inconsistent-offsets',
    message,
    topic: partition.topic,
    partition: partition.partition,
    offset,
    values: [source.record.value, target.record.value],
    brokers: [source.indexed.replica.broker, target.indexed.replica.broker],
    timeUs,
    classification: 'replicas-diverged',
    activeFaults: context.activeFaultsAt(timeUs),
  };
}

function describeReplicaRecord(side: {
  readonly indexed: IndexedReplica;
  readonly record: OracleRecord;
}): string {
  const { replica } = side.indexed;
  const { record } = side;
  const what =
    record.control === undefined ? `value ${record.value ?? 'none'}` : `a ${record.control} marker`;
  const isr = replica.inSyncReplica ? 'in the ISR' : 'out of the ISR';
  return (
    `${replica.broker} holds ${what} of producerId ${record.producerId} ` +
    `(highWatermark ${replica.highWatermark}, ${isr})`
  );
}
