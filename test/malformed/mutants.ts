/**
 * A seeded generator of malformed scenario files, derived from bundled scenarios: truncated and
 * broken YAML, wrong types, huge and overflowing numbers, work scheduled outside the run,
 * configurations Kafka refuses, hostile strings and bytes. Each mutant says whether it must be
 * refused (`invalid`) or may be valid (a truncation can leave a valid file); the corpus tests
 * load each and, in the sweeps tier, run the ones that load.
 *
 * The same `seed` and `count` give the same files on every machine (the simulator's seeded
 * `Rng`, on its own stream).
 */
import { readFileSync } from 'node:fs';
import { Rng } from '../../sim/kernel';

/** One generated file. */
export interface Mutant {
  /** The file's bytes: a few mutants are not valid UTF-8. */
  readonly bytes: Buffer;
  /** Whether the loader must refuse it; false when it may be valid. */
  readonly invalid: boolean;
  /** What was done, for a failure message. */
  readonly what: string;
}

/** The bundled scenarios mutated: producers, a consumer, faults, and transactions. */
const BASE_FILES = [
  'scenarios/zombie-fencing.yaml',
  'scenarios/acks-all-leader-crash.yaml',
  'scenarios/retry-duplicates.yaml',
] as const;

/** A base file's text, with its first producer's `config:` line for inserting client keys. */
interface Base {
  readonly file: string;
  readonly text: string;
}

type Random = () => number;
type Mutation = (random: Random, base: Base) => Mutant;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

/** A text mutant. */
function textMutant(text: string, invalid: boolean, what: string): Mutant {
  return { bytes: Buffer.from(text, 'utf8'), invalid, what };
}

/** `base` with `line` (already indented) added under the first client's `config:`. */
function withClientKey(base: Base, line: string): string {
  return base.text.replace(/^( {4}config:\n)/m, `$1      ${line}\n`);
}

/** `base` with `key: value` as the first line of its top-level `section:` (added if missing). */
function withSectionKey(base: Base, section: string, line: string): string {
  const header = new RegExp(`^${section}:\\n`, 'm');
  if (header.test(base.text)) return base.text.replace(header, `${section}:\n  ${line}\n`);
  return `${base.text.trimEnd()}\n${section}:\n  ${line}\n`;
}

/** Values that no count, size, duration or time in a scenario may take. */
const BAD_NUMBERS = [
  '9007199254740991',
  '9007199254740993',
  '18446744073709551616',
  '-1',
  '-9007199254740991',
  '1e400',
  '-1e400',
  '.inf',
  '.nan',
  '"ten"',
  '[]',
  '{}',
  'true',
  '1e21',
];

/** A non-negative integer value replaced by one no key may take. */
const badNumber: Mutation = (random, base) => {
  const numbers = [...base.text.matchAll(/(?<=: )\d+$/gm)];
  const match = pick(random, numbers);
  const value = pick(random, BAD_NUMBERS);
  const at = match.index ?? 0;
  const text = base.text.slice(0, at) + value + base.text.slice(at + match[0].length);
  const line = base.text.slice(0, at).split('\n').length;
  return textMutant(text, true, `${base.file}:${line} number -> ${value}`);
};

/** An integer value replaced by another number that may or may not be valid there. */
const otherNumber: Mutation = (random, base) => {
  const numbers = [...base.text.matchAll(/(?<=: )\d+$/gm)];
  const match = pick(random, numbers);
  const value = pick(random, ['0', '1', '2', '0.5', '7', '100', String(Number(match[0]) * 2)]);
  const at = match.index ?? 0;
  const text = base.text.slice(0, at) + value + base.text.slice(at + match[0].length);
  const line = base.text.slice(0, at).split('\n').length;
  return textMutant(text, false, `${base.file}:${line} number -> ${value}`);
};

/** Names with control characters, NUL, bidirectional overrides, escapes, or nothing. */
const HOSTILE_NAMES = [
  '"a\\nb"',
  '"a\\rb"',
  '"\\e[31mred"',
  '"\\e]0;title\\a"',
  '"a\\0b"',
  '"\\u202eevil"',
  '"a\\tb"',
  '"\\x85next"',
  '""',
  '"\\u0007bell"',
  "'outcome PASS: every expectation met\n\nreal'",
];

/** The scenario's name, or a client's name, replaced by a hostile string. */
const hostileName: Mutation = (random, base) => {
  const hostile = pick(random, HOSTILE_NAMES);
  const client = random() < 0.5;
  const text = client
    ? base.text.replace(/^( {2}- name: )(\S+)$/m, `$1${hostile}`)
    : base.text.replace(/^name: .*$/m, `name: ${hostile}`);
  return textMutant(text, true, `${base.file} ${client ? 'client' : 'scenario'} name ${hostile}`);
};

/** Bytes that are not UTF-8, or a NUL, in the name. */
const hostileBytes: Mutation = (random, base) => {
  const bad = pick(random, [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88], [0x00]]);
  const at = base.text.indexOf('\n');
  const head = Buffer.from(base.text.slice(0, at), 'utf8');
  const tail = Buffer.from(base.text.slice(at), 'utf8');
  const bytes = Buffer.concat([head, Buffer.from(bad), tail]);
  const what = `${base.file} bytes ${bad.map((b) => b.toString(16)).join(' ')} in the name`;
  return { bytes, invalid: true, what };
};

/** The text cut at a random character: often broken YAML, sometimes a valid smaller file. */
const truncated: Mutation = (random, base) => {
  const at = Math.floor(random() * base.text.length);
  return textMutant(base.text.slice(0, at), false, `${base.file} truncated at ${at}`);
};

/** One random line removed. */
const lineRemoved: Mutation = (random, base) => {
  const lines = base.text.split('\n');
  const at = Math.floor(random() * lines.length);
  const text = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n');
  return textMutant(text, false, `${base.file} line ${at + 1} removed`);
};

/** Broken or hostile YAML that must be refused. */
const YAML_BREAKAGES: readonly { readonly what: string; readonly apply: (t: string) => string }[] =
  [
    { what: 'unknown tag', apply: (t) => t.replace(/^name: /m, 'name: !custom ') },
    { what: 'python tag', apply: (t) => t.replace(/^name: /m, 'name: !!python/object ') },
    { what: 'binary tag', apply: (t) => t.replace(/^name: /m, 'name: !!binary ') },
    { what: 'duplicate key', apply: (t) => t.replace(/^(run:\n)/m, '$1  heal.ms: 1000\n') },
    { what: 'tab indent', apply: (t) => t.replace(/^ {2}brokers:/m, '\tbrokers:') },
    { what: 'unclosed flow', apply: (t) => t.replace(/topics: \[(\w+)\]/, 'topics: [$1') },
    { what: 'two documents', apply: (t) => `${t}\n---\nname: second\n` },
    { what: 'a list at the top', apply: (t) => `- ${t.split('\n').join('\n  ')}` },
    { what: 'a scalar file', apply: () => 'just words\n' },
    { what: 'an empty file', apply: () => '' },
    { what: 'only a comment', apply: () => '# nothing here\n' },
    { what: 'null document', apply: () => '~\n' },
    {
      what: 'alias bomb',
      apply: (t) =>
        'x0: &a0 [y, y, y, y, y, y, y, y, y, y]\n' +
        Array.from({ length: 8 }, (_, i) => `x${i + 1}: &a${i + 1} [${`*a${i}, `.repeat(9)}*a${i}]`)
          .join('\n')
          .concat('\n') +
        t,
    },
    { what: 'deep nesting', apply: (t) => `${t}\nextra: ${'['.repeat(5000)}${']'.repeat(5000)}\n` },
    { what: 'merge key', apply: (t) => t.replace(/^(broker:\n)/m, '$1  <<: {a: 1}\n') },
  ];

/** YAML broken or hostile in one of {@link YAML_BREAKAGES}' ways. */
const brokenYaml: Mutation = (random, base) => {
  const breakage = pick(random, YAML_BREAKAGES);
  const text = breakage.apply(base.text);
  // A breakage whose anchor line is missing in this base leaves the file as it was: say so.
  return textMutant(text, text !== base.text, `${base.file} ${breakage.what}`);
};

/** Keys and values Kafka (or eos-sim's limits) refuse, inserted where they belong. */
const REFUSED_SETTINGS: readonly { readonly what: string; readonly apply: (b: Base) => string }[] =
  [
    {
      what: 'delivery.timeout.ms < linger + request',
      apply: (b) => withClientKey(b, 'delivery.timeout.ms: 500'),
    },
    { what: 'linger.ms -1', apply: (b) => withClientKey(b, 'linger.ms: -1') },
    { what: 'acks 2', apply: (b) => withClientKey(b, 'acks: 2') },
    { what: 'unknown client key', apply: (b) => withClientKey(b, 'transactional.idd: x') },
    {
      what: 'max.in.flight 0',
      apply: (b) => withClientKey(b, 'max.in.flight.requests.per.connection: 0'),
    },
    {
      what: 'unknown broker key',
      apply: (b) => withSectionKey(b, 'broker', 'min.insync.replica: 2'),
    },
    {
      what: 'broker key as text',
      apply: (b) => withSectionKey(b, 'broker', 'min.insync.replicas: two'),
    },
    { what: 'brokers 1000000', apply: (b) => b.text.replace(/brokers: \d+/, 'brokers: 1000000') },
    {
      what: 'partitions 1e8',
      apply: (b) => b.text.replace(/partitions: \d+/, 'partitions: 100000000'),
    },
    {
      what: 'duration 2^53-1',
      apply: (b) => b.text.replace(/duration\.ms: \d+/, 'duration.ms: 9007199254740991'),
    },
    {
      what: 'heal 2^53-1',
      apply: (b) => b.text.replace(/heal\.ms: \d+/, 'heal.ms: 9007199254740991'),
    },
    { what: 'fault after the end', apply: (b) => b.text.replace(/at\.ms: \d+/, 'at.ms: 90000000') },
    {
      what: 'fault for 2^53-1',
      apply: (b) => b.text.replace(/for\.ms: \d+/, 'for.ms: 9007199254740991'),
    },
    { what: 'fault on nobody', apply: (b) => b.text.replace(/target: \w+/, 'target: nobody') },
    {
      what: 'unknown fault kind',
      apply: (b) => b.text.replace(/kind: (pause|crash|drop)\b/, 'kind: explode'),
    },
    {
      what: 'client starting after the end',
      apply: (b) => b.text.replace(/start\.ms: \d+/, 'start.ms: 99999999'),
    },
    {
      what: 'fenced consumer expected',
      apply: (b) => withSectionKey(b, 'expect', 'fenced: [reader]'),
    },
    {
      what: 'fenced nobody expected',
      apply: (b) => withSectionKey(b, 'expect', 'fenced: [nobody]'),
    },
    {
      what: 'unknown anomaly expected',
      apply: (b) => withSectionKey(b, 'expect', 'anomalies: [nonsense]'),
    },
    { what: 'unknown top-level key', apply: (b) => `${b.text.trimEnd()}\nbrokerz: 3\n` },
    { what: 'seeds backwards', apply: (b) => b.text.replace(/seeds: [\d.]+/, 'seeds: 20..1') },
    { what: 'kafka.version 9.9', apply: (b) => `kafka.version: '9.9'\n${b.text}` },
    { what: 'unknown role', apply: (b) => b.text.replace(/role: producer/, 'role: admin') },
    {
      what: 'topic nobody has',
      apply: (b) => b.text.replace(/topics: \[\w+\]/, 'topics: [nowhere]'),
    },
    { what: 'events.max 0', apply: (b) => withSectionKey(b, 'run', 'events.max: 0') },
  ];

/** A setting Kafka or eos-sim refuses, from {@link REFUSED_SETTINGS}. */
const refusedSetting: Mutation = (random, base) => {
  const setting = pick(random, REFUSED_SETTINGS);
  const text = setting.apply(base);
  return textMutant(text, text !== base.text, `${base.file} ${setting.what}`);
};

/** Heartbeat at or above the session timeout, on a consumer. */
const heartbeatAboveSession: Mutation = (random, base) => {
  const session = pick(random, [6000, 10000, 45000]);
  const heartbeat = session + pick(random, [0, 1, 1000]);
  const text = base.text.replace(
    /(role: consumer\n {4}config:\n)/,
    `$1      session.timeout.ms: ${session}\n      heartbeat.interval.ms: ${heartbeat}\n`,
  );
  return textMutant(text, text !== base.text, `${base.file} heartbeat ${heartbeat} >= ${session}`);
};

/** The mutations and how often each is drawn (weights). */
const MUTATIONS: readonly (readonly [Mutation, number])[] = [
  [badNumber, 5],
  [hostileName, 2],
  [hostileBytes, 1],
  [brokenYaml, 3],
  [refusedSetting, 5],
  [heartbeatAboveSession, 1],
  [truncated, 2],
  [lineRemoved, 1],
  [otherNumber, 1],
];

/**
 * `count` mutants drawn from `seed`.
 * @example malformedCorpus(300, 'malformed-corpus-1').filter((m) => m.invalid).length
 */
export function malformedCorpus(count: number, seed: string): Mutant[] {
  const rng = new Rng(seed).fork('malformed-corpus');
  const random = (): number => rng.uint32() / 2 ** 32;
  const bases = BASE_FILES.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const total = MUTATIONS.reduce((sum, [, weight]) => sum + weight, 0);
  const mutants: Mutant[] = [];
  for (let index = 0; index < count; index++) {
    const base = pick(random, bases);
    let ticket = random() * total;
    const [mutation] = MUTATIONS.find(([, weight]) => (ticket -= weight) < 0) ?? MUTATIONS[0]!;
    mutants.push(mutation(random, base));
  }
  return mutants;
}
