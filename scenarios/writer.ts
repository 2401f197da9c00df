/**
 * Writes a resolved {@link ScenarioConfig} back as scenario-file YAML, every setting explicit,
 * so that loading the text gives the same config (the round trip is tested for every bundled
 * scenario). `eos-sim run --export-scenario` and `eos-sim shrink` write the realised fault
 * schedule of a run this way: a file that replays without the seed's nemesis and swarm draws.
 */
import { stringify } from 'yaml';
import { faultEntryOf as kindEntryOf, probabilityOf } from '../faults';
import type {
  ClientConfig,
  ConsumerSettings,
  FaultSpec,
  PipelineClient,
  ProducerSettings,
  RandomNemesisConfig,
  ScenarioConfig,
} from './scenario_types';

type Mapping = Record<string, unknown>;

/** Leaves out keys whose value is undefined. */
function defined(mapping: Mapping): Mapping {
  return Object.fromEntries(Object.entries(mapping).filter(([, value]) => value !== undefined));
}

/** A producer's settings as `config` keys. */
function producerConfigOf(settings: ProducerSettings): Mapping {
  return defined({
    'transactional.id': settings.transactionalId ?? undefined,
    'enable.idempotence': settings.enableIdempotence,
    acks: settings.acks === -1 ? 'all' : settings.acks,
    'max.in.flight.requests.per.connection': settings.maxInFlightRequestsPerConnection,
    retries: settings.retries,
    'request.timeout.ms': settings.requestTimeoutMs,
    'delivery.timeout.ms': settings.deliveryTimeoutMs,
    'retry.backoff.ms': settings.retryBackoffMs,
    'transaction.timeout.ms': settings.transactionTimeoutMs,
    'max.block.ms': settings.maxBlockMs,
    'metadata.max.age.ms': settings.metadataMaxAgeMs,
    'linger.ms': settings.lingerMs,
    // A Java producer writes no client keys (its rules are the default).
    ...(settings.client === undefined || settings.client.flavour === 'java'
      ? {}
      : {
          'client.flavour': settings.client.flavour,
          'client.version': settings.client.version,
          ...(settings.client.flavour === 'librdkafka'
            ? { 'enable.gapless.guarantee': settings.client.enableGaplessGuarantee }
            : {}),
        }),
  });
}

/** A consumer's settings as `config` keys, group keys included when set. */
function consumerConfigOf(settings: ConsumerSettings): Mapping {
  return defined({
    'isolation.level': settings.isolationLevel,
    'auto.offset.reset': settings.autoOffsetReset,
    'request.timeout.ms': settings.requestTimeoutMs,
    'fetch.min.bytes': settings.fetchMinBytes,
    'fetch.max.wait.ms': settings.fetchMaxWaitMs,
    'fetch.max.bytes': settings.fetchMaxBytes,
    'group.id': settings.groupId ?? undefined,
    'group.instance.id': settings.groupInstanceId ?? undefined,
    'session.timeout.ms': settings.sessionTimeoutMs,
    'heartbeat.interval.ms': settings.heartbeatIntervalMs,
    'max.poll.interval.ms': settings.maxPollIntervalMs,
    'enable.auto.commit': settings.enableAutoCommit,
    'auto.commit.interval.ms': settings.autoCommitIntervalMs,
  });
}

/** A pipeline entry: both clients' keys (request.timeout.ms is the producer's) and its loop. */
function pipelineOf(client: PipelineClient): Mapping {
  const { workload } = client;
  return {
    name: client.name,
    role: 'pipeline',
    config: {
      ...consumerConfigOf(client.settings.consumer),
      ...producerConfigOf(client.settings.producer),
    },
    workload: {
      'start.ms': workload.startMs,
      topics: [...workload.topics],
      'output.topic': workload.outputTopic,
      'poll.interval.ms': workload.pollIntervalMs,
      'abort.every': workload.abortEvery,
      'offsets.commit': workload.offsetsCommit,
      'send.offsets.group.metadata': workload.sendOffsetsGroupMetadata,
      'rewind.after.abort': workload.rewindAfterAbort,
      'transactional.id.on.restart': workload.transactionalIdOnRestart,
      'require.stable': workload.requireStable,
      'on.fatal': workload.onFatal,
      'restart.delay.ms': workload.restartDelayMs,
    },
  };
}

function clientOf(client: ClientConfig): Mapping {
  if (client.role === 'pipeline') return pipelineOf(client);
  if (client.role === 'consumer') {
    const { settings, workload } = client;
    return {
      name: client.name,
      role: 'consumer',
      config: consumerConfigOf(settings),
      workload: {
        'start.ms': workload.startMs,
        topics: [...workload.topics],
        'poll.interval.ms': workload.pollIntervalMs,
      },
    };
  }
  const { settings, workload } = client;
  const config = producerConfigOf(settings);
  const common = { 'start.ms': workload.startMs, topics: [...workload.topics] };
  const work =
    workload.type === 'sends'
      ? {
          ...common,
          sends: workload.sends,
          'send.interval.ms': workload.sendIntervalMs,
          'records.per.send': workload.recordsPerSend,
          ...routingOf(workload),
        }
      : {
          ...common,
          transactions: workload.transactions,
          'records.per.transaction': workload.recordsPerTransaction,
          'send.interval.ms': workload.sendIntervalMs,
          'records.per.send': workload.recordsPerSend,
          'transaction.interval.ms': workload.transactionIntervalMs,
          'abort.every': workload.abortEvery,
          'on.fenced': workload.onFenced,
          'close.when.done': workload.closeWhenDone,
          'init.retry.ms': workload.initRetryMs ?? undefined,
          ...routingOf(workload),
        };
  return { name: client.name, role: 'producer', config, workload: work };
}

/** `partitioner` and `keys`, when the workload set them. */
function routingOf(workload: {
  readonly partitioner?: 'explicit' | 'default';
  readonly keys?: readonly string[];
}): { partitioner?: 'explicit' | 'default'; keys?: string[] } {
  return {
    ...(workload.partitioner === undefined ? {} : { partitioner: workload.partitioner }),
    ...(workload.keys === undefined ? {} : { keys: [...workload.keys] }),
  };
}

/**
 * One resolved fault as a `faults:` entry (its kind's module writes it), keys in file order.
 * @example faultEntryOf({ kind: 'pause', target: 'A', atMs: 10, forMs: 5 })
 * // { kind: 'pause', target: 'A', 'at.ms': 10, 'for.ms': 5 }
 */
export function faultEntryOf(fault: FaultSpec): Mapping {
  return defined(kindEntryOf(fault));
}

function nemesisOf(nemesis: RandomNemesisConfig): Mapping {
  return {
    kinds: [...nemesis.kinds],
    targets: [...nemesis.targets],
    'start.ms': nemesis.startMs,
    'stop.ms': nemesis.stopMs,
    'interval.ms': nemesis.intervalMs,
    'duration.ms.min': nemesis.durationMsMin,
    'duration.ms.max': nemesis.durationMsMax,
    'timeout.aware': nemesis.timeoutsMs.length > 0,
    probability: probabilityOf(nemesis.probability),
  };
}

/** The file's mapping of a resolved scenario. */
export function scenarioMappingOf(config: ScenarioConfig): Mapping {
  const { broker } = config;
  return defined({
    name: config.name,
    description: config.description,
    'kafka.version': config.kafkaVersion,
    cluster: {
      brokers: config.brokers,
      topics: config.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions,
        'replication.factor': topic.replicationFactor,
      })),
    },
    broker: brokerMappingOf(broker),
    network: {
      'delay.us.min': config.network.delayUsMin,
      'delay.us.max': config.network.delayUsMax,
    },
    bugs: { ...config.bugs },
    protocol: {
      'transaction.version': config.protocol.transactionVersion,
      'eligible.leader.replicas.version': config.protocol.eligibleLeaderReplicasVersion,
    },
    clients: config.clients.map(clientOf),
    faults: config.faults.map(faultEntryOf),
    nemesis: config.nemesis === null ? undefined : nemesisOf(config.nemesis),
    expect: {
      anomalies: [...config.expect.anomalies],
      allowed: [...config.expect.allowed],
      'detect.percent.min': config.expect.detectPercentMin,
      fenced: [...config.expect.fenced],
      liveness: config.expect.liveness,
      stall: config.expect.stall,
    },
    run: {
      'duration.ms': config.durationMs,
      'heal.ms': config.healMs,
      'liveness.ms': config.livenessMs,
      'events.max': config.eventsMax,
      seeds: `${config.seeds.first}..${config.seeds.last}`,
    },
  });
}

/** The `broker` section, every key written out (Kafka's config keys verbatim). */
function brokerMappingOf(broker: ScenarioConfig['broker']): Mapping {
  return {
    'transaction.max.timeout.ms': broker.transactionMaxTimeoutMs,
    'transaction.abort.timed.out.transaction.cleanup.interval.ms':
      broker.transactionAbortTimedOutTransactionCleanupIntervalMs,
    'transaction.state.log.num.partitions': broker.transactionStateLogNumPartitions,
    'transactional.id.expiration.ms': broker.transactionalIdExpirationMs,
    'transaction.remove.expired.transaction.cleanup.interval.ms':
      broker.transactionRemoveExpiredTransactionCleanupIntervalMs,
    'min.insync.replicas': broker.minInsyncReplicas,
    'unclean.leader.election.enable': broker.uncleanLeaderElectionEnable,
    'replica.lag.time.max.ms': broker.replicaLagTimeMaxMs,
    'replica.fetch.wait.max.ms': broker.replicaFetchWaitMaxMs,
    'replica.fetch.min.bytes': broker.replicaFetchMinBytes,
    ...(broker.logFlushIntervalMessages === null
      ? {}
      : { 'log.flush.interval.messages': broker.logFlushIntervalMessages }),
    'producer.id.expiration.ms': broker.producerIdExpirationMs,
    'producer.id.expiration.check.interval.ms': broker.producerIdExpirationCheckIntervalMs,
    'broker.session.timeout.ms': broker.brokerSessionTimeoutMs,
    'offsets.topic.num.partitions': broker.offsetsTopicNumPartitions,
    'offsets.topic.replication.factor': broker.offsetsTopicReplicationFactor,
    'group.initial.rebalance.delay.ms': broker.groupInitialRebalanceDelayMs,
    'group.min.session.timeout.ms': broker.groupMinSessionTimeoutMs,
    'group.max.session.timeout.ms': broker.groupMaxSessionTimeoutMs,
    'offsets.retention.minutes': broker.offsetsRetentionMinutes,
    'offsets.retention.check.interval.ms': broker.offsetsRetentionCheckIntervalMs,
    'inter.broker.protocol.version': broker.interBrokerProtocolVersion,
    'transaction.state.log.replication.factor': broker.transactionStateLogReplicationFactor,
    'transaction.state.log.min.isr': broker.transactionStateLogMinIsr,
    'transaction.partition.verification.enable': broker.transactionPartitionVerificationEnable,
  };
}

/**
 * The YAML text of a resolved scenario, with an optional comment block on top.
 * @example writeScenarioYaml(loadScenario('scenarios/zombie-fencing.yaml'))
 */
export function writeScenarioYaml(config: ScenarioConfig, header: readonly string[] = []): string {
  const comments = header.map((line) => `# ${line}\n`).join('');
  return comments + stringify(scenarioMappingOf(config), { lineWidth: 100 });
}
