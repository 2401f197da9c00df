/**
 * The settings an audit ran with, per file: every key the model reads for that file, with the
 * value it resolved (the file's, or Kafka's default and the model's rules applied: idempotence
 * turned off by `acks=1`, replication factors capped at the broker count), and the keys it
 * ignored.
 */
import { scenarioMappingOf, type ScenarioConfig } from '../../scenarios';
import type { AuditFile, AuditInput, IgnoredKey } from './audit_files';
import { BROKER_KEYS, CONSUMER_KEYS, GROUP_KEYS, PRODUCER_KEYS, TOPIC_KEYS } from './audit_keys';

/** One key as the audit resolved it. */
export interface EchoRow {
  readonly key: string;
  readonly value: string;
  /** `file`: set in the file (line); `default`: not set, the resolved default. */
  readonly from: 'file' | 'default';
  readonly line?: number;
}

/** One file's resolved and ignored keys. */
export interface FileEcho {
  readonly path: string;
  readonly what: string;
  readonly rows: readonly EchoRow[];
  readonly ignored: readonly IgnoredKey[];
}

type Mapping = Record<string, unknown>;

function rowsOf(file: AuditFile, keys: readonly string[], resolved: Mapping): EchoRow[] {
  return keys
    .filter((key) => file.used.has(key) || resolved[key] !== undefined)
    .map((key) => {
      const used = file.used.get(key);
      const value = String(resolved[key] ?? used?.value);
      return used === undefined
        ? { key, value, from: 'default' }
        : { key, value, from: 'file', line: used.line };
    });
}

/**
 * Every file's echo, the broker file first.
 * @example echoOf(input, scenario)[0]?.rows[0] // { key: 'transaction.max.timeout.ms', ... }
 */
export function echoOf(input: AuditInput, scenario: ScenarioConfig): FileEcho[] {
  const mapping = scenarioMappingOf(scenario) as {
    broker: Mapping;
    cluster: { topics: Mapping[] };
    clients: Array<{ name: string; config: Mapping }>;
  };
  const topic = mapping.cluster.topics[0] ?? {};
  const brokerResolved: Mapping = {
    ...mapping.broker,
    'default.replication.factor': topic['replication.factor'],
    'num.partitions': topic['partitions'],
  };
  const broker: FileEcho = {
    path: input.broker.path,
    what: `broker (${scenario.brokers} brokers, Kafka ${scenario.kafkaVersion})`,
    rows: rowsOf(
      input.broker,
      [...Object.keys(TOPIC_KEYS), ...Object.keys(BROKER_KEYS)],
      brokerResolved,
    ),
    ignored: input.broker.ignored,
  };
  const apps = input.apps.map((app): FileEcho => {
    const config = mapping.clients.find((client) => client.name === app.name)?.config ?? {};
    const keys =
      app.role === 'producer'
        ? Object.keys(PRODUCER_KEYS)
        : app.role === 'consumer'
          ? Object.keys(CONSUMER_KEYS)
          : [
              ...new Set([
                ...Object.keys(PRODUCER_KEYS),
                ...Object.keys(CONSUMER_KEYS),
                ...Object.keys(GROUP_KEYS),
              ]),
            ];
    const what =
      app.role === 'pipeline' ? 'read-process-write application' : `${app.role} application`;
    return {
      path: app.path,
      what: `${what} \`${app.name}\``,
      rows: rowsOf(app, keys, config),
      ignored: app.ignored,
    };
  });
  return [broker, ...apps];
}
