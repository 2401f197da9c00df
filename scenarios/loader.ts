/**
 * Loads scenario files: YAML text → strict schema → rules across keys → a resolved
 * {@link ScenarioConfig} with every default filled. Every mistake is thrown as a
 * {@link ScenarioInvalidError} naming the file, the 1-based line and the dotted key, so a user
 * can fix a file without reading this code. When a file has several mistakes, the one on the
 * earliest line is reported. This is the only module that reads scenario files from disk.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { ScenarioInvalidError, ScenarioNotFoundError } from './errors';
import {
  CONSUMER_DEFAULTS,
  GROUP_DEFAULTS,
  PRODUCER_DEFAULTS,
  WORKLOAD_DEFAULTS,
  brokerNames,
  checkScenarioRules,
  idempotenceConflict,
  scenarioFileSchema,
  workloadKindOf,
  type ClientEntry,
  type PathSegment,
  type Problem,
  type ScenarioFile,
} from './schema';
import type {
  ClientConfig,
  ConsumerSettings,
  PipelineClient,
  ProducerSettings,
  ScenarioConfig,
} from './scenario_types';
import { resolveFault, resolveNemesis } from './fault_resolve';
import { checkScheduleRules } from './schedule_rules';
import {
  checkInterBrokerProtocolVersion,
  checkKafkaBrokerConfigs,
  checkKafkaClientConfigs,
  effectiveDeliveryTimeoutMs,
  lingerMsOf,
} from './kafka_config_rules';
import { LIMITS } from '../sim/config';
import { FileReadError, readRegularFile, utf8ProblemLine } from './regular_file';
import { clientBugSummary, resolveClientRules } from './client_resolve';
import {
  BUG_IDS,
  NEWEST_KAFKA_VERSION,
  bugsOf,
  defaultsOf,
  type VersionDefaults,
} from './kafka_versions';

/** How to load a scenario. */
export interface LoadOptions {
  /**
   * `--kafka-version`: replaces the file's `kafka.version`; checked by the caller with
   * `isModelledVersion`.
   */
  readonly kafkaVersion?: string | undefined;
}

/** File names the directory walk picks up. */
const SCENARIO_FILE_NAME = /\.ya?ml$/;

/**
 * Parses and validates scenario text. Pure: the same text and name give the same config. The
 * hash is the SHA-256 of the text's UTF-8 bytes.
 *
 * @param text - The YAML text of a scenario file.
 * @param file - The name to report in errors and to store in `ScenarioConfig.file`.
 * @throws {@link ScenarioInvalidError} for broken YAML or an invalid scenario.
 * @example
 * ```ts
 * const config = parseScenario(text, 'scenarios/zombie-fencing.yaml');
 * console.log(config.clients.length, config.durationMs);
 * ```
 */
export function parseScenario(
  text: string,
  file: string,
  options: LoadOptions = {},
): ScenarioConfig {
  const hash = createHash('sha256').update(text, 'utf8').digest('hex');
  return resolveText({ text, file, hash, ...options });
}

/**
 * Reads a scenario file and resolves it. `hash` is the SHA-256 of the file's bytes, in hex.
 *
 * @param path - Path of a `.yaml` file, stored as given in `ScenarioConfig.file`.
 * @throws {@link ScenarioNotFoundError} when nothing exists at `path`.
 * @throws {@link ScenarioInvalidError} when the file is a directory or is not a valid scenario.
 * @example
 * ```ts
 * const config = loadScenario('scenarios/zombie-fencing.yaml');
 * ```
 */
export function loadScenario(path: string, options: LoadOptions = {}): ScenarioConfig {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path, LIMITS.fileBytes);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.code === 'ENOENT') throw new ScenarioNotFoundError(path);
    const detail = error.detail;
    throw new ScenarioInvalidError({ file: path, line: undefined, key: undefined, detail });
  }
  const line = utf8ProblemLine(bytes);
  if (line !== undefined) {
    const detail = 'is not valid UTF-8: a scenario file must be UTF-8 text';
    throw new ScenarioInvalidError({ file: path, line, key: undefined, detail });
  }
  const hash = createHash('sha256').update(bytes).digest('hex');
  return resolveText({ text: bytes.toString('utf8'), file: path, hash, ...options });
}

/**
 * The scenario files at a path: a file gives itself; a directory gives every `*.yaml` and `*.yml`
 * file below it, recursively, sorted by plain code-unit order so every machine lists the same
 * files in the same order. Symbolic links to files are listed; links to directories are not
 * followed, so a link cycle cannot loop.
 *
 * @param pathOrDir - A scenario file or a directory of them.
 * @throws {@link ScenarioNotFoundError} when nothing exists at `pathOrDir`.
 * @example
 * ```ts
 * listScenarioFiles('scenarios'); // ['scenarios/a.yaml', 'scenarios/sub/b.yml']
 * ```
 */
export function listScenarioFiles(pathOrDir: string): string[] {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(pathOrDir, { throwIfNoEntry: false });
  } catch (error) {
    // ELOOP (a symbolic link cycle), EACCES, ENAMETOOLONG: the user's path cannot be used.
    const reason = error instanceof Error ? error.message : String(error);
    const detail = `cannot be read: ${reason}`;
    throw new ScenarioInvalidError({ file: pathOrDir, line: undefined, key: undefined, detail });
  }
  if (stats === undefined) throw new ScenarioNotFoundError(pathOrDir);
  if (!stats.isDirectory()) return [pathOrDir];
  const files: string[] = [];
  collectScenarioFiles(pathOrDir, files);
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Appends the scenario files below `directory` to `files`. */
function collectScenarioFiles(directory: string, files: string[]): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      collectScenarioFiles(path, files);
    } else if (SCENARIO_FILE_NAME.test(entry.name)) {
      if (statSync(path, { throwIfNoEntry: false })?.isFile() === true) files.push(path);
    }
  }
}

/** YAML text → validated file → resolved config. */
function resolveText(
  source: { text: string; file: string; hash: string } & LoadOptions,
): ScenarioConfig {
  const { file } = source;
  const lineCounter = new LineCounter();
  const document = parseDocument(source.text, { lineCounter, prettyErrors: true, merge: true });
  const lines = new LineFinder(document, lineCounter);
  const yamlError = document.errors[0] ?? document.warnings[0];
  if (yamlError !== undefined) {
    const reason = (yamlError.message.split('\n')[0] ?? '').replace(/ at line \d+.*$/, '');
    const line = yamlError.linePos?.[0].line;
    const detail = `invalid YAML: ${reason}`;
    throw new ScenarioInvalidError({ file, line, key: undefined, detail });
  }
  let data: unknown;
  try {
    data = document.toJS();
  } catch (error) {
    const detail = `invalid YAML: ${error instanceof Error ? error.message : String(error)}`;
    throw new ScenarioInvalidError({ file, line: undefined, key: undefined, detail });
  }
  if (data === null || data === undefined) {
    const detail = 'is empty: expected a mapping with name, cluster, clients and run';
    throw new ScenarioInvalidError({ file, line: undefined, key: undefined, detail });
  }
  const parsed = scenarioFileSchema.safeParse(data);
  if (!parsed.success) throw earliestProblem(parsed.error.issues.flatMap(problemsOf), lines, file);
  const problems = [
    ...checkScenarioRules(parsed.data, source.kafkaVersion),
    ...checkScheduleRules(parsed.data),
    ...checkKafkaClientConfigs(parsed.data, source.kafkaVersion),
    ...checkKafkaBrokerConfigs(parsed.data),
    ...checkInterBrokerProtocolVersion(parsed.data, source.kafkaVersion),
  ];
  if (problems.length > 0) throw earliestProblem(problems, lines, file);
  return resolveScenario({
    scenario: parsed.data,
    file,
    hash: source.hash,
    lines,
    kafkaVersion: source.kafkaVersion,
  });
}

/** The problems one zod issue stands for: an unknown-key issue gives one per key. */
function problemsOf(issue: z.core.$ZodIssue): Problem[] {
  const path = issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part));
  if (issue.code !== 'unrecognized_keys') return [{ path, detail: issue.message }];
  return issue.keys.map((key) => ({
    path: [...path, key],
    detail: `unknown key ${key}: ${issue.message}`,
  }));
}

/** The error for the problem on the earliest line; problems without a line come last. */
function earliestProblem(
  problems: readonly Problem[],
  lines: LineFinder,
  file: string,
): ScenarioInvalidError {
  let chosen: { problem: Problem; line: number | undefined } | undefined;
  for (const problem of problems) {
    const line = lines.lineOf(problem.path);
    const earlier = line !== undefined && (chosen?.line === undefined || line < chosen.line);
    if (chosen === undefined || earlier) chosen = { problem, line };
  }
  if (chosen === undefined) throw new Error('earliestProblem needs at least one problem');
  const { path, detail } = chosen.problem;
  const key = path.length === 0 ? undefined : formatKey(path);
  return new ScenarioInvalidError({ file, line: chosen.line, key, detail });
}

/** `['clients', 0, 'config', 'acks']` → `clients[0].config.acks`. */
function formatKey(path: readonly PathSegment[]): string {
  let key = '';
  for (const segment of path) {
    if (typeof segment === 'number') key += `[${segment}]`;
    else key += key === '' ? segment : `.${segment}`;
  }
  return key;
}

/**
 * Maps a path into the parsed data back to a line of the text. A path that ends at a key gives
 * that key's line, a list index gives the item's line, and a path that leaves the document (a
 * missing key) gives the line of the nearest parent that exists, or undefined at the top level.
 */
class LineFinder {
  constructor(
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  lineOf(path: readonly PathSegment[]): number | undefined {
    let node: unknown = this.document.contents;
    if (path.length === 0) return this.nodeLine(node);
    let line: number | undefined;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(this.document);
      if (isMap(node)) {
        const pair = node.items.find((item) => keyText(item.key) === String(segment));
        if (pair === undefined) break;
        line = this.nodeLine(pair.key);
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
        if (node === undefined) break;
        line = this.nodeLine(node);
      } else {
        break;
      }
    }
    return line;
  }

  private nodeLine(node: unknown): number | undefined {
    if (typeof node !== 'object' || node === null || !('range' in node)) return undefined;
    const range: unknown = node.range;
    if (!Array.isArray(range) || typeof range[0] !== 'number') return undefined;
    return this.lineCounter.linePos(range[0]).line;
  }
}

/** The text of a map key node, when it is a scalar. */
function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}

/** The scenario's brokers, and its brokers and clients. */
function nodeSetOf(scenario: ScenarioFile): { brokers: string[]; nodes: string[] } {
  const brokers = brokerNames(scenario.cluster.brokers);
  return { brokers, nodes: [...brokers, ...scenario.clients.map((client) => client.name)] };
}

/** A validated file → the resolved config, Kafka keys mapped to camelCase, defaults filled. */
function resolveScenario(options: {
  readonly kafkaVersion: string | undefined;
  readonly scenario: ScenarioFile;
  readonly file: string;
  readonly hash: string;
  readonly lines: LineFinder;
}): ScenarioConfig {
  const { scenario, lines } = options;
  const { broker, network, run } = scenario;
  const nodeSet = nodeSetOf(scenario);
  const versioned = resolveVersioned(scenario, options.kafkaVersion);
  const clients = scenario.clients.map((client) =>
    resolveClientRules(resolveClient(client, versioned.kafkaVersion), client.config, scenario.bugs),
  );
  const clientBugs = clientBugSummary(clients, scenario.bugs);
  return {
    file: options.file,
    name: scenario.name,
    description: scenario.description,
    hash: options.hash,
    brokers: scenario.cluster.brokers,
    topics: scenario.cluster.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions,
      replicationFactor: topic['replication.factor'] ?? Math.min(3, scenario.cluster.brokers),
    })),
    ...versioned,
    bugs: { ...versioned.bugs, ...clientBugs.resolved },
    ...(Object.keys(clientBugs.byVersion).length > 0
      ? { clientVersionBugs: clientBugs.byVersion }
      : {}),
    network: { delayUsMin: network['delay.us.min'], delayUsMax: network['delay.us.max'] },
    clients,
    faults: scenario.faults.map((fault, index) =>
      resolveFault({ fault, nodeSet, line: lines.lineOf(['faults', index]) }),
    ),
    nemesis: resolveNemesis({
      scenario,
      nodeSet,
      clients,
      timeouts: {
        replicaLagTimeMaxMs: broker['replica.lag.time.max.ms'],
        brokerSessionTimeoutMs: broker['broker.session.timeout.ms'],
      },
    }),
    expect: {
      anomalies: scenario.expect.anomalies,
      allowed: scenario.expect.allowed,
      detectPercentMin: scenario.expect['detect.percent.min'],
      liveness: scenario.expect.liveness && !scenario.expect.stall,
      stall: scenario.expect.stall,
      fenced: scenario.expect.fenced,
    },
    durationMs: run['duration.ms'],
    healMs: run['heal.ms'],
    livenessMs: run['liveness.ms'],
    eventsMax: run['events.max'],
    seeds: run.seeds,
  };
}

/** The broker keys → camelCase settings. */
function resolveBroker(
  broker: ScenarioFile['broker'],
  defaults: VersionDefaults,
  kafkaVersion: string,
): ScenarioConfig['broker'] {
  return {
    transactionMaxTimeoutMs: broker['transaction.max.timeout.ms'],
    transactionAbortTimedOutTransactionCleanupIntervalMs:
      broker['transaction.abort.timed.out.transaction.cleanup.interval.ms'],
    transactionStateLogNumPartitions: broker['transaction.state.log.num.partitions'],
    transactionalIdExpirationMs: broker['transactional.id.expiration.ms'],
    transactionRemoveExpiredTransactionCleanupIntervalMs:
      broker['transaction.remove.expired.transaction.cleanup.interval.ms'],
    transactionStateLogReplicationFactor: broker['transaction.state.log.replication.factor'],
    transactionStateLogMinIsr: broker['transaction.state.log.min.isr'],
    transactionPartitionVerificationEnable:
      broker['transaction.partition.verification.enable'] ??
      defaults.transactionPartitionVerificationEnable,
    minInsyncReplicas: broker['min.insync.replicas'],
    uncleanLeaderElectionEnable: broker['unclean.leader.election.enable'],
    replicaLagTimeMaxMs: broker['replica.lag.time.max.ms'],
    replicaFetchWaitMaxMs: broker['replica.fetch.wait.max.ms'],
    replicaFetchMinBytes: broker['replica.fetch.min.bytes'],
    logFlushIntervalMessages: broker['log.flush.interval.messages'] ?? null,
    producerIdExpirationMs: broker['producer.id.expiration.ms'],
    producerIdExpirationCheckIntervalMs: broker['producer.id.expiration.check.interval.ms'],
    brokerSessionTimeoutMs: broker['broker.session.timeout.ms'],
    offsetsTopicNumPartitions: broker['offsets.topic.num.partitions'],
    offsetsTopicReplicationFactor: broker['offsets.topic.replication.factor'],
    groupInitialRebalanceDelayMs: broker['group.initial.rebalance.delay.ms'],
    groupMinSessionTimeoutMs: broker['group.min.session.timeout.ms'],
    groupMaxSessionTimeoutMs: broker['group.max.session.timeout.ms'],
    offsetsRetentionMinutes:
      broker['offsets.retention.minutes'] ?? defaults.offsetsRetentionMinutes,
    offsetsRetentionCheckIntervalMs: broker['offsets.retention.check.interval.ms'],
    interBrokerProtocolVersion: broker['inter.broker.protocol.version'] ?? kafkaVersion,
  };
}

/**
 * Everything `kafka.version` decides (`--kafka-version` replaces the file's): the version, the
 * broker settings whose default it sets, the protocol feature levels and every bug switch, each
 * as the file sets it or as that release had it. This is the one place switches are resolved.
 */
function resolveVersioned(
  scenario: ScenarioFile,
  commandLineVersion: string | undefined,
): Pick<
  ScenarioConfig,
  'kafkaVersion' | 'kafkaVersionFromCommandLine' | 'broker' | 'protocol' | 'bugs'
> {
  const kafkaVersion = commandLineVersion ?? scenario['kafka.version'] ?? NEWEST_KAFKA_VERSION;
  const defaults = defaultsOf(kafkaVersion);
  const bugs = bugsOf(kafkaVersion);
  for (const id of BUG_IDS) bugs[id] = scenario.bugs[id] ?? bugs[id];
  return {
    kafkaVersion,
    kafkaVersionFromCommandLine: commandLineVersion !== undefined,
    broker: resolveBroker(scenario.broker, defaults, kafkaVersion),
    protocol: {
      transactionVersion: scenario.protocol['transaction.version'] ?? defaults.transactionVersion,
      eligibleLeaderReplicasVersion:
        scenario.protocol['eligible.leader.replicas.version'] ??
        defaults.eligibleLeaderReplicasVersion,
    },
    bugs,
  };
}

/** One client entry → its settings and workload, with role-specific defaults. */
function resolveClient(client: ClientEntry, kafkaVersion: string): ClientConfig {
  const { config, workload } = client;
  const startMs = workload['start.ms'] ?? WORKLOAD_DEFAULTS.startMs;
  const topics = workload.topics;
  if (client.role === 'pipeline') return resolvePipeline(client, kafkaVersion);
  if (client.role === 'consumer') {
    return {
      role: 'consumer',
      name: client.name,
      settings: resolveConsumerSettings(config),
      workload: {
        type: 'polls',
        startMs,
        pollIntervalMs: workload['poll.interval.ms'] ?? WORKLOAD_DEFAULTS.pollIntervalMs,
        topics,
      },
    };
  }
  const settings = resolveProducerSettings(config, kafkaVersion);
  const sendIntervalMs = workload['send.interval.ms'] ?? WORKLOAD_DEFAULTS.sendIntervalMs;
  const recordsPerSend = workload['records.per.send'] ?? WORKLOAD_DEFAULTS.recordsPerSend;
  const routing = {
    ...(workload.partitioner === undefined ? {} : { partitioner: workload.partitioner }),
    ...(workload.keys === undefined ? {} : { keys: [...workload.keys] }),
  };
  if (workloadKindOf(client) === 'sends') {
    const sends = given(workload.sends, 'sends');
    return {
      role: 'producer',
      name: client.name,
      settings,
      workload: {
        type: 'sends',
        startMs,
        sends,
        sendIntervalMs,
        recordsPerSend,
        topics,
        ...routing,
      },
    };
  }
  return {
    role: 'producer',
    name: client.name,
    settings,
    workload: {
      type: 'transactions',
      startMs,
      transactions: given(workload.transactions, 'transactions'),
      recordsPerTransaction:
        workload['records.per.transaction'] ?? WORKLOAD_DEFAULTS.recordsPerTransaction,
      sendIntervalMs,
      recordsPerSend,
      transactionIntervalMs:
        workload['transaction.interval.ms'] ?? WORKLOAD_DEFAULTS.transactionIntervalMs,
      abortEvery: workload['abort.every'] ?? WORKLOAD_DEFAULTS.abortEvery,
      onFenced: workload['on.fenced'] ?? 'stop',
      closeWhenDone: workload['close.when.done'] ?? false,
      initRetryMs: workload['init.retry.ms'] ?? null,
      topics,
      ...routing,
    },
  };
}

/** Consumer config keys → settings, with Kafka's defaults. */
function resolveConsumerSettings(config: ClientEntry['config']): ConsumerSettings {
  return {
    isolationLevel: config['isolation.level'] ?? CONSUMER_DEFAULTS.isolationLevel,
    autoOffsetReset: config['auto.offset.reset'] ?? CONSUMER_DEFAULTS.autoOffsetReset,
    requestTimeoutMs: config['request.timeout.ms'] ?? CONSUMER_DEFAULTS.requestTimeoutMs,
    fetchMinBytes: config['fetch.min.bytes'] ?? CONSUMER_DEFAULTS.fetchMinBytes,
    fetchMaxWaitMs: config['fetch.max.wait.ms'] ?? CONSUMER_DEFAULTS.fetchMaxWaitMs,
    fetchMaxBytes: config['fetch.max.bytes'] ?? CONSUMER_DEFAULTS.fetchMaxBytes,
  };
}

/** A pipeline entry → its producer and group consumer settings and its workload. */
function resolvePipeline(client: ClientEntry, kafkaVersion: string): PipelineClient {
  const { config, workload } = client;
  const consumer: ConsumerSettings = {
    ...resolveConsumerSettings(config),
    groupId: given(config['group.id'], 'group.id'),
    groupInstanceId: config['group.instance.id'] ?? null,
    sessionTimeoutMs: config['session.timeout.ms'] ?? GROUP_DEFAULTS.sessionTimeoutMs,
    heartbeatIntervalMs: config['heartbeat.interval.ms'] ?? GROUP_DEFAULTS.heartbeatIntervalMs,
    maxPollIntervalMs: config['max.poll.interval.ms'] ?? GROUP_DEFAULTS.maxPollIntervalMs,
    enableAutoCommit: config['enable.auto.commit'] ?? GROUP_DEFAULTS.enableAutoCommit,
    autoCommitIntervalMs: config['auto.commit.interval.ms'] ?? GROUP_DEFAULTS.autoCommitIntervalMs,
    requireStable: workload['require.stable'] ?? true,
  };
  return {
    role: 'pipeline',
    name: client.name,
    settings: { producer: resolveProducerSettings(config, kafkaVersion), consumer },
    workload: {
      type: 'pipeline',
      startMs: workload['start.ms'] ?? WORKLOAD_DEFAULTS.startMs,
      topics: workload.topics,
      outputTopic: given(workload['output.topic'], 'output.topic'),
      pollIntervalMs: workload['poll.interval.ms'] ?? WORKLOAD_DEFAULTS.pollIntervalMs,
      abortEvery: workload['abort.every'] ?? WORKLOAD_DEFAULTS.abortEvery,
      offsetsCommit: workload['offsets.commit'] ?? 'transaction',
      sendOffsetsGroupMetadata: workload['send.offsets.group.metadata'] ?? true,
      rewindAfterAbort: workload['rewind.after.abort'] ?? true,
      transactionalIdOnRestart: workload['transactional.id.on.restart'] ?? 'same',
      requireStable: workload['require.stable'] ?? true,
      onFatal: workload['on.fatal'] ?? 'restart',
      restartDelayMs: workload['restart.delay.ms'] ?? WORKLOAD_DEFAULTS.restartDelayMs,
    },
  };
}

/** Producer config keys → settings, with Kafka's defaults (`linger.ms`'s is the release's). */
function resolveProducerSettings(
  config: ClientEntry['config'],
  kafkaVersion: string,
): ProducerSettings {
  const lingerMs = lingerMsOf(config, kafkaVersion);
  return {
    transactionalId: config['transactional.id'] ?? null,
    // Kafka turns idempotence off silently when it was only on by default and another
    // setting rules it out; the rules have already refused the cases where Kafka throws.
    enableIdempotence: config['enable.idempotence'] ?? idempotenceConflict(config) === undefined,
    acks: config.acks === undefined || config.acks === 'all' ? PRODUCER_DEFAULTS.acks : config.acks,
    maxInFlightRequestsPerConnection:
      config['max.in.flight.requests.per.connection'] ??
      PRODUCER_DEFAULTS.maxInFlightRequestsPerConnection,
    retries: config.retries ?? PRODUCER_DEFAULTS.retries,
    requestTimeoutMs: config['request.timeout.ms'] ?? PRODUCER_DEFAULTS.requestTimeoutMs,
    deliveryTimeoutMs: effectiveDeliveryTimeoutMs(config, lingerMs),
    lingerMs,
    retryBackoffMs: config['retry.backoff.ms'] ?? PRODUCER_DEFAULTS.retryBackoffMs,
    transactionTimeoutMs:
      config['transaction.timeout.ms'] ?? PRODUCER_DEFAULTS.transactionTimeoutMs,
    // Set only when given: unset, the producer uses Kafka's defaults (60000 and 300000).
    ...(config['max.block.ms'] === undefined ? {} : { maxBlockMs: config['max.block.ms'] }),
    ...(config['metadata.max.age.ms'] === undefined
      ? {}
      : { metadataMaxAgeMs: config['metadata.max.age.ms'] }),
  };
}

/** A value the rules have already required; its absence here is a loader bug. */
function given<Value>(value: Value | undefined, key: string): Value {
  if (value === undefined) throw new Error(`Scenario rules let a missing ${key} through`);
  return value;
}
