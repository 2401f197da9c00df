/**
 * The runner's implementation of the nemesis's {@link ClusterView}: leaders from the partition
 * states the controller publishes, and a transactional.id's coordinator through one function,
 * {@link coordinatorOf}, asked at fault time.
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  CONTROLLER_ID,
  TRANSACTION_STATE_TOPIC,
  transactionStatePartitionFor,
  type Broker,
  type ClusterMetadata,
  type Controller,
} from '../actors';
import type { ClusterView } from '../../faults';
import type { OperatorActor } from '../workload';

/**
 * The broker coordinating `transactionalId` now: the current leader of partition
 * `transactionStatePartitionFor(id, transaction.state.log.num.partitions)` of
 * `__transaction_state` as the controller publishes it. Null while that partition is offline or
 * when no client is transactional (the topic does not exist).
 * @example coordinatorOf({ controller, metadata, numPartitions: 50 }, 'orders-tx') // 'b2'
 */
export function coordinatorOf(
  cluster: { controller: Controller; metadata: ClusterMetadata; numPartitions: number },
  transactionalId: string,
): string | null {
  const partition = transactionStatePartitionFor(transactionalId, cluster.numPartitions);
  const state = cluster.controller
    .partitionStates()
    .find((tp) => tp.topic === TRANSACTION_STATE_TOPIC && tp.partition === partition);
  return state?.leader ?? null;
}

/**
 * The broker coordinating consumer group `groupId` now: the current leader of partition
 * `abs(hash(groupId)) % offsets.topic.num.partitions` of `__consumer_offsets`
 * (GroupMetadataManager.partitionFor; the same hash as for transactional ids). Null while offline
 * or when the topic does not exist.
 * @example groupCoordinatorOf({ controller, offsetsNumPartitions: 50 }, 'etl') // 'b1'
 */
export function groupCoordinatorOf(
  cluster: { controller: Controller; offsetsNumPartitions: number },
  groupId: string,
): string | null {
  const partition = transactionStatePartitionFor(groupId, cluster.offsetsNumPartitions);
  const state = cluster.controller
    .partitionStates()
    .find((tp) => tp.topic === CONSUMER_OFFSETS_TOPIC && tp.partition === partition);
  return state?.leader ?? null;
}

/** The view of one run's cluster. */
export function clusterViewOf(cluster: {
  controller: Controller;
  metadata: ClusterMetadata;
  numPartitions: number;
  /** `offsets.topic.num.partitions`. */
  offsetsNumPartitions: number;
  clients: readonly string[];
  /** The operator node, when the scenario has operator actions. */
  operator: OperatorActor | null;
  brokers: ReadonlyArray<{ readonly id: string; readonly broker: Broker }>;
}): ClusterView {
  const { controller, metadata } = cluster;
  const brokers = metadata.brokers.map(String);
  return {
    brokers,
    nodes: [...brokers, ...cluster.clients],
    controller: CONTROLLER_ID,
    leaderOf: (topic, partition) =>
      controller.partitionStates().find((tp) => tp.topic === topic && tp.partition === partition)
        ?.leader ?? null,
    coordinatorOf: (transactionalId) => coordinatorOf(cluster, transactionalId),
    groupCoordinatorOf: (groupId) => groupCoordinatorOf(cluster, groupId),
    forceUncleanElection: (topic, partition) => controller.forceUncleanElection(topic, partition),
    runOperatorAction: (action) => cluster.operator?.run(action),
    injectProduceErrors: (id, injection) => {
      const errors = cluster.brokers.find((entry) => entry.id === id)?.broker.injectedProduceErrors;
      errors?.add(injection);
      return () => errors?.remove(injection);
    },
    failLogDir: (id, onOffline) => {
      const logDir = cluster.brokers.find((entry) => entry.id === id)?.broker.logDir;
      logDir?.fail(onOffline);
      return () => logDir?.repair();
    },
  };
}
