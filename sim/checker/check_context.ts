/**
 * The indexes the checkers share, built lazily from one history and one oracle and then kept.
 * Building is lazy so that a malformed part of the input fails only the checkers that read it:
 * the failure surfaces inside that checker, which `checkHistory` records as `unknown`, and the
 * next checker that needs the same index meets the same error rather than a half-built cache.
 */
import type { History, Oracle, OracleRecord } from '../history';
import { activeFaultsAt, buildFaultIntervals, type ActiveInterval } from './fault_intervals';
import { deliveryOps, indexSentValues, type DeliveryOp, type SentValue } from './history_index';
import { requireInput } from './input_error';
import { topicPartitionKey, topicPartitionName } from './topic_partition';
import { indexPartition, type PartitionIndex } from './transaction_outcome';
import { buildReplicationIndex, type ReplicationIndex } from './truncation_cause';

/** One copy of a value in the oracle log. */
export interface OracleCopy {
  readonly topic: string;
  readonly partition: number;
  readonly record: OracleRecord;
}

/**
 * Shared, memoised views of a history and its oracle.
 * @example new CheckContext(history, oracle).partitionIndex('orders', 0)?.outcomes.get(4)
 */
export class CheckContext {
  private faultIntervalsCache: readonly ActiveInterval[] | null = null;
  private partitionsCache: ReadonlyMap<string, PartitionIndex> | null = null;
  private sentValuesCache: ReadonlyMap<number, SentValue> | null = null;
  private deliveriesCache: readonly DeliveryOp[] | null = null;
  private replicationCache: ReplicationIndex | null = null;

  constructor(
    readonly history: History,
    readonly oracle: Oracle,
  ) {}

  /** Every fault interval, from the history's nemesis operations and the oracle. */
  get faultIntervals(): readonly ActiveInterval[] {
    this.faultIntervalsCache ??= buildFaultIntervals(this.history, this.oracle);
    return this.faultIntervalsCache;
  }

  /** The descriptions of the faults active at `timeUs`, without repeats. */
  activeFaultsAt(timeUs: number): string[] {
    return activeFaultsAt(this.faultIntervals, timeUs);
  }

  /** Every oracle partition, indexed, keyed by `topicPartitionKey`. */
  get partitionIndexes(): ReadonlyMap<string, PartitionIndex> {
    this.partitionsCache ??= indexPartitions(this.oracle);
    return this.partitionsCache;
  }

  /** One oracle partition, indexed; undefined when the oracle does not hold it. */
  partitionIndex(topic: string, partition: number): PartitionIndex | undefined {
    return this.partitionIndexes.get(topicPartitionKey(topic, partition));
  }

  /** Every oracle copy of data value `value`, in partition then offset order. */
  oracleCopiesOf(value: number): OracleCopy[] {
    const copies: OracleCopy[] = [];
    for (const index of this.partitionIndexes.values()) {
      const { topic, partition } = index.partition;
      for (const offset of index.offsetsOf(value)) {
        const record = index.recordAt(offset);
        if (record !== undefined) copies.push({ topic, partition, record });
      }
    }
    return copies;
  }

  /** Who sent each value, from the history. */
  get sentValues(): ReadonlyMap<number, SentValue> {
    this.sentValuesCache ??= indexSentValues(this.history);
    return this.sentValuesCache;
  }

  /** The `ok` completions of `poll` and `final-read`, in history order. */
  get deliveries(): readonly DeliveryOp[] {
    this.deliveriesCache ??= deliveryOps(this.history);
    return this.deliveriesCache;
  }

  /** The oracle's truncations, elections and replica logs, indexed per partition. */
  get replicationIndex(): ReplicationIndex {
    this.replicationCache ??= buildReplicationIndex(this.oracle);
    return this.replicationCache;
  }
}

function indexPartitions(oracle: Oracle): Map<string, PartitionIndex> {
  const indexes = new Map<string, PartitionIndex>();
  for (const partition of oracle.partitions) {
    const key = topicPartitionKey(partition.topic, partition.partition);
    const name = topicPartitionName(partition.topic, partition.partition);
    requireInput(!indexes.has(key), `Oracle holds a partition twice: ${name}`);
    indexes.set(key, indexPartition(partition));
  }
  return indexes;
}
