/**
 * The duplicates Kafka's producer itself makes, derived from the producers' settings: retries
 * without idempotence, an idempotent producer's own epoch bump, and a retry that outlives the
 * broker's memory of its producer (producer.id.expiration.ms). Part of the guarantee model
 * (kafka_guarantee.ts).
 */
import type { ClientConfig, ScenarioConfig } from '../../scenarios';
import { FIRST_OUT_OF_ORDER } from '../checker';
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
  const reordered = firstBatchReorderedPermission(scenario);
  if (reordered !== null) permissions.push(reordered);
  return permissions;
}

/**
 * A librdkafka producer with more than one request in flight whose head-of-line Produce to a
 * partition is lost in transit: the leader, with no state for that producerId and epoch, takes
 * the next request as the first batch (any first sequence on a log that holds records), and the
 * retried head meets OUT_OF_ORDER_SEQUENCE_NUMBER. librdkafka reads that answer to its
 * head-of-line request as a sequence desynchronization with the broker and raises a fatal error
 * (rd_kafka_handle_idempotent_Produce_error). Only the refusals the checker traces to such a
 * first batch are covered (classification `first-batch-taken-out-of-order`).
 */
function firstBatchReorderedPermission(scenario: ScenarioConfig): Permission | null {
  const exposed = producersOf(scenario.clients).filter(
    ({ settings }) =>
      settings.enableIdempotence &&
      settings.client?.flavour === 'librdkafka' &&
      settings.maxInFlightRequestsPerConnection > 1,
  );
  if (exposed.length === 0) return null;
  return {
    id: 'first-batch-reordered',
    kinds: ['fatal-txn-error'],
    classifications: { 'fatal-txn-error': [FIRST_OUT_OF_ORDER] },
    setting: exposed
      .map(({ name, settings }) => {
        const inFlight = settings.maxInFlightRequestsPerConnection;
        return `librdkafka, max.in.flight.requests.per.connection=${inFlight} (${name})`;
      })
      .join(', '),
    because:
      'a partition leader with no state for a producerId and epoch accepts any first sequence ' +
      'on a log that holds records, so when the head-of-line Produce is lost in transit the ' +
      'next in-flight one becomes the first batch and the retried head is answered ' +
      'OUT_OF_ORDER_SEQUENCE_NUMBER; librdkafka takes that answer to its head-of-line request ' +
      'as a sequence desynchronization with the broker and raises a fatal error',
    source:
      'KIP-360; ProducerAppendInfo.checkSequence (only a never-written log wants sequence 0 ' +
      'since KAFKA-15591); librdkafka rd_kafka_handle_idempotent_Produce_error',
  };
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
