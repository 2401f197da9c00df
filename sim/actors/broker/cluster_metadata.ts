/**
 * Static cluster metadata for a cluster without replication: brokers `b1..bN`, the topics, which
 * broker leads each partition, and which broker coordinates each transactional.id. Partition
 * leaders are spread round-robin; the coordinator of an id is the leader of its
 * __transaction_state partition, `abs(javaHash(id)) % transaction.state.log.num.partitions`
 * (R3.1), whose leaders are spread the same way.
 */
import { assert, nodeId, type NodeId } from '../../kernel';
import type { TopicPartition } from '../protocol';
import { transactionStatePartitionFor } from '../coordinator/transaction_metadata';

/** The shape of the cluster every actor agrees on. */
export class ClusterMetadata {
  readonly brokers: readonly NodeId[];
  private readonly topicIndex = new Map<string, { index: number; partitions: number }>();

  constructor(
    brokerCount: number,
    topics: ReadonlyArray<{ name: string; partitions: number }>,
    private readonly transactionStateLogNumPartitions: number,
  ) {
    assert(brokerCount >= 1, 'a cluster needs at least one broker');
    this.brokers = Array.from({ length: brokerCount }, (_, index) => nodeId(`b${index + 1}`));
    topics.forEach((topic, index) =>
      this.topicIndex.set(topic.name, { index, partitions: topic.partitions }),
    );
  }

  /** Every partition of every topic, in topic then partition order. */
  allPartitions(): TopicPartition[] {
    const all: TopicPartition[] = [];
    for (const [topic, { partitions }] of this.topicIndex) {
      for (let partition = 0; partition < partitions; partition++) all.push({ topic, partition });
    }
    return all;
  }

  /** The partitions of one topic. */
  partitionsOf(topic: string): TopicPartition[] {
    const entry = this.topicIndex.get(topic);
    assert(entry !== undefined, `unknown topic ${topic}`);
    return Array.from({ length: entry.partitions }, (_, partition) => ({ topic, partition }));
  }

  /** True when the topic and partition exist. */
  exists(tp: TopicPartition): boolean {
    const entry = this.topicIndex.get(tp.topic);
    return entry !== undefined && tp.partition >= 0 && tp.partition < entry.partitions;
  }

  /** The broker that leads `tp`. */
  leaderOf(tp: TopicPartition): NodeId {
    const entry = this.topicIndex.get(tp.topic);
    assert(entry !== undefined, `unknown topic ${tp.topic}`);
    return this.brokers[(entry.index + tp.partition) % this.brokers.length] as NodeId;
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
