/**
 * One partition change as the KRaft controller builds it (Kafka's `PartitionChangeBuilder.build`):
 * from the partition's state and a target ISR it derives the eligible leader replicas (KIP-966),
 * elects a leader if the current one is no longer valid, and returns the next state, or null when
 * nothing changes. With ELR off it is the pre-KIP-966 builder: the last ISR member is never
 * removed, and a leader comes only from the ISR (or, with unclean election, any live replica).
 */
import type { PartitionState } from '../protocol';

/** How the controller may elect for one partition change. */
export interface ElectionRules {
  /** `eligible.leader.replicas.version` ≥ 1 (`ReplicationControlManager.isElrEnabled`). */
  readonly eligibleLeaderReplicasEnabled: boolean;
  /** The topic's effective `min.insync.replicas` (`getTopicEffectiveMinIsr`). */
  readonly minIsr: number;
  /** `unclean.leader.election.enable` of the topic (`Election.UNCLEAN`). */
  readonly uncleanLeaderElectionEnable: boolean;
  /** Unfenced and not being removed (`generateLeaderAndIsrUpdates`' `isAcceptableLeader`). */
  readonly isAcceptableLeader: (replica: string) => boolean;
}

/** What a change asks for: the ISR wanted, and replicas known to have shut down uncleanly. */
export interface PartitionChangeRequest {
  readonly targetIsr: readonly string[];
  /** `setUncleanShutdownReplicas`: excluded from the ELR. */
  readonly uncleanShutdownReplicas?: readonly string[];
}

/** How the leader was chosen, when the change elects one. */
export type ElectionKind = 'clean' | 'elr' | 'unclean' | 'last-known-leader' | 'offline';

/** The next state of a partition, and how its leader was elected if it changed. */
export interface PartitionChangeResult {
  readonly state: PartitionState;
  readonly election: ElectionKind | null;
}

/**
 * Builds the change of `partition` toward `request` under `rules` (`PartitionChangeBuilder.build`
 * with `useLastKnownLeaderInBalancedRecovery` at its default, true). Returns null for a no-op.
 */
export function buildPartitionChange(
  partition: PartitionState,
  request: PartitionChangeRequest,
  rules: ElectionRules,
): PartitionChangeResult | null {
  const elrEnabled = rules.eligibleLeaderReplicasEnabled;
  let targetIsr = [...request.targetIsr];
  let targetElr = elrEnabled
    ? targetElrOf(partition, targetIsr, request.uncleanShutdownReplicas ?? [], rules.minIsr)
    : [...partition.elr];
  const elected = electLeader(partition, targetIsr, targetElr, rules);
  let leader = partition.leader;
  let uncleanIsr: string[] | null = null;
  if (elected.leader !== partition.leader) {
    leader = elected.leader;
    if (elected.leader !== null && targetElr.includes(elected.leader)) {
      targetIsr = [elected.leader];
      targetElr = targetElr.filter((replica) => replica !== elected.leader);
    }
    if (elected.unclean && elected.leader !== null) uncleanIsr = [elected.leader];
  }
  // maybeUpdateRecordElr: an unclean election or ELR off clears the ELR.
  if (uncleanIsr !== null || !elrEnabled) targetElr = [];
  let isr = partition.isr;
  if (uncleanIsr !== null) isr = uncleanIsr;
  else if ((targetIsr.length > 0 || elrEnabled) && !sameMembers(targetIsr, partition.isr)) {
    isr = targetIsr;
  }
  const leaderChanged = leader !== partition.leader;
  const lastKnownElr = elrEnabled
    ? lastKnownLeaderOf(partition, isr, leader, leaderChanged)
    : partition.lastKnownElr;
  const next: PartitionState = {
    ...partition,
    leader,
    isr,
    elr: sameMembers(targetElr, partition.elr) ? partition.elr : targetElr,
    lastKnownElr,
  };
  const changed =
    leaderChanged ||
    next.isr !== partition.isr ||
    next.elr !== partition.elr ||
    next.lastKnownElr !== partition.lastKnownElr;
  if (!changed) return null;
  return {
    state: {
      ...next,
      leaderEpoch: partition.leaderEpoch + (leaderChanged ? 1 : 0),
      partitionEpoch: partition.partitionEpoch + 1,
    },
    election: leaderChanged ? (leader === null ? 'offline' : elected.kind) : null,
  };
}

/**
 * `maybePopulateTargetElr`: at or above min ISR the ELR is empty; below it, every member of the
 * old ISR or ELR that is not in the target ISR and did not shut down uncleanly, in assignment
 * order (Kafka keeps a set; the order is the model's, for determinism).
 */
function targetElrOf(
  partition: PartitionState,
  targetIsr: readonly string[],
  uncleanShutdown: readonly string[],
  minIsr: number,
): string[] {
  if (targetIsr.length >= minIsr) return [];
  return partition.replicas.filter(
    (replica) =>
      (partition.elr.includes(replica) || partition.isr.includes(replica)) &&
      !targetIsr.includes(replica) &&
      !uncleanShutdown.includes(replica),
  );
}

/**
 * `maybeUpdateLastKnownLeader`: the first time the ISR becomes empty the last-known ELR holds
 * the leader of that moment; it is cleared once the partition has (or keeps) a leader.
 */
function lastKnownLeaderOf(
  partition: PartitionState,
  isr: readonly string[],
  leader: string | null,
  leaderChanged: boolean,
): readonly string[] {
  const current = partition.lastKnownElr;
  const isrEmptied = isr !== partition.isr && isr.length === 0;
  if (isrEmptied && partition.leader !== null) {
    if (current.length === 1 && current[0] === partition.leader) return current;
    return [partition.leader];
  }
  const hasLeader = leaderChanged ? leader !== null : partition.leader !== null;
  if (hasLeader && current.length > 0) return [];
  return current;
}

interface Elected {
  readonly leader: string | null;
  readonly unclean: boolean;
  readonly kind: ElectionKind;
}

/**
 * `electAnyLeader`: keep a valid leader; else the first valid replica in assignment order (an
 * ISR member, or an ELR member when the ISR is empty); else the last known leader when it is
 * the single last-known ELR entry and unfenced (KAFKA-19522); else, with unclean election, any
 * acceptable replica; else none.
 */
function electLeader(
  partition: PartitionState,
  targetIsr: readonly string[],
  targetElr: readonly string[],
  rules: ElectionRules,
): Elected {
  const valid = (replica: string): boolean =>
    (targetIsr.includes(replica) || (targetIsr.length === 0 && targetElr.includes(replica))) &&
    rules.isAcceptableLeader(replica);
  if (partition.leader !== null && valid(partition.leader)) {
    return { leader: partition.leader, unclean: false, kind: 'clean' };
  }
  const online = partition.replicas.find(valid);
  if (online !== undefined) {
    const kind = targetIsr.includes(online) ? 'clean' : 'elr';
    return { leader: online, unclean: false, kind };
  }
  const lastKnown = partition.lastKnownElr[0];
  if (
    rules.eligibleLeaderReplicasEnabled &&
    targetIsr.length === 0 &&
    targetElr.length === 0 &&
    partition.lastKnownElr.length === 1 &&
    lastKnown !== undefined &&
    rules.isAcceptableLeader(lastKnown)
  ) {
    return { leader: lastKnown, unclean: true, kind: 'last-known-leader' };
  }
  if (rules.uncleanLeaderElectionEnable) {
    const unclean = partition.replicas.find(rules.isAcceptableLeader);
    if (unclean !== undefined) return { leader: unclean, unclean: true, kind: 'unclean' };
  }
  return { leader: null, unclean: false, kind: 'offline' };
}

/** Same replicas in the same order (Kafka compares the lists). */
function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((replica, index) => replica === b[index]);
}
