/**
 * Names and map keys for a topic-partition. Checkers key their per-partition state by
 * {@link topicPartitionKey}, which is unique for every (topic, partition) pair, and print
 * partitions the way Kafka does (`orders-3`) with {@link topicPartitionName}.
 */

/**
 * Separates the fields of a composite map key. Kafka topic names hold only letters, digits,
 * `.`, `_` and `-`, and the other fields are numbers or node names, so it never occurs in a
 * field: the key is unique to its fields, as their JSON would be, at a fraction of the cost
 * (checkers build one per delivered record).
 */
export const KEY_SEPARATOR = '\u0000';

/**
 * A map key unique to one (topic, partition) pair. Joining with `-` is not enough in general (a
 * topic may end in `-1`), so the fields are joined with {@link KEY_SEPARATOR}.
 * @example topicPartitionKey('orders', 3) // 'orders\u00003'
 */
export function topicPartitionKey(topic: string, partition: number): string {
  return `${topic}${KEY_SEPARATOR}${partition}`;
}

/**
 * A map key unique to one record offset, optionally of one client or process: the fields
 * joined with {@link KEY_SEPARATOR}.
 * @example recordKey('orders', 3, 17, 'reader') // 'orders\u00003\u000017\u0000reader'
 */
export function recordKey(topic: string, partition: number, offset: number, owner = ''): string {
  return `${topic}${KEY_SEPARATOR}${partition}${KEY_SEPARATOR}${offset}${KEY_SEPARATOR}${owner}`;
}

/**
 * The partition as Kafka prints it, for messages only.
 * @example topicPartitionName('orders', 3) // 'orders-3'
 */
export function topicPartitionName(topic: string, partition: number): string {
  return `${topic}-${partition}`;
}
