/**
 * Creates one partition replica of a broker with its empty log (Partition.createLogIfNotExists):
 * for every partition of the cluster at start, and for a partition the controller creates during
 * the run when its first change reaches the broker (ReplicaManager.applyDelta).
 */
import type { PartitionState } from '../protocol';
import { IGNORE_OBSERVATIONS } from '../protocol';
import { PartitionLog } from './partition_log';
import { PartitionReplica } from './partition_replica';
import type { ReplicaManagerOptions } from './replica_manager_options';
import { withProperties } from '../options';

/** A replica of `state`'s partition on `options.brokerId`, seeing `fencedBrokers` as ineligible. */
export function newPartitionReplica(
  options: ReplicaManagerOptions,
  state: PartitionState,
  fencedBrokers: PartitionReplica['ineligibleBrokers'],
): PartitionReplica {
  const flushEvery = options.replication.logFlushIntervalMessages ?? null;
  const log = new PartitionLog(state.topic, state.partition, options.bugs, flushEvery);
  const minIsr = options.minInsyncReplicasOf(state.topic);
  const settings =
    minIsr === null
      ? options.replication
      : withProperties(options.replication, { minInsyncReplicas: minIsr });
  const replica = new PartitionReplica(options.brokerId, log, state, settings);
  replica.ineligibleBrokers = fencedBrokers;
  replica.reportTo(options.observe ?? IGNORE_OBSERVATIONS);
  return replica;
}
