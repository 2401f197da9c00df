/**
 * Builds the oracle from the brokers' real state at the end of a run: every partition's log
 * expanded to one entry per offset, its offsets and their history, its open transactions, the
 * coordinators' epoch grants and final view of every transactional.id, the faults and the
 * invariants found broken.
 */
import type { Broker, Controller, LogBatch, OffsetChange, PartitionReplica } from '../actors';
import { CONSUMER_OFFSETS_TOPIC, partitionKey } from '../actors';
import type {
  FaultInterval,
  Oracle,
  OracleCoordinatorTransaction,
  OracleGroup,
  OraclePartition,
  OracleRecord,
  OracleTruncation,
} from '../history';

/**
 * One record per offset of `batch`. Literal objects of one fixed shape, not spreads of a shared
 * part: the oracle holds a record per offset per replica (2.7 million in the LSO worked
 * example), and a spread-built record took several times the memory.
 */
function expand(batch: LogBatch): OracleRecord[] {
  const { producerId, producerEpoch, isTransactional, appendUs, baseOffset } = batch;
  // The property order of the records built before, so reports serialise as they did.
  if (batch.control !== undefined) {
    const control = batch.control;
    return [
      {
        producerId,
        producerEpoch,
        isTransactional,
        appendUs,
        offset: baseOffset,
        value: null,
        sequence: -1,
        control,
      },
    ];
  }
  const records: OracleRecord[] = new Array<OracleRecord>(batch.values.length);
  for (let index = 0; index < batch.values.length; index++) {
    records[index] = {
      producerId,
      producerEpoch,
      isTransactional,
      appendUs,
      offset: baseOffset + index,
      value: batch.values[index] as number,
      sequence: batch.baseSequence < 0 ? -1 : batch.baseSequence + index,
    };
  }
  return records;
}

/** Everything the oracle is read from. */
export interface OracleSources {
  readonly brokers: ReadonlyArray<{ id: string; broker: Broker }>;
  readonly controller: Controller;
  readonly faults: readonly FaultInterval[];
  /** Every transactional.id the clients use: the keys the coordinators are asked about. */
  readonly transactionalIds: readonly string[];
  /** The broker whose coordinator owns a transactional.id. */
  readonly coordinatorFor: (transactionalId: string) => string;
  /** The brokers' `transaction.max.timeout.ms`. */
  readonly transactionMaxTimeoutMs: number;
  /** Virtual time now, at the end of the run. */
  readonly endUs: number;
}

/** The oracle of a finished run. */
export function buildOracle(sources: OracleSources): Oracle {
  const { brokers, controller, faults } = sources;
  const partitions: OraclePartition[] = [];
  const invariantViolations: Array<{
    timeUs: number;
    topic: string;
    partition: number;
    description: string;
  }> = [];
  const truncations: OracleTruncation[] = [];
  for (const state of controller.partitionStates()) {
    const key = partitionKey(state);
    const holders = brokers
      .map(({ id, broker }) => ({ id, replica: broker.partitions.get(key) }))
      .filter(
        (holder): holder is { id: string; replica: PartitionReplica } =>
          holder.replica !== undefined,
      );
    const leader =
      holders.find((holder) => holder.id === state.leader) ??
      [...holders].sort((a, b) => b.replica.log.logEndOffset - a.replica.log.logEndOffset)[0];
    if (leader === undefined) continue;
    // Internal topics (__transaction_state) hold no client records: their invariants and
    // truncations are checked below, but the partitions are not part of the history's world.
    if (!state.topic.startsWith('__'))
      partitions.push(partitionOf({ leader, holders, isr: state.isr }));
    invariantViolations.push(...oneLeaderPerEpoch(state.topic, state.partition, holders));
    for (const { id, replica } of holders) {
      for (const violation of replica.log.invariantViolations) {
        invariantViolations.push({ ...violation, topic: state.topic, partition: state.partition });
      }
      for (const truncation of replica.truncations) {
        truncations.push({
          timeUs: truncation.timeUs,
          topic: state.topic,
          partition: state.partition,
          broker: id,
          toOffset: truncation.toOffset,
          reason: truncation.reason,
          removed: truncation.removed.flatMap(expand),
        });
      }
    }
  }
  partitions.sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
  truncations.sort((a, b) => a.timeUs - b.timeUs);
  invariantViolations.sort((a, b) => a.timeUs - b.timeUs);
  const epochGrants = brokers.flatMap(({ broker }) => broker.coordinator.epochGrants);
  epochGrants.sort((a, b) => a.timeUs - b.timeUs || a.producerEpoch - b.producerEpoch);
  return {
    partitions,
    epochGrants,
    coordinatorTransitions: transitionCounts(brokers),
    coordinatorTransactions: coordinatorTransactions(sources),
    ...consumerGroupsOf(brokers, controller),
    transactionMaxTimeoutMs: sources.transactionMaxTimeoutMs,
    endUs: sources.endUs,
    elections: [...controller.elections],
    truncations,
    faults,
    invariantViolations,
  };
}

/**
 * The coordinators' final view of every transactional.id: for each id the clients use, the entry
 * of the coordinator that owns it, as a plain record. This is the only place the oracle reads
 * coordinator state, through `metadataOf`, at the broker that leads the id's
 * `__transaction_state` partition (`coordinatorFor`).
 * @example coordinatorTransactions(sources)[0]?.state // 'Ongoing'
 */
export function coordinatorTransactions(
  sources: Pick<OracleSources, 'brokers' | 'transactionalIds' | 'coordinatorFor'>,
): OracleCoordinatorTransaction[] {
  const ids = [...new Set(sources.transactionalIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return ids.flatMap((transactionalId) => {
    const owner = sources.coordinatorFor(transactionalId);
    const holder = sources.brokers.find(({ id }) => id === owner);
    const metadata = holder?.broker.coordinator.metadataOf(transactionalId);
    if (metadata === undefined) return [];
    const partitions = [...metadata.topicPartitions.values()]
      .map(({ topic, partition }) => ({ topic, partition }))
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
    return [
      {
        transactionalId,
        coordinator: owner,
        producerId: metadata.producerId,
        producerEpoch: metadata.producerEpoch,
        state: metadata.state,
        partitions,
      },
    ];
  });
}

/**
 * Every consumer group at the broker that leads its `__consumer_offsets` partition now, sorted
 * by groupId, with its materialised committed offsets; absent when no group exists.
 */
function consumerGroupsOf(
  brokers: ReadonlyArray<{ id: string; broker: Broker }>,
  controller: Controller,
): { groups?: OracleGroup[] } {
  const leaders = new Map<number, string | null>();
  for (const state of controller.partitionStates()) {
    if (state.topic === CONSUMER_OFFSETS_TOPIC) leaders.set(state.partition, state.leader);
  }
  const groups: OracleGroup[] = [];
  for (const { id, broker } of brokers) {
    for (const summary of broker.groupCoordinator.groups()) {
      if (leaders.get(summary.partition) !== id) continue;
      const committedOffsets = summary.committed
        .map(({ topic, partition, offset }) => ({ topic, partition, offset }))
        .sort((a, b) =>
          a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
        );
      const { groupId, state, generationId } = summary;
      groups.push({ groupId, coordinator: id, state, generationId, committedOffsets });
    }
  }
  if (groups.length === 0) return {};
  groups.sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
  return { groups };
}

/** Every coordinator's state transitions, summed and sorted by `from` then `to`. */
function transitionCounts(
  brokers: ReadonlyArray<{ broker: Broker }>,
): Array<{ from: string; to: string; count: number }> {
  const totals = new Map<string, number>();
  for (const { broker } of brokers) {
    for (const [key, count] of broker.coordinator.transitionCounts) {
      totals.set(key, (totals.get(key) ?? 0) + count);
    }
  }
  return [...totals]
    .map(([key, count]) => {
      const [from = '', to = ''] = key.split('->');
      return { from, to, count };
    })
    .sort((a, b) =>
      a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0,
    );
}

/** Invariant: no two brokers ever acted as leader of a partition under the same leader epoch. */
function oneLeaderPerEpoch(
  topic: string,
  partition: number,
  holders: ReadonlyArray<{ id: string; replica: PartitionReplica }>,
): Array<{ timeUs: number; topic: string; partition: number; description: string }> {
  const leaderOfEpoch = new Map<number, { broker: string; startUs: number }>();
  const violations: Array<{
    timeUs: number;
    topic: string;
    partition: number;
    description: string;
  }> = [];
  for (const { id, replica } of holders) {
    for (const term of replica.leaderTerms) {
      const other = leaderOfEpoch.get(term.leaderEpoch);
      if (other === undefined) {
        leaderOfEpoch.set(term.leaderEpoch, { broker: id, startUs: term.startUs });
      } else if (other.broker !== id) {
        violations.push({
          timeUs: Math.max(other.startUs, term.startUs),
          topic,
          partition,
          description: `two leaders for leaderEpoch ${term.leaderEpoch}: ${other.broker} and ${id}`,
        });
      }
    }
  }
  return violations;
}

/**
 * The partition's offset history as clients could see it: every replica's changes while it
 * acted as leader (by its own belief: a deposed leader that has not heard of its successor still
 * answers fetches), merged in time order.
 */
function leaderChanges(
  holders: ReadonlyArray<{ id: string; replica: PartitionReplica }>,
  changesOf: (replica: PartitionReplica) => readonly OffsetChange[],
): OffsetChange[] {
  const merged: OffsetChange[] = [];
  for (const { replica } of holders) {
    const changes = changesOf(replica);
    for (const term of replica.leaderTerms) {
      const endUs = term.endUs ?? Number.POSITIVE_INFINITY;
      let atStart: OffsetChange | undefined;
      for (const change of changes) if (change.timeUs <= term.startUs) atStart = change;
      if (atStart !== undefined) merged.push({ timeUs: term.startUs, offset: atStart.offset });
      for (const change of changes) {
        if (change.timeUs > term.startUs && change.timeUs <= endUs) merged.push(change);
      }
    }
  }
  return merged.sort((a, b) => a.timeUs - b.timeUs);
}

function partitionOf(sources: {
  leader: { id: string; replica: PartitionReplica };
  holders: ReadonlyArray<{ id: string; replica: PartitionReplica }>;
  isr: readonly string[];
}): OraclePartition {
  const { leader, holders, isr } = sources;
  const log = leader.replica.log;
  const openTransactions = [...log.openTransactions].map(([producerId, firstOffset]) => ({
    producerId,
    producerEpoch: log.producerState(producerId)?.producerEpoch ?? -1,
    firstOffset,
  }));
  return {
    topic: log.topic,
    partition: log.partition,
    leader: leader.id,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
    highWatermark: log.highWatermark,
    lastStableOffset: log.lastStableOffset,
    records: log.log.flatMap(expand),
    highWatermarkChanges: leaderChanges(holders, (replica) => replica.log.highWatermarkChanges),
    lastStableOffsetChanges: leaderChanges(
      holders,
      (replica) => replica.log.lastStableOffsetChanges,
    ),
    openTransactions,
    replicas: holders.map(({ id, replica }) => ({
      broker: id,
      logEndOffset: replica.log.logEndOffset,
      highWatermark: replica.log.highWatermark,
      inSyncReplica: isr.includes(id),
      records: replica.log.log.flatMap(expand),
    })),
  };
}
