/**
 * The Kafka config keys the audit hands to the model, by file, with the type Kafka's `ConfigDef`
 * parses them as. Every other key of a file is listed as ignored, never refused: a real
 * `server.properties` carries `log.dirs`, listeners and thread counts the model has no use for.
 */

/** How Kafka's `ConfigDef.parseType` reads a value (after trimming it). */
export type KeyType =
  | { readonly kind: 'int' }
  /** A Java long with `ConfigDef.Range.atLeast(min)`. */
  | { readonly kind: 'long'; readonly min: number }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'string' }
  | { readonly kind: 'one-of'; readonly values: readonly string[] };

const INT: KeyType = { kind: 'int' };
const BOOLEAN: KeyType = { kind: 'boolean' };
const STRING: KeyType = { kind: 'string' };

/** Broker keys that go to the scenario's `broker` section verbatim. */
export const BROKER_KEYS: Readonly<Record<string, KeyType>> = {
  'transaction.max.timeout.ms': INT,
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': INT,
  'transaction.state.log.num.partitions': INT,
  'transaction.state.log.replication.factor': INT,
  'transaction.state.log.min.isr': INT,
  'transaction.partition.verification.enable': BOOLEAN,
  'min.insync.replicas': INT,
  'unclean.leader.election.enable': BOOLEAN,
  'log.flush.interval.messages': { kind: 'long', min: 1 },
  'replica.lag.time.max.ms': INT,
  'broker.session.timeout.ms': INT,
  'offsets.topic.num.partitions': INT,
  'offsets.topic.replication.factor': INT,
  'group.initial.rebalance.delay.ms': INT,
  'group.min.session.timeout.ms': INT,
  'group.max.session.timeout.ms': INT,
};

/** Broker keys that shape the audit's topics: auto-created topics take these. */
export const TOPIC_KEYS: Readonly<Record<string, KeyType>> = {
  'default.replication.factor': INT,
  'num.partitions': INT,
};

/** Kafka's defaults of {@link TOPIC_KEYS} (`ServerLogConfigs`, `ReplicationConfigs`). */
export const TOPIC_DEFAULTS = { 'default.replication.factor': 1, 'num.partitions': 1 } as const;

/** Producer keys the model reads. */
export const PRODUCER_KEYS: Readonly<Record<string, KeyType>> = {
  'transactional.id': STRING,
  'enable.idempotence': BOOLEAN,
  acks: { kind: 'one-of', values: ['all', '-1', '0', '1'] },
  'max.in.flight.requests.per.connection': INT,
  retries: INT,
  'request.timeout.ms': INT,
  'delivery.timeout.ms': INT,
  'retry.backoff.ms': INT,
  'transaction.timeout.ms': INT,
};

/** Consumer keys the model reads on every consumer. */
export const CONSUMER_KEYS: Readonly<Record<string, KeyType>> = {
  'isolation.level': { kind: 'one-of', values: ['read_committed', 'read_uncommitted'] },
  'auto.offset.reset': { kind: 'one-of', values: ['latest', 'earliest'] },
  'request.timeout.ms': INT,
};

/** Consumer-group keys: read only for a read-process-write application (the model's group). */
export const GROUP_KEYS: Readonly<Record<string, KeyType>> = {
  'group.id': STRING,
  'group.instance.id': STRING,
  'session.timeout.ms': INT,
  'heartbeat.interval.ms': INT,
  'max.poll.interval.ms': INT,
  'max.poll.records': INT,
  'enable.auto.commit': BOOLEAN,
  'auto.commit.interval.ms': INT,
};

/**
 * Keys only a producer's config has (`ProducerConfig`), used to tell a producer file from a
 * consumer file; the model reads only the {@link PRODUCER_KEYS} among them.
 */
export const PRODUCER_ONLY_KEYS: readonly string[] = [
  ...Object.keys(PRODUCER_KEYS).filter((key) => key !== 'request.timeout.ms'),
  'key.serializer',
  'value.serializer',
  'compression.type',
  'linger.ms',
  'batch.size',
  'buffer.memory',
  'max.block.ms',
  'max.request.size',
  'partitioner.class',
];

/** Keys only a consumer's config has (`ConsumerConfig`). */
export const CONSUMER_ONLY_KEYS: readonly string[] = [
  ...Object.keys(CONSUMER_KEYS).filter((key) => key !== 'request.timeout.ms'),
  ...Object.keys(GROUP_KEYS),
  'key.deserializer',
  'value.deserializer',
  'fetch.min.bytes',
  'fetch.max.wait.ms',
  'max.partition.fetch.bytes',
  'partition.assignment.strategy',
  'group.protocol',
];

/** Keys only a broker's config has (`KafkaConfig`), used to check the first file is one. */
export const BROKER_ONLY_KEYS: readonly string[] = [
  ...Object.keys(BROKER_KEYS),
  ...Object.keys(TOPIC_KEYS),
  'broker.id',
  'node.id',
  'process.roles',
  'log.dirs',
  'log.dir',
  'listeners',
  'controller.quorum.voters',
  'controller.quorum.bootstrap.servers',
  'zookeeper.connect',
  'num.network.threads',
  'num.io.threads',
  'log.retention.hours',
];
