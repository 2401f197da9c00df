/**
 * The consumer's configuration: Kafka's consumer config keys in camelCase with the unit last
 * (`session.timeout.ms` → `sessionTimeoutMs`). The three fetch settings are required (every
 * existing caller gives them); the group settings are optional and take Kafka's defaults
 * (ConsumerConfig), so a manually assigned consumer needs none of them.
 */
import type { IsolationLevel } from '../protocol';

/** Consumer settings from Kafka's consumer config keys. */
export interface ConsumerConfig {
  /** `isolation.level`. @default 'read_uncommitted' */
  readonly isolationLevel: IsolationLevel;
  /** `auto.offset.reset`: where a consumer without a position starts. @default 'latest' */
  readonly autoOffsetReset: 'earliest' | 'latest';
  /** `request.timeout.ms`. @default 30000 */
  readonly requestTimeoutMs: number;
  /** `fetch.min.bytes`: the bytes a fetch asks the broker to wait for. @default 1 */
  readonly fetchMinBytes?: number;
  /** `fetch.max.wait.ms`: how long the broker may park a fetch for them. @default 500 */
  readonly fetchMaxWaitMs?: number;
  /** `fetch.max.bytes`: the byte limit of a fetch response. @default 52428800 */
  readonly fetchMaxBytes?: number;
  /** `group.id`; null for a consumer without a group (manual assign only). @default null */
  readonly groupId?: string | null;
  /** `group.instance.id` (KIP-345 static membership). @default null */
  readonly groupInstanceId?: string | null;
  /** `session.timeout.ms`. @default 45000 */
  readonly sessionTimeoutMs?: number;
  /** `heartbeat.interval.ms`. @default 3000 */
  readonly heartbeatIntervalMs?: number;
  /** `max.poll.interval.ms`: also the JoinGroup rebalance timeout. @default 300000 */
  readonly maxPollIntervalMs?: number;
  /** `enable.auto.commit`. @default true with a group.id, false without */
  readonly enableAutoCommit?: boolean;
  /** `auto.commit.interval.ms`. @default 5000 */
  readonly autoCommitIntervalMs?: number;
  /** `partition.assignment.strategy`; only Kafka's RangeAssignor is modelled. @default 'range' */
  readonly partitionAssignmentStrategy?: 'range';
  /** `retry.backoff.ms`. @default 100 */
  readonly retryBackoffMs?: number;
  /** `default.api.timeout.ms`: how long commitSync and committed keep retrying. @default 60000 */
  readonly defaultApiTimeoutMs?: number;
  /**
   * Whether OffsetFetch asks with `requireStable` (KIP-447). Java consumers since 2.5 always do;
   * false models an older client or the BUG-19 misuse: positions may come from offsets that a
   * pending transaction is about to replace (GroupMetadata.prepareTxnOffsetCommit). Not a Kafka
   * config key. @default true
   */
  readonly requireStable?: boolean;
}

/** {@link ConsumerConfig} with every default filled in. */
export type ResolvedConsumerConfig = Required<ConsumerConfig>;

/** Fills Kafka's defaults into a consumer configuration. */
export function resolveConsumerConfig(config: ConsumerConfig): ResolvedConsumerConfig {
  const groupId = config.groupId ?? null;
  return {
    isolationLevel: config.isolationLevel,
    autoOffsetReset: config.autoOffsetReset,
    requestTimeoutMs: config.requestTimeoutMs,
    fetchMinBytes: config.fetchMinBytes ?? 1,
    fetchMaxWaitMs: config.fetchMaxWaitMs ?? 500,
    fetchMaxBytes: config.fetchMaxBytes ?? 52_428_800,
    groupId,
    groupInstanceId: config.groupInstanceId ?? null,
    sessionTimeoutMs: config.sessionTimeoutMs ?? 45_000,
    heartbeatIntervalMs: config.heartbeatIntervalMs ?? 3_000,
    maxPollIntervalMs: config.maxPollIntervalMs ?? 300_000,
    enableAutoCommit: groupId === null ? false : (config.enableAutoCommit ?? true),
    autoCommitIntervalMs: config.autoCommitIntervalMs ?? 5_000,
    partitionAssignmentStrategy: config.partitionAssignmentStrategy ?? 'range',
    retryBackoffMs: config.retryBackoffMs ?? 100,
    defaultApiTimeoutMs: config.defaultApiTimeoutMs ?? 60_000,
    requireStable: config.requireStable ?? true,
  };
}

/** The group identity the producer's sendOffsetsToTransaction needs (ConsumerGroupMetadata). */
export interface ConsumerGroupMetadata {
  readonly groupId: string;
  /** -1 (NO_GENERATION) outside a generation, and in the groupId-only (pre-KIP-447) form. */
  readonly generationId: number;
  /** '' (UNKNOWN_MEMBER_ID) before the first join, and in the groupId-only form. */
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}
