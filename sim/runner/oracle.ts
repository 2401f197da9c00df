/**
 * Builds the oracle of a finished run from its observations alone (`observed_cluster.ts`): every
 * partition's final log at its leader and at each replica, its offsets as leaders served them,
 * its open transactions, the truncations, elections, epoch grants and coordinator transitions
 * with true virtual times, each coordinator's final view of the transactional.ids it owns, the
 * consumer groups, the faults and the invariants the state checker found broken. No actor field
 * is read here.
 */
import type { LogBatch } from '../actors';
import {
  CONSUMER_OFFSETS_TOPIC,
  TRANSACTION_STATE_TOPIC,
  partitionKey,
  transactionStatePartitionFor,
} from '../actors';
import type {
  FaultInterval,
  LateTransactionsGauge,
  Oracle,
  OracleCoordinatorTransaction,
  OracleGroup,
  OracleBatch,
  OracleInvariantViolation,
  OracleLoadedTransaction,
  OraclePartition,
} from '../history';
import { oracleRecordsOf } from '../history';
import type { ObservedCluster, ObservedReplica } from './observed_cluster';
import { loadedTransactionsOf } from './loaded_transactions';

/** The transactional.ids of the removed `__transaction_state` records, absent when none. */
function transactionalIdsField(removed: readonly LogBatch[]): { transactionalIds?: string[] } {
  const ids = new Set<string>();
  for (const batch of removed) {
    if (batch.transactionLog !== undefined) ids.add(batch.transactionLog.transactionalId);
  }
  return ids.size === 0 ? {} : { transactionalIds: [...ids].sort() };
}

/** The optional field, absent when empty so an oracle without such records is unchanged. */
function loadedField(loaded: OracleLoadedTransaction[]): {
  loadedTransactions?: OracleLoadedTransaction[];
} {
  return loaded.length === 0 ? {} : { loadedTransactions: loaded };
}

/** Everything the oracle is read from. */
export interface OracleSources {
  readonly cluster: ObservedCluster;
  readonly invariantViolations: readonly OracleInvariantViolation[];
  /** The brokers in the order the cluster was configured (the order of `replicas`). */
  readonly brokerIds: readonly string[];
  readonly faults: readonly FaultInterval[];
  /** Every transactional.id the clients use: the keys the coordinators are asked about. */
  readonly transactionalIds: readonly string[];
  /** `transaction.state.log.num.partitions`. */
  readonly transactionStateLogNumPartitions: number;
  /** The brokers' `transaction.max.timeout.ms`. */
  readonly transactionMaxTimeoutMs: number;
  /** The brokers' `transaction.abort.timed.out.transaction.cleanup.interval.ms`. */
  readonly transactionAbortCleanupIntervalMs: number;
  /** Virtual time now, at the end of the run. */
  readonly endUs: number;
  /** PartitionsWithLateTransactionsCount over the run (KIP-664). */
  readonly lateTransactions?: LateTransactionsGauge;
}

/** The oracle of a finished run. */
export function buildOracle(sources: OracleSources): Oracle {
  const { cluster } = sources;
  const toOracle = oracleBatchesFor(cluster);
  const partitions: OraclePartition[] = [];
  for (const observed of cluster.partitions.values()) {
    // Internal topics hold no client records: they are not part of the history's world.
    if (observed.topic.startsWith('__')) continue;
    const holders = holdersInOrder(cluster, observed.topic, observed.partition, sources.brokerIds);
    const leader =
      holders.find((holder) => holder.broker === observed.state?.leader) ??
      [...holders].sort((a, b) => b.logEndOffset - a.logEndOffset)[0];
    if (leader === undefined) continue;
    const isr = observed.state?.isr ?? [];
    partitions.push({
      topic: observed.topic,
      partition: observed.partition,
      leader: leader.broker,
      logStartOffset: leader.logStartOffset,
      logEndOffset: leader.logEndOffset,
      highWatermark: leader.highWatermark,
      lastStableOffset: leader.lastStableOffset,
      batches: leader.batches.map(toOracle),
      highWatermarkChanges: [...observed.highWatermarkChanges],
      lastStableOffsetChanges: [...observed.lastStableOffsetChanges],
      openTransactions: openTransactionsOf(leader),
      replicas: holders.map((replica) => ({
        broker: replica.broker,
        logEndOffset: replica.logEndOffset,
        highWatermark: replica.highWatermark,
        inSyncReplica: isr.includes(replica.broker),
        batches: replica.batches.map(toOracle),
      })),
    });
  }
  partitions.sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
  const truncations = cluster.truncations.map((truncation) => {
    const { timeUs, topic, partition, broker, toOffset, reason } = truncation;
    const removed = oracleRecordsOf(truncation.removed.map(toOracle));
    const loaded = loadedField(loadedTransactionsOf(cluster, truncation));
    const ids = transactionalIdsField(truncation.removed);
    return { timeUs, topic, partition, broker, toOffset, reason, removed, ...loaded, ...ids };
  });
  return {
    partitions,
    epochGrants: [...cluster.epochGrants],
    ...(cluster.transactionalIdExpirations.length === 0
      ? {}
      : { transactionalIdExpirations: [...cluster.transactionalIdExpirations] }),
    ...(cluster.producerStateExpirations.length === 0
      ? {}
      : { producerStateExpirations: [...cluster.producerStateExpirations] }),
    coordinatorTransitions: transitionCounts(cluster),
    coordinatorTransactions: coordinatorTransactions(sources),
    ...consumerGroupsOf(cluster),
    transactionMaxTimeoutMs: sources.transactionMaxTimeoutMs,
    transactionAbortCleanupIntervalMs: sources.transactionAbortCleanupIntervalMs,
    ...(sources.lateTransactions === undefined
      ? {}
      : { lateTransactions: sources.lateTransactions }),
    endUs: sources.endUs,
    ...(cluster.fetchFailures.length === 0 ? {} : { fetchFailures: [...cluster.fetchFailures] }),
    elections: [...cluster.elections],
    truncations,
    faults: sources.faults,
    invariantViolations: sources.invariantViolations,
  };
}

/**
 * The oracle batch of each log batch, made once: replicas hold the leader's batch objects, so
 * every replica shares one oracle batch per log batch.
 */
function oracleBatchesFor(cluster: ObservedCluster): (batch: LogBatch) => OracleBatch {
  const oracleBatches = new Map<LogBatch, OracleBatch>();
  return (batch) => {
    let known = oracleBatches.get(batch);
    if (known === undefined) {
      known = oracleBatchOf(batch, cluster.appendUs.get(batch) ?? batch.appendUs);
      oracleBatches.set(batch, known);
    }
    return known;
  };
}

/** `batch` as the oracle keeps it, appended at `appendUs` (true virtual time). */
function oracleBatchOf(batch: LogBatch, appendUs: number): OracleBatch {
  const { baseOffset, lastOffset, producerId, producerEpoch, baseSequence, isTransactional } =
    batch;
  const common = { baseOffset, lastOffset, producerId, producerEpoch, baseSequence };
  if (batch.control !== undefined) {
    return { ...common, isTransactional, control: batch.control, appendUs, values: [] };
  }
  return { ...common, isTransactional, appendUs, values: batch.values };
}

/** The replicas of a partition in the configured broker order. */
function holdersInOrder(
  cluster: ObservedCluster,
  topic: string,
  partition: number,
  brokerIds: readonly string[],
): ObservedReplica[] {
  const rank = (broker: string): number => {
    const index = brokerIds.indexOf(broker);
    return index === -1 ? brokerIds.length : index;
  };
  return cluster.holders(topic, partition).sort((a, b) => rank(a.broker) - rank(b.broker));
}

/**
 * The open transactions of a replica's log with the epoch its producer state holds (the highest
 * epoch of the producer's batches in the log, as Kafka rebuilds it).
 */
function openTransactionsOf(replica: ObservedReplica): OraclePartition['openTransactions'] {
  if (replica.openTransactions.size === 0) return [];
  const epochs = new Map<number, number>();
  for (const batch of replica.batches) {
    epochs.set(batch.producerId, Math.max(epochs.get(batch.producerId) ?? -1, batch.producerEpoch));
  }
  return [...replica.openTransactions].map(([producerId, firstOffset]) => ({
    producerId,
    producerEpoch: epochs.get(producerId) ?? -1,
    firstOffset,
  }));
}

/** The broker leading `topic-partition` at the end, as the controller last published it. */
function leaderAtEnd(cluster: ObservedCluster, topic: string, partition: number): string | null {
  return cluster.partitions.get(partitionKey({ topic, partition }))?.state?.leader ?? null;
}

/**
 * The coordinator of a transactional.id at the end of the run: the leader of its
 * `__transaction_state` partition.
 */
export function coordinatorAtEnd(
  cluster: ObservedCluster,
  transactionalId: string,
  numPartitions: number,
): string | null {
  const partition = transactionStatePartitionFor(transactionalId, numPartitions);
  return leaderAtEnd(cluster, TRANSACTION_STATE_TOPIC, partition);
}

/**
 * The coordinators' final view of every transactional.id: for each id the clients use, what the
 * coordinator that owns it at the end last reported holding, as a plain record.
 */
function coordinatorTransactions(sources: OracleSources): OracleCoordinatorTransaction[] {
  const ids = [...new Set(sources.transactionalIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids.flatMap((transactionalId) => {
    const owner = coordinatorAtEnd(
      sources.cluster,
      transactionalId,
      sources.transactionStateLogNumPartitions,
    );
    if (owner === null) return [];
    const held = sources.cluster.coordinators.get(owner)?.get(transactionalId);
    if (held === undefined) return [];
    const { view, heldSinceUs } = held;
    const partitions = [...view.partitions].sort((a, b) =>
      a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
    );
    const { producerId, producerEpoch, state, txnStartUs, txnTimeoutMs } = view;
    const identity = { transactionalId, coordinator: owner, producerId, producerEpoch, state };
    return [{ ...identity, partitions, txnStartUs, txnTimeoutMs, heldSinceUs }];
  });
}

/**
 * Every consumer group at the broker that leads its `__consumer_offsets` partition at the end,
 * sorted by groupId, with its committed offsets; absent when no group exists.
 */
function consumerGroupsOf(cluster: ObservedCluster): { groups?: OracleGroup[] } {
  const groups: OracleGroup[] = [];
  for (const [coordinator, reported] of cluster.groups) {
    for (const group of reported) {
      if (leaderAtEnd(cluster, CONSUMER_OFFSETS_TOPIC, group.partition) !== coordinator) continue;
      const committedOffsets = [...group.committedOffsets].sort((a, b) =>
        a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
      );
      const { groupId, state, generationId } = group;
      groups.push({ groupId, coordinator, state, generationId, committedOffsets });
    }
  }
  if (groups.length === 0) return {};
  groups.sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
  return { groups };
}

/** Every coordinator state transition, counted, sorted by `from` then `to`. */
function transitionCounts(
  cluster: ObservedCluster,
): Array<{ from: string; to: string; count: number }> {
  return [...cluster.transitionCounts]
    .map(([key, count]) => {
      const [from = '', to = ''] = key.split('->');
      return { from, to, count };
    })
    .sort((a, b) =>
      a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0,
    );
}
