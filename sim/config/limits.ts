/**
 * The largest value each count, size and duration of a scenario file may take. Where Kafka has a
 * limit of its own it is Kafka's: timeouts and intervals are Java `int` milliseconds
 * (`ConfigDef.Type.INT`, at most 2^31 − 1), `max.in.flight.requests.per.connection` is at most 5
 * with idempotence (`ProducerConfig`), a topic name has at most 249 characters
 * (`org.apache.kafka.common.internals.Topic`). Elsewhere the limit keeps one run within the
 * memory and time of a laptop: a run at the limits stops on its event budget (`run.events.max`,
 * exit 4) or its history bound, never on the heap. Every time is stored in integer
 * microseconds (ms × 1000), so every millisecond limit keeps `(duration + heal + liveness +
 * skew) × 1000` a safe integer by construction. docs/scenarios.md lists the same limits.
 */

/** Java's `Integer.MAX_VALUE`: the largest value of an `INT` Kafka config. */
export const JAVA_INT_MAX = 2_147_483_647;

/** The maxima, by what they bound. */
export const LIMITS = {
  /** `cluster.brokers`. */
  brokers: 100,
  /** `cluster.topics` entries. */
  topics: 100,
  /** `partitions` of one topic. */
  partitionsPerTopic: 1_000,
  /** The partitions of all topics together, internal topics included. */
  partitionsTotal: 10_000,
  /** `transaction.state.log.num.partitions` and `offsets.topic.num.partitions`. */
  internalTopicPartitions: 1_000,
  /** `clients` entries. */
  clients: 100,
  /** Any time or interval in milliseconds: a Java int. */
  ms: JAVA_INT_MAX,
  /** `run.events.max`. */
  eventsMax: 100_000_000,
  /** `transactions` and `sends` of one client. */
  workloadCount: 10_000_000,
  /** `records.per.transaction`. */
  recordsPerTransaction: 1_000_000,
  /** `records.per.send` (one batch). */
  recordsPerSend: 10_000,
  /** `max.poll.records`. */
  maxPollRecords: 10_000,
  /** `network.delay.us.min` and `delay.us.max`: one minute in microseconds. */
  networkDelayUs: 60_000_000,
  /** `count` of a link fault, and the `expect` lists. */
  listOrCount: 1_000_000,
  /** `skew.ms`, either way. */
  clockSkewMs: JAVA_INT_MAX,
  /** Bytes of a scenario file: far above the largest sensible scenario. */
  fileBytes: 1_048_576,
  /** Characters of a name or id (`name`, `transactional.id`, `group.id`, client names). */
  nameLength: 249,
} as const;
