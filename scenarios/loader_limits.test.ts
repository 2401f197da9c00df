/**
 * Goal: pin that the loader refuses, with one line naming the file, the line and the key, every
 * input issue 19 found accepted or crashing: numbers past their documented maximum (docs
 * "Limits"), work scheduled outside the run, client configs Kafka's clients refuse with Kafka's
 * message, names that would forge terminal output, unknown YAML tags, and files that are not
 * regular UTF-8 files. Method: each test edits one line of a small valid scenario (or writes a
 * special file) and checks the error's line, key and message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioInvalidError, loadScenario, parseScenario, type ProducerClient } from './index';

const FILE = 'scenarios/limits.yaml';

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
  - kind: pause
    target: P
    at.ms: 1000
    for.ms: 5000
run:
  duration.ms: 60000
`;

/** `text` with the one occurrence of `from` replaced by `to`. */
function edit(text: string, from: string, to: string): string {
  if (text.split(from).length !== 2) throw new Error(`Not once in the fixture: ${from}`);
  return text.replace(from, to);
}

/** The 1-based line of the first occurrence of `needle`. */
function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

/** Parses `text` and returns the ScenarioInvalidError it must throw. */
function refusal(text: string): ScenarioInvalidError {
  try {
    parseScenario(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioInvalidError);
    const invalid = error as ScenarioInvalidError;
    expect(invalid.message).not.toMatch(/[\n\r]/);
    expect(invalid.message.includes(String.fromCharCode(27))).toBe(false);
    return invalid;
  }
  throw new Error('the scenario was accepted');
}

/** Expects a refusal at `needle`'s line, for `key`, whose message contains `detail`. */
function expectRefused(text: string, where: { needle: string; key: string; detail: string }): void {
  const error = refusal(text);
  expect({ line: error.line, key: error.key }).toEqual({
    line: lineOf(text, where.needle),
    key: where.key,
  });
  expect(error.message).toContain(where.detail);
}

const UNSAFE = '9007199254740991';

describe('limits (issue 19 item 2)', () => {
  it('refuses counts that would exhaust memory: brokers, partitions, records, clients', () => {
    const brokers = edit(BASE, '  topics:\n', '  brokers: 1000000\n  topics:\n');
    expectRefused(brokers, { needle: 'brokers', key: 'cluster.brokers', detail: '1 to 100' });
    const partitions = edit(BASE, '- name: events', '- name: events\n      partitions: 100000000');
    const key = 'cluster.topics[0].partitions';
    expectRefused(partitions, { needle: 'partitions', key, detail: 'from 1 to 1000' });
    const records = edit(
      BASE,
      'transactions: 5',
      'transactions: 5\n      records.per.transaction: 1e8',
    );
    const recordsKey = 'clients[0].workload.records.per.transaction';
    expectRefused(records, { needle: 'records', key: recordsKey, detail: 'from 1 to 1000000' });
    const many = Array.from({ length: 2000 }, (_, index) => {
      return `  - name: c${index}\n    role: consumer\n    workload:\n      topics: [events]\n`;
    }).join('');
    const clients = edit(BASE, 'clients:\n', `clients:\n${many}`);
    expectRefused(clients, { needle: 'clients:', key: 'clients', detail: 'at most 100 items' });
  });

  it('refuses 2^53 - 1 as a duration, a fault time and a network delay', () => {
    const duration = edit(BASE, 'duration.ms: 60000', `duration.ms: ${UNSAFE}`);
    expectRefused(duration, {
      needle: 'duration.ms',
      key: 'run.duration.ms',
      detail: '2147483647',
    });
    const at = edit(BASE, 'at.ms: 1000', `at.ms: ${UNSAFE}`);
    expectRefused(at, { needle: 'at.ms', key: 'faults[0].at.ms', detail: 'never run' });
    const forMs = edit(BASE, 'for.ms: 5000', `for.ms: ${UNSAFE}`);
    expectRefused(forMs, { needle: 'for.ms', key: 'faults[0].for.ms', detail: 'Java int' });
    const delay = `${BASE}network:\n  delay.us.max: ${UNSAFE}\n`;
    const detail = 'from 0 to 60000000';
    expectRefused(delay, { needle: 'delay.us.max', key: 'network.delay.us.max', detail });
    const events = `${BASE}  events.max: ${UNSAFE}\n`;
    expectRefused(events, { needle: 'events.max', key: 'run.events.max', detail: '100000000' });
  });

  it('refuses a clock skew of -(2^53 - 1) ms and too many partitions in all', () => {
    const skew = edit(
      BASE,
      'faults:\n',
      `faults:\n  - kind: clock-skew\n    target: b1\n    skew.ms: -${UNSAFE}\n    at.ms: 10\n`,
    );
    const detail = 'from -2147483647 to 2147483647';
    expectRefused(skew, { needle: 'skew.ms', key: 'faults[0].skew.ms', detail });
    const topics = Array.from({ length: 20 }, (_, index) => {
      return `    - name: t${index}\n      partitions: 1000\n`;
    }).join('');
    const total = edit(BASE, '  topics:\n', `  topics:\n${topics}`);
    expectRefused(total, { needle: 'topics', key: 'cluster.topics', detail: 'at most 10000' });
  });

  it('refuses a timeout beyond a Java int', () => {
    const text = edit(
      BASE,
      'transactional.id: T',
      'transactional.id: T\n      request.timeout.ms: 2147483648',
    );
    const key = 'clients[0].config.request.timeout.ms';
    expectRefused(text, { needle: 'request.timeout', key, detail: 'from 1 to 2147483647' });
  });
});

describe('work scheduled outside the run (issue 19 item 3)', () => {
  it('refuses a fault at or after run.duration.ms and one that outlasts it', () => {
    const late = edit(BASE, 'at.ms: 1000', 'at.ms: 60000');
    expectRefused(late, { needle: 'at.ms', key: 'faults[0].at.ms', detail: 'never run' });
    const long = edit(BASE, 'for.ms: 5000', 'for.ms: 59001');
    const detail = 'ends at 60001 ms, after run.duration.ms 60000';
    expectRefused(long, { needle: 'for.ms', key: 'faults[0].for.ms', detail });
    // Ending exactly at the end of the run is inside it.
    expect(parseScenario(edit(BASE, 'for.ms: 5000', 'for.ms: 59000'), FILE).faults).toHaveLength(1);
  });

  it('refuses a nemesis that stops before it starts or starts after the end', () => {
    const nemesis = (window: string): string =>
      `${BASE}nemesis:\n  kinds: [pause]\n  interval.ms: 1000\n  duration.ms.min: 100\n` +
      `  duration.ms.max: 200\n${window}`;
    const backwards = nemesis('  start.ms: 20000\n  stop.ms: 10000\n');
    const detail = 'must be above start.ms 20000';
    expectRefused(backwards, { needle: 'stop.ms', key: 'nemesis.stop.ms', detail });
    const late = nemesis('  start.ms: 70000\n');
    expectRefused(late, { needle: 'start.ms: 7', key: 'nemesis.start.ms', detail: 'nothing' });
    const past = nemesis('  stop.ms: 90000\n');
    const pastDetail = 'at most run.duration.ms 60000';
    expectRefused(past, { needle: 'stop.ms', key: 'nemesis.stop.ms', detail: pastDetail });
  });

  it('refuses a client that starts after the end', () => {
    const text = edit(BASE, 'transactions: 5', 'transactions: 5\n      start.ms: 61000');
    const key = 'clients[0].workload.start.ms';
    expectRefused(text, { needle: 'start.ms', key, detail: 'would never run' });
  });
});

describe("Kafka's own config validation (issue 19 item 4)", () => {
  it('refuses delivery.timeout.ms < linger.ms + request.timeout.ms, as KafkaProducer does', () => {
    const text = edit(
      BASE,
      'transactional.id: T',
      'transactional.id: T\n      delivery.timeout.ms: 20000',
    );
    const detail =
      'delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms';
    const key = 'clients[0].config.delivery.timeout.ms';
    expectRefused(text, { needle: 'delivery', key, detail });
  });

  it('raises an unset delivery.timeout.ms to linger.ms + request.timeout.ms', () => {
    const text = edit(
      BASE,
      'transactional.id: T',
      'transactional.id: T\n      request.timeout.ms: 200000',
    );
    const producer = parseScenario(text, FILE).clients[0] as ProducerClient;
    // linger.ms is 5 by default from Kafka 4.0 (KIP-1030).
    expect(producer.settings.deliveryTimeoutMs).toBe(200005);
    const lingerless = edit(
      text,
      'request.timeout.ms: 200000',
      'request.timeout.ms: 200000\n      linger.ms: 0',
    );
    const set = parseScenario(lingerless, FILE).clients[0] as ProducerClient;
    expect(set.settings.deliveryTimeoutMs).toBe(200000);
  });

  it('names an unknown key inside clients[0].config (linger.ms is known)', () => {
    const text = edit(BASE, 'transactional.id: T', 'transactional.id: T\n      lingerms: 5');
    const detail = 'unknown key lingerms';
    expectRefused(text, { needle: 'lingerms', key: 'clients[0].config.lingerms', detail });
  });

  it("takes linger.ms from the scenario, else the release's default (KIP-1030)", () => {
    const lingerOf = (version: string, config: string): number | undefined => {
      const text = edit(
        `kafka.version: '${version}'\n${BASE}`,
        'transactional.id: T',
        `transactional.id: T${config}`,
      );
      return (parseScenario(text, FILE).clients[0] as ProducerClient).settings.lingerMs;
    };
    expect(lingerOf('3.9', '')).toBe(0);
    expect(lingerOf('4.0', '')).toBe(5);
    expect(lingerOf('3.9', '\n      linger.ms: 20')).toBe(20);
    expect(lingerOf('4.1', '\n      linger.ms: 0')).toBe(0);
  });

  it('refuses idempotence with more than 5 requests in flight', () => {
    const text = edit(
      BASE,
      'transactional.id: T',
      'transactional.id: T\n      max.in.flight.requests.per.connection: 6',
    );
    const key = 'clients[0].config.max.in.flight.requests.per.connection';
    expectRefused(text, { needle: 'max.in.flight', key, detail: 'idempotence' });
  });

  it('refuses heartbeat.interval.ms >= session.timeout.ms, as the classic consumer does', () => {
    const pipeline =
      `  - name: Q\n    role: pipeline\n    config:\n      transactional.id: Q\n` +
      `      group.id: g\n      session.timeout.ms: 10000\n      heartbeat.interval.ms: 10000\n` +
      `    workload:\n      topics: [events]\n      output.topic: out\n`;
    const text = edit(
      edit(BASE, 'clients:\n', `clients:\n${pipeline}`),
      '    - name: events\n',
      '    - name: events\n    - name: out\n',
    );
    const key = 'clients[0].config.heartbeat.interval.ms';
    const detail = 'Heartbeat must be set lower than the session timeout';
    expectRefused(text, { needle: 'heartbeat', key, detail });
  });

  it('refuses expect.fenced naming a consumer', () => {
    const text = `${BASE}expect:\n  fenced: [C]\n`;
    const detail = 'client C is a consumer: only a client with a transactional.id can be fenced';
    expectRefused(text, { needle: '[C]', key: 'expect.fenced[0]', detail });
  });
});

describe('hostile strings and YAML (issue 19 item 7)', () => {
  it('refuses a name with a newline, an escape or NUL', () => {
    for (const name of [
      '"x\\noutcome PASS: every expectation met"',
      '"\\e]0;pwned\\a"',
      '"a\\0b"',
    ]) {
      const text = edit(BASE, 'name: base', `name: ${name}`);
      expectRefused(text, { needle: 'name:', key: 'name', detail: 'control characters' });
    }
    const id = edit(BASE, 'transactional.id: T', 'transactional.id: "T\\u202e"');
    const key = 'clients[0].config.transactional.id';
    expectRefused(id, { needle: 'transactional.id', key, detail: 'control characters' });
  });

  it('refuses unknown YAML tags', () => {
    const text = edit(BASE, 'name: base', 'name: !shell base');
    const error = refusal(text);
    expect({ line: error.line, key: error.key }).toEqual({ line: 1, key: undefined });
    expect(error.message).toContain('invalid YAML: Unresolved tag: !shell');
  });
});

describe('inter.broker.protocol.version and offset retention (KAFKA-8069)', () => {
  const withBroker = (lines: string): string =>
    edit(BASE, 'cluster:\n', `broker:\n${lines}cluster:\n`);

  it("defaults to kafka.version and to the release's offsets.retention.minutes", () => {
    const newest = parseScenario(BASE, FILE).broker;
    expect(newest.interBrokerProtocolVersion).toBe('4.5');
    expect(newest.offsetsRetentionMinutes).toBe(10080);
    expect(newest.offsetsRetentionCheckIntervalMs).toBe(600000);
    const old = parseScenario(`kafka.version: '1.1'\n${BASE}`, FILE).broker;
    expect(old.interBrokerProtocolVersion).toBe('1.1');
    // KIP-186 raised the default from one day to seven in 2.0.
    expect(old.offsetsRetentionMinutes).toBe(1440);
  });

  it('says to quote an unquoted kafka.version whose trailing zero YAML dropped', () => {
    expectRefused(`kafka.version: 4.0\n${BASE}`, {
      needle: 'kafka.version',
      key: 'kafka.version',
      detail: 'YAML reads an unquoted 4.0 as the number 4: write it quoted, "4.0"',
    });
    expect(parseScenario(`kafka.version: 3.7\n${BASE}`, FILE).kafkaVersion).toBe('3.7');
  });

  it('takes an older protocol version and refuses one above kafka.version', () => {
    const text = `kafka.version: '2.1'\n${withBroker("  inter.broker.protocol.version: '2.0'\n")}`;
    expect(parseScenario(text, FILE).broker.interBrokerProtocolVersion).toBe('2.0');
    const newer = `kafka.version: '2.1'\n${withBroker("  inter.broker.protocol.version: '2.2'\n")}`;
    expectRefused(newer, {
      needle: 'inter.broker.protocol.version',
      key: 'broker.inter.broker.protocol.version',
      detail: 'Version `2.2` is not a valid version: kafka.version is 2.1',
    });
    const unknown = withBroker("  inter.broker.protocol.version: '0.9'\n");
    expectRefused(unknown, {
      needle: 'inter.broker.protocol.version',
      key: 'broker.inter.broker.protocol.version',
      detail: 'must be a modelled Kafka release such as 2.0',
    });
  });
});

describe('files that are not regular UTF-8 files (issue 19 items 2, 7, 8)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'eos-sim-limits-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /** The one-line message loading `path` throws, as a ScenarioInvalidError. */
  function loadRefusal(path: string): string {
    try {
      loadScenario(path);
    } catch (error) {
      expect(error).toBeInstanceOf(ScenarioInvalidError);
      return (error as Error).message;
    }
    throw new Error(`${path} was accepted`);
  }

  it('refuses invalid UTF-8 with its line', () => {
    const path = join(directory, 'latin1.yaml');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('name: ok\ndescription: caf'), Buffer.from([0xe9, 0x0a])]),
    );
    expect(loadRefusal(path)).toBe(
      `Invalid scenario ${path}:2: is not valid UTF-8: a scenario file must be UTF-8 text`,
    );
  });

  it('refuses a FIFO, /dev/zero and a directory without reading them', () => {
    const fifo = join(directory, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(loadRefusal(fifo)).toContain('is a FIFO: expected a regular file');
    expect(loadRefusal('/dev/zero')).toContain('is a character device');
    expect(loadRefusal(directory)).toContain('is a directory');
  });

  it('refuses a symbolic link loop as an input error', () => {
    const a = join(directory, 'a.yaml');
    const b = join(directory, 'b.yaml');
    symlinkSync(b, a);
    symlinkSync(a, b);
    expect(loadRefusal(a)).toBe(
      `Invalid scenario ${a}: cannot be read: ELOOP: too many symbolic links encountered`,
    );
  });

  it('refuses a file over 1 MiB', () => {
    const path = join(directory, 'big.yaml');
    writeFileSync(path, `${BASE}#${'x'.repeat(1_048_576)}\n`);
    expect(loadRefusal(path)).toContain('at most 1048576 are read');
  });
});
