/**
 * A client's `client.flavour` and `client.version` resolved into the producer's rules, with the
 * defaults that differ between the flavours, and the client bug switches: each librdkafka
 * producer has a client bug when the file's `bugs:` says so, else when its `client.version` had
 * it; a Java producer never has one.
 */
import type { ClientRules } from '../sim/actors';
import {
  CLIENT_BUG_RELEASES,
  clientBugOf,
  clientHasBug,
  isModelledClientVersion,
  modelledClientLines,
  newestClientVersion,
  type ClientFlavour,
} from './client_versions';
import type { BugId } from './kafka_versions';
import type { ClientConfig, ProducerSettings, ScenarioConfig } from './scenario_types';

/** The file's `bugs:` mapping as written: a switch not set is undefined. */
export type FileBugs = { readonly [id in BugId]?: boolean | undefined };

/** The client keys of one `config:` mapping. */
export interface ClientKeys {
  readonly 'client.flavour'?: ClientFlavour | undefined;
  readonly 'client.version'?: string | number | undefined;
  readonly 'enable.gapless.guarantee'?: boolean | undefined;
  readonly 'enable.idempotence'?: boolean | undefined;
  readonly 'delivery.timeout.ms'?: number | undefined;
  readonly 'linger.ms'?: number | undefined;
  readonly 'max.in.flight.requests.per.connection'?: number | undefined;
  readonly retries?: number | undefined;
  readonly 'transactional.id'?: string | undefined;
}

/**
 * librdkafka's defaults where they differ from the Java client's (librdkafka CONFIGURATION.md):
 * `enable.idempotence` is false unless a `transactional.id` is set (the transactional producer
 * turns it on), `delivery.timeout.ms` (librdkafka's alias of `message.timeout.ms`) is
 * 300000, and `linger.ms` (alias of `queue.buffering.max.ms`) is 5 whatever the broker's release:
 * librdkafka raised it from 0.5 to 5 in v1.5.0, before every modelled release, while the Java
 * client's default is 0 before Kafka 4.0 (KIP-1030).
 */
export const LIBRDKAFKA_DEFAULTS = { deliveryTimeoutMs: 300000, lingerMs: 5 } as const;

/**
 * Where the Go clients' defaults differ from the Java client's in what the model uses. Neither
 * has a delivery timeout by default (franz-go `RecordDeliveryTimeout` 0, sarama none: its
 * `Producer.Timeout` is the broker's ack timeout), written as the largest `delivery.timeout.ms`;
 * sarama's `Producer.Retry.Max` is 3 and `Producer.Idempotent` false, and an idempotent sarama
 * producer must have `Net.MaxOpenRequests` 1 (`Config.Validate`); franz-go is idempotent with
 * unlimited `RecordRetries`, as the Java defaults are.
 */
export const GO_CLIENT_DEFAULTS = { deliveryTimeoutMs: 2147483647, saramaRetries: 3 } as const;

/** `settings` with the Go client defaults the keys do not override. */
function withGoDefaults(
  settings: ProducerSettings,
  config: ClientKeys,
  fileBugs: FileBugs,
): ProducerSettings {
  const sarama = config['client.flavour'] === 'sarama';
  const idempotent = sarama ? (config['enable.idempotence'] ?? false) : settings.enableIdempotence;
  const inFlight = config['max.in.flight.requests.per.connection'];
  return {
    ...settings,
    enableIdempotence: idempotent,
    maxInFlightRequestsPerConnection:
      sarama && idempotent ? (inFlight ?? 1) : settings.maxInFlightRequestsPerConnection,
    retries: sarama ? (config.retries ?? GO_CLIENT_DEFAULTS.saramaRetries) : settings.retries,
    deliveryTimeoutMs: config['delivery.timeout.ms'] ?? GO_CLIENT_DEFAULTS.deliveryTimeoutMs,
    client: clientRulesOf(config, fileBugs),
  };
}

/** Problems with the client keys of one client, as (key, detail) pairs. */
export function clientKeyProblems(
  config: ClientKeys,
): Array<{ readonly key: string; readonly detail: string }> {
  const flavour = config['client.flavour'] ?? 'java';
  const problems: Array<{ key: string; detail: string }> = [];
  const version = config['client.version'];
  if (version !== undefined && !isModelledClientVersion(flavour, String(version))) {
    const known =
      flavour === 'java'
        ? `the Java client is modelled as of Kafka ${newestClientVersion('java')} only`
        : `must be a modelled ${flavour} release: ${modelledClientLines(flavour).join(', ')}`;
    problems.push({ key: 'client.version', detail: known });
  }
  const inFlight = config['max.in.flight.requests.per.connection'];
  if (flavour === 'sarama' && config['enable.idempotence'] === true && (inFlight ?? 1) !== 1) {
    const detail = 'an idempotent sarama producer needs 1 (Net.MaxOpenRequests, Config.Validate)';
    problems.push({ key: 'max.in.flight.requests.per.connection', detail });
  }
  if (flavour === 'sarama' && config['transactional.id'] !== undefined) {
    const detail = 'sarama has no transactional producer before 1.37, the lines modelled';
    problems.push({ key: 'transactional.id', detail });
  }
  if (config['enable.gapless.guarantee'] !== undefined && flavour !== 'librdkafka') {
    problems.push({ key: 'enable.gapless.guarantee', detail: 'is a librdkafka key' });
  }
  return problems;
}

/**
 * A librdkafka transactional producer needs a cluster below transaction version 2: librdkafka
 * sends EndTxn v0-1 and AddPartitionsToTxn v0 only (no KIP-890 part 2), and the model runs
 * every transaction of a version 2 cluster by the version 2 rules, so a mixed run is not
 * modelled. Returns the problem, or undefined.
 */
export function librdkafkaTransactionProblem(
  config: ClientKeys,
  transactionVersion: number,
): string | undefined {
  if (config['client.flavour'] !== 'librdkafka' || config['transactional.id'] === undefined)
    return undefined;
  if (transactionVersion < 2) return undefined;
  return (
    'a librdkafka transactional producer needs protocol.transaction.version 0 or 1 ' +
    '(librdkafka has no KIP-890 part 2; set kafka.version below 4.0 or transaction.version: 0)'
  );
}

/** The rules of one client from its keys and the file's explicit `bugs:` values. */
export function clientRulesOf(config: ClientKeys, fileBugs: FileBugs): ClientRules {
  const flavour = config['client.flavour'] ?? 'java';
  const version = String(config['client.version'] ?? newestClientVersion(flavour));
  const on = (id: BugId): boolean => {
    const release = clientBugOf(id);
    if (release === undefined || release.flavour !== flavour) return false;
    return fileBugs[id] ?? clientHasBug(release, flavour, version);
  };
  return {
    flavour,
    version,
    enableGaplessGuarantee: config['enable.gapless.guarantee'] ?? false,
    bumpOnSkippedSequence: on('confluentinc/librdkafka#4953'),
    bumpWithoutAbort: on('confluentinc/librdkafka#3575'),
    reuseAmbiguousSequence: on('twmb/franz-go#1217'),
    keepFailedSequence: on('IBM/sarama#1661'),
    advanceAckOnPossiblyPersisted: on('confluentinc/librdkafka#4438'),
  };
}

/** A producer's settings with its client rules and its flavour's defaults. */
function withRules(
  settings: ProducerSettings,
  config: ClientKeys,
  fileBugs: FileBugs,
): ProducerSettings {
  const flavour = config['client.flavour'] ?? 'java';
  if (flavour === 'java') return settings;
  if (flavour !== 'librdkafka') return withGoDefaults(settings, config, fileBugs);
  return {
    ...settings,
    enableIdempotence: config['enable.idempotence'] ?? config['transactional.id'] !== undefined,
    deliveryTimeoutMs: config['delivery.timeout.ms'] ?? LIBRDKAFKA_DEFAULTS.deliveryTimeoutMs,
    lingerMs: config['linger.ms'] ?? LIBRDKAFKA_DEFAULTS.lingerMs,
    client: clientRulesOf(config, fileBugs),
  };
}

/**
 * `client` with its producer's client rules. A Java client's settings are left as they are
 * (the Java rules are the default), so Java runs are unchanged.
 */
export function resolveClientRules(
  client: ClientConfig,
  config: ClientKeys,
  fileBugs: FileBugs,
): ClientConfig {
  if (client.role === 'producer')
    return { ...client, settings: withRules(client.settings, config, fileBugs) };
  if (client.role === 'pipeline') {
    const producer = withRules(client.settings.producer, config, fileBugs);
    return { ...client, settings: { ...client.settings, producer } };
  }
  return client;
}

/**
 * Per client bug, whether the scenario's clients have it by their `client.version` (what the
 * report compares the resolved switch with), and whether any client has it as resolved.
 */
export function clientBugSummary(
  clients: readonly ClientConfig[],
  fileBugs: FileBugs,
): { byVersion: Partial<Record<BugId, boolean>>; resolved: Partial<Record<BugId, boolean>> } {
  const byVersion: Partial<Record<BugId, boolean>> = {};
  const resolved: Partial<Record<BugId, boolean>> = {};
  for (const release of CLIENT_BUG_RELEASES) {
    const rules = clients.flatMap((client) => {
      if (client.role === 'consumer') return [];
      const settings = client.role === 'producer' ? client.settings : client.settings.producer;
      return settings.client === undefined ? [] : [settings.client];
    });
    const ofFlavour = rules.filter((rule) => rule.flavour === release.flavour);
    const had = ofFlavour.some((rule) => clientHasBug(release, rule.flavour, rule.version));
    // Only a scenario with clients of the bug's flavour compares with their versions.
    if (ofFlavour.length > 0) byVersion[release.id] = had;
    resolved[release.id] = fileBugs[release.id] ?? had;
  }
  return { byVersion, resolved };
}

/**
 * A base's producer turned sarama: one request in flight (sarama requires it of an idempotent
 * producer) and, where the base left Java's default `retries`, sarama's `Producer.Retry.Max` 3.
 * Other flavours keep the base's values, which the base's application is taken to have set.
 */
function saramaLimits(
  flavour: ClientFlavour,
  settings: ProducerSettings,
): Partial<ProducerSettings> {
  if (flavour !== 'sarama') return {};
  const javaRetries = settings.retries === 2147483647;
  return {
    maxInFlightRequestsPerConnection: 1,
    retries: javaRetries ? GO_CLIENT_DEFAULTS.saramaRetries : settings.retries,
  };
}

/**
 * `scenario` with every producer, pipelines' included, behaving as `flavour` (at its
 * `client.version`, else the newest) with the client bug switches `bugs` (each not named is
 * off), and `bugs` in the scenario's switches too. `eos-sim mutants` tries a client bug on
 * these clients: on Java clients it would change nothing.
 */
export function withClientFlavour(
  scenario: ScenarioConfig,
  flavour: Exclude<ClientFlavour, 'java'>,
  bugs: FileBugs,
): ScenarioConfig {
  const off: FileBugs = Object.fromEntries(
    CLIENT_BUG_RELEASES.map((release) => [release.id, false]),
  );
  const switches = { ...off, ...bugs };
  const rulesOf = (settings: ProducerSettings): ProducerSettings => {
    const version = settings.client?.flavour === flavour ? settings.client.version : undefined;
    const keys: ClientKeys = { 'client.flavour': flavour, 'client.version': version };
    return {
      ...settings,
      ...saramaLimits(flavour, settings),
      client: clientRulesOf(keys, switches),
    };
  };
  const clients = scenario.clients.map((client): ClientConfig => {
    if (client.role === 'producer') return { ...client, settings: rulesOf(client.settings) };
    if (client.role === 'consumer') return client;
    return {
      ...client,
      settings: { ...client.settings, producer: rulesOf(client.settings.producer) },
    };
  });
  const bugsOn = Object.fromEntries(Object.entries(switches).map(([id, on]) => [id, on === true]));
  return { ...scenario, clients, bugs: { ...scenario.bugs, ...bugsOn } };
}

/** {@link withClientFlavour} for librdkafka. */
export function withLibrdkafkaClients(scenario: ScenarioConfig, bugs: FileBugs): ScenarioConfig {
  return withClientFlavour(scenario, 'librdkafka', bugs);
}
