/**
 * The shape of a scenario file, as a strict zod schema: every mapping rejects unknown keys, every
 * value has its type and range, and optional sections get Kafka's defaults. Kafka settings keep
 * Kafka's config keys verbatim (`transaction.timeout.ms`). Client `config` and `workload` keys
 * stay optional here, without defaults, because which keys are allowed and which default
 * applies depend on the client's role and on `transactional.id`: the loader checks those rules
 * and fills those defaults from the constants below. Messages are the detail after the key, lower
 * case first (`must be an integer >= 1`).
 */
import { z } from 'zod';
import { checkFault, checkNemesis, faultContextOf } from './nemesis_rules';
import { faultSchema, nemesisSchema } from './fault_schema';
import {
  boolean,
  integer,
  JAVA_INT_MAX,
  LIMITS,
  list,
  message,
  ms,
  oneOf,
  section,
  text,
} from '../sim/config';
import { ANOMALY_KINDS } from '../sim/checker/anomaly_types';
import { brokerSchema } from './broker_schema';
import { checkPipeline } from './pipeline_rules';
import { renamedKey, strictError } from './renamed_keys';
import { CLIENT_FLAVOURS } from './client_versions';
import { clientKeyProblems, librdkafkaTransactionProblem } from './client_resolve';
import {
  BUG_IDS,
  KAFKA_VERSIONS,
  NEWEST_KAFKA_VERSION,
  defaultsOf,
  isModelledVersion,
  unquotedVersionHint,
  type BugId,
} from './kafka_versions';

export {
  CONSUMER_DEFAULTS,
  GROUP_DEFAULTS,
  PRODUCER_DEFAULTS,
  WORKLOAD_DEFAULTS,
} from './defaults';

/** The most in-flight requests an idempotent producer may have (Kafka's constant name). */
const MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE = 5;

/** Producer `config` keys. `request.timeout.ms` is in both lists. */
const PRODUCER_CONFIG_KEYS: ReadonlySet<string> = new Set([
  'transactional.id',
  'enable.idempotence',
  'acks',
  'max.in.flight.requests.per.connection',
  'retries',
  'request.timeout.ms',
  'delivery.timeout.ms',
  'retry.backoff.ms',
  'transaction.timeout.ms',
  'max.block.ms',
  'metadata.max.age.ms',
  'linger.ms',
  ...['client.flavour', 'client.version', 'enable.gapless.guarantee'],
]);

/** Consumer `config` keys. */
const CONSUMER_CONFIG_KEYS: ReadonlySet<string> = new Set([
  ...['isolation.level', 'auto.offset.reset', 'request.timeout.ms'],
  ...['fetch.min.bytes', 'fetch.max.wait.ms', 'fetch.max.bytes'],
]);

/** Consumer-group `config` keys a pipeline adds to the producer and consumer keys. */
const GROUP_CONFIG_KEYS: ReadonlySet<string> = new Set([
  'group.id',
  'group.instance.id',
  'session.timeout.ms',
  'heartbeat.interval.ms',
  'max.poll.interval.ms',
  'max.poll.records',
  'enable.auto.commit',
  'auto.commit.interval.ms',
]);

/** The `config` keys each role takes. */
const CONFIG_KEYS_OF_ROLE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['producer', PRODUCER_CONFIG_KEYS],
  ['consumer', CONSUMER_CONFIG_KEYS],
  ['pipeline', new Set([...PRODUCER_CONFIG_KEYS, ...CONSUMER_CONFIG_KEYS, ...GROUP_CONFIG_KEYS])],
]);

/** Kafka's legal topic name characters (`Topic.validate`), at most 249 of them. */
const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;
/** Legal client names: they become node ids in traces and histories. */
const CLIENT_NAME = /^[A-Za-z0-9_.-]+$/;
/** A seed range: `first..last`. */
const SEED_RANGE = /^(\d+)\.\.(\d+)$/;

const topicSchema = section({
  name: text()
    .regex(TOPIC_NAME, message('must be 1 to 249 of the characters A-Z a-z 0-9 . _ -'))
    .refine((name) => !name.startsWith('__'), message('must not start with "__"')),
  partitions: integer({ min: 1, max: LIMITS.partitionsPerTopic }).default(1),
  'replication.factor': integer({ min: 1, max: LIMITS.brokers }).optional(),
});

const clusterSchema = section({
  brokers: integer({ min: 1, max: LIMITS.brokers }).default(3),
  topics: list(topicSchema, { empty: false, max: LIMITS.topics }),
});

const protocolSchema = z.strictObject(
  {
    // Defaults by kafka.version: 2 from 4.0 (KIP-890 part 2), 0 before.
    'transaction.version': oneOf([0, 1, 2]).optional(),
    // Defaults by kafka.version: 1 from 4.1 (KIP-966), 0 before.
    'eligible.leader.replicas.version': oneOf([0, 1]).optional(),
    'leader.epoch.truncation': renamedKey('bugs.KAFKA-1211 (true is truncation to the HW)'),
    'high.watermark.strict.min.isr': renamedKey('bugs.KAFKA-15583 (true is the pre-3.7 rule)'),
  },
  { error: strictError('transaction.version') },
);

const networkSchema = section({
  'delay.us.min': integer({ min: 0, max: LIMITS.networkDelayUs }).default(500),
  'delay.us.max': integer({ min: 0, max: LIMITS.networkDelayUs }).default(2000),
});

/** One optional boolean per bug id; each defaults to the value of `kafka.version`. */
const bugKeys = Object.fromEntries(BUG_IDS.map((id) => [id, boolean().optional()])) as Record<
  BugId,
  z.ZodOptional<z.ZodBoolean>
>;

const bugsSchema = z.strictObject(
  { ...bugKeys, 'verification.guard.before.epoch.check': renamedKey('bugs.KAFKA-19690') },
  { error: strictError(BUG_IDS.join(', ')) },
);

/** A Kafka release eos-sim models: `'3.7'`, `'3.7.1'` (a YAML number such as 3.7 is taken too). */
const kafkaVersionSchema = z
  .union([z.string(), z.number()], message('must be a Kafka version such as 3.7'))
  .transform((value, context) => {
    const version = String(value);
    if (isModelledVersion(version)) return version;
    context.issues.push({
      code: 'custom',
      input: value,
      message:
        `must be a modelled Kafka release: ${KAFKA_VERSIONS.join(', ')} ` +
        `(a patch such as 3.7.1 is taken)${unquotedVersionHint(value)}`,
    });
    return z.NEVER;
  });

const clientConfigSchema = section({
  'transactional.id': text().optional(),
  'enable.idempotence': boolean().optional(),
  acks: oneOf([0, 1, -1, 'all']).optional(),
  'max.in.flight.requests.per.connection': integer({ min: 1, max: JAVA_INT_MAX }).optional(),
  retries: integer({ min: 0, max: JAVA_INT_MAX }).optional(),
  'request.timeout.ms': ms(1).optional(),
  'delivery.timeout.ms': ms(1).optional(),
  'retry.backoff.ms': ms(0).optional(),
  'transaction.timeout.ms': ms(1).optional(),
  'max.block.ms': ms(0).optional(),
  'metadata.max.age.ms': ms(0).optional(),
  'linger.ms': ms(0).optional(),
  'client.flavour': oneOf(CLIENT_FLAVOURS).optional(),
  // A release of the flavour, e.g. '1.8.2'; checked against the flavour by clientKeyProblems.
  'client.version': z.union([text(), z.number()]).optional(),
  'enable.gapless.guarantee': boolean().optional(),
  'isolation.level': oneOf(['read_committed', 'read_uncommitted']).optional(),
  'auto.offset.reset': oneOf(['earliest', 'latest']).optional(),
  'fetch.min.bytes': integer({ min: 0, max: JAVA_INT_MAX }).optional(),
  'fetch.max.wait.ms': ms(0).optional(),
  'fetch.max.bytes': integer({ min: 0, max: JAVA_INT_MAX }).optional(),
  'group.id': text().optional(),
  'group.instance.id': text().optional(),
  'session.timeout.ms': ms(1).optional(),
  'heartbeat.interval.ms': ms(1).optional(),
  'max.poll.interval.ms': ms(1).optional(),
  'max.poll.records': integer({ min: 1, max: LIMITS.maxPollRecords }).optional(),
  'enable.auto.commit': boolean().optional(),
  'auto.commit.interval.ms': ms(1).optional(),
});

const workloadSchema = section({
  'start.ms': ms(0).optional(),
  topics: list(text(), { empty: false, max: LIMITS.topics }),
  transactions: integer({ min: 1, max: LIMITS.workloadCount }).optional(),
  'records.per.transaction': integer({ min: 1, max: LIMITS.recordsPerTransaction }).optional(),
  'send.interval.ms': ms(0).optional(),
  'records.per.send': integer({ min: 1, max: LIMITS.recordsPerSend }).optional(),
  'transaction.interval.ms': ms(0).optional(),
  'abort.every': integer({ min: 0, max: LIMITS.workloadCount }).optional(),
  'on.fenced': oneOf(['stop', 'restart']).optional(),
  'close.when.done': boolean().optional(),
  'init.retry.ms': ms(0).optional(),
  sends: integer({ min: 1, max: LIMITS.workloadCount }).optional(),
  partitioner: oneOf(['explicit', 'default']).optional(),
  keys: list(text(), { empty: false, max: LIMITS.listOrCount }).optional(),
  'poll.interval.ms': ms(1).optional(),
  'output.topic': text().optional(),
  'offsets.commit': oneOf(['transaction', 'commit-sync', 'auto-commit']).optional(),
  'send.offsets.group.metadata': boolean().optional(),
  'rewind.after.abort': boolean().optional(),
  'transactional.id.on.restart': oneOf(['same', 'random']).optional(),
  'require.stable': boolean().optional(),
  'on.fatal': oneOf(['stop', 'restart']).optional(),
  'restart.delay.ms': ms(0).optional(),
});

const clientSchema = section({
  name: text().regex(CLIENT_NAME, message('must be made of the characters A-Z a-z 0-9 _ . -')),
  role: oneOf(['producer', 'consumer', 'pipeline']),
  config: clientConfigSchema.prefault({}),
  workload: workloadSchema,
});

const expectSchema = section({
  anomalies: list(oneOf(ANOMALY_KINDS), { empty: true }).default([]),
  allowed: list(oneOf(ANOMALY_KINDS), { empty: true }).default([]),
  'detect.percent.min': integer({ min: 0, max: 100 }).default(0),
  fenced: list(text(), { empty: true }).default([]),
  liveness: boolean().default(true),
  stall: boolean().default(false),
});

const seedsSchema = z
  .string(message('must be a range first..last, such as 1..20'))
  .transform((range, context) => {
    const match = SEED_RANGE.exec(range);
    const first = Number(match?.[1]);
    const last = Number(match?.[2]);
    const valid = Number.isSafeInteger(first) && Number.isSafeInteger(last);
    if (!valid || first < 1 || first > last) {
      context.issues.push({
        code: 'custom',
        input: range,
        message: 'must be a range first..last with 1 <= first <= last, such as 1..20',
      });
      return z.NEVER;
    }
    return { first, last };
  });

const runSchema = section({
  'duration.ms': ms(1),
  'heal.ms': ms(1).default(60000),
  'liveness.ms': ms(1).default(60000),
  'events.max': integer({ min: 1, max: LIMITS.eventsMax }).default(20000000),
  seeds: seedsSchema.prefault('1..20'),
});

/**
 * The strict schema of a whole scenario file, before the rules across keys.
 *
 * @example
 * ```ts
 * const result = scenarioFileSchema.safeParse(parseYaml(text));
 * if (result.success) console.log(result.data.run['duration.ms']);
 * ```
 */
export const scenarioFileSchema = section({
  name: text(),
  description: z.string(message('must be a string')).trim().default(''),
  'kafka.version': kafkaVersionSchema.optional(),
  cluster: clusterSchema,
  broker: brokerSchema.prefault({}),
  network: networkSchema.prefault({}),
  bugs: bugsSchema.prefault({}),
  protocol: protocolSchema.prefault({}),
  clients: list(clientSchema, { empty: false, max: LIMITS.clients }),
  faults: list(faultSchema, { empty: true }).default([]),
  nemesis: nemesisSchema.optional(),
  expect: expectSchema.prefault({}),
  run: runSchema,
});

/** A scenario file that has the right shape: the schema's output. */
export type ScenarioFile = z.output<typeof scenarioFileSchema>;
/** One client entry of a {@link ScenarioFile}. */
export type ClientEntry = ScenarioFile['clients'][number];
/** One fault entry of a {@link ScenarioFile}: its kind's own shape. */
export type { FaultEntry } from './fault_schema';

/** A path into the file, as zod reports it: keys and list indexes. */
export type PathSegment = string | number;

/** One broken rule: where (`['clients', 0, 'config', 'acks']`) and what is wrong. */
export interface Problem {
  readonly path: readonly PathSegment[];
  readonly detail: string;
}

/**
 * A conflict between idempotence and another producer setting (Kafka's KIP-679;
 * KafkaProducer.postProcessAndValidateIdempotenceConfigs coupling).
 */
export interface IdempotenceConflict {
  /** The conflicting config key. */
  readonly key: string;
  /** Kafka's complaint when idempotence was asked for explicitly. */
  readonly detail: string;
  /** What idempotence needs, for the transactional.id message. */
  readonly need: string;
}

/**
 * The first setting that rules out idempotence, in the order Kafka's
 * `postProcessAndValidateIdempotenceConfigs` checks them: retries, acks, in-flight requests.
 *
 * @example
 * ```ts
 * idempotenceConflict({ acks: 1 }); // { key: 'acks', ... }
 * idempotenceConflict({}); // undefined
 * ```
 */
export function idempotenceConflict(
  config: ClientEntry['config'],
): IdempotenceConflict | undefined {
  if (config.retries === 0) {
    const detail = 'must be non-zero when using the idempotent producer';
    return { key: 'retries', detail, need: 'retries > 0' };
  }
  if (config.acks !== undefined && config.acks !== -1 && config.acks !== 'all') {
    const detail = 'must be all in order to use the idempotent producer';
    return { key: 'acks', detail, need: 'acks all' };
  }
  const inFlight = config['max.in.flight.requests.per.connection'];
  if (inFlight !== undefined && inFlight > MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE) {
    const key = 'max.in.flight.requests.per.connection';
    const detail = 'must be at most 5 to use the idempotent producer';
    return { key, detail, need: `${key} <= 5` };
  }
  return undefined;
}

/** What a client's application does, which decides its allowed workload keys. */
export type WorkloadKind = 'transactions' | 'sends' | 'polls' | 'pipeline';

/**
 * The workload kind of a client: from its role and whether it has a `transactional.id`.
 *
 * @example
 * ```ts
 * workloadKindOf(client); // 'transactions' for a producer with transactional.id
 * ```
 */
export function workloadKindOf(client: ClientEntry): WorkloadKind {
  if (client.role === 'consumer') return 'polls';
  if (client.role === 'pipeline') return 'pipeline';
  return client.config['transactional.id'] === undefined ? 'sends' : 'transactions';
}

/** The workload keys of each kind, and who that kind is, for messages. */
const WORKLOAD_KEYS: ReadonlyMap<WorkloadKind, { who: string; keys: readonly string[] }> = new Map([
  [
    'transactions',
    {
      who: 'a transactional producer (one with transactional.id)',
      keys: [
        'start.ms',
        'topics',
        'transactions',
        'records.per.transaction',
        'send.interval.ms',
        'records.per.send',
        'transaction.interval.ms',
        'abort.every',
        'on.fenced',
        'close.when.done',
        'init.retry.ms',
        'partitioner',
        'keys',
      ],
    },
  ],
  [
    'sends',
    {
      who: 'a producer without transactional.id',
      keys: [
        'start.ms',
        'topics',
        'sends',
        'send.interval.ms',
        'records.per.send',
        'partitioner',
        'keys',
      ],
    },
  ],
  ['polls', { who: 'a consumer', keys: ['start.ms', 'topics', 'poll.interval.ms'] }],
  [
    'pipeline',
    {
      who: 'a read-process-write pipeline',
      keys: [
        'start.ms',
        'topics',
        'output.topic',
        'poll.interval.ms',
        'abort.every',
        'offsets.commit',
        'send.offsets.group.metadata',
        'rewind.after.abort',
        'transactional.id.on.restart',
        'require.stable',
        'on.fatal',
        'restart.delay.ms',
      ],
    },
  ],
]);

/**
 * The broker node names of a cluster of `count` brokers: b1..bN.
 *
 * @example
 * ```ts
 * brokerNames(3); // ['b1', 'b2', 'b3']
 * ```
 */
export function brokerNames(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `b${index + 1}`);
}

/** The keys of a mapping that were given a value. */
function givenKeys(mapping: object): string[] {
  return Object.entries(mapping)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
}

/**
 * The rules across keys that the schema cannot express: unique names, references to topics,
 * nodes and clients, keys that depend on the client's role, and Kafka's idempotence coupling.
 * Returns every broken rule; an empty list means the scenario is valid.
 *
 * `kafkaVersion` (`--kafka-version`) replaces the file's `kafka.version`.
 *
 * @example
 * ```ts
 * const problems = checkScenarioRules(scenarioFileSchema.parse(data));
 * // [{ path: ['faults', 0, 'target'], detail: 'unknown node X: expected one of b1, A' }]
 * ```
 */
export function checkScenarioRules(scenario: ScenarioFile, kafkaVersion?: string): Problem[] {
  const problems: Problem[] = [];
  const brokers = brokerNames(scenario.cluster.brokers);
  const topicNames = new Set<string>();
  scenario.cluster.topics.forEach((topic, index) => {
    if (topicNames.has(topic.name)) {
      const path = ['cluster', 'topics', index, 'name'];
      problems.push({ path, detail: `duplicate topic name ${topic.name}` });
    }
    topicNames.add(topic.name);
    const replicationFactor = topic['replication.factor'];
    if (replicationFactor !== undefined && replicationFactor > brokers.length) {
      const path = ['cluster', 'topics', index, 'replication.factor'];
      problems.push({ path, detail: `must not exceed the number of brokers: ${brokers.length}` });
    }
  });
  // A topic an operator creates during the run (kafka-topics --create) may be a workload's.
  for (const fault of scenario.faults as ReadonlyArray<{ kind: string }>) {
    const { action, topic } = fault as { action?: string; topic?: string };
    if (fault.kind === 'operator' && action === 'create-topics') topicNames.add(topic as string);
  }
  const clientNames = new Set<string>();
  scenario.clients.forEach((client, index) => {
    const path = ['clients', index, 'name'];
    if (clientNames.has(client.name)) {
      problems.push({ path, detail: `duplicate client name ${client.name}` });
    } else if (brokers.includes(client.name)) {
      problems.push({ path, detail: `must not be a broker name: b1..b${brokers.length}` });
    } else if (client.name === 'nemesis') {
      problems.push({ path, detail: 'must not be nemesis: the fault injector has that name' });
    }
    clientNames.add(client.name);
    checkClient({ client, index, topicNames, problems });
  });
  checkTransactionVersion(scenario, kafkaVersion, problems);
  const network = scenario.network;
  if (network['delay.us.max'] < network['delay.us.min']) {
    const detail = `must be >= delay.us.min: ${network['delay.us.min']}`;
    problems.push({ path: ['network', 'delay.us.max'], detail });
  }
  const context = faultContextOf(scenario, brokers);
  scenario.faults.forEach((fault, index) => checkFault({ fault, index, context, problems }));
  checkNemesis({ nemesis: scenario.nemesis, context, problems });
  scenario.expect.fenced.forEach((name, index) => {
    if (clientNames.has(name)) return;
    const detail = `unknown client ${name}: expected one of ${[...clientNames].join(', ')}`;
    problems.push({ path: ['expect', 'fenced', index], detail });
  });
  return problems;
}

/** Transaction version 2 needs partition verification, each as set or as the version's default. */
function checkTransactionVersion(
  scenario: ScenarioFile,
  kafkaVersion: string | undefined,
  problems: Problem[],
): void {
  const defaults = defaultsOf(kafkaVersion ?? scenario['kafka.version'] ?? NEWEST_KAFKA_VERSION);
  const transactionVersion =
    scenario.protocol['transaction.version'] ?? defaults.transactionVersion;
  const verification =
    scenario.broker['transaction.partition.verification.enable'] ??
    defaults.transactionPartitionVerificationEnable;
  if (transactionVersion === 2 && !verification) {
    // TV2 clients never send AddPartitionsToTxn: only the verifying leader adds partitions.
    const detail =
      'transaction version 2 needs broker.transaction.partition.verification.enable: true';
    problems.push({ path: ['protocol', 'transaction.version'], detail });
  }
  scenario.clients.forEach((client, index) => {
    const detail = librdkafkaTransactionProblem(client.config, transactionVersion);
    if (detail !== undefined)
      problems.push({ path: ['clients', index, 'config', 'client.flavour'], detail });
  });
}

/** Role-dependent keys, workload topics and idempotence of one client. */
function checkClient(options: {
  readonly client: ClientEntry;
  readonly index: number;
  readonly topicNames: ReadonlySet<string>;
  readonly problems: Problem[];
}): void {
  const { client, index, topicNames, problems } = options;
  const configKeys = CONFIG_KEYS_OF_ROLE.get(client.role) ?? new Set<string>();
  for (const key of givenKeys(client.config)) {
    if (configKeys.has(key)) continue;
    const owner = GROUP_CONFIG_KEYS.has(key)
      ? 'a consumer-group key (pipelines only)'
      : PRODUCER_CONFIG_KEYS.has(key)
        ? 'a producer key'
        : 'a consumer key';
    const detail = `is ${owner}: client ${client.name} is a ${client.role}`;
    problems.push({ path: ['clients', index, 'config', key], detail });
  }
  const kind = workloadKindOf(client);
  const allowed = WORKLOAD_KEYS.get(kind);
  if (allowed === undefined) throw new Error(`Missing workload keys: ${kind}`);
  for (const key of givenKeys(client.workload)) {
    if (allowed.keys.includes(key)) continue;
    const detail = `is not valid for ${allowed.who}: its keys are ${allowed.keys.join(', ')}`;
    problems.push({ path: ['clients', index, 'workload', key], detail });
  }
  const required =
    kind === 'polls' ? undefined : kind === 'pipeline' ? ('output.topic' as const) : kind;
  if (required !== undefined && client.workload[required] === undefined) {
    const detail = `is required for ${allowed.who}`;
    problems.push({ path: ['clients', index, 'workload', required], detail });
  }
  client.workload.topics.forEach((topic, position) => {
    if (topicNames.has(topic)) return;
    const detail = `unknown topic ${topic}: expected one of ${[...topicNames].join(', ')}`;
    problems.push({ path: ['clients', index, 'workload', 'topics', position], detail });
  });
  if (client.workload.keys !== undefined && client.workload.partitioner === 'explicit') {
    const detail = 'keyed records go through the default partitioner: drop keys or use default';
    problems.push({ path: ['clients', index, 'workload', 'partitioner'], detail });
  }
  if (client.role !== 'consumer') checkIdempotence({ client, index, problems });
  for (const { key, detail } of clientKeyProblems(client.config))
    problems.push({ path: ['clients', index, 'config', key], detail });
  if (client.role === 'pipeline') checkPipeline({ client, index, topicNames, problems });
}

/**
 * Kafka's idempotence coupling (KIP-679; KafkaProducer.postProcessAndValidateIdempotenceConfigs):
 * the cases where KafkaProducer throws.
 */
function checkIdempotence(options: {
  readonly client: ClientEntry;
  readonly index: number;
  readonly problems: Problem[];
}): void {
  const { config } = options.client;
  const base = ['clients', options.index, 'config'];
  const explicit = config['enable.idempotence'];
  const transactional = config['transactional.id'] !== undefined;
  const conflict = idempotenceConflict(config);
  const refusal = 'cannot set a transactional.id without also enabling idempotence';
  if (explicit === true && conflict !== undefined) {
    options.problems.push({ path: [...base, conflict.key], detail: conflict.detail });
  } else if (transactional && explicit === false) {
    options.problems.push({ path: [...base, 'enable.idempotence'], detail: refusal });
  } else if (transactional && explicit === undefined && conflict !== undefined) {
    const detail = `${refusal}, which needs ${conflict.need}`;
    options.problems.push({ path: [...base, conflict.key], detail });
  }
}
