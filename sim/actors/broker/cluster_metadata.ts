/**
 * The cluster as created before the run: brokers `b1..bN`, the topics with their replica
 * assignments, and where each transactional.id's coordinator lives. Partition p of the t-th
 * topic has `replication.factor` replicas on consecutive brokers starting at (t + p) mod N, the
 * first being the initial leader (epoch 0, ISR = all replicas). Leadership then changes only
 * through the controller. The coordinator of an id is the broker that initially leads its
 * __transaction_state partition, `abs(javaHash(id)) % transaction.state.log.num.partitions`
 * (R3.1), placed the same round-robin way.
 */
import { assert, nodeId, type NodeId } from '../../kernel';
import type { PartitionState, TopicPartition } from '../protocol';
import { transactionStatePartitionFor } from '../coordinator/transaction_metadata';

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
    private readonly transactionStateLogNumPartitions: number,
  ) {
    assert(brokerCount >= 1, 'a cluster needs at least one broker');
    this.brokers = Array.from({ length: brokerCount }, (_, index) => nodeId(`b${index + 1}`));
    topics.forEach((spec, index) => {
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
        ...tp,
        replicas,
        leader: replicas[0] ?? null,
        leaderEpoch: 0,
        partitionEpoch: 0,
        isr: replicas,
      };
    });
  }

  /** The broker that coordinates `transactionalId`. */
  coordinatorFor(transactionalId: string): NodeId {
    const partition = transactionStatePartitionFor(
      transactionalId,
      this.transactionStateLogNumPartitions,
    );
    return this.brokers[partition % this.brokers.length] as NodeId;
  }
}
