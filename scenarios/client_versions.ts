/**
 * The client libraries eos-sim models (`client.flavour`) and their releases (`client.version`):
 * the Java client of Apache Kafka, and librdkafka, the C client under confluent-kafka-python,
 * -go and -dotnet. A flavour picks the producer's retry, epoch-bump and error-classification
 * rules where the two differ (sim/actors/producer/client_rules.ts); a release picks which of
 * that client's bugs are on. docs/versions.md ("Client flavours") has the sources.
 *
 * The Java client is modelled as it is in the newest Kafka release only: its rules do not change
 * with `client.version`, so no other Java version is accepted. librdkafka is modelled from 1.7.0,
 * the first release whose transactional producer recovers from idempotence errors by aborting
 * (KIP-360 support, librdkafka CHANGELOG v1.7.0), to 2.15.0. The Go clients franz-go
 * (twmb/franz-go, package kgo) and sarama (IBM/sarama) are modelled only where their sequence
 * bookkeeping differs from the Java client's (sim/actors/producer/go_client_rules.ts); all
 * else they do is the Java client's rules. franz-go is modelled from 1.17 to 1.21; sarama from
 * 1.20.0, which brought its idempotent producer, to the 1.26 line, without a transactional
 * producer (sarama has one from 1.37).
 */
import { NEWEST_KAFKA_VERSION, compareVersions, type BugId } from './kafka_versions';

/** The client libraries modelled. */
export const CLIENT_FLAVOURS = ['java', 'librdkafka', 'franz-go', 'sarama'] as const;

/** One of {@link CLIENT_FLAVOURS}. */
export type ClientFlavour = (typeof CLIENT_FLAVOURS)[number];

/** librdkafka's minor release lines modelled, oldest first (there was no 2.9). */
export const LIBRDKAFKA_VERSIONS = [
  '1.7',
  '1.8',
  '1.9',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.6',
  '2.7',
  '2.8',
  '2.10',
  '2.11',
  '2.12',
  '2.13',
  '2.14',
  '2.15',
] as const;

/** The newest librdkafka release modelled, the default `client.version` of librdkafka. */
export const NEWEST_LIBRDKAFKA_VERSION = '2.15';

/** franz-go's minor release lines modelled, oldest first. */
export const FRANZ_GO_VERSIONS = ['1.17', '1.18', '1.19', '1.20', '1.21'] as const;

/** sarama's minor release lines modelled, oldest first (1.20.0 added Producer.Idempotent). */
export const SARAMA_VERSIONS = ['1.20', '1.21', '1.22', '1.23', '1.24', '1.25', '1.26'] as const;

/** The release lines modelled of each flavour but Java's. */
const LINES: Readonly<Record<Exclude<ClientFlavour, 'java'>, readonly string[]>> = {
  librdkafka: LIBRDKAFKA_VERSIONS,
  'franz-go': FRANZ_GO_VERSIONS,
  sarama: SARAMA_VERSIONS,
};

/** The release lines modelled of `flavour` (Java: the newest Kafka line). */
export function modelledClientLines(flavour: ClientFlavour): readonly string[] {
  return flavour === 'java' ? [NEWEST_KAFKA_VERSION] : LINES[flavour];
}

/**
 * The newest release of each flavour: the default `client.version`. sarama's is 1.26.4, the
 * last patch of its newest modelled line.
 */
export function newestClientVersion(flavour: ClientFlavour): string {
  if (flavour === 'java') return NEWEST_KAFKA_VERSION;
  if (flavour === 'librdkafka') return NEWEST_LIBRDKAFKA_VERSION;
  return flavour === 'sarama' ? '1.26.4' : '1.21';
}

/**
 * Whether `version` of `flavour` is modelled: for Java only the newest Kafka line (with or
 * without a patch), for librdkafka a listed line with up to two patch parts.
 * @example isModelledClientVersion('librdkafka', '1.8.2') // true
 * @example isModelledClientVersion('java', '3.7') // false
 */
export function isModelledClientVersion(flavour: ClientFlavour, version: string): boolean {
  if (!/^\d+\.\d+(\.\d+){0,2}$/.test(version)) return false;
  const [major, minor] = version.split('.');
  const line = `${major}.${minor}`;
  return modelledClientLines(flavour).includes(line);
}

/** The releases of a client that had one of its bugs, in that client's own versions. */
export interface ClientBugRelease {
  readonly id: BugId;
  readonly flavour: ClientFlavour;
  /** The first release with the bug; undefined: every modelled release before `fixed`. */
  readonly introduced?: string;
  /** The first release without it; undefined: no release has the fix yet. */
  readonly fixed?: string;
}

/**
 * The client bugs by release. confluentinc/librdkafka#3575 was fixed in 1.8.2 (commit 2d78e928,
 * "Transactional producer: Fix possible message loss on OUT_OF_ORDER_SEQ error"; there was no
 * 1.8.1). confluentinc/librdkafka#4953 has a fix proposed (pull request #4972, not merged in
 * any release up to 2.15.0), so every modelled release has it; the fixed counterpart turns it
 * off by hand. confluentinc/librdkafka#4438 was fixed in 2.3.0 (commit 0fd8e30e5, "Fix for
 * idempotent producer fatal errors, triggered after a possibly persisted message state").
 * twmb/franz-go#1217 was fixed in v1.20.7 (commit 32e1580a, pull request #1218);
 * IBM/sarama#1661 in v1.26.2 (commit 9df3038a, `git tag --contains` in the sarama mirror).
 */
export const CLIENT_BUG_RELEASES: readonly ClientBugRelease[] = [
  { id: 'confluentinc/librdkafka#3575', flavour: 'librdkafka', fixed: '1.8.2' },
  { id: 'confluentinc/librdkafka#4953', flavour: 'librdkafka' },
  { id: 'confluentinc/librdkafka#4438', flavour: 'librdkafka', fixed: '2.3.0' },
  { id: 'twmb/franz-go#1217', flavour: 'franz-go', fixed: '1.20.7' },
  { id: 'IBM/sarama#1661', flavour: 'sarama', fixed: '1.26.2' },
];

/** The client bug of `id`, or undefined for a broker or coordinator bug. */
export function clientBugOf(id: BugId): ClientBugRelease | undefined {
  return CLIENT_BUG_RELEASES.find((release) => release.id === id);
}

/**
 * Whether release `version` of `flavour` has the client bug `release`.
 * @example clientHasBug(clientBugOf('confluentinc/librdkafka#3575')!, 'librdkafka', '1.8') // true
 */
export function clientHasBug(
  release: ClientBugRelease,
  flavour: ClientFlavour,
  version: string,
): boolean {
  if (release.flavour !== flavour) return false;
  const introduced =
    release.introduced === undefined || compareVersions(version, release.introduced) >= 0;
  return introduced && (release.fixed === undefined || compareVersions(version, release.fixed) < 0);
}
