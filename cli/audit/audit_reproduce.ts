/**
 * One found kind's evidence: the guarantee model's reason at the seed that found it, the seed's
 * swarm run shrunk to a small scenario that still shows the kind (written as a scenario file and
 * replayed from that file), and the same reproducer with a candidate fix's settings put in.
 */
import { stringify } from 'yaml';
import {
  parseScenario,
  scenarioMappingOf,
  writeScenarioYaml,
  type ScenarioConfig,
} from '../../scenarios';
import {
  drawSwarm,
  foundKinds,
  runScenario,
  shellWord,
  shrinkScenario,
  type ScenarioSize,
} from '../../sim/runner';
import { writeOutputFile } from '../file_io';

/**
 * The guarantee model's label of `kind` at `seed`: "permitted by Kafka under this configuration,
 * because …" or "violates Kafka's guarantee".
 */
export function reasonAt(base: ScenarioConfig, seed: string, kind: string): string {
  const { scenario, parameters } = drawSwarm(base, seed);
  const report = runScenario(scenario, { seed, swarm: parameters, messageLog: false }).report;
  const verdict = report.guarantee.verdicts.find((candidate) => candidate.kind === kind);
  return verdict?.label ?? `not found again at seed ${seed}`;
}

/** A written reproducer. */
export interface Reproducer {
  readonly file: string;
  readonly seed: string;
  readonly scenario: ScenarioConfig;
  readonly before: ScenarioSize;
  readonly after: ScenarioSize;
  /** Whether running the written file with the seed shows the kind again. */
  readonly replayed: boolean;
}

/**
 * Shrinks the swarm run of `seed` keeping `kind`, writes it to `file` and replays the file.
 * @example writeReproducer(base, { seed: '4', kind: 'lost-write', file: 'r.yaml', runsMax: 40 })
 */
export function writeReproducer(
  base: ScenarioConfig,
  options: { seed: string; kind: string; file: string; runsMax: number },
): Reproducer {
  const { seed, kind, file } = options;
  const result = shrinkScenario(drawSwarm(base, seed).scenario, {
    seed,
    kind,
    runsMax: options.runsMax,
  });
  const text = writeScenarioYaml(result.scenario, [
    `eos-sim audit: ${kind}, shrunk from the swarm run of seed ${seed}`,
    `replay: npx eos-sim run ${shellWord(file)} --seed ${seed}`,
  ]);
  writeOutputFile(file, text);
  const scenario = parseScenario(text, file);
  const replayed = foundKinds(runScenario(scenario, { seed, messageLog: false }).report).includes(
    kind,
  );
  return { file, seed, scenario, before: result.before, after: result.after, replayed };
}

/** Keys swarm mode draws per seed: a reproducer keeps its drawn values. */
const DRAWN_BROKER_KEYS = [
  'replica.lag.time.max.ms',
  'broker.session.timeout.ms',
  'transaction.abort.timed.out.transaction.cleanup.interval.ms',
];
const DRAWN_CLIENT_KEYS = [
  'request.timeout.ms',
  'delivery.timeout.ms',
  'retry.backoff.ms',
  'max.in.flight.requests.per.connection',
  'transaction.timeout.ms',
];

type Mapping = Record<string, unknown>;

function withoutKeys(mapping: Mapping, keys: readonly string[]): Mapping {
  return Object.fromEntries(Object.entries(mapping).filter(([key]) => !keys.includes(key)));
}

/** The parts of a scenario mapping a fix touches. */
interface FixableMapping {
  readonly [key: string]: unknown;
  readonly 'kafka.version': unknown;
  readonly bugs: unknown;
  readonly protocol: unknown;
  readonly broker: Mapping;
  readonly cluster: Mapping & { readonly topics: ReadonlyArray<Mapping & { name: string }> };
  readonly clients: ReadonlyArray<Mapping & { name: string; config: Mapping }>;
}

/**
 * The reproducer with the fixed files' settings put in: the fixed scenario's version, bug
 * switches, protocol levels, broker keys, replication factors and client keys, except the
 * values swarm drew for this seed, which the reproducer keeps with its faults and workload.
 */
export function fixedReproducer(reproducer: ScenarioConfig, fixed: ScenarioConfig): ScenarioConfig {
  const mapping = scenarioMappingOf(reproducer) as FixableMapping;
  const target = scenarioMappingOf(fixed) as FixableMapping;
  const merged: Mapping = {
    ...mapping,
    'kafka.version': target['kafka.version'],
    bugs: target.bugs,
    protocol: target.protocol,
    broker: { ...mapping.broker, ...withoutKeys(target.broker, DRAWN_BROKER_KEYS) },
    cluster: {
      ...mapping.cluster,
      topics: mapping.cluster.topics.map((topic) => ({
        ...topic,
        'replication.factor':
          target.cluster.topics.find((other) => other.name === topic.name)?.[
            'replication.factor'
          ] ?? topic['replication.factor'],
      })),
    },
    clients: mapping.clients.map((client) => {
      const other = target.clients.find((candidate) => candidate.name === client.name);
      if (other === undefined) return client;
      return {
        ...client,
        config: { ...client.config, ...withoutKeys(other.config, DRAWN_CLIENT_KEYS) },
      };
    }),
  };
  return parseScenario(stringify(merged, { lineWidth: 0 }), reproducer.file);
}
