/**
 * Where a fault could have lost acknowledged data: the partitions a data-loss permission of the
 * guarantee model reaches. Kafka's durability is per partition (each has its own leader, ISR and
 * log), so a power loss of b4 cannot lose a record of a partition b4 holds no replica of, and a
 * forced unclean election of orders-0 cannot lose one of orders-1. The oracle's replication
 * facts (elections and truncations, as the kernel stamped them) say where each fault acted:
 *
 * - a power loss acted where a replica on the broker lost its unflushed tail (a `power-loss`
 *   truncation that removed records): without one the broker restarted with its whole log, as
 *   after a process crash, and Kafka's guarantee holds there;
 * - an unclean election acted on the partition it elected;
 * - truncation to the high watermark (before KIP-101) acts where a leader changed or a replica
 *   truncated to its high watermark;
 * - acks=0/1 acts on the partitions the producer wrote.
 *
 * A loss on an internal topic reaches every partition: a lost `__transaction_state` record
 * reopens or forgets a transaction on every partition it touches, a lost `__consumer_offsets`
 * record moves a group's positions back on every partition it consumes. Without the oracle's
 * replication facts (a history recorded outside the simulator) nothing can be placed and a
 * permission reaches every partition.
 */
import type { AnomalyKind, InvolvedPartition } from '../checker';
import type { History, OracleElection, OracleTruncation } from '../history';
import { isInternalTopic } from './timeline';
import { sentRecordsOf } from '../history';

/** The oracle's replication facts the guarantee reads. */
export interface ReplicationFacts {
  readonly elections: readonly OracleElection[];
  readonly truncations: readonly OracleTruncation[];
}

/** The partitions a permission reaches; absent from a permission: every partition. */
export interface PermissionScope {
  readonly partitions: readonly InvolvedPartition[];
  /**
   * Kinds the scope does not restrict, because the checker locates them away from the loss:
   * an `eos-violation` is located at the pipeline's input, while the lost copy may be its
   * output on another partition; a `g1c` cycle runs through several partitions.
   */
  readonly everywhere: readonly AnomalyKind[];
}

/** Kinds a partition scope cannot restrict (see {@link PermissionScope.everywhere}). */
export const UNPLACED_KINDS: readonly AnomalyKind[] = ['eos-violation', 'g1c'];

/** The unique partitions, sorted by topic then partition. */
export function uniquePartitions(found: readonly InvolvedPartition[]): InvolvedPartition[] {
  const byName = new Map<string, InvolvedPartition>();
  for (const { topic, partition } of found) {
    byName.set(JSON.stringify([topic, partition]), { topic, partition });
  }
  return [...byName.values()].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
}

/** `orders-0, orders-1`, as Kafka prints partitions. */
export function partitionNames(partitions: readonly InvolvedPartition[]): string {
  return partitions.map(({ topic, partition }) => `${topic}-${partition}`).join(', ');
}

/**
 * Where a permission reaches, with the words its setting adds (`on orders-0`); no scope (every
 * partition) when a fault acted on an internal topic. Null: no replication facts to place it.
 */
export interface Placement {
  readonly scope?: PermissionScope;
  readonly where: string;
}

function placementOf(partitions: readonly InvolvedPartition[]): Placement {
  const unique = uniquePartitions(partitions);
  const internal = unique.filter(({ topic }) => isInternalTopic(topic));
  if (internal.length > 0) {
    return { where: `on every partition (${partitionNames(internal)} lost records)` };
  }
  const where = unique.length === 0 ? 'on no partition' : `on ${partitionNames(unique)}`;
  return { scope: { partitions: unique, everywhere: UNPLACED_KINDS }, where };
}

/** A placement, or null when there are no facts to place it by. */
export type ScopeResult = Placement | null;

/**
 * Where a power loss lost records: the partitions with a `power-loss` truncation that removed
 * something.
 * @example powerLossScope(facts)?.where // 'on orders-0'
 */
export function powerLossScope(facts: ReplicationFacts | undefined): ScopeResult {
  if (facts === undefined) return null;
  return placementOf(
    facts.truncations.filter(
      (truncation) => truncation.reason === 'power-loss' && truncation.removed.length > 0,
    ),
  );
}

/** Where an unclean election that `counts` happened (by configuration or forced). */
export function uncleanElectionScope(
  facts: ReplicationFacts | undefined,
  counts: (election: OracleElection) => boolean,
): ScopeResult {
  if (facts === undefined) return null;
  return placementOf(facts.elections.filter((e) => e.kind === 'unclean' && counts(e)));
}

/** The partitions of these elections, which the permission's setting already names. */
export function electionsPlacement(elections: readonly OracleElection[]): Placement {
  const placed = placementOf(elections);
  return placed.scope === undefined ? placed : { ...placed, where: '' };
}

/**
 * Where truncation to the high watermark could lose records: a leader changed (a follower
 * that becomes leader, or a leader that becomes follower, truncates to its own high watermark
 * before KIP-101) or a replica truncated to its high watermark.
 */
export function leaderChangeScope(facts: ReplicationFacts | undefined): ScopeResult {
  if (facts === undefined) return null;
  return placementOf([
    ...facts.elections.filter((election) => election.leader !== null),
    ...facts.truncations.filter((truncation) => truncation.reason === 'high-watermark'),
  ]);
}

/**
 * The partitions `clients` sent to (ok, failed or unknown: an unacknowledged acks=0 send may
 * still be in the log), as placed by the history.
 */
export function writtenScope(history: History, clients: readonly string[]): ScopeResult {
  const written: InvolvedPartition[] = [];
  for (const op of history) {
    if (!clients.includes(op.client)) continue;
    if (op.f === 'send') written.push(...sentRecordsOf(op.value));
    else if (op.f === 'txn') written.push(...op.value.sends);
  }
  return placementOf(written);
}
