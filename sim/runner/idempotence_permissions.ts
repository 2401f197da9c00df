/**
 * The duplicates Kafka's producer itself makes, derived from the producers' settings: retries
 * without idempotence, an idempotent producer's own epoch bump, and a retry that outlives the
 * broker's memory of its producer (producer.id.expiration.ms). Part of the guarantee model
 * (kafka_guarantee.ts).
 */
import type { ClientConfig, ScenarioConfig } from '../../scenarios';
import type { Permission } from './kafka_guarantee';

/** The producer settings of every client that produces, with its name. */
export function producersOf(clients: readonly ClientConfig[]) {
  return clients.flatMap((client) => {
    if (client.role === 'consumer') return [];
    const settings = client.role === 'pipeline' ? client.settings.producer : client.settings;
    return [{ name: client.name, settings }];
  });
}

/** Duplicates Kafka's producer makes: without idempotence, and an idempotent epoch bump. */
export function idempotencePermissions(scenario: ScenarioConfig): Permission[] {
  const producers = producersOf(scenario.clients);
  const permissions: Permission[] = [];
  const plain = producers.filter(({ settings }) => !settings.enableIdempotence);
  if (plain.length > 0) {
    permissions.push({
      id: 'idempotence-off',
      kinds: ['duplicate'],
      setting: plain.map(({ name }) => `enable.idempotence=false (${name})`).join(', '),
      because:
        'a producer without idempotence retries a Produce whose first attempt may already be ' +
        'in the log, and the broker cannot tell the retry from a new write',
      source: 'Kafka documentation, Producer Configs: enable.idempotence, retries; KIP-98',
    });
  }
  const idempotent = producers.filter(
    ({ settings }) => settings.enableIdempotence && settings.transactionalId === null,
  );
  if (idempotent.length > 0) permissions.push(epochBumpPermission(scenario, idempotent));
  const expiring = producerIdExpirationPermission(scenario);
  if (expiring !== null) permissions.push(expiring);
  return permissions;
}

/**
 * A retry that outlives the broker's memory of its producer: a leader drops the state of a
 * producer idle for producer.id.expiration.ms and accepts its next batch at any sequence, so a
 * retry of a batch appended before is appended again. Only a producer whose retries may last
 * longer than that (delivery.timeout.ms above it) can meet it, and only the copies a replica's
 * expiry of that producer separates are covered (classification `written-after-producer-expired`).
 */
function producerIdExpirationPermission(scenario: ScenarioConfig): Permission | null {
  const expirationMs = scenario.broker.producerIdExpirationMs;
  const retrying = producersOf(scenario.clients).filter(
    ({ settings }) => settings.enableIdempotence && settings.deliveryTimeoutMs > expirationMs,
  );
  if (retrying.length === 0) return null;
  return {
    id: 'producer-id-expiration',
    kinds: ['duplicate'],
    classifications: { duplicate: ['written-after-producer-expired'] },
    setting:
      `producer.id.expiration.ms=${expirationMs} below delivery.timeout.ms (` +
      retrying.map(({ name, settings }) => `${name} ${settings.deliveryTimeoutMs}`).join(', ') +
      ')',
    because:
      'a partition leader drops the state of a producer that wrote nothing for ' +
      'producer.id.expiration.ms and then accepts its next batch at any sequence; a retry of a ' +
      'batch appended before the expiry is appended again, at once or, after ' +
      "OUT_OF_ORDER_SEQUENCE_NUMBER, by the producer's epoch bump (the documentation advises " +
      'producer.id.expiration.ms at or above delivery.timeout.ms to prevent expiration during ' +
      'retries and the duplicates it causes)',
    source:
      'Kafka documentation, Broker Configs: producer.id.expiration.ms; KIP-854; ' +
      'ProducerStateManager.removeExpiredProducers',
  };
}

/**
 * An idempotent producer's own epoch bump rewrites a batch already in the log. KAFKA-14034 is
 * Kafka's in every release: a batch that failed with retries left and OUT_OF_ORDER_SEQUENCE_NUMBER
 * both bump at once. With its proposed fix selected (the switch off, apache/kafka#13796) the bump
 * after a failed batch waits for the batches it would rewrite, while the one after
 * OUT_OF_ORDER_SEQUENCE_NUMBER does not (handleFailedBatch's OutOfOrderSequenceException branch and
 * canRetry are unchanged), so only rewrites the checker traces to that route stay permitted.
 */
function epochBumpPermission(
  scenario: ScenarioConfig,
  idempotent: ReadonlyArray<{ readonly name: string }>,
): Permission {
  const setting = idempotent
    .map(({ name }) => `idempotent, not transactional (${name})`)
    .join(', ');
  const rewrite =
    'bumps its epoch itself and re-sends its in-flight batches from sequence 0; brokers ' +
    'deduplicate only within one (producerId, producerEpoch), so a batch already appended but ' +
    'never acknowledged is written again (the checker names only a copy with exactly that ' +
    'history so)';
  if (scenario.bugs['KAFKA-14034']) {
    return {
      id: 'idempotent-epoch-bump',
      kinds: ['epoch-bump-duplicate'],
      setting,
      because:
        'an idempotent producer whose batch failed (delivery.timeout.ms, or an error with ' +
        `retries left) or met OUT_OF_ORDER_SEQUENCE_NUMBER ${rewrite}`,
      source:
        'KIP-360; TransactionManager.handleFailedBatch and ' +
        'bumpIdempotentEpochAndResetIdIfNeeded; KAFKA-14034',
    };
  }
  return {
    id: 'idempotent-out-of-order-bump',
    kinds: ['epoch-bump-duplicate'],
    classifications: { 'epoch-bump-duplicate': ['rewritten-after-out-of-order-bump'] },
    setting: `${setting}, bugs.KAFKA-14034=false`,
    because:
      'an idempotent producer whose next batch met OUT_OF_ORDER_SEQUENCE_NUMBER (a gap in its ' +
      `sequence) ${rewrite}; the proposed fix makes only the bump after a failed batch wait`,
    source:
      'KIP-360; TransactionManager.handleFailedBatch (OutOfOrderSequenceException) and ' +
      'canRetry; KAFKA-14034, apache/kafka#13796',
  };
}
