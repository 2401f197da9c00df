/**
 * The files of an audit: the broker file first, then one file per client application. Each
 * application file is told apart by its keys (`ProducerConfig` or `ConsumerConfig` keys; both
 * `transactional.id` and `group.id`: a read-process-write application), its values are parsed
 * as Kafka's `ConfigDef` parses them, and the idempotence coupling is checked as
 * `ProducerConfig.postProcessAndValidateIdempotenceConfigs` checks it, with Kafka's
 * `ConfigException` text.
 */
import { basename } from 'node:path';
import { UsageError } from '../errors';
import {
  BROKER_KEYS,
  BROKER_ONLY_KEYS,
  CONSUMER_KEYS,
  CONSUMER_ONLY_KEYS,
  GROUP_KEYS,
  PRODUCER_KEYS,
  PRODUCER_ONLY_KEYS,
  TOPIC_KEYS,
  type KeyType,
} from './audit_keys';
import type { PropertiesFile, PropertyEntry } from './properties_file';

/** What an application file configures. */
export type AppRole = 'producer' | 'consumer' | 'pipeline';

/** A value as Kafka parsed it. */
export type KafkaValue = string | number | boolean;

/** A key the model reads, with its parsed value and line. */
export interface UsedKey {
  readonly key: string;
  readonly value: KafkaValue;
  readonly line: number;
}

/** A key the model does not read, and why. */
export interface IgnoredKey {
  readonly key: string;
  readonly line: number;
  readonly why: string;
}

/** One file of the audit, sorted into what the model reads and what it ignores. */
export interface AuditFile {
  readonly path: string;
  readonly used: ReadonlyMap<string, UsedKey>;
  readonly ignored: readonly IgnoredKey[];
}

/** One client application (one file). */
export interface AuditApp extends AuditFile {
  /** The client's name in the scenario: the file's name without extension. */
  readonly name: string;
  readonly role: AppRole;
}

/** Everything the audit read. */
export interface AuditInput {
  readonly broker: AuditFile;
  readonly apps: readonly AuditApp[];
}

/** Java's `Integer.parseInt` of a trimmed value. */
function parseInt32(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= -(2 ** 31) && value < 2 ** 31 ? value : undefined;
}

/**
 * Java's `Long.parseLong` of a trimmed value, as a number: values past 2^53 (Long.MAX_VALUE,
 * the "never" of Kafka's counts) become Number.MAX_SAFE_INTEGER, which no run reaches either.
 */
function parseInt64(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  if (value < -(2n ** 63n) || value >= 2n ** 63n) return undefined;
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  return Number(value);
}

/** The value as `ConfigDef.parseType` reads it. @throws UsageError with Kafka's text. */
function typedValue(entry: PropertyEntry, type: KeyType, path: string): KafkaValue {
  const text = entry.value.trim();
  const refuse = (why: string): never => {
    throw new UsageError(
      `${path}:${entry.line}: ConfigException: Invalid value ${text} for configuration ` +
        `${entry.key}: ${why}`,
    );
  };
  if (type.kind === 'int') return parseInt32(text) ?? refuse('Not a number of type INT');
  if (type.kind === 'long') {
    const value = parseInt64(text) ?? refuse('Not a number of type LONG');
    return value >= type.min ? value : refuse(`Value must be at least ${type.min}`);
  }
  if (type.kind === 'boolean') {
    if (/^true$/i.test(text)) return true;
    if (/^false$/i.test(text)) return false;
    return refuse('Expected value to be either true or false');
  }
  if (type.kind === 'one-of') {
    const value = text.toLowerCase();
    return type.values.includes(value)
      ? value
      : refuse(`String must be one of: ${type.values.join(', ')}`);
  }
  return text;
}

/** Splits a file's keys into those the model reads (parsed) and the rest. */
function sortKeys(
  file: PropertiesFile,
  tables: ReadonlyArray<Readonly<Record<string, KeyType>>>,
  whyIgnored: (key: string) => string,
): AuditFile {
  const used = new Map<string, UsedKey>();
  const ignored: IgnoredKey[] = [];
  for (const entry of file.entries.values()) {
    const type = tables.map((table) => table[entry.key]).find((found) => found !== undefined);
    if (type === undefined) {
      ignored.push({ key: entry.key, line: entry.line, why: whyIgnored(entry.key) });
      continue;
    }
    const value = typedValue(entry, type, file.path);
    used.set(entry.key, { key: entry.key, value, line: entry.line });
  }
  return { path: file.path, used, ignored };
}

const NOT_MODELLED = 'not modelled';

/** What a client file configures. @throws UsageError when its keys do not tell. */
function roleOf(file: PropertiesFile): AppRole {
  const keys = [...file.entries.keys()];
  const producer = keys.filter((key) => PRODUCER_ONLY_KEYS.includes(key));
  const consumer = keys.filter((key) => CONSUMER_ONLY_KEYS.includes(key));
  if (file.entries.has('transactional.id') && file.entries.has('group.id')) return 'pipeline';
  if (producer.length > 0 && consumer.length === 0) return 'producer';
  if (consumer.length > 0 && producer.length === 0) return 'consumer';
  if (producer.length > 0) {
    throw new UsageError(
      `${file.path}: sets producer keys (${producer.join(', ')}) and consumer keys ` +
        `(${consumer.join(', ')}): a read-process-write application needs transactional.id and ` +
        'group.id; otherwise give the producer and the consumer a file each',
    );
  }
  const name = basename(file.path).toLowerCase();
  if (name.includes('producer')) return 'producer';
  if (name.includes('consumer')) return 'consumer';
  throw new UsageError(
    `${file.path}: cannot tell a producer from a consumer: it sets no key only one of them has ` +
      '(e.g. acks, group.id) and its name says neither',
  );
}

/** A file's keys as a client of `role` reads them. */
function appFile(file: PropertiesFile, role: AppRole): AuditFile {
  if (role === 'producer') return sortKeys(file, [PRODUCER_KEYS], () => NOT_MODELLED);
  if (role === 'pipeline') {
    return sortKeys(file, [PRODUCER_KEYS, CONSUMER_KEYS, GROUP_KEYS], () => NOT_MODELLED);
  }
  return sortKeys(file, [CONSUMER_KEYS], (key) =>
    key in GROUP_KEYS
      ? 'the model reads a consumer group only in a read-process-write application ' +
        '(a file with transactional.id and group.id); this consumer reads every partition'
      : NOT_MODELLED,
  );
}

/** Client names: the file name without extension, made unique and kept off broker names. */
function clientName(path: string, taken: Set<string>): string {
  const stem =
    basename(path)
      .replace(/\.[^.]*$/, '')
      .replace(/[^A-Za-z0-9_.-]/g, '_') || 'app';
  const base = /^b\d+$/.test(stem) || stem === 'nemesis' ? `app-${stem}` : stem;
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}-${suffix}`;
  taken.add(name);
  return name;
}

/**
 * Kafka's `ConfigException` for a producer whose idempotence, asked for explicitly, conflicts
 * with another setting, or whose transactional.id has no idempotence.
 */
function checkIdempotence(app: AuditFile): void {
  const at = (key: string): string => `${app.path}:${app.used.get(key)?.line ?? 1}`;
  const explicit = app.used.get('enable.idempotence')?.value;
  const retries = app.used.get('retries')?.value;
  const acks = app.used.get('acks')?.value;
  const inFlight = app.used.get('max.in.flight.requests.per.connection')?.value;
  const conflicts: Array<[string, boolean, string]> = [
    ['retries', retries === 0, 'Must set retries to non-zero when using the idempotent producer.'],
    [
      'acks',
      acks !== undefined && acks !== 'all' && acks !== '-1',
      'Must set acks to all in order to use the idempotent producer. ' +
        'Otherwise we cannot guarantee idempotence.',
    ],
    [
      'max.in.flight.requests.per.connection',
      typeof inFlight === 'number' && inFlight > 5,
      'Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer.',
    ],
  ];
  const conflict = conflicts.find(([, holds]) => holds);
  if (explicit === true && conflict !== undefined) {
    throw new UsageError(`${at(conflict[0])}: ConfigException: ${conflict[2]}`);
  }
  const idempotent = explicit === undefined ? conflict === undefined : explicit;
  if (!idempotent && app.used.has('transactional.id')) {
    throw new UsageError(
      `${at('transactional.id')}: ConfigException: ` +
        'Cannot set a transactional.id without also enabling idempotence.',
    );
  }
}

/**
 * Sorts the parsed files: the first is the broker's, the rest one application each.
 * @throws {@link UsageError} for a first file with client keys only, an application file whose
 * keys do not say what it is, a value Kafka would not parse, or a Kafka `ConfigException`.
 */
export function auditInputOf(files: readonly PropertiesFile[]): AuditInput {
  const [brokerFile, ...appFiles] = files;
  if (brokerFile === undefined) throw new UsageError('audit needs a server.properties file');
  const brokerKeys = [...brokerFile.entries.keys()];
  const clientOnly = brokerKeys.filter(
    (key) => PRODUCER_ONLY_KEYS.includes(key) || CONSUMER_ONLY_KEYS.includes(key),
  );
  if (clientOnly.length > 0 && !brokerKeys.some((key) => BROKER_ONLY_KEYS.includes(key))) {
    throw new UsageError(
      `${brokerFile.path}: the first file must be the broker's server.properties; ` +
        `this one sets client keys (${clientOnly.join(', ')})`,
    );
  }
  const broker = sortKeys(brokerFile, [BROKER_KEYS, TOPIC_KEYS], () => NOT_MODELLED);
  const taken = new Set<string>();
  const apps = appFiles.map((file): AuditApp => {
    const role = roleOf(file);
    const sorted = appFile(file, role);
    if (role !== 'consumer') checkIdempotence(sorted);
    return { ...sorted, name: clientName(file.path, taken), role };
  });
  return { broker, apps };
}
