/**
 * Goal: pin the scenario loader's contract. A valid file resolves to one exact ScenarioConfig
 * with Kafka's defaults filled, and every kind of mistake is a typed error that names the file,
 * the 1-based line and the dotted key. Method: fixture YAML lives inline; each error test edits
 * one line of a small valid base file and checks the error class, `line`, `key` and message.
 * Expected lines come from `lineOf`, which finds a unique piece of text, so each test states
 * which line it means. Reading, hashing and listing files on disk are in loader_disk.test.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ScenarioInvalidError,
  bugsOf,
  parseScenario,
  type ProducerClient,
  type ScenarioConfig,
} from './index';

const FILE = 'scenarios/test.yaml';

/** A small valid scenario; error tests change one part of it. */
const BASE = `name: base
cluster:
  topics:
    - name: events
clients:
  - name: P
    role: producer
    config:
      transactional.id: T
    workload:
      topics: [events]
      transactions: 5
  - name: C
    role: consumer
    workload:
      topics: [events]
faults:
  - kind: drop
    to: P
    messages: [ProduceResponse]
    at.ms: 0
    for.ms: 5000
run:
  duration.ms: 60000
`;

/** Fails unless `needle` occurs exactly once in `text`, so a fixture edit cannot miss. */
function assertUnique(text: string, needle: string): void {
  const count = text.split(needle).length - 1;
  if (count !== 1) throw new Error(`Fixture has ${count} occurrences of ${JSON.stringify(needle)}`);
}

/** `text` with the one occurrence of `from` replaced by `to`. */
function edit(text: string, from: string, to: string): string {
  assertUnique(text, from);
  return text.replace(from, to);
}

/** The 1-based line of the one occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  assertUnique(text, needle);
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

/** Parses `text`, expecting a ScenarioInvalidError at `line` and `key`, and returns it. */
function expectInvalid(
  text: string,
  where: { readonly line: number | undefined; readonly key: string | undefined },
): ScenarioInvalidError {
  let caught: unknown;
  try {
    parseScenario(text, FILE);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ScenarioInvalidError);
  const error = caught as ScenarioInvalidError;
  expect(error.code).toBe('SIM_SCENARIO_INVALID');
  expect(error.file).toBe(FILE);
  expect({ line: error.line, key: error.key }).toEqual(where);
  const place = where.line === undefined ? FILE : `${FILE}:${where.line}`;
  expect(error.message).toContain(`Invalid scenario ${place}: `);
  expect(error.message).not.toContain('\n');
  expect(error.message).not.toMatch(/\.$/);
  return error;
}

/** The producer client named `name` of a config. */
function producer(config: ScenarioConfig, name: string): ProducerClient {
  const client = config.clients.find((candidate) => candidate.name === name);
  if (client?.role !== 'producer') throw new Error(`No producer ${name}`);
  return client;
}

/** A scenario whose producer P has these config lines instead of `transactional.id: T`. */
function producerConfig(lines: string, workload = 'sends: 10'): string {
  const text = edit(BASE, '      transactional.id: T', lines);
  return edit(text, '      transactions: 5', `      ${workload}`);
}

const FULL = `name: zombie-fencing
description: >
  A transactional producer pauses past its
  transaction timeout and comes back.
cluster:
  brokers: 3
  topics:
    - name: events
      partitions: 3
    - name: audit
broker:
  transaction.max.timeout.ms: 600000
  transaction.abort.timed.out.transaction.cleanup.interval.ms: 5000
network:
  delay.us.min: 100
bugs:
  partition.skip.producer.epoch.check: true
clients:
  - name: A
    role: producer
    config:
      transactional.id: T
      acks: all
      transaction.timeout.ms: 10000
    workload:
      start.ms: 5
      topics: [events, audit]
      transactions: 5
      records.per.transaction: 3
      abort.every: 4
  - name: S
    role: producer
    config:
      acks: 1
      retries: 3
    workload:
      topics: [audit]
      sends: 100
      send.interval.ms: 20
  - name: R
    role: consumer
    config:
      isolation.level: read_committed
      auto.offset.reset: earliest
      request.timeout.ms: 1000
    workload:
      topics: [events]
faults:
  - kind: pause
    target: A
    at.ms: 1000
    for.ms: 25000
  - kind: crash
    target: b2
    at.ms: 2000
  - kind: duplicate
    from: b1
    messages: [ProduceResponse, FetchResponse]
    probability: 0.25
    at.ms: 0
    for.ms: 5000
  - kind: delay
    to: R
    delay.ms: 500
    at.ms: 10
    for.ms: 20
  - kind: partition
    nodes: [b1, A]
    at.ms: 3000
    for.ms: 4000
expect:
  anomalies: [zombie-write]
  detect.percent.min: 90
  fenced: [A]
run:
  duration.ms: 60000
  heal.ms: 30000
  seeds: 3..7
`;

/** What {@link FULL} resolves to, apart from its hash. */
const FULL_CONFIG: Omit<ScenarioConfig, 'hash'> = {
  file: FILE,
  name: 'zombie-fencing',
  description: 'A transactional producer pauses past its transaction timeout and comes back.',
  brokers: 3,
  topics: [
    { name: 'events', partitions: 3, replicationFactor: 3 },
    { name: 'audit', partitions: 1, replicationFactor: 3 },
  ],
  broker: {
    transactionMaxTimeoutMs: 600000,
    transactionAbortTimedOutTransactionCleanupIntervalMs: 5000,
    transactionStateLogNumPartitions: 50,
    transactionalIdExpirationMs: 604800000,
    transactionRemoveExpiredTransactionCleanupIntervalMs: 3600000,
    transactionStateLogReplicationFactor: 3,
    transactionStateLogMinIsr: 2,
    transactionPartitionVerificationEnable: true,
    minInsyncReplicas: 1,
    uncleanLeaderElectionEnable: false,
    replicaLagTimeMaxMs: 30000,
    replicaFetchWaitMaxMs: 500,
    replicaFetchMinBytes: 1,
    logFlushIntervalMessages: null,
    producerIdExpirationMs: 86400000,
    producerIdExpirationCheckIntervalMs: 600000,
    brokerSessionTimeoutMs: 9000,
    offsetsTopicNumPartitions: 50,
    offsetsTopicReplicationFactor: 3,
    groupInitialRebalanceDelayMs: 3000,
    groupMinSessionTimeoutMs: 6000,
    groupMaxSessionTimeoutMs: 1800000,
    offsetsRetentionMinutes: 10080,
    offsetsRetentionCheckIntervalMs: 600000,
    interBrokerProtocolVersion: '4.5',
  },
  kafkaVersion: '4.5',
  kafkaVersionFromCommandLine: false,
  bugs: { ...bugsOf('4.5'), 'partition.skip.producer.epoch.check': true },
  protocol: { transactionVersion: 2, eligibleLeaderReplicasVersion: 1 },
  network: { delayUsMin: 100, delayUsMax: 2000 },
  clients: [
    {
      role: 'producer',
      name: 'A',
      settings: {
        transactionalId: 'T',
        enableIdempotence: true,
        acks: -1,
        maxInFlightRequestsPerConnection: 5,
        retries: 2147483647,
        requestTimeoutMs: 30000,
        deliveryTimeoutMs: 120000,
        lingerMs: 5,
        retryBackoffMs: 100,
        transactionTimeoutMs: 10000,
      },
      workload: {
        type: 'transactions',
        startMs: 5,
        transactions: 5,
        recordsPerTransaction: 3,
        sendIntervalMs: 10,
        recordsPerSend: 1,
        transactionIntervalMs: 50,
        abortEvery: 4,
        onFenced: 'stop',
        closeWhenDone: false,
        initRetryMs: null,
        topics: ['events', 'audit'],
      },
    },
    {
      role: 'producer',
      name: 'S',
      settings: {
        transactionalId: null,
        enableIdempotence: false,
        acks: 1,
        maxInFlightRequestsPerConnection: 5,
        retries: 3,
        requestTimeoutMs: 30000,
        deliveryTimeoutMs: 120000,
        lingerMs: 5,
        retryBackoffMs: 100,
        transactionTimeoutMs: 60000,
      },
      workload: {
        type: 'sends',
        startMs: 0,
        sends: 100,
        sendIntervalMs: 20,
        recordsPerSend: 1,
        topics: ['audit'],
      },
    },
    {
      role: 'consumer',
      name: 'R',
      settings: {
        isolationLevel: 'read_committed',
        autoOffsetReset: 'earliest',
        requestTimeoutMs: 1000,
        fetchMinBytes: 1,
        fetchMaxWaitMs: 500,
        fetchMaxBytes: 52428800,
      },
      workload: { type: 'polls', startMs: 0, pollIntervalMs: 100, topics: ['events'] },
    },
  ],
  faults: [
    { kind: 'pause', target: 'A', atMs: 1000, forMs: 25000, line: lineOf(FULL, 'kind: pause') },
    {
      kind: 'crash',
      target: 'b2',
      atMs: 2000,
      forMs: null,
      mode: 'process',
      line: lineOf(FULL, 'kind: crash'),
    },
    {
      kind: 'duplicate',
      from: 'b1',
      to: null,
      messages: ['ProduceResponse', 'FetchResponse'],
      count: null,
      probability: { numerator: 250000, denominator: 1000000 },
      delayMs: 0,
      atMs: 0,
      forMs: 5000,
      line: lineOf(FULL, '- kind: duplicate'),
    },
    {
      kind: 'delay',
      from: null,
      to: 'R',
      messages: [],
      count: null,
      probability: { numerator: 1000000, denominator: 1000000 },
      delayMs: 500,
      atMs: 10,
      forMs: 20,
      line: lineOf(FULL, '- kind: delay'),
    },
    {
      kind: 'partition',
      nodes: ['b1', 'A'],
      between: ['b2', 'b3', 'S', 'R'],
      direction: 'both',
      atMs: 3000,
      forMs: 4000,
      line: lineOf(FULL, '- kind: partition'),
    },
  ],
  nemesis: null,
  expect: {
    anomalies: ['zombie-write'],
    allowed: [],
    detectPercentMin: 90,
    fenced: ['A'],
    liveness: true,
    stall: false,
  },
  durationMs: 60000,
  healMs: 30000,
  livenessMs: 60000,
  eventsMax: 20000000,
  seeds: { first: 3, last: 7 },
};

describe('parseScenario on valid files', () => {
  it('resolves a full file to the exact config, defaults filled', () => {
    const hash = createHash('sha256').update(FULL, 'utf8').digest('hex');
    expect(parseScenario(FULL, FILE)).toEqual({ ...FULL_CONFIG, hash });
  });

  it('fills every default of a minimal file', () => {
    const config = parseScenario(BASE, FILE);
    expect(config).toMatchObject({
      description: '',
      brokers: 3,
      topics: [{ name: 'events', partitions: 1, replicationFactor: 3 }],
      broker: {
        transactionMaxTimeoutMs: 900000,
        transactionAbortTimedOutTransactionCleanupIntervalMs: 10000,
        transactionStateLogNumPartitions: 50,
        transactionStateLogReplicationFactor: 3,
        transactionStateLogMinIsr: 2,
        transactionPartitionVerificationEnable: true,
        minInsyncReplicas: 1,
        uncleanLeaderElectionEnable: false,
        replicaLagTimeMaxMs: 30000,
        replicaFetchWaitMaxMs: 500,
        replicaFetchMinBytes: 1,
        producerIdExpirationMs: 86400000,
        producerIdExpirationCheckIntervalMs: 600000,
        brokerSessionTimeoutMs: 9000,
      },
      kafkaVersion: '4.5',
      bugs: bugsOf('4.5'),
      protocol: { transactionVersion: 2, eligibleLeaderReplicasVersion: 1 },
      network: { delayUsMin: 500, delayUsMax: 2000 },
      expect: { anomalies: [], allowed: [], detectPercentMin: 0, fenced: [], liveness: true },
      healMs: 60000,
      eventsMax: 20000000,
      seeds: { first: 1, last: 20 },
    });
    expect(config.clients[1]).toEqual({
      role: 'consumer',
      name: 'C',
      settings: {
        isolationLevel: 'read_uncommitted',
        autoOffsetReset: 'latest',
        requestTimeoutMs: 30000,
        fetchMinBytes: 1,
        fetchMaxWaitMs: 500,
        fetchMaxBytes: 52428800,
      },
      workload: { type: 'polls', startMs: 0, pollIntervalMs: 100, topics: ['events'] },
    });
    expect(config.faults[0]).toMatchObject({
      probability: { numerator: 1000000, denominator: 1000000 },
      from: null,
      line: lineOf(BASE, '- kind: drop'),
    });
  });

  it('reads acks -1 as all and rounds a probability to millionths', () => {
    const text = edit(
      producerConfig('      acks: -1'),
      '    for.ms: 5000',
      ['    for.ms: 5000', '    probability: 0.3333333'].join('\n'),
    );
    const config = parseScenario(text, FILE);
    expect(producer(config, 'P').settings).toMatchObject({ acks: -1, enableIdempotence: true });
    expect(config.faults[0]).toMatchObject({
      probability: { numerator: 333333, denominator: 1000000 },
    });
  });
});

describe('idempotence coupling (KIP-679)', () => {
  it.each([
    ['acks: 1', 'acks', 'must be all in order to use the idempotent producer'],
    ['acks: 0', 'acks', 'must be all in order to use the idempotent producer'],
    ['retries: 0', 'retries', 'must be non-zero when using the idempotent producer'],
    [
      'max.in.flight.requests.per.connection: 6',
      'max.in.flight.requests.per.connection',
      'must be at most 5 to use the idempotent producer',
    ],
  ])('turns idempotence off silently for %s when it was not set', (line) => {
    const config = parseScenario(producerConfig(`      ${line}`), FILE);
    expect(producer(config, 'P').settings.enableIdempotence).toBe(false);
  });

  it.each([
    ['acks: 1', 'acks', 'must be all in order to use the idempotent producer'],
    ['retries: 0', 'retries', 'must be non-zero when using the idempotent producer'],
    [
      'max.in.flight.requests.per.connection: 6',
      'max.in.flight.requests.per.connection',
      'must be at most 5 to use the idempotent producer',
    ],
  ])('refuses %s when enable.idempotence is true explicitly', (line, key, detail) => {
    const text = producerConfig(`      enable.idempotence: true\n      ${line}`);
    const where = { line: lineOf(text, line), key: `clients[0].config.${key}` };
    const error = expectInvalid(text, where);
    expect(error.message).toContain(detail);
  });

  it('keeps idempotence on by default and off when set false without transactional.id', () => {
    const on = parseScenario(producerConfig('      retries: 1'), FILE);
    expect(producer(on, 'P').settings.enableIdempotence).toBe(true);
    const off = parseScenario(producerConfig('      enable.idempotence: false'), FILE);
    expect(producer(off, 'P').settings.enableIdempotence).toBe(false);
  });

  it('refuses a transactional.id whose idempotence a conflict turned off', () => {
    const text = producerConfig('      transactional.id: T\n      acks: 1', 'transactions: 5');
    const where = { line: lineOf(text, 'acks: 1'), key: 'clients[0].config.acks' };
    const error = expectInvalid(text, where);
    expect(error.message).toContain('cannot set a transactional.id without also enabling');
  });
});

describe('parseScenario errors', () => {
  it('names an unknown top-level key and its line', () => {
    const text = edit(BASE, 'name: base\n', 'name: base\nseed: 7\n');
    const error = expectInvalid(text, { line: 2, key: 'seed' });
    expect(error.message).toContain('unknown key seed: known keys are name, description');
  });

  it('names an unknown key inside a fault', () => {
    const text = edit(BASE, '    for.ms: 5000', '    for.ms: 5000\n    target: P');
    expectInvalid(text, { line: lineOf(text, 'target: P'), key: 'faults[0].target' });
  });

  it('reports a wrong type', () => {
    const text = edit(BASE, '  topics:\n', '  brokers: three\n  topics:\n');
    const error = expectInvalid(text, { line: lineOf(text, 'brokers'), key: 'cluster.brokers' });
    expect(error.message).toContain('cluster.brokers: must be an integer from 1 to 100');
  });

  it('reports a missing required field at its parent line', () => {
    const text = edit(BASE, '  duration.ms: 60000\n', '  heal.ms: 1000\n');
    const error = expectInvalid(text, { line: lineOf(text, 'run:'), key: 'run.duration.ms' });
    expect(error.message).toContain('run.duration.ms: is required');
  });

  it('reports broken YAML with its line', () => {
    const text = edit(BASE, '    role: producer\n', '    role: producer\n   bad: indent\n');
    const error = expectInvalid(text, { line: lineOf(text, 'bad: indent'), key: undefined });
    expect(error.message).toContain('invalid YAML: ');
  });

  it('reports a duplicate key as broken YAML', () => {
    const text = edit(BASE, 'name: base\n', 'name: base\nname: other\n');
    expectInvalid(text, { line: 2, key: undefined });
  });

  it('reports an invalid enum value', () => {
    const text = edit(
      BASE,
      '    role: consumer\n',
      '    role: consumer\n    config:\n' + '      isolation.level: serializable\n',
    );
    const key = 'clients[1].config.isolation.level';
    const error = expectInvalid(text, { line: lineOf(text, 'isolation.level'), key });
    expect(error.message).toContain('must be one of read_committed, read_uncommitted');
  });

  it('reports a negative duration', () => {
    const text = edit(BASE, '    for.ms: 5000', '    for.ms: -5000');
    const error = expectInvalid(text, { line: lineOf(text, 'for.ms'), key: 'faults[0].for.ms' });
    expect(error.message).toContain('must be an integer > 0');
  });

  it('reports an unknown fault target', () => {
    const text = edit(BASE, '    to: P', '    to: Q');
    const error = expectInvalid(text, { line: lineOf(text, 'to: Q'), key: 'faults[0].to' });
    expect(error.message).toContain('unknown node Q: expected one of b1, b2, b3, P, C');
  });

  it('reports an unknown message kind in a drop fault', () => {
    const text = edit(BASE, '[ProduceResponse]', '[ProduceResponse, Hartbeat]');
    const where = { line: lineOf(text, 'Hartbeat'), key: 'faults[0].messages[1]' };
    expect(expectInvalid(text, where).message).toContain('must be one of Produce, ');
  });

  it('refuses a transactional producer with enable.idempotence false', () => {
    const text = edit(
      BASE,
      '      transactional.id: T',
      '      transactional.id: T\n' + '      enable.idempotence: false',
    );
    const key = 'clients[0].config.enable.idempotence';
    const error = expectInvalid(text, { line: lineOf(text, 'enable.idempotence'), key });
    expect(error.message).toContain(
      `${key}: cannot set a transactional.id without also enabling idempotence`,
    );
  });

  it('reports an unknown fault kind at the kind key', () => {
    const text = edit(BASE, 'kind: drop', 'kind: corrupt');
    expectInvalid(text, { line: lineOf(text, 'kind: corrupt'), key: 'faults[0].kind' });
  });

  it('refuses a producer key on a consumer and a workload key of another kind', () => {
    const consumer = edit(
      BASE,
      '    role: consumer\n',
      '    role: consumer\n    config:\n' + '      acks: all\n',
    );
    const error = expectInvalid(consumer, {
      line: lineOf(consumer, 'acks: all'),
      key: 'clients[1].config.acks',
    });
    expect(error.message).toContain('is a producer key: client C is a consumer');
    const sends = edit(BASE, '      transactions: 5', '      transactions: 5\n      sends: 5');
    expectInvalid(sends, { line: lineOf(sends, 'sends: 5'), key: 'clients[0].workload.sends' });
  });

  it('requires transactions for a transactional producer', () => {
    const text = edit(BASE, '      transactions: 5\n', '');
    const line = lineOf(text, '    workload:\n      topics: [events]\n  - name: C');
    expectInvalid(text, { line, key: 'clients[0].workload.transactions' });
  });

  it('refuses unknown topics, unknown fenced clients and reserved client names', () => {
    const topic = edit(BASE, '[events]\n      transactions', '[other]\n      transactions');
    expectInvalid(topic, { line: lineOf(topic, 'other'), key: 'clients[0].workload.topics[0]' });
    const fenced = `${BASE}expect:\n  fenced: [X]\n`;
    expectInvalid(fenced, { line: lineOf(fenced, '[X]'), key: 'expect.fenced[0]' });
    const broker = edit(BASE, '- name: C', '- name: b1');
    expectInvalid(broker, { line: lineOf(broker, 'b1'), key: 'clients[1].name' });
  });

  it('refuses a bad seed range and a delay.us.max below delay.us.min', () => {
    const seeds = `${BASE}  seeds: 9..2\n`;
    expectInvalid(seeds, { line: lineOf(seeds, 'seeds'), key: 'run.seeds' });
    const network = `${BASE}network:\n  delay.us.min: 3000\n`;
    expectInvalid(network, { line: lineOf(network, 'network'), key: 'network.delay.us.max' });
  });

  it('reports the mistake on the earliest line when there are several', () => {
    const text = edit(BASE, '  duration.ms: 60000', '  duration.ms: 0\n  colour: red');
    const early = edit(text, '    - name: events', '    - name: events\n      partitions: 0');
    const key = 'cluster.topics[0].partitions';
    expectInvalid(early, { line: lineOf(early, 'partitions'), key });
  });

  it('reports an empty file without a line', () => {
    expectInvalid('', { line: undefined, key: undefined });
  });
});
