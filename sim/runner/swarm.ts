/**
 * Swarm mode (`--swarm`, style rule 8): each seed draws, from its own `swarm` stream, which
 * fault kinds the random nemesis uses, how often and how long faults last, whether durations are
 * sized around the timeouts, and a legal set of Kafka configs scaled around the scenario's own
 * settings (each timeout within ½ … 2 × the scenario's value, and Kafka's constraints kept:
 * delivery.timeout.ms >= request.timeout.ms, transaction.timeout.ms <=
 * transaction.max.timeout.ms, max.in.flight.requests.per.connection <= 5). Every fault kind may
 * be drawn, power loss, clock skew and forced unclean elections included; the guarantee model
 * says what Kafka permits after the ones that happened. The settings the guarantee rests on
 * (acks, idempotence, min.insync.replicas, unclean.leader.election.enable, the bug switches) are
 * kept, so a known-bad scenario keeps its bug. The scenario's scripted faults
 * are kept; its own nemesis, if any, is replaced. The `swarm` stream is new, so no other stream
 * draws differently.
 *
 * The heal and liveness phases last at least as long as Kafka itself may take to get unstuck
 * under the drawn timeouts ({@link recoveryBoundMs}), so a liveness outcome names a stall Kafka
 * would not recover from, not one cut short by a drawn delivery.timeout.ms.
 */
import { Rng, ratio } from '../kernel';
import { joinGroupTimeoutMs, resolveConsumerConfig, type ConsumerConfig } from '../actors';
import {
  groupIdsOf,
  scenarioTimeoutsMs,
  type ClientConfig,
  type ProducerSettings,
  type RandomNemesisConfig,
  type ScenarioConfig,
} from '../../scenarios';
import { swarmExpectations } from './swarm_expectations';

/**
 * The kinds swarm mode first drew, each with chance ½ from the `swarm` stream (kept as they were
 * so seeds swarmed before keep their draws).
 */
const FIRST_SWARM_FAULT_KINDS = [
  'crash',
  'pause',
  'partition',
  'one-way',
  'split',
  'bridge',
  'drop',
  'duplicate',
  'delay',
  'hold',
  'coordinator-failover',
] as const;

/**
 * The kinds added later, each with chance ½ from the `swarm/kinds-beyond-guarantee` stream:
 * faults Kafka does not promise to survive unharmed. The guarantee model
 * (`kafka_guarantee.ts`) labels what they cause: a power loss can lose acknowledged records
 * before KIP-966, a forced unclean election too; clock skew must change no verdict.
 */
const LATER_SWARM_FAULT_KINDS = ['power-loss', 'clock-skew', 'unclean-election'] as const;

/**
 * Every kind swarm mode may turn on: every kind the random nemesis knows but `slow-node`, whose
 * effect (every message a node receives delayed, FIFO) is the inbound `delay` swarm draws half
 * the time: the same kernel rule, so the same run (`test/faults/slow_node.test.ts`). Drawing it
 * by name too would move every earlier seed's draws.
 */
export const SWARM_FAULT_KINDS = [...FIRST_SWARM_FAULT_KINDS, ...LATER_SWARM_FAULT_KINDS] as const;

/** What a seed's swarm drew: printed on the first lines of a run and stored in its report. */
export interface SwarmParameters {
  readonly kinds: readonly string[];
  readonly intervalMs: number;
  readonly durationMsMin: number;
  readonly durationMsMax: number;
  readonly timeoutAware: boolean;
  /** Drop and duplicate probability, in parts per million. */
  readonly probabilityPpm: number;
  /** Kafka config keys verbatim (`b1`-wide broker keys, `<client>.<key>` for clients). */
  readonly configs: Readonly<Record<string, number>>;
  /** Scripted expectations whose premise the draw broke, each with why (absent: none). */
  readonly droppedExpectations?: readonly string[];
}

/** A value scaled by a factor uniform in ½ … 2, at least `min`. */
function scaled(rng: Rng, value: number, min = 1): number {
  return Math.max(min, rng.intInclusive(Math.floor(value / 2), value * 2));
}

function swarmClient(rng: Rng, client: ClientConfig, maxTimeoutMs: number): ClientConfig {
  if (client.role === 'consumer') {
    const requestTimeoutMs = scaled(rng, client.settings.requestTimeoutMs, 100);
    return { ...client, settings: { ...client.settings, requestTimeoutMs } };
  }
  if (client.role === 'producer') {
    return { ...client, settings: swarmProducer(rng, client.settings, maxTimeoutMs) };
  }
  // A pipeline file has one request.timeout.ms for both of its clients.
  const producer = swarmProducer(rng, client.settings.producer, maxTimeoutMs);
  const consumer = { ...client.settings.consumer, requestTimeoutMs: producer.requestTimeoutMs };
  return { ...client, settings: { producer, consumer } };
}

/** A producer's timeouts and in-flight limit, drawn legal for idempotence. */
function swarmProducer(
  rng: Rng,
  settings: ProducerSettings,
  maxTimeoutMs: number,
): ProducerSettings {
  const requestTimeoutMs = scaled(rng, settings.requestTimeoutMs, 100);
  const deliveryTimeoutMs = Math.max(requestTimeoutMs, scaled(rng, settings.deliveryTimeoutMs));
  const retryBackoffMs = rng.intInclusive(10, 500);
  const maxInFlight = rng.intInclusive(1, 5);
  // An idempotent sarama producer allows one request in flight (Config.Validate): drawn, not used.
  const saramaIdempotent = settings.client?.flavour === 'sarama' && settings.enableIdempotence;
  return {
    ...settings,
    requestTimeoutMs,
    deliveryTimeoutMs,
    retryBackoffMs,
    maxInFlightRequestsPerConnection: saramaIdempotent ? 1 : maxInFlight,
    transactionTimeoutMs: Math.min(maxTimeoutMs, scaled(rng, settings.transactionTimeoutMs)),
  };
}

/** The configs the swarm drew, as `key: value` lines would print them. */
function configsOf(scenario: ScenarioConfig): Record<string, number> {
  const configs: Record<string, number> = {
    'replica.lag.time.max.ms': scenario.broker.replicaLagTimeMaxMs,
    'broker.session.timeout.ms': scenario.broker.brokerSessionTimeoutMs,
    'transaction.abort.timed.out.transaction.cleanup.interval.ms':
      scenario.broker.transactionAbortTimedOutTransactionCleanupIntervalMs,
    'delay.us.min': scenario.network.delayUsMin,
    'delay.us.max': scenario.network.delayUsMax,
  };
  for (const client of scenario.clients) {
    if (client.role === 'consumer') {
      configs[`${client.name}.request.timeout.ms`] = client.settings.requestTimeoutMs;
      continue;
    }
    const settings = client.role === 'pipeline' ? client.settings.producer : client.settings;
    configs[`${client.name}.request.timeout.ms`] = settings.requestTimeoutMs;
    configs[`${client.name}.delivery.timeout.ms`] = settings.deliveryTimeoutMs;
    configs[`${client.name}.retry.backoff.ms`] = settings.retryBackoffMs;
    configs[`${client.name}.max.in.flight.requests.per.connection`] =
      settings.maxInFlightRequestsPerConnection;
    if (settings.transactionalId !== null) {
      configs[`${client.name}.transaction.timeout.ms`] = settings.transactionTimeoutMs;
    }
  }
  return configs;
}

/** A consumer's part of the bound: its request timeout, and a group member's JoinGroup wait. */
function consumerBoundMs(consumer: ConsumerConfig): number {
  const resolved = resolveConsumerConfig(consumer);
  const member = resolved.groupId !== null;
  return Math.max(resolved.requestTimeoutMs, member ? joinGroupTimeoutMs(resolved) : 0);
}

/** The consumer settings of a consumer or a pipeline's consumer. */
function consumerOf(client: Exclude<ClientConfig, { role: 'producer' }>): ConsumerConfig {
  return client.role === 'pipeline' ? client.settings.consumer : client.settings;
}

/**
 * How long, in ms, Kafka may take after the faults heal before every client can make progress
 * again: a batch whose retries cannot succeed (OUT_OF_ORDER_SEQUENCE_NUMBER on a batch that is not
 * next in line, KIP-360; Sender.completeBatch) fails only when its delivery timeout or its
 * retries run out ({@link producerBoundMs}); a transaction left open ends only after
 * `transaction.timeout.ms` plus one `transaction.abort.timed.out.transaction.cleanup.interval.ms`
 * (TransactionCoordinator.abortTimedOutTransactions); a consumer whose fetch was lost asks again
 * only after its `request.timeout.ms`; a group member whose JoinGroup went to a coordinator that
 * lost power (a half-open connection) gives up on it only after `max.poll.interval.ms` plus 5 s
 * (AbstractCoordinator.sendJoinGroupRequest, JOIN_GROUP_TIMEOUT_LAPSE) and then rejoins.
 * @example recoveryBoundMs(drawSwarm(base, '528').scenario) // 247485
 */
export function recoveryBoundMs(scenario: ScenarioConfig): number {
  let bound = 0;
  for (const client of scenario.clients) {
    if (client.role !== 'producer') bound = Math.max(bound, consumerBoundMs(consumerOf(client)));
    if (client.role === 'consumer') continue;
    // A pipeline's consumer shares its producer's request.timeout.ms.
    const settings = client.role === 'pipeline' ? client.settings.producer : client.settings;
    bound = Math.max(bound, producerBoundMs(settings));
    if (settings.transactionalId === null) continue;
    const cleanupMs = scenario.broker.transactionAbortTimedOutTransactionCleanupIntervalMs;
    bound = Math.max(bound, settings.transactionTimeoutMs + cleanupMs);
  }
  return bound;
}

/**
 * How long, in ms, a batch that cannot succeed may keep its producer busy: until the first of
 * `delivery.timeout.ms` (its last attempt up to `request.timeout.ms` later) and its `retries`,
 * each attempt waiting at most `request.timeout.ms` and then `retry.backoff.ms`
 * (Sender.completeBatch, canRetry). A sarama producer has no delivery timeout (the largest
 * `delivery.timeout.ms`), so its `Producer.Retry.Max` (3) is what ends the batch. An idempotent
 * franz-go producer retries a batch that got no answer whatever its `retries` say
 * (`franzGoKeepsRetrying`), so only its delivery timeout counts.
 */
function producerBoundMs(settings: ProducerSettings): number {
  const deliveryMs = settings.deliveryTimeoutMs + settings.requestTimeoutMs;
  const franzGo = settings.client?.flavour === 'franz-go' && settings.enableIdempotence;
  if (franzGo) return deliveryMs;
  const attempts = settings.retries + 1;
  const retriesMs = attempts * (settings.requestTimeoutMs + settings.retryBackoffMs);
  return Math.min(deliveryMs, retriesMs);
}

/**
 * The longest heal and liveness phase a swarm seed gets, in ms (1 h of simulated time): a client
 * with neither a delivery timeout nor a retry limit (an idempotent franz-go producer by default)
 * may retry for as long as Kafka lets it, and a probe that waited for that would never end.
 */
export const SWARM_RECOVERY_MS_MAX = 3_600_000;

/** The drawn nemesis; `later` is the stream of the kinds added after the first eleven. */
function swarmNemesis(rng: Rng, later: Rng | null, scenario: ScenarioConfig): RandomNemesisConfig {
  let first: Array<(typeof SWARM_FAULT_KINDS)[number]> = FIRST_SWARM_FAULT_KINDS.filter(() =>
    rng.chance(ratio(1, 2)),
  );
  if (first.length === 0) first = [rng.pick(FIRST_SWARM_FAULT_KINDS)];
  const added =
    later === null ? [] : LATER_SWARM_FAULT_KINDS.filter(() => later.chance(ratio(1, 2)));
  const kinds = [...first, ...added];
  const durationMsMin = rng.intInclusive(200, 3000);
  const brokers = Array.from({ length: scenario.brokers }, (_, index) => `b${index + 1}`);
  const clients = scenario.clients.map((client) => client.name);
  const transactionalIds: string[] = [];
  for (const client of scenario.clients) {
    const id = client.role === 'producer' ? client.settings.transactionalId : null;
    if (id !== null && !transactionalIds.includes(id)) transactionalIds.push(id);
  }
  const timeoutAware = rng.chance(ratio(1, 2));
  return {
    kinds,
    targets: [...brokers, ...clients],
    nodes: [...brokers, ...clients],
    brokers,
    startMs: rng.intInclusive(0, 2000),
    stopMs: Math.max(1, Math.floor((scenario.durationMs * 3) / 4)),
    intervalMs: rng.intInclusive(1000, 10000),
    durationMsMin,
    durationMsMax: rng.intInclusive(durationMsMin, 15000),
    timeoutsMs: timeoutAware
      ? scenarioTimeoutsMs({ clients: scenario.clients, ...scenario.broker })
      : [],
    probability: ratio(rng.intInclusive(10_000, 300_000), 1_000_000),
    partitions: scenario.topics.flatMap((topic) =>
      Array.from({ length: topic.partitions }, (_, partition) => ({
        topic: topic.name,
        partition,
      })),
    ),
    transactionalIds,
    groupIds: groupIdsOf(scenario.clients),
  };
}

/**
 * Draws the swarm of one seed: the scenario with drawn configs and nemesis, and the parameters.
 * @example const { scenario, parameters } = drawSwarm(loadScenario(file), '7');
 */
export function drawSwarm(
  base: ScenarioConfig,
  seed: string,
  options: { readonly laterKinds?: boolean } = {},
): { scenario: ScenarioConfig; parameters: SwarmParameters } {
  const rng = new Rng(seed).fork('swarm');
  // `laterKinds: false` replays a seed as swarm mode drew it before the later kinds existed.
  const later =
    options.laterKinds === false ? null : new Rng(seed).fork('swarm/kinds-beyond-guarantee');
  const nemesis = swarmNemesis(rng, later, base);
  const broker = {
    ...base.broker,
    replicaLagTimeMaxMs: scaled(rng, base.broker.replicaLagTimeMaxMs, 500),
    brokerSessionTimeoutMs: scaled(rng, base.broker.brokerSessionTimeoutMs, 1000),
    transactionAbortTimedOutTransactionCleanupIntervalMs: scaled(
      rng,
      base.broker.transactionAbortTimedOutTransactionCleanupIntervalMs,
      100,
    ),
  };
  const delayUsMin = scaled(rng, base.network.delayUsMin, 0);
  const network = {
    delayUsMin,
    delayUsMax: Math.max(delayUsMin, scaled(rng, base.network.delayUsMax)),
  };
  const clients = base.clients.map((client) =>
    swarmClient(rng, client, broker.transactionMaxTimeoutMs),
  );
  const drawn: ScenarioConfig = { ...base, broker, network, clients, nemesis };
  const recoveryMs = Math.min(recoveryBoundMs(drawn), SWARM_RECOVERY_MS_MAX);
  const scenario: ScenarioConfig = {
    ...drawn,
    healMs: Math.max(base.healMs, recoveryMs),
    livenessMs: Math.max(base.livenessMs, recoveryMs),
  };
  // Timeout-aware sizing follows the drawn timeouts, not the scenario's.
  const sized =
    nemesis.timeoutsMs.length === 0
      ? scenario
      : {
          ...scenario,
          nemesis: { ...nemesis, timeoutsMs: scenarioTimeoutsMs({ clients, ...broker }) },
        };
  const kept = swarmExpectations(base, sized);
  const parameters: SwarmParameters = {
    kinds: nemesis.kinds,
    intervalMs: nemesis.intervalMs,
    durationMsMin: nemesis.durationMsMin,
    durationMsMax: nemesis.durationMsMax,
    timeoutAware: nemesis.timeoutsMs.length > 0,
    probabilityPpm: nemesis.probability.numerator,
    configs: configsOf(sized),
    ...(kept.dropped.length === 0 ? {} : { droppedExpectations: kept.dropped }),
  };
  return { scenario: kept.scenario, parameters };
}

/**
 * The swarm parameters as the lines a run prints after `seed=N`.
 * @example swarmLines(parameters)[0] // 'swarm kinds=crash,pause interval.ms=4000 ...'
 */
export function swarmLines(parameters: SwarmParameters): string[] {
  const configs = Object.entries(parameters.configs)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  return [
    `swarm kinds=${parameters.kinds.join(',')} interval.ms=${parameters.intervalMs} ` +
      `duration.ms=${parameters.durationMsMin}..${parameters.durationMsMax} ` +
      `timeout.aware=${parameters.timeoutAware} probability.ppm=${parameters.probabilityPpm}`,
    `swarm configs ${configs}`,
    ...(parameters.droppedExpectations ?? []).map((line) => `swarm ${line}`),
  ];
}
