/**
 * The resolved configuration of one scenario: what the loader produces from a YAML file after
 * validation and defaults, and what the runner consumes. Kafka settings keep Kafka's keys
 * verbatim in the file (`transaction.timeout.ms`) and are mapped once, here, to camelCase fields
 * with the unit last (`transactionTimeoutMs`). Defaults are Kafka's own (ProducerConfig,
 * ConsumerConfig and the broker configs). Times in
 * files are milliseconds; the kernel converts to microseconds.
 */

import type { ConsumerConfig, IsolationLevel, ProducerConfig } from '../sim/actors';
import type { FaultSpec, RandomNemesisConfig } from './fault_specs';
import type { BugId } from './kafka_versions';
import type {
  ClientSpec,
  PipelineSpec,
  PollsSpec,
  SendsSpec,
  TransactionsSpec,
} from '../sim/config';

export type { FaultSpec, RandomFaultKindSpec, RandomNemesisConfig, RatioSpec } from './fault_specs';

/** A consumer's isolation level (`isolation.level`). */
export type { IsolationLevel };

/** Producer settings, from Kafka's producer config keys: the client model's own type. */
export type ProducerSettings = ProducerConfig;

/** Consumer settings, from Kafka's consumer config keys: the client model's own type. */
export type ConsumerSettings = ConsumerConfig;

/** What a transactional producer's application does. */
export type TransactionalWorkload = TransactionsSpec;

/** What a non-transactional producer's application does. */
export type SendWorkload = SendsSpec;

/** What a consumer's application does: poll every `poll.interval.ms`. */
export type PollWorkload = PollsSpec;

/** What a read-process-write pipeline instance does. */
export type PipelineWorkload = PipelineSpec;

/** A producer client of the scenario. */
export type ProducerClient = Extract<ClientSpec, { readonly role: 'producer' }>;

/** A consumer client of the scenario. */
export type ConsumerClient = Extract<ClientSpec, { readonly role: 'consumer' }>;

/** A read-process-write pipeline instance: a group consumer and a transactional producer. */
export type PipelineClient = Extract<ClientSpec, { readonly role: 'pipeline' }>;

/** Any client. */
export type ClientConfig = ProducerClient | ConsumerClient | PipelineClient;

/** Broker settings, from Kafka's broker config keys. */
export interface BrokerSettings {
  /** `transaction.max.timeout.ms`. @default 900000 */
  readonly transactionMaxTimeoutMs: number;
  /** `transaction.abort.timed.out.transaction.cleanup.interval.ms`. @default 10000 */
  readonly transactionAbortTimedOutTransactionCleanupIntervalMs: number;
  /** `transaction.state.log.num.partitions`: places coordinators. @default 50 */
  readonly transactionStateLogNumPartitions: number;
  /** `transactional.id.expiration.ms`: idle transactional.ids are removed. @default 604800000 */
  readonly transactionalIdExpirationMs: number;
  /** `transaction.remove.expired.transaction.cleanup.interval.ms`. @default 3600000 */
  readonly transactionRemoveExpiredTransactionCleanupIntervalMs: number;
  /** `transaction.state.log.replication.factor` (capped at the broker count). @default 3 */
  readonly transactionStateLogReplicationFactor: number;
  /** `transaction.state.log.min.isr`. @default 2 */
  readonly transactionStateLogMinIsr: number;
  /** `transaction.partition.verification.enable` (KIP-890 part 1). @default true from 3.6 */
  readonly transactionPartitionVerificationEnable: boolean;
  /** `min.insync.replicas` (broker-wide; capped at each topic's replication factor). @default 1 */
  readonly minInsyncReplicas: number;
  /** `unclean.leader.election.enable`. @default false */
  readonly uncleanLeaderElectionEnable: boolean;
  /** `replica.lag.time.max.ms`: a follower this far behind leaves the ISR. @default 30000 */
  readonly replicaLagTimeMaxMs: number;
  /** `replica.fetch.wait.max.ms`: how long a leader parks a follower's fetch. @default 500 */
  readonly replicaFetchWaitMaxMs: number;
  /** `replica.fetch.min.bytes`: the bytes a follower's fetch waits for. @default 1 */
  readonly replicaFetchMinBytes: number;
  /**
   * `log.flush.interval.messages`: a log is fsynced once this many messages were appended since
   * its last flush; null for Kafka's default, Long.MAX_VALUE (flushing left to the OS).
   */
  readonly logFlushIntervalMessages: number | null;
  /** `producer.id.expiration.ms`: idle producer state is dropped after this. @default 86400000 */
  readonly producerIdExpirationMs: number;
  /** `producer.id.expiration.check.interval.ms`. @default 600000 */
  readonly producerIdExpirationCheckIntervalMs: number;
  /** `broker.session.timeout.ms`: a silent broker is fenced after this. @default 9000 */
  readonly brokerSessionTimeoutMs: number;
  /** `offsets.topic.num.partitions`: places group coordinators. @default 50 */
  readonly offsetsTopicNumPartitions: number;
  /** `offsets.topic.replication.factor` (capped at the broker count). @default 3 */
  readonly offsetsTopicReplicationFactor: number;
  /** `group.initial.rebalance.delay.ms`: an empty group's first rebalance waits. @default 3000 */
  readonly groupInitialRebalanceDelayMs: number;
  /** `group.min.session.timeout.ms`. @default 6000 */
  readonly groupMinSessionTimeoutMs: number;
  /** `group.max.session.timeout.ms`. @default 1800000 */
  readonly groupMaxSessionTimeoutMs: number;
  /**
   * `offsets.retention.minutes`: an Empty group's offsets are removed this long after it became
   * Empty (KIP-211). @default 10080 from 2.0 (KIP-186), 1440 before
   */
  readonly offsetsRetentionMinutes: number;
  /** `offsets.retention.check.interval.ms`: how often the coordinator looks. @default 600000 */
  readonly offsetsRetentionCheckIntervalMs: number;
  /**
   * `inter.broker.protocol.version`; only the `__consumer_offsets` record schemas depend on it
   * here (offset commit value v1 and group metadata value v1 below 2.1). @default kafka.version
   */
  readonly interBrokerProtocolVersion: string;
}

/** Protocol feature levels: each defaults to the value of the scenario's `kafka.version`. */
export interface ProtocolSwitches {
  /**
   * `transaction.version`: the cluster's finalized feature level (KIP-890 part 2, 4.0+): 2 bumps
   * the epoch at every transaction end and lets partition leaders add partitions; 0 and 1 behave
   * alike here. @default 2 from 4.0, else 0
   */
  readonly transactionVersion: number;
  /**
   * `eligible.leader.replicas.version`: the cluster's KIP-966 feature level. At 1 the controller
   * keeps eligible leader replicas, lets the ISR become empty, elects from the ELR and removes
   * uncleanly restarted brokers from ISR and ELR. @default 1
   */
  readonly eligibleLeaderReplicasVersion: number;
}

/**
 * Bug switches by public id (`KAFKA-16352`, `redpanda-data/redpanda#3039`): true turns the bug
 * on. Each defaults to whether the scenario's `kafka.version` had it (scenarios/kafka_versions.ts
 * is the table); the one test-only mutation, `partition.skip.producer.epoch.check`, is off in
 * every version.
 */
export type BugSwitches = Readonly<Record<BugId, boolean>>;

/** What the scenario says must hold. */
export interface Expectations {
  /**
   * Anomaly kinds this configuration is known to produce: each must appear in at least
   * `detectPercentMin` percent of the seeds. Any kind neither here nor in `allowed` fails a run.
   */
  readonly anomalies: readonly string[];
  /** Further kinds the configuration permits without requiring them (`expect.allowed`). */
  readonly allowed: readonly string[];
  /**
   * For a known-bad file: the share of seeds in which each expected anomaly must appear, in
   * percent. @default 0
   */
  readonly detectPercentMin: number;
  /** Clients that must be fenced (receive PRODUCER_FENCED or INVALID_PRODUCER_EPOCH). */
  readonly fenced: readonly string[];
  /**
   * `liveness`: whether the run must converge after heal. false for a configuration known to
   * stall (a hanging transaction pins the last stable offset for good): the liveness verdict is
   * still reported but does not fail the run. @default true
   */
  readonly liveness: boolean;
  /**
   * `stall`: the configuration is known to stall for good (a transaction stuck in PrepareCommit):
   * every seed must fail to converge after heal, so a seed that converges fails the run. Implies
   * `liveness: false`. @default false
   */
  readonly stall: boolean;
}

/** One topic of the cluster. */
export interface TopicConfig {
  readonly name: string;
  /** @default 1 */
  readonly partitions: number;
  /** `replication.factor`. @default min(3, brokers) */
  readonly replicationFactor: number;
}

/** A whole resolved scenario. */
export interface ScenarioConfig {
  /** The file it came from, as given. */
  readonly file: string;
  readonly name: string;
  readonly description: string;
  /** SHA-256 of the file's bytes, hex (reports and reproduce lines). */
  readonly hash: string;
  readonly brokers: number;
  readonly topics: readonly TopicConfig[];
  readonly broker: BrokerSettings;
  /**
   * The Kafka release modelled (`kafka.version`, or `--kafka-version` which replaces it): the
   * defaults of `bugs`, `protocol` and the version-dependent broker settings. @default '4.5'
   */
  readonly kafkaVersion: string;
  /** True when `kafkaVersion` came from `--kafka-version` (it joins the reproduce command). */
  readonly kafkaVersionFromCommandLine: boolean;
  readonly bugs: BugSwitches;
  /**
   * For each client bug (confluentinc/librdkafka#…), whether the scenario's clients have it by
   * their `client.version`: what the report compares `bugs` with. Absent: none.
   */
  readonly clientVersionBugs?: Readonly<Partial<Record<BugId, boolean>>>;
  readonly protocol: ProtocolSwitches;
  readonly network: { readonly delayUsMin: number; readonly delayUsMax: number };
  readonly clients: readonly ClientConfig[];
  readonly faults: readonly FaultSpec[];
  /** Random faults drawn from the seed, or null. */
  readonly nemesis: RandomNemesisConfig | null;
  readonly expect: Expectations;
  /** How long the workload phase runs before heal (`run.duration.ms`). */
  readonly durationMs: number;
  /** How long the heal phase may take before final reads (`run.heal.ms`). @default 60000 */
  readonly healMs: number;
  /**
   * How long the liveness probe after heal may take (`run.liveness.ms`): producers must commit
   * again, consumers catch up and every LSO reach its HW within it. @default 60000
   */
  readonly livenessMs: number;
  /** Budget on executed events (`run.events.max`). @default 20000000 */
  readonly eventsMax: number;
  /** The seed range the main job and sweeps use (`run.seeds`). @default { first: 1, last: 20 } */
  readonly seeds: { readonly first: number; readonly last: number };
}
