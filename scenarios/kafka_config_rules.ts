/**
 * Kafka's own checks of client configs that a scenario sets, with Kafka's message: what
 * `KafkaProducer` and the classic `KafkaConsumer` refuse when they are constructed. (The
 * idempotence coupling of `ProducerConfig` is in schema.ts.) Configs Kafka accepts and that
 * then fail at run time are not refused here: the model plays the failure (for example
 * `group.min.session.timeout.ms` above `group.max.session.timeout.ms` makes every JoinGroup
 * fail INVALID_SESSION_TIMEOUT; `transaction.timeout.ms` above `transaction.max.timeout.ms`
 * makes InitProducerId fail INVALID_TRANSACTION_TIMEOUT).
 */
import { NEWEST_KAFKA_VERSION, compareVersions, defaultsOf } from './kafka_versions';
import { GROUP_DEFAULTS, PRODUCER_DEFAULTS, type Problem, type ScenarioFile } from './schema';

/**
 * A producer's `linger.ms`: the one set, or the release's default (KIP-1030 raised it from 0 to
 * 5 in Kafka 4.0).
 *
 * @example lingerMsOf({}, '3.9') // 0
 */
export function lingerMsOf(
  config: { readonly 'linger.ms'?: number | undefined },
  kafkaVersion: string,
): number {
  return config['linger.ms'] ?? defaultsOf(kafkaVersion).lingerMs;
}

/**
 * The `delivery.timeout.ms` a producer uses: the one set, or Kafka's default raised to
 * `linger.ms + request.timeout.ms` when that is larger (`KafkaProducer.configureDeliveryTimeout`
 * logs a warning and raises it when the key was not set).
 *
 * @example effectiveDeliveryTimeoutMs({ 'request.timeout.ms': 200000 }, 5) // 200005
 */
export function effectiveDeliveryTimeoutMs(
  config: {
    readonly 'delivery.timeout.ms'?: number | undefined;
    readonly 'request.timeout.ms'?: number | undefined;
  },
  lingerMs: number,
): number {
  const given = config['delivery.timeout.ms'];
  if (given !== undefined) return given;
  const requestTimeoutMs = config['request.timeout.ms'] ?? PRODUCER_DEFAULTS.requestTimeoutMs;
  return Math.max(PRODUCER_DEFAULTS.deliveryTimeoutMs, lingerMs + requestTimeoutMs);
}

/**
 * Every client config Kafka's clients refuse, and every `expect.fenced` entry that names a
 * client that cannot be fenced.
 *
 * @example
 * ```ts
 * checkKafkaClientConfigs(file, undefined);
 * // [{ path: ['clients', 0, 'config', 'delivery.timeout.ms'],
 * //    detail: 'delivery.timeout.ms should be equal to or larger than linger.ms + ...' }]
 * ```
 */
export function checkKafkaClientConfigs(
  scenario: ScenarioFile,
  kafkaVersion: string | undefined,
): Problem[] {
  const problems: Problem[] = [];
  const version = kafkaVersion ?? scenario['kafka.version'] ?? NEWEST_KAFKA_VERSION;
  scenario.clients.forEach((client, index) => {
    const { config } = client;
    const lingerMs = lingerMsOf(config, version);
    const base = ['clients', index, 'config'] as const;
    const deliveryTimeoutMs = config['delivery.timeout.ms'];
    const requestTimeoutMs = config['request.timeout.ms'] ?? PRODUCER_DEFAULTS.requestTimeoutMs;
    if (
      client.role !== 'consumer' &&
      deliveryTimeoutMs !== undefined &&
      deliveryTimeoutMs < lingerMs + requestTimeoutMs
    ) {
      // KafkaProducer.configureDeliveryTimeout throws a ConfigException.
      const detail =
        'delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms: ' +
        `${deliveryTimeoutMs} < ${lingerMs} + ${requestTimeoutMs}`;
      problems.push({ path: [...base, 'delivery.timeout.ms'], detail });
    }
    if (client.role !== 'pipeline') return;
    const sessionTimeoutMs = config['session.timeout.ms'] ?? GROUP_DEFAULTS.sessionTimeoutMs;
    const heartbeatIntervalMs =
      config['heartbeat.interval.ms'] ?? GROUP_DEFAULTS.heartbeatIntervalMs;
    if (heartbeatIntervalMs >= sessionTimeoutMs) {
      // The classic consumer's Heartbeat constructor throws an IllegalArgumentException.
      const key =
        config['heartbeat.interval.ms'] === undefined
          ? 'session.timeout.ms'
          : 'heartbeat.interval.ms';
      const detail =
        'Heartbeat must be set lower than the session timeout: ' +
        `heartbeat.interval.ms ${heartbeatIntervalMs} >= session.timeout.ms ${sessionTimeoutMs}`;
      problems.push({ path: [...base, key], detail });
    }
  });
  checkFencedNames(scenario, problems);
  return problems;
}

/** `expect.fenced` names only clients with a `transactional.id`: only they can be fenced. */
function checkFencedNames(scenario: ScenarioFile, problems: Problem[]): void {
  scenario.expect.fenced.forEach((name, position) => {
    const client = scenario.clients.find((candidate) => candidate.name === name);
    if (client === undefined || client.config['transactional.id'] !== undefined) return;
    const what = client.role === 'consumer' ? 'a consumer' : 'a producer without transactional.id';
    const detail =
      `client ${name} is ${what}: only a client with a transactional.id can be fenced ` +
      '(PRODUCER_FENCED, INVALID_PRODUCER_EPOCH)';
    problems.push({ path: ['expect', 'fenced', position], detail });
  });
}

/** `replica.socket.timeout.ms` of the model's followers (Kafka's default). */
const REPLICA_SOCKET_TIMEOUT_MS = 30000;

/**
 * The broker configs KafkaConfig refuses at startup: `replica.fetch.wait.max.ms` above
 * `replica.socket.timeout.ms` or above `replica.lag.time.max.ms` (KafkaConfig.validateValues).
 */
export function checkKafkaBrokerConfigs(scenario: ScenarioFile): Problem[] {
  const broker = scenario.broker;
  const waitMaxMs = broker['replica.fetch.wait.max.ms'];
  const path = ['broker', 'replica.fetch.wait.max.ms'] as const;
  if (waitMaxMs > REPLICA_SOCKET_TIMEOUT_MS) {
    const detail =
      `replica.socket.timeout.ms (${REPLICA_SOCKET_TIMEOUT_MS}) should always be at least ` +
      'replica.fetch.wait.max.ms to prevent unnecessary socket timeouts';
    return [{ path: [...path], detail }];
  }
  if (waitMaxMs > broker['replica.lag.time.max.ms']) {
    const detail =
      'replica.fetch.wait.max.ms should always be less than or equal to ' +
      'replica.lag.time.max.ms to prevent frequent changes in ISR';
    return [{ path: [...path], detail }];
  }
  return [];
}

/**
 * `inter.broker.protocol.version` names a release no newer than the broker's own: Kafka's
 * ApiVersion parser knows only the versions up to its release and refuses the rest ("is not a
 * valid version").
 */
export function checkInterBrokerProtocolVersion(
  scenario: ScenarioFile,
  kafkaVersion: string | undefined,
): Problem[] {
  const protocolVersion = scenario.broker['inter.broker.protocol.version'];
  const version = kafkaVersion ?? scenario['kafka.version'] ?? NEWEST_KAFKA_VERSION;
  if (protocolVersion === undefined || compareVersions(protocolVersion, version) <= 0) return [];
  const known = `kafka.version is ${version}`;
  const detail = `Version \`${protocolVersion}\` is not a valid version: ${known}`;
  return [{ path: ['broker', 'inter.broker.protocol.version'], detail }];
}
