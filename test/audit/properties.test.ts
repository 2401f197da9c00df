/**
 * Goal: the audit reads `.properties` files as Kafka's `Properties.load` does, refuses what Java
 * or Kafka's clients refuse with one line naming file, line and key, and builds the scenario
 * the files imply. Method: inline texts and small scratch files, Kafka's own shipped
 * `config/*.properties` (test/audit/fixtures/kafka-config, Apache-2.0), no simulation runs.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  malformedUnicodeEscape,
  parsePropertiesText,
  readPropertiesFile,
} from '../../cli/audit/properties_file';
import { auditInputOf } from '../../cli/audit/audit_files';
import { auditScenario } from '../../cli/audit/audit_scenario';
import { echoOf } from '../../cli/audit/audit_echo';

const KAFKA = 'test/audit/fixtures/kafka-config';
const scratch = mkdtempSync(join(tmpdir(), 'eos-sim-audit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(name: string, text: string | Buffer): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

function inputOf(texts: Record<string, string>) {
  return auditInputOf(Object.entries(texts).map(([name, text]) => parsePropertiesText(text, name)));
}

describe('the properties grammar (dot-properties, as java.util.Properties.load)', () => {
  it('reads comments, the three separators, escapes and continuations, with lines', () => {
    const text =
      '# comment\n! also a comment\nacks=all\nretries: 3\nclient.id  my\\tapp\n' +
      'transactional.id = t\\u0041x\nlinger.ms = 1\\\n    0\nacks = 1\n';
    const parsed = parsePropertiesText(text, 'p.properties');
    expect(parsed.entries.get('retries')).toEqual({ key: 'retries', value: '3', line: 4 });
    expect(parsed.entries.get('client.id')?.value).toBe('my\tapp');
    expect(parsed.entries.get('transactional.id')?.value).toBe('tAx');
    expect(parsed.entries.get('linger.ms')).toEqual({ key: 'linger.ms', value: '10', line: 7 });
    // The last assignment wins, as Properties.put does.
    expect(parsed.entries.get('acks')).toEqual({ key: 'acks', value: '1', line: 9 });
  });

  it('finds a malformed \\u escape but not an escaped backslash before u', () => {
    expect(malformedUnicodeEscape('a\\u12G4')).toBe(1);
    expect(malformedUnicodeEscape('a\\\\u12')).toBe(-1);
    expect(malformedUnicodeEscape('\\u00e9')).toBe(-1);
  });
});

describe("Kafka's shipped config files", () => {
  it('read without error; used keys resolved, the rest listed as ignored', () => {
    const files = ['server', 'producer', 'consumer'].map((name) =>
      readPropertiesFile(`${KAFKA}/${name}.properties`),
    );
    const input = auditInputOf(files);
    expect(input.apps.map((app) => [app.name, app.role])).toEqual([
      ['producer', 'producer'],
      ['consumer', 'consumer'],
    ]);
    expect(input.broker.used.get('transaction.state.log.min.isr')?.value).toBe(1);
    expect(input.broker.ignored.map((key) => key.key)).toContain('log.dirs');
    expect(input.apps[1]?.ignored.find((key) => key.key === 'group.id')?.why).toMatch(
      /read-process-write/,
    );
    const { scenario } = auditScenario(input, { kafkaVersion: '4.5', file: 'audit.yaml' });
    expect(scenario.topics).toEqual([{ name: 'events', partitions: 1, replicationFactor: 1 }]);
    const echo = echoOf(input, scenario);
    expect(echo[0]?.rows).toContainEqual({
      key: 'num.partitions',
      value: '1',
      from: 'file',
      line: expect.any(Number) as number,
    });
    expect(echo[1]?.rows).toContainEqual({ key: 'acks', value: 'all', from: 'default' });
    expect(echo[1]?.rows).toContainEqual({
      key: 'enable.idempotence',
      value: 'true',
      from: 'default',
    });
  });

  it("reads KRaft's config/kraft/server.properties too", () => {
    const input = auditInputOf([readPropertiesFile(`${KAFKA}/kraft-server.properties`)]);
    expect(input.broker.ignored.map((key) => key.key)).toContain('process.roles');
  });
});

describe('malformed files: one line naming file and line', () => {
  it('a binary file', () => {
    const path = file('binary.properties', Buffer.from([0x61, 0x3d, 0x31, 0x0a, 0x00, 0x01]));
    expect(() => readPropertiesFile(path)).toThrow(`${path}:2: binary file`);
  });
  it('a malformed \\uxxxx escape', () => {
    const path = file('escape.properties', 'acks=all\ntransactional.id=t\\u12\n');
    expect(() => readPropertiesFile(path)).toThrow(
      `${path}:2: transactional.id: Malformed \\uxxxx encoding.`,
    );
  });
  it('a directory', () => {
    const path = join(scratch, 'dir.properties');
    mkdirSync(path);
    expect(() => readPropertiesFile(path)).toThrow(`${path}: is a directory`);
  });
});

describe("Kafka's ConfigException for conflicting settings", () => {
  const broker = 'server.properties';
  it('idempotence asked for with more than 5 requests in flight', () => {
    const texts = {
      [broker]: '',
      'p.properties': 'enable.idempotence=true\nmax.in.flight.requests.per.connection=6\n',
    };
    expect(() => inputOf(texts)).toThrow(
      'p.properties:2: ConfigException: Must set max.in.flight.requests.per.connection to at ' +
        'most 5 to use the idempotent producer.',
    );
  });
  it('a transactional.id whose default idempotence acks=1 turned off', () => {
    const texts = { [broker]: '', 'p.properties': 'acks=1\ntransactional.id=t\n' };
    expect(() => inputOf(texts)).toThrow(
      'p.properties:2: ConfigException: Cannot set a transactional.id without also enabling ' +
        'idempotence.',
    );
  });
  it('values ConfigDef cannot parse', () => {
    expect(() => inputOf({ [broker]: '', 'p.properties': 'acks=2\n' })).toThrow(
      'p.properties:1: ConfigException: Invalid value 2 for configuration acks: ' +
        'String must be one of: all, -1, 0, 1',
    );
    expect(() => inputOf({ [broker]: 'min.insync.replicas=two\n' })).toThrow(
      'Invalid value two for configuration min.insync.replicas: Not a number of type INT',
    );
  });
  it('log.flush.interval.messages is a Java long of at least 1; Long.MAX_VALUE means never', () => {
    expect(() => inputOf({ [broker]: 'log.flush.interval.messages=0\n' })).toThrow(
      'Invalid value 0 for configuration log.flush.interval.messages: Value must be at least 1',
    );
    expect(() =>
      inputOf({ [broker]: 'log.flush.interval.messages=9223372036854775808\n' }),
    ).toThrow('log.flush.interval.messages: Not a number of type LONG');
    const never = inputOf({ [broker]: 'log.flush.interval.messages=9223372036854775807\n' });
    const { scenario } = auditScenario(never, { kafkaVersion: '4.5', file: 'audit.yaml' });
    expect(scenario.broker.logFlushIntervalMessages).toBe(Number.MAX_SAFE_INTEGER);
    const each = inputOf({ [broker]: 'log.flush.interval.messages=1\n' });
    const flushed = auditScenario(each, { kafkaVersion: '4.5', file: 'audit.yaml' }).scenario;
    expect(flushed.broker.logFlushIntervalMessages).toBe(1);
  });
  it('a value the model refuses is reported at the properties line', () => {
    const texts = { [broker]: 'num.partitions=0\n' };
    expect(() =>
      auditScenario(inputOf(texts), { kafkaVersion: '4.5', file: 'audit.yaml' }),
    ).toThrow(/^Usage error: server\.properties:1: num\.partitions: /);
  });
});

describe('the workload the files imply', () => {
  it('transactional.id with group.id is a read-process-write application', () => {
    const input = inputOf({
      'server.properties': 'default.replication.factor=3\nmin.insync.replicas=2\n',
      'etl.properties': 'transactional.id=etl-1\ngroup.id=etl\nisolation.level=read_committed\n',
    });
    expect(input.apps[0]?.role).toBe('pipeline');
    const { scenario } = auditScenario(input, { kafkaVersion: '4.5', file: 'audit.yaml' });
    expect(scenario.topics.map((topic) => [topic.name, topic.replicationFactor])).toEqual([
      ['in', 3],
      ['out', 3],
    ]);
    expect(scenario.clients.map((client) => [client.name, client.role])).toEqual([
      ['default-producer', 'producer'],
      ['etl', 'pipeline'],
    ]);
    expect(scenario.broker.minInsyncReplicas).toBe(2);
  });
  it('a file that says neither producer nor consumer is refused', () => {
    expect(() =>
      inputOf({ 'server.properties': '', 'app.properties': 'bootstrap.servers=x\n' }),
    ).toThrow('app.properties: cannot tell a producer from a consumer');
  });
});
