/**
 * Why a record is gone from a partition's final log, from the oracle's truncations and leader
 * elections (both absent for histories recorded outside the simulator: then nothing is known).
 *
 * Every truncation whose `removed` list holds the value is a candidate, with two filters: only
 * the last removal per broker counts (an earlier one was undone, since the broker fetched the
 * value again before losing it again; legacy truncation to the high watermark does this all the
 * time, harmlessly), and a broker whose final replica still holds the value is no cause. Each
 * candidate is classified on its own:
 * - `power-loss` → `lost-on-power-loss` (the unflushed tail was lost);
 * - `high-watermark` → `truncated-by-legacy-hw-truncation` (pre-KIP-101 truncation to the
 *   follower's own, lagging high watermark: BUG-23, Appendix A8);
 * - `diverging-epoch` or `leader-behind` (truncations a leader change causes,
 *   AbstractFetcherThread.getOffsetTruncationState, handleOutOfRangeError) →
 *   `truncated-after-unclean-election` when an unclean election of the partition happened at or
 *   before it (A6), else `truncated-after-clean-election` (e.g. an acks=1 write on a deposed
 *   leader, A4).
 * The cause is the candidate whose class comes first in that order of blame (unclean election,
 * legacy truncation, power loss, clean election), the earliest within a class: an unclean
 * election or a broken truncation rule explains a loss better than the routine truncation that
 * follows any leader change.
 */
import type { Oracle, OracleElection, OracleRecord, OracleTruncation } from '../history';
import { oracleBatchesOf } from '../history';
import { topicPartitionKey } from './topic_partition';
import { ValueIndex } from './value_index';

/** Why the oracle thinks a record left the final log. */
export type TruncationClassification =
  | 'truncated-after-unclean-election'
  | 'truncated-by-legacy-hw-truncation'
  | 'lost-on-power-loss'
  | 'truncated-after-clean-election';

/** Classes in order of blame: the first that applies to some candidate names the cause. */
const BLAME_ORDER: readonly TruncationClassification[] = [
  'truncated-after-unclean-election',
  'truncated-by-legacy-hw-truncation',
  'lost-on-power-loss',
  'truncated-after-clean-election',
];

/** The truncation that removed a value, and the election around it. */
export interface TruncationCause {
  readonly classification: TruncationClassification;
  readonly truncation: OracleTruncation;
  /** The copy of the record the truncation removed. */
  readonly record: OracleRecord;
  /**
   * The unclean election before the truncation for `truncated-after-unclean-election`, else the
   * last election that named a leader at or before it; null when none is recorded.
   */
  readonly election: OracleElection | null;
}

/** One removed copy of a value, with the truncation's position in the oracle for tie-breaks. */
interface Removal {
  readonly truncation: OracleTruncation;
  readonly record: OracleRecord;
  readonly position: number;
}

/** The oracle's replication facts, indexed per partition (keyed by `topicPartitionKey`). */
export interface ReplicationIndex {
  /** Removed copies per partition and value, in time order. */
  readonly removals: ReadonlyMap<string, ReadonlyMap<number, readonly Removal[]>>;
  /** Elections per partition, in time order. */
  readonly elections: ReadonlyMap<string, readonly OracleElection[]>;
  /** The data values each broker's final replica holds, per partition then broker. */
  readonly replicaValues: ReadonlyMap<string, ReadonlyMap<string, ValueIndex>>;
}

/**
 * Indexes the oracle's truncations, elections and replicas; empty when it has none.
 * @example buildReplicationIndex(oracle).elections.get(topicPartitionKey('t', 0))?.length
 */
export function buildReplicationIndex(oracle: Oracle): ReplicationIndex {
  const ordered = (oracle.truncations ?? [])
    .map((truncation, position) => ({ truncation, position }))
    .sort((a, b) => a.truncation.timeUs - b.truncation.timeUs || a.position - b.position);
  const removals = new Map<string, Map<number, Removal[]>>();
  for (const { truncation, position } of ordered) {
    const key = topicPartitionKey(truncation.topic, truncation.partition);
    const byValue = removals.get(key) ?? new Map<number, Removal[]>();
    removals.set(key, byValue);
    for (const record of truncation.removed) {
      if (record.control !== undefined || record.value === null) continue;
      const known = byValue.get(record.value) ?? [];
      known.push({ truncation, record, position });
      byValue.set(record.value, known);
    }
  }
  const elections = new Map<string, OracleElection[]>();
  const electionsInOrder = (oracle.elections ?? [])
    .map((election, position) => ({ election, position }))
    .sort((a, b) => a.election.timeUs - b.election.timeUs || a.position - b.position);
  for (const { election } of electionsInOrder) {
    const key = topicPartitionKey(election.topic, election.partition);
    const known = elections.get(key) ?? [];
    known.push(election);
    elections.set(key, known);
  }
  return { removals, elections, replicaValues: indexReplicaValues(oracle) };
}

function indexReplicaValues(oracle: Oracle): Map<string, Map<string, ValueIndex>> {
  const byPartition = new Map<string, Map<string, ValueIndex>>();
  for (const partition of oracle.partitions) {
    const byBroker = new Map<string, ValueIndex>();
    for (const replica of partition.replicas ?? []) {
      byBroker.set(replica.broker, new ValueIndex(oracleBatchesOf(replica)));
    }
    byPartition.set(topicPartitionKey(partition.topic, partition.partition), byBroker);
  }
  return byPartition;
}

/**
 * The truncation that best explains why `value` is gone from its partition, or null when no
 * recorded truncation removed it.
 * @example explainTruncation(index, { topic: 't', partition: 0, value: 17 })?.classification
 */
export function explainTruncation(
  index: ReplicationIndex,
  lost: { readonly topic: string; readonly partition: number; readonly value: number },
): TruncationCause | null {
  const key = topicPartitionKey(lost.topic, lost.partition);
  const removals = index.removals.get(key)?.get(lost.value) ?? [];
  const lastByBroker = new Map<string, Removal>();
  for (const removal of removals) lastByBroker.set(removal.truncation.broker, removal);
  const replicaValues = index.replicaValues.get(key);
  const lasting = [...lastByBroker.values()].filter(
    (removal) =>
      (replicaValues?.get(removal.truncation.broker)?.offsetsOf(lost.value).length ?? 0) === 0,
  );
  // When every broker got the value back, the loss is still one of theirs: judge them all.
  const candidates = lasting.length > 0 ? lasting : [...lastByBroker.values()];
  const elections = index.elections.get(key) ?? [];
  let best: { readonly cause: TruncationCause; readonly removal: Removal } | null = null;
  for (const removal of candidates) {
    const cause = classifyRemoval(removal, elections);
    if (best === null || compareCandidates({ cause, removal }, best) < 0) {
      best = { cause, removal };
    }
  }
  return best?.cause ?? null;
}

/** Blame order, then time, then the truncation's position in the oracle: a total order. */
function compareCandidates(
  a: { readonly cause: TruncationCause; readonly removal: Removal },
  b: { readonly cause: TruncationCause; readonly removal: Removal },
): number {
  const blame =
    BLAME_ORDER.indexOf(a.cause.classification) - BLAME_ORDER.indexOf(b.cause.classification);
  if (blame !== 0) return blame;
  const time = a.removal.truncation.timeUs - b.removal.truncation.timeUs;
  return time !== 0 ? time : a.removal.position - b.removal.position;
}

function classifyRemoval(removal: Removal, elections: readonly OracleElection[]): TruncationCause {
  const { truncation, record } = removal;
  const before = elections.filter((election) => election.timeUs <= truncation.timeUs);
  const lastWithLeader = lastOf(before.filter((election) => election.leader !== null));
  const cause = { truncation, record, election: lastWithLeader };
  switch (truncation.reason) {
    case 'power-loss':
      return { ...cause, classification: 'lost-on-power-loss' };
    case 'high-watermark':
      return { ...cause, classification: 'truncated-by-legacy-hw-truncation' };
    case 'diverging-epoch':
    case 'leader-behind': {
      const unclean = lastOf(before.filter((election) => election.kind === 'unclean'));
      if (unclean !== null) {
        return { ...cause, election: unclean, classification: 'truncated-after-unclean-election' };
      }
      return { ...cause, classification: 'truncated-after-clean-election' };
    }
    default:
      return assertNever(truncation.reason);
  }
}

function lastOf<T>(items: readonly T[]): T | null {
  return items[items.length - 1] ?? null;
}

function assertNever(value: never): never {
  throw new Error(`Unexpected truncation reason: ${String(value)}`);
}

/**
 * The cause in one clause, for messages.
 * @example describeTruncationCause(cause)
 * // 'removed by broker b1 at 500us (diverging-epoch truncation to offset 1), after the unclean
 * //  election of b3 at leaderEpoch 2 at 400us'
 */
export function describeTruncationCause(cause: TruncationCause): string {
  const { truncation, election } = cause;
  const removed =
    `removed by broker ${truncation.broker} at ${truncation.timeUs}us ` +
    `(${truncation.reason} truncation to offset ${truncation.toOffset})`;
  if (election === null) return `${removed}, with no election recorded before it`;
  const leader = election.leader ?? 'no leader';
  return (
    `${removed}, after the ${election.kind} election of ${leader} at leaderEpoch ` +
    `${election.leaderEpoch} at ${election.timeUs}us`
  );
}
