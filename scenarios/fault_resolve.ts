/**
 * Resolves the `faults:` and `nemesis:` entries of a validated scenario file into
 * {@link FaultSpec} and {@link RandomNemesisConfig}. Each fault entry is resolved by its kind's
 * module (`faults/kinds/`: Kafka-style keys become camelCase fields, defaults are filled); a
 * timeout-aware nemesis collects the scenario's timeouts.
 */
import { ratioOf, resolveFaultEntry, type NodeSet } from '../faults';
import type { FaultEntry, ScenarioFile } from './schema';
import type { FaultSpec, RandomNemesisConfig } from './fault_specs';
import type { ClientConfig } from './scenario_types';

export { PROBABILITY_DENOMINATOR, ratioOf, type NodeSet } from '../faults';

/** One fault entry → its spec (by its kind's module), with the item's line. */
export function resolveFault(options: {
  readonly fault: FaultEntry;
  readonly nodeSet: NodeSet;
  readonly line: number | undefined;
}): FaultSpec {
  const resolved = resolveFaultEntry(options.fault, options.nodeSet);
  return options.line === undefined ? resolved : { ...resolved, line: options.line };
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
