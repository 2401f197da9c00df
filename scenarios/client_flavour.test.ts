/**
 * Goal: pin how `client.flavour` and `client.version` resolve: librdkafka's defaults, each client
 * bug on by the releases that had it (confluentinc/librdkafka#3575 up to 1.8.0, #4953 in every
 * modelled release, twmb/franz-go#1217 before 1.20.7, IBM/sarama#1661 before 1.26.2), the Go
 * clients' defaults, an explicit `bugs:` value winning, Java clients untouched, and bad versions
 * refused with the file, line and key. Method: small scenarios parsed from text.
 */
import { describe, expect, it } from 'vitest';
import {
  ScenarioInvalidError,
  parseScenario,
  versionDifferences,
  withLibrdkafkaClients,
  type ProducerClient,
} from './index';

const FILE = 'scenarios/flavour.yaml';

/** A scenario with one producer whose extra config lines are `config`, and top-level `extra`. */
function scenarioText(config: string, extra = ''): string {
  return `name: flavour
cluster:
  topics:
    - name: events
clients:
  - name: P
    role: producer
    config:
${config}
    workload:
      topics: [events]
      sends: 5
${extra}run:
  duration.ms: 1000
`;
}

function producerOf(config: string, extra = ''): ProducerClient {
  const scenario = parseScenario(scenarioText(config, extra), FILE);
  const client = scenario.clients[0];
  if (client?.role !== 'producer') throw new Error('no producer');
  return client;
}

function refusal(config: string): string {
  try {
    parseScenario(scenarioText(config), FILE);
  } catch (error) {
    if (error instanceof ScenarioInvalidError) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('client.flavour', () => {
  it('leaves a Java client as before: no client rules, Java defaults', () => {
    const producer = producerOf('      acks: all');
    expect(producer.settings.client).toBeUndefined();
    expect(producer.settings.enableIdempotence).toBe(true);
    expect(producer.settings.deliveryTimeoutMs).toBe(120000);
  });

  it("takes librdkafka's defaults: no idempotence unless asked, message.timeout.ms 300000", () => {
    const producer = producerOf('      client.flavour: librdkafka');
    expect(producer.settings.enableIdempotence).toBe(false);
    expect(producer.settings.deliveryTimeoutMs).toBe(300000);
    expect(producer.settings.client).toMatchObject({ flavour: 'librdkafka', version: '2.15' });
    const idempotent = producerOf(
      '      client.flavour: librdkafka\n      enable.idempotence: true',
    );
    expect(idempotent.settings.enableIdempotence).toBe(true);
  });

  it("takes librdkafka's linger.ms, 5 on every release, where Java's is 0 before 4.0", () => {
    const extra = "kafka.version: '3.9'\n";
    expect(producerOf('      client.flavour: librdkafka', extra).settings.lingerMs).toBe(5);
    expect(producerOf('      acks: all', extra).settings.lingerMs).toBe(0);
    expect(producerOf('      acks: all').settings.lingerMs).toBe(5);
    const set = producerOf('      client.flavour: librdkafka\n      linger.ms: 0', extra);
    expect(set.settings.lingerMs).toBe(0);
  });

  it('turns the client bugs on by client.version', () => {
    const old = producerOf('      client.flavour: librdkafka\n      client.version: 1.8.0');
    expect(old.settings.client).toMatchObject({
      bumpWithoutAbort: true,
      bumpOnSkippedSequence: true,
    });
    const fixed = producerOf("      client.flavour: librdkafka\n      client.version: '1.8.2'");
    expect(fixed.settings.client).toMatchObject({
      bumpWithoutAbort: false,
      bumpOnSkippedSequence: true,
    });
  });

  it('lets bugs: override the version, and reports the difference against client.version', () => {
    const text = scenarioText(
      '      client.flavour: librdkafka\n      client.version: 1.8.0',
      'bugs:\n  confluentinc/librdkafka#3575: false\n  confluentinc/librdkafka#4953: false\n',
    );
    const scenario = parseScenario(text, FILE);
    const client = scenario.clients[0] as ProducerClient;
    expect(client.settings.client?.bumpWithoutAbort).toBe(false);
    expect(client.settings.client?.bumpOnSkippedSequence).toBe(false);
    expect(versionDifferences(scenario)).toEqual([
      { key: 'bugs.confluentinc/librdkafka#3575', value: false, versionValue: true },
      { key: 'bugs.confluentinc/librdkafka#4953', value: false, versionValue: true },
    ]);
  });

  it('never gives a Java client a librdkafka bug', () => {
    const producer = producerOf('      acks: all', 'bugs:\n  confluentinc/librdkafka#4953: true\n');
    expect(producer.settings.client).toBeUndefined();
  });

  it('refuses versions not modelled and librdkafka keys on Java, naming line and key', () => {
    expect(refusal('      client.flavour: librdkafka\n      client.version: 1.6.1')).toMatch(
      /flavour\.yaml:\d+: clients\[0\]\.config\.client\.version: must be a modelled librdkafka/,
    );
    expect(refusal('      client.version: 3.7')).toMatch(
      /client\.version: the Java client is modelled as of Kafka 4\.5 only/,
    );
    expect(refusal('      client.flavour: librdkafka\n      transactional.id: T')).toMatch(
      /config\.client\.flavour: a librdkafka transactional producer needs protocol\.transaction/,
    );
    expect(refusal('      enable.gapless.guarantee: true')).toMatch(
      /config\.enable\.gapless\.guarantee: is a librdkafka key/,
    );
  });

  it('makes every producer librdkafka for eos-sim mutants, with only the named switch on', () => {
    const scenario = parseScenario(scenarioText('      acks: all'), FILE);
    const mutant = withLibrdkafkaClients(scenario, { 'confluentinc/librdkafka#3575': true });
    const client = mutant.clients[0] as ProducerClient;
    expect(client.settings.client).toMatchObject({
      flavour: 'librdkafka',
      bumpWithoutAbort: true,
      bumpOnSkippedSequence: false,
    });
    expect(mutant.bugs['confluentinc/librdkafka#3575']).toBe(true);
    expect(mutant.bugs['confluentinc/librdkafka#4953']).toBe(false);
  });

  it('turns the Go client bugs on by release, for their own flavour only', () => {
    const rules = (config: string) => producerOf(config).settings.client;
    expect(rules('      client.flavour: franz-go\n      client.version: 1.20.6')).toMatchObject({
      reuseAmbiguousSequence: true,
      keepFailedSequence: false,
    });
    expect(rules('      client.flavour: franz-go\n      client.version: 1.20.7')).toMatchObject({
      reuseAmbiguousSequence: false,
    });
    expect(rules('      client.flavour: sarama\n      client.version: 1.26.1')).toMatchObject({
      keepFailedSequence: true,
      reuseAmbiguousSequence: false,
    });
    expect(rules('      client.flavour: sarama')).toMatchObject({
      version: '1.26.4',
      keepFailedSequence: false,
    });
    // A Java client cannot have them, even when the file asks.
    expect(
      producerOf('      acks: all', 'bugs:\n  IBM/sarama#1661: true\n').settings.client,
    ).toBeUndefined();
  });

  it('gives the Go clients their defaults and refuses what sarama cannot do', () => {
    const sarama = producerOf('      client.flavour: sarama\n      enable.idempotence: true');
    expect(sarama.settings).toMatchObject({
      retries: 3,
      maxInFlightRequestsPerConnection: 1,
      deliveryTimeoutMs: 2147483647,
    });
    expect(producerOf('      client.flavour: sarama').settings.enableIdempotence).toBe(false);
    expect(producerOf('      client.flavour: franz-go').settings).toMatchObject({
      enableIdempotence: true,
      deliveryTimeoutMs: 2147483647,
    });
    expect(refusal('      client.flavour: sarama\n      transactional.id: t')).toContain(
      'transactional.id',
    );
    expect(refusal('      client.flavour: franz-go\n      client.version: 1.16')).toContain(
      'client.version',
    );
  });
});
