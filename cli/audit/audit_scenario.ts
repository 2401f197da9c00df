/**
 * The scenario an audit runs: the cluster the broker file implies (its replication and ISR
 * settings, `num.partitions` and `default.replication.factor` for the auto-created topics, the
 * `transaction.state.log.*` and group keys verbatim) and one client per application file, each
 * with Kafka's config keys as the file sets them and a workload of its kind: a plain or
 * idempotent producer sends records, a transactional one runs transactions (every fifth
 * aborted), a consumer polls at its `isolation.level`, a read-process-write application runs
 * Kafka's exactly-once loop from `in` to `out` fed by the producers. Swarm mode then draws the
 * faults and timeouts per seed.
 */
import { stringify } from 'yaml';
import { ScenarioInvalidError, parseScenario, type ScenarioConfig } from '../../scenarios';
import { UsageError } from '../errors';
import { TOPIC_DEFAULTS } from './audit_keys';
import type { AuditApp, AuditInput, KafkaValue } from './audit_files';

/** The smallest cluster the audit builds: a broker failure leaves two, as in production. */
const BROKERS_MIN = 3;

/** The stand-in producer's name when no producer file is given. */
export const STAND_IN_PRODUCER = 'default-producer';

/** Virtual milliseconds of workload; swarm faults run for the first three quarters. */
const DURATION_MS = 20_000;

type Mapping = Record<string, unknown>;

function configOf(app: { readonly used: ReadonlyMap<string, { value: KafkaValue }> }): Mapping {
  const config: Mapping = {};
  for (const [key, { value }] of app.used) {
    // The scenario language takes acks as all, -1, 0 or 1, the numbers as numbers.
    config[key] = key === 'acks' && value !== 'all' ? Number(value) : value;
  }
  return config;
}

/** The workload of one application file. */
function clientOf(app: AuditApp, topics: { input: string; output: string }): Mapping {
  const config = configOf(app);
  if (app.role === 'pipeline') {
    const workload = { topics: [topics.input], 'output.topic': topics.output, 'abort.every': 7 };
    return { name: app.name, role: 'pipeline', config, workload };
  }
  if (app.role === 'consumer') {
    const workload = { topics: [topics.output], 'poll.interval.ms': 200 };
    return { name: app.name, role: 'consumer', config, workload };
  }
  const workload =
    config['transactional.id'] === undefined
      ? { topics: [topics.input], sends: 300, 'send.interval.ms': 50 }
      : {
          topics: [topics.input],
          transactions: 60,
          'records.per.transaction': 3,
          'send.interval.ms': 20,
          'transaction.interval.ms': 200,
          'abort.every': 5,
        };
  return { name: app.name, role: 'producer', config, workload };
}

/** The number of a topic key in the broker file, or Kafka's default. */
function topicSetting(input: AuditInput, key: keyof typeof TOPIC_DEFAULTS): number {
  const value = input.broker.used.get(key)?.value;
  return typeof value === 'number' ? value : TOPIC_DEFAULTS[key];
}

/**
 * The scenario file, as a mapping, that the files imply.
 * @example scenarioMapping(input, '4.5').cluster // { brokers: 3, topics: [...] }
 */
export function scenarioMapping(input: AuditInput, kafkaVersion: string): Mapping {
  const replicationFactor = topicSetting(input, 'default.replication.factor');
  const partitions = topicSetting(input, 'num.partitions');
  const brokers = Math.max(BROKERS_MIN, replicationFactor);
  const pipeline = input.apps.some((app) => app.role === 'pipeline');
  const names = pipeline ? ['in', 'out'] : ['events'];
  const topic = (name: string): Mapping => ({
    name,
    partitions,
    'replication.factor': replicationFactor,
  });
  const topics = pipeline ? { input: 'in', output: 'out' } : { input: 'events', output: 'events' };
  const apps = [...input.apps];
  if (!apps.some((app) => app.role === 'producer')) {
    apps.unshift({
      path: '',
      name: STAND_IN_PRODUCER,
      role: 'producer',
      used: new Map(),
      ignored: [],
    });
  }
  const broker: Mapping = {};
  for (const [key, { value }] of input.broker.used)
    if (!(key in TOPIC_DEFAULTS)) broker[key] = value;
  return {
    name: 'audit',
    description: `The workload and cluster implied by ${[input.broker, ...input.apps]
      .map((file) => file.path)
      .join(', ')}`,
    'kafka.version': kafkaVersion,
    cluster: { brokers, topics: names.map(topic) },
    broker,
    clients: apps.map((app) => clientOf(app, topics)),
    expect: { anomalies: [] },
    run: { 'duration.ms': DURATION_MS, 'heal.ms': 60_000 },
  };
}

/** The properties file and line a scenario key came from, for an error message. */
function sourceOf(input: AuditInput, key: string): { place: string; key: string } | undefined {
  const client = /^clients\[(\d+)\]\.config\.(.+)$/.exec(key);
  const standIn = !input.apps.some((app) => app.role === 'producer');
  if (client !== null) {
    const app = input.apps[Number(client[1]) - (standIn ? 1 : 0)];
    const used = app?.used.get(client[2] as string);
    if (app !== undefined && used !== undefined) {
      return { place: `${app.path}:${used.line}`, key: used.key };
    }
  }
  const broker = /^broker\.(.+)$/.exec(key);
  const topicKey = /\.replication\.factor$/.test(key)
    ? 'default.replication.factor'
    : /\.partitions$/.test(key)
      ? 'num.partitions'
      : '';
  const brokerKey = broker?.[1] ?? topicKey;
  const used = input.broker.used.get(brokerKey);
  return used === undefined
    ? undefined
    : { place: `${input.broker.path}:${used.line}`, key: used.key };
}

/**
 * The scenario text and its resolved config. A value the model refuses is reported at the
 * properties file's line: `producer.properties:4: acks: …`.
 * @throws {@link UsageError} naming the properties file and key.
 */
export function auditScenario(
  input: AuditInput,
  options: { readonly kafkaVersion: string; readonly file: string },
): { text: string; scenario: ScenarioConfig } {
  const text = stringify(scenarioMapping(input, options.kafkaVersion), { lineWidth: 0 });
  try {
    return { text, scenario: parseScenario(text, options.file) };
  } catch (error) {
    if (!(error instanceof ScenarioInvalidError)) throw error;
    const source = error.key === undefined ? undefined : sourceOf(input, error.key);
    const detail = error.message.replace(/^Invalid scenario [^:]*(:\d+)?: [^:]*: /, '');
    if (source === undefined)
      throw new UsageError(`the files imply an invalid scenario: ${detail}`);
    throw new UsageError(`${source.place}: ${source.key}: ${detail}`);
  }
}
