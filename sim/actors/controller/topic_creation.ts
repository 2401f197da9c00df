/**
 * The controller's topic and partition creation (ReplicationControlManager.createTopics and
 * createPartitions), as pure functions of the partitions it has: the checks in Kafka's order with
 * Kafka's errors and messages, then the new partitions' states. Each new partition's replicas are
 * `replicationFactor` consecutive brokers from (topic index + partition) mod N, unfenced brokers
 * first (Kafka's StripedReplicaPlacer also prefers unfenced brokers but starts at a random one);
 * its ISR is the unfenced replicas and its leader the first of them, at leader epoch 0 and
 * partition epoch 0 (ReplicationControlManager.buildPartitionRegistration).
 */
import type { KafkaErrorCode, PartitionState, TopicResult } from '../protocol';

/** What creation reads of the controller. */
export interface CreationCluster {
  /** Every registered broker, in id order. */
  readonly brokers: readonly string[];
  isFenced(broker: string): boolean;
  /** Each topic's partition count, in creation order. */
  readonly partitionCounts: ReadonlyMap<string, number>;
}

/** A topic's outcome and, on success, the partitions it adds. */
export interface Creation {
  readonly result: TopicResult;
  readonly states: readonly PartitionState[];
}

function failed(name: string, error: KafkaErrorCode, errorMessage: string): Creation {
  return { result: { name, error, errorMessage }, states: [] };
}

/** CreateTopics for one topic (ReplicationControlManager.createTopic). */
export function createTopic(
  topic: {
    readonly name: string;
    readonly numPartitions: number;
    readonly replicationFactor: number;
  },
  cluster: CreationCluster,
): Creation {
  const { name, numPartitions, replicationFactor } = topic;
  if (cluster.partitionCounts.has(name)) {
    return failed(name, 'TOPIC_ALREADY_EXISTS', `Topic '${name}' already exists.`);
  }
  if (replicationFactor <= 0) {
    const detail = 'Replication factor must be larger than 0, or -1 to use the default value.';
    return failed(name, 'INVALID_REPLICATION_FACTOR', detail);
  }
  if (numPartitions <= 0) {
    const detail = 'Number of partitions was set to an invalid non-positive value.';
    return failed(name, 'INVALID_PARTITIONS', detail);
  }
  const topicIndex = cluster.partitionCounts.size;
  return place(name, { topicIndex, from: 0, to: numPartitions, replicationFactor }, cluster);
}

/** CreatePartitions for one topic (ReplicationControlManager.createPartitions). */
export function createPartitions(
  topic: { readonly name: string; readonly count: number },
  cluster: CreationCluster,
  replicationFactorOf: (topic: string) => number,
): Creation {
  const { name, count } = topic;
  const current = cluster.partitionCounts.get(name);
  if (current === undefined) {
    return failed(
      name,
      'UNKNOWN_TOPIC_OR_PARTITION',
      'This server does not host this topic-partition.',
    );
  }
  if (count === current) {
    return failed(name, 'INVALID_PARTITIONS', `Topic already has ${current} partition(s).`);
  }
  if (count < current) {
    const detail =
      `The topic ${name} currently has ${current} partition(s); ` +
      `${count} would not be an increase.`;
    return failed(name, 'INVALID_PARTITIONS', detail);
  }
  const topicIndex = [...cluster.partitionCounts.keys()].indexOf(name);
  const replicationFactor = replicationFactorOf(name);
  return place(name, { topicIndex, from: current, to: count, replicationFactor }, cluster);
}

/** StripedReplicaPlacer.place's checks, then partitions `from` up to `to` of `name`. */
function place(
  name: string,
  range: { topicIndex: number; from: number; to: number; replicationFactor: number },
  cluster: CreationCluster,
): Creation {
  const { brokers } = cluster;
  const factor = range.replicationFactor;
  const unable = `Unable to replicate the partition ${factor} time(s): `;
  if (brokers.every((broker) => cluster.isFenced(broker))) {
    return failed(name, 'INVALID_REPLICATION_FACTOR', `${unable}All brokers are currently fenced.`);
  }
  if (factor > brokers.length) {
    const detail =
      `${unable}The target replication factor of ${factor} cannot be reached because only ` +
      `${brokers.length} broker(s) are registered.`;
    return failed(name, 'INVALID_REPLICATION_FACTOR', detail);
  }
  const states: PartitionState[] = [];
  for (let partition = range.from; partition < range.to; partition++) {
    const start = (range.topicIndex + partition) % brokers.length;
    const rotated = brokers.map(
      (_, offset) => brokers[(start + offset) % brokers.length] as string,
    );
    const ordered = [
      ...rotated.filter((broker) => !cluster.isFenced(broker)),
      ...rotated.filter((broker) => cluster.isFenced(broker)),
    ];
    const replicas = ordered.slice(0, factor);
    const isr = replicas.filter((broker) => !cluster.isFenced(broker));
    states.push({
      topic: name,
      partition,
      replicas,
      leader: isr[0] ?? null,
      leaderEpoch: 0,
      partitionEpoch: 0,
      isr,
      elr: [],
      lastKnownElr: [],
    });
  }
  return { result: { name, error: 'NONE', errorMessage: null }, states };
}
