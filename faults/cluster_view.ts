/**
 * What the nemesis may ask of the cluster while a run is going, and the one resolver of node
 * references. Faults never touch actor internals (style rule 17): the runner implements this
 * view from the controller's published partition states, and a forced unclean election goes
 * through the controller's public admin operation.
 */
import type { OperatorFault } from './kinds/operator';
import type { ProduceErrorInjection } from '../sim/actors';

/** The cluster as the nemesis sees it at the moment a fault starts. */
export interface ClusterView {
  /** The broker nodes, `b1` … `bN`. */
  readonly brokers: readonly string[];
  /** Every node a partition may cut: brokers and clients (not the controller). */
  readonly nodes: readonly string[];
  /** The controller's node id. */
  readonly controller: string;
  /** The current leader of a topic-partition, or null while it is offline. */
  leaderOf(topic: string, partition: number): string | null;
  /**
   * The broker coordinating `transactionalId` now: the leader of its `__transaction_state`
   * partition (`transactionStatePartitionFor(id, transaction.state.log.num.partitions)`), or
   * null while that partition is offline.
   */
  coordinatorOf(transactionalId: string): string | null;
  /**
   * The broker coordinating consumer group `groupId` now: the leader of its
   * `__consumer_offsets` partition, or null while that partition is offline or absent.
   */
  groupCoordinatorOf(groupId: string): string | null;
  /** Forces an unclean election of a partition; returns the new leader, or null if none. */
  forceUncleanElection(topic: string, partition: number): string | null;
  /**
   * Starts an operator action (KIP-664) through the run's admin client; its result is recorded
   * in the history when the admin calls complete.
   */
  runOperatorAction(action: OperatorFault): void;
  /**
   * Makes `broker` answer the next Produce requests of one partition with the injection's
   * errors, in order; returns how to take the injection back.
   */
  injectProduceErrors(broker: string, injection: ProduceErrorInjection): () => void;
  /**
   * Fails the disk under `broker`'s log directory: `onOffline` runs when the first write finds
   * it; returns how to repair it.
   */
  failLogDir(broker: string, onOffline: () => void): () => void;
}

/** The prefix of a reference to a partition's current leader: `leader:orders-0`. */
export const LEADER_REF = 'leader:';
/** The prefix of a reference to a transactional.id's coordinator: `coordinator:orders-tx`. */
export const COORDINATOR_REF = 'coordinator:';
/** The prefix of a reference to a consumer group's coordinator: `group-coordinator:etl`. */
export const GROUP_COORDINATOR_REF = 'group-coordinator:';

/**
 * Splits `orders-0` into topic and partition at the last dash.
 * @example parseTopicPartition('my-topic-2') // { topic: 'my-topic', partition: 2 }
 */
export function parseTopicPartition(text: string): { topic: string; partition: number } | null {
  const match = /^(.+)-(\d+)$/.exec(text);
  if (match === null) return null;
  return { topic: match[1] as string, partition: Number(match[2]) };
}

/**
 * Resolves a node reference at fault time: a plain node name is itself; `leader:T-P` is the
 * current leader of T-P; `coordinator:ID` is the current coordinator of ID and
 * `group-coordinator:G` the current group coordinator of G. Null when the
 * referenced broker does not exist now (the partition is offline).
 * @example resolveNode('leader:orders-0', view) // 'b2'
 */
export function resolveNode(ref: string, view: ClusterView): string | null {
  if (ref.startsWith(LEADER_REF)) {
    const tp = parseTopicPartition(ref.slice(LEADER_REF.length));
    return tp === null ? null : view.leaderOf(tp.topic, tp.partition);
  }
  if (ref.startsWith(COORDINATOR_REF)) return view.coordinatorOf(ref.slice(COORDINATOR_REF.length));
  if (ref.startsWith(GROUP_COORDINATOR_REF)) {
    return view.groupCoordinatorOf(ref.slice(GROUP_COORDINATOR_REF.length));
  }
  return ref;
}
