/**
 * The cluster as created before the run: brokers `b1..bN`, the topics with their replica
 * assignments, the internal `__transaction_state` topic when transactions are used and
 * `__consumer_offsets` when consumer groups are (Kafka creates each on the first FindCoordinator of
 * its key type; here they exist from the start). Partition p of the t-th topic has
 * `replication.factor` replicas on consecutive brokers starting at (t + p) mod N, the first being
 * the initial leader (epoch 0, ISR = all replicas). Leadership then changes only through the
 * controller. The coordinator of a transactional.id is whichever broker leads its
 * `__transaction_state` partition (TransactionStateManager.partitionFor); that of a group, its
 * `__consumer_offsets` one (GroupMetadataManager.partitionFor).
 */
import { assert, nodeId, type NodeId } from '../../kernel';
import type { PartitionState, TopicPartition } from '../protocol';
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from '../protocol';
import { transactionStatePartitionFor } from '../coordinator/transaction_metadata';

/** The `__transaction_state` topic's broker settings (EXP-05). */
export interface TransactionStateLogSpec {
  /** `transaction.state.log.num.partitions`. @default 50 */
  readonly numPartitions: number;
  /** `transaction.state.log.replication.factor`, capped at the broker count. @default 3 */
  readonly replicationFactor: number;
  /** `transaction.state.log.min.isr`. @default 2 */
  readonly minInsyncReplicas: number;
}

/**
 * The `__consumer_offsets` topic's broker settings (GroupCoordinatorConfig). Its
 * `min.insync.replicas` is the broker's: Kafka has no offsets-topic override of it.
 */
export interface ConsumerOffsetsLogSpec {
  /** `offsets.topic.num.partitions`. @default 50 */
  readonly numPartitions: number;
  /** `offsets.topic.replication.factor`, capped at the broker count. @default 3 */
  readonly replicationFactor: number;
}

/** A topic to create. */
export interface TopicSpec {
  readonly name: string;
  readonly partitions: number;
  /** @default min(3, brokers) */
  readonly replicationFactor: number;
}

/** The shape of the cluster at creation. */
export class ClusterMetadata {
  readonly brokers: readonly NodeId[];
  private readonly topicIndex = new Map<string, { index: number; spec: TopicSpec }>();

  constructor(
    brokerCount: number,
    topics: readonly TopicSpec[],
    /** null when no client is transactional: the topic is never created. */
    readonly transactionStateLog: TransactionStateLogSpec | null,
    /** null when no client uses a consumer group: the topic is never created. */
    readonly consumerOffsetsLog: ConsumerOffsetsLogSpec | null = null,
  ) {
    assert(brokerCount >= 1, 'a cluster needs at least one broker');
    this.brokers = Array.from({ length: brokerCount }, (_, index) => nodeId(`b${index + 1}`));
    const internal: TopicSpec[] = [];
    if (transactionStateLog !== null) {
      internal.push({
        name: TRANSACTION_STATE_TOPIC,
        partitions: transactionStateLog.numPartitions,
        replicationFactor: Math.min(transactionStateLog.replicationFactor, brokerCount),
      });
    }
    if (consumerOffsetsLog !== null) {
      internal.push({
        name: CONSUMER_OFFSETS_TOPIC,
        partitions: consumerOffsetsLog.numPartitions,
        replicationFactor: Math.min(consumerOffsetsLog.replicationFactor, brokerCount),
      });
    }
    [...topics, ...internal].forEach((spec, index) => {
      assert(
        spec.replicationFactor >= 1 && spec.replicationFactor <= brokerCount,
        `replication factor of ${spec.name} must be 1..${brokerCount}`,
      );
      this.topicIndex.set(spec.name, { index, spec });
    });
  }

  /** Every partition of every topic, in topic then partition order. */
  allPartitions(): TopicPartition[] {
    const all: TopicPartition[] = [];
    for (const [topic, { spec }] of this.topicIndex) {
      for (let partition = 0; partition < spec.partitions; partition++)
        all.push({ topic, partition });
    }
    return all;
  }

  /** Every partition of the scenario's own topics (not the internal ones). */
  dataPartitions(): TopicPartition[] {
    return this.allPartitions().filter((tp) => !tp.topic.startsWith('__'));
  }

  /** The `min.insync.replicas` a topic overrides (transaction.state.log.min.isr), or null. */
  minInsyncReplicasOf(topic: string): number | null {
    if (topic !== TRANSACTION_STATE_TOPIC || this.transactionStateLog === null) return null;
    return this.transactionStateLog.minInsyncReplicas;
  }

  /** The partitions of one topic. */
  partitionsOf(topic: string): TopicPartition[] {
    const entry = this.topicIndex.get(topic);
    assert(entry !== undefined, `unknown topic ${topic}`);
    return Array.from({ length: entry.spec.partitions }, (_, partition) => ({ topic, partition }));
  }

  /** True when the topic and partition exist. */
  exists(tp: TopicPartition): boolean {
    const entry = this.topicIndex.get(tp.topic);
    return entry !== undefined && tp.partition >= 0 && tp.partition < entry.spec.partitions;
  }

  /** The replicas of `tp` in assignment order. */
  replicasOf(tp: TopicPartition): NodeId[] {
    const entry = this.topicIndex.get(tp.topic);
    assert(entry !== undefined, `unknown topic ${tp.topic}`);
    const first = (entry.index + tp.partition) % this.brokers.length;
    return Array.from(
      { length: entry.spec.replicationFactor },
      (_, offset) => this.brokers[(first + offset) % this.brokers.length] as NodeId,
    );
  }

  /** The initial leader of `tp`. */
  leaderOf(tp: TopicPartition): NodeId {
    return this.replicasOf(tp)[0] as NodeId;
  }

  /** Every partition's state at creation. */
  initialStates(): PartitionState[] {
    return this.allPartitions().map((tp) => {
      const replicas = this.replicasOf(tp);
      return {
        topic: tp.topic,
        partition: tp.partition,
        replicas,
        leader: replicas[0] ?? null,
        leaderEpoch: 0,
        partitionEpoch: 0,
        isr: replicas,
        elr: [],
        lastKnownElr: [],
      };
    });
  }

  /**
   * The `__consumer_offsets` partition of `groupId` (GroupMetadataManager.partitionFor), or null
   * without the topic.
   */
  consumerOffsetsPartition(groupId: string): TopicPartition | null {
    if (this.consumerOffsetsLog === null) return null;
    return {
      topic: CONSUMER_OFFSETS_TOPIC,
      partition: transactionStatePartitionFor(groupId, this.consumerOffsetsLog.numPartitions),
    };
  }

  /**
   * The `__transaction_state` partition that holds `transactionalId`
   * (TransactionStateManager.partitionFor).
   */
  transactionStatePartition(transactionalId: string): TopicPartition {
    assert(this.transactionStateLog !== null, 'no __transaction_state topic in this cluster');
    return {
      topic: TRANSACTION_STATE_TOPIC,
      partition: transactionStatePartitionFor(
        transactionalId,
        this.transactionStateLog.numPartitions,
      ),
    };
  }
}
