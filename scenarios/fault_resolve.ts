/**
 * Resolves the `faults:` and `nemesis:` entries of a validated scenario file into
 * {@link FaultSpec} and {@link RandomNemesisConfig}: Kafka-style keys become camelCase fields,
 * defaults are filled, `power-loss` and `isolate` become the crash and partition they stand
 * for, a split's and a bridge's sides are computed from the brokers, and a timeout-aware
 * nemesis collects the scenario's timeouts.
 */
import type { FaultEntry, ScenarioFile } from './schema';
import type { FaultSpec, RandomNemesisConfig, RatioSpec } from './fault_specs';
import type { ClientConfig } from './scenario_types';

/** Fault probabilities become exact ratios over this denominator. */
export const PROBABILITY_DENOMINATOR = 1_000_000;

/** A probability from a file as an exact ratio: `round(p × 1000000) / 1000000`. */
export function ratioOf(probability: number): RatioSpec {
  return {
    numerator: Math.round(probability * PROBABILITY_DENOMINATOR),
    denominator: PROBABILITY_DENOMINATOR,
  };
}

/** The scenario's nodes: brokers and clients. */
export interface NodeSet {
  readonly brokers: readonly string[];
  readonly nodes: readonly string[];
}

/** One fault entry → its spec, with `null` for "any node" and the item's line. */
export function resolveFault(options: {
  readonly fault: FaultEntry;
  readonly nodeSet: NodeSet;
  readonly line: number | undefined;
}): FaultSpec {
  const { fault, nodeSet } = options;
  const line = options.line === undefined ? {} : { line: options.line };
  const atMs = fault['at.ms'];
  switch (fault.kind) {
    case 'pause':
      return { kind: 'pause', target: fault.target, atMs, forMs: fault['for.ms'], ...line };
    case 'crash':
    case 'power-loss': {
      const forMs = fault['for.ms'] ?? null;
      const mode = fault.kind === 'crash' ? fault.mode : 'power-loss';
      return { kind: 'crash', target: fault.target, atMs, forMs, mode, ...line };
    }
    case 'drop':
    case 'duplicate':
    case 'delay':
    case 'hold':
      return {
        kind: fault.kind,
        from: fault.from ?? null,
        to: fault.to ?? null,
        messages: fault.messages,
        count: fault.count ?? null,
        probability: ratioOf(
          fault.kind === 'drop' || fault.kind === 'duplicate' ? fault.probability : 1,
        ),
        delayMs: fault.kind === 'delay' ? fault['delay.ms'] : 0,
        atMs,
        forMs: fault['for.ms'],
        ...line,
      };
    case 'partition':
    case 'isolate': {
      const isolated = fault.kind === 'partition' ? fault.nodes : [fault.target];
      const between =
        (fault.kind === 'partition' ? fault.between : undefined) ??
        nodeSet.nodes.filter((node) => !isolated.includes(node));
      const { direction } = fault;
      const forMs = fault['for.ms'];
      return { kind: 'partition', nodes: isolated, between, direction, atMs, forMs, ...line };
    }
    default:
      return resolveOtherFault({ fault, nodeSet, line });
  }
}

/** Splits, bridges, clock skew, unclean elections and coordinator failovers. */
function resolveOtherFault(options: {
  readonly fault: FaultEntry;
  readonly nodeSet: NodeSet;
  readonly line: { line?: number };
}): FaultSpec {
  const { fault, nodeSet, line } = options;
  const atMs = fault['at.ms'];
  const brokers = nodeSet.brokers;
  switch (fault.kind) {
    case 'split': {
      const minority = fault.minority ?? brokers.slice(0, Math.floor((brokers.length - 1) / 2));
      const majority = brokers.filter((broker) => !minority.includes(broker));
      return { kind: 'split', minority, majority, atMs, forMs: fault['for.ms'], ...line };
    }
    case 'bridge': {
      const bridge = fault.bridge ?? (brokers[Math.floor((brokers.length - 1) / 2)] as string);
      const rest = brokers.filter((broker) => broker !== bridge);
      const half = Math.floor(rest.length / 2);
      const left = rest.slice(0, half);
      const right = rest.slice(half);
      return { kind: 'bridge', bridge, left, right, atMs, forMs: fault['for.ms'], ...line };
    }
    case 'clock-skew': {
      const forMs = fault['for.ms'] ?? null;
      return {
        kind: 'clock-skew',
        target: fault.target,
        skewMs: fault['skew.ms'],
        atMs,
        forMs,
        ...line,
      };
    }
    case 'unclean-election': {
      const match = /^(.+)-(\d+)$/.exec(fault.partition);
      const topic = match?.[1] ?? fault.partition;
      const partition = Number(match?.[2] ?? 0);
      return { kind: 'unclean-election', topic, partition, atMs, ...line };
    }
    case 'coordinator-failover':
      return {
        kind: 'coordinator-failover',
        ...(fault['group.id'] === undefined
          ? { keyType: 'transaction' as const, key: fault['transactional.id'] ?? '' }
          : { keyType: 'group' as const, key: fault['group.id'] }),
        atMs,
        forMs: fault['for.ms'] ?? null,
        mode: fault.mode,
        ...line,
      };
    case 'operator':
      return {
        kind: 'operator',
        action: fault.action,
        topic: fault.topic,
        partition: fault.partition ?? null,
        startOffset: fault['start.offset'] ?? null,
        maxTransactionTimeoutMs: fault['max.transaction.timeout.ms'],
        atMs,
        ...line,
      };
    default:
      throw new Error(`Unexpected fault kind: ${fault.kind}`);
  }
}

/**
 * The timeouts a timeout-aware nemesis sizes its faults around, ascending, each once:
 * transaction.timeout.ms of transactional producers, request.timeout.ms and delivery.timeout.ms
 * of producers, request.timeout.ms of consumers, session.timeout.ms of pipelines' group
 * consumers, replica.lag.time.max.ms and
 * broker.session.timeout.ms.
 */
export function scenarioTimeoutsMs(input: {
  readonly clients: readonly ClientConfig[];
  readonly replicaLagTimeMaxMs: number;
  readonly brokerSessionTimeoutMs: number;
}): number[] {
  const timeouts = new Set<number>([input.replicaLagTimeMaxMs, input.brokerSessionTimeoutMs]);
  for (const client of input.clients) {
    if (client.role === 'consumer') {
      timeouts.add(client.settings.requestTimeoutMs);
      continue;
    }
    const producer = client.role === 'pipeline' ? client.settings.producer : client.settings;
    timeouts.add(producer.requestTimeoutMs);
    timeouts.add(producer.deliveryTimeoutMs);
    if (producer.transactionalId !== null) timeouts.add(producer.transactionTimeoutMs);
    const sessionTimeoutMs =
      client.role === 'pipeline' ? client.settings.consumer.sessionTimeoutMs : undefined;
    if (sessionTimeoutMs !== undefined) timeouts.add(sessionTimeoutMs);
  }
  return [...timeouts].sort((a, b) => a - b);
}

/** The `nemesis:` section → its config, or null without one. */
export function resolveNemesis(options: {
  readonly scenario: ScenarioFile;
  readonly nodeSet: NodeSet;
  readonly clients: readonly ClientConfig[];
  readonly timeouts: { replicaLagTimeMaxMs: number; brokerSessionTimeoutMs: number };
}): RandomNemesisConfig | null {
  const { scenario, nodeSet, clients } = options;
  const nemesis = scenario.nemesis;
  if (nemesis === undefined) return null;
  const transactionalIds: string[] = [];
  for (const client of clients) {
    const id = client.role === 'producer' ? client.settings.transactionalId : null;
    if (id !== null && !transactionalIds.includes(id)) transactionalIds.push(id);
  }
  return {
    kinds: nemesis.kinds,
    targets: nemesis.targets ?? nodeSet.brokers,
    nodes: nodeSet.nodes,
    brokers: nodeSet.brokers,
    startMs: nemesis['start.ms'],
    stopMs: nemesis['stop.ms'] ?? scenario.run['duration.ms'],
    intervalMs: nemesis['interval.ms'],
    durationMsMin: nemesis['duration.ms.min'],
    durationMsMax: nemesis['duration.ms.max'],
    timeoutsMs: nemesis['timeout.aware']
      ? scenarioTimeoutsMs({ clients, ...options.timeouts })
      : [],
    probability: ratioOf(nemesis.probability),
    partitions: scenario.cluster.topics.flatMap((topic) =>
      Array.from({ length: topic.partitions }, (_, partition) => ({
        topic: topic.name,
        partition,
      })),
    ),
    transactionalIds,
    groupIds: groupIdsOf(clients),
  };
}

/** Every pipeline's group.id, once each, in client order. */
export function groupIdsOf(clients: readonly ClientConfig[]): string[] {
  const groupIds: string[] = [];
  for (const client of clients) {
    const id = client.role === 'pipeline' ? client.settings.consumer.groupId : null;
    if (id !== null && id !== undefined && !groupIds.includes(id)) groupIds.push(id);
  }
  return groupIds;
}
