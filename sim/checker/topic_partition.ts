/**
 * Names and map keys for a topic-partition. Checkers key their per-partition state by
 * {@link topicPartitionKey}, which is unique for every (topic, partition) pair, and print
 * partitions the way Kafka does (`orders-3`) with {@link topicPartitionName}.
 */

/**
 * A map key unique to one (topic, partition) pair. Joining with `-` is not enough in general (a
 * topic may end in `-1`), so the key is the JSON of the pair.
 * @example topicPartitionKey('orders', 3) // '["orders",3]'
 */
export function topicPartitionKey(topic: string, partition: number): string {
  return JSON.stringify([topic, partition]);
}

/**
 * The partition as Kafka prints it, for messages only.
 * @example topicPartitionName('orders', 3) // 'orders-3'
 */
export function topicPartitionName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}
