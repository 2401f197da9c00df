/**
 * Committed offsets of the consumer's group, outside transactions (Java's ConsumerCoordinator
 * `commitOffsetsSync`, `commitOffsetsAsync`, `fetchCommittedOffsets`). OffsetCommit carries the
 * member's generation; the coordinator's answer is classified as Java does:
 * ILLEGAL_GENERATION and UNKNOWN_MEMBER_ID reset the generation, REBALANCE_IN_PROGRESS asks for a
 * rejoin, and all three fail the commit (CommitFailedException); FENCED_INSTANCE_ID is fatal;
 * coordinator errors are retried until `default.api.timeout.ms`. OffsetFetch asks with
 * `requireStable` (KIP-447) and retries UNSTABLE_OFFSET_COMMIT after `retry.backoff.ms` until the
 * pending transactional offsets resolve (GroupMetadata.prepareTxnOffsetCommit).
 */
import type {
  KafkaErrorCode,
  OffsetCommitResults,
  OffsetFetchResponse,
  OffsetToCommit,
  TopicPartition,
} from '../protocol';
import { partitionKey } from '../protocol';
import type { ActorContext } from '../../kernel';
import type { KafkaMessage } from '../protocol';
import type { ResolvedConsumerConfig } from './consumer_config';
import type { CoordinatorChannel } from './coordinator_channel';

/** The generation an OffsetCommit carries, or the error that forbids committing now. */
export type CommitGeneration =
  | {
      readonly error: 'NONE';
      readonly generationId: number;
      readonly memberId: string;
      readonly groupInstanceId: string | null;
    }
  | { readonly error: KafkaErrorCode };

/** What the committer needs from the consumer and its membership. */
export interface CommitterHost {
  readonly ctx: ActorContext<KafkaMessage>;
  readonly config: ResolvedConsumerConfig;
  readonly channel: CoordinatorChannel;
  /** The generation to commit with (-1 and '' for a manually assigned consumer). */
  commitGeneration(): CommitGeneration;
  /** ILLEGAL_GENERATION or UNKNOWN_MEMBER_ID: the member's generation is gone. */
  onGenerationError(error: KafkaErrorCode, generationId: number): void;
  /** REBALANCE_IN_PROGRESS: rejoin at the next poll. */
  onRebalanceError(): void;
  /** FENCED_INSTANCE_ID: the consumer is unusable. */
  onFatalError(error: KafkaErrorCode): void;
}

/** Errors after which a commit or fetch is tried again (the coordinator may be elsewhere). */
const COORDINATOR_MOVED = new Set<KafkaErrorCode>([
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
]);
const RETRY_SAME = new Set<KafkaErrorCode>([
  'COORDINATOR_LOAD_IN_PROGRESS',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'UNSTABLE_OFFSET_COMMIT',
]);

/** OffsetCommit and OffsetFetch for one consumer. */
export class OffsetCommitter {
  constructor(private readonly host: CommitterHost) {}

  private get groupId(): string {
    return this.host.config.groupId as string;
  }

  /**
   * `commitSync(offsets)`: retries retriable errors until `default.api.timeout.ms`, then answers
   * REQUEST_TIMED_OUT (Java's TimeoutException).
   */
  commitSync(offsets: readonly OffsetToCommit[], callback: (error: KafkaErrorCode) => void): void {
    const deadlineUs = this.host.ctx.nowUs() + this.host.config.defaultApiTimeoutMs * 1000;
    const attempt = (): void =>
      this.commitOnce(offsets, (error) => {
        if (!this.isRetriable(error)) return callback(error);
        if (this.host.ctx.nowUs() >= deadlineUs) return callback('REQUEST_TIMED_OUT');
        this.host.channel.schedule(this.host.config.retryBackoffMs * 1000, attempt);
      });
    attempt();
  }

  /** `commitAsync(offsets)` (auto-commit): one attempt, no retry; `callback` gets the result. */
  commitAsync(
    offsets: readonly OffsetToCommit[],
    callback: (error: KafkaErrorCode) => void = () => undefined,
  ): void {
    this.commitOnce(offsets, callback);
  }

  /**
   * `committed(partitions)`: the group's committed offset of each partition, keyed by
   * `topic-partition`; a partition without one is absent. With requireStable, partitions with a
   * pending transactional offset are asked again every `retry.backoff.ms` until `deadlineUs`
   * (then REQUEST_TIMED_OUT).
   */
  fetchCommitted(
    partitions: readonly TopicPartition[],
    deadlineUs: number,
    callback: (error: KafkaErrorCode, offsets: Map<string, number>) => void,
  ): void {
    const attempt = (): void =>
      this.fetchOnce(partitions, (error, offsets) => {
        if (error === 'NONE' || !this.isRetriable(error)) return callback(error, offsets);
        if (this.host.ctx.nowUs() >= deadlineUs) return callback('REQUEST_TIMED_OUT', new Map());
        this.host.channel.schedule(this.host.config.retryBackoffMs * 1000, attempt);
      });
    attempt();
  }

  private isRetriable(error: KafkaErrorCode): boolean {
    return COORDINATOR_MOVED.has(error) || RETRY_SAME.has(error);
  }

  private commitOnce(
    offsets: readonly OffsetToCommit[],
    callback: (error: KafkaErrorCode) => void,
  ): void {
    if (offsets.length === 0) return callback('NONE');
    const generation = this.host.commitGeneration();
    if (generation.error !== 'NONE') return callback(generation.error);
    const commit = generation as Extract<CommitGeneration, { error: 'NONE' }>;
    this.host.channel.whenKnown(() =>
      this.host.channel.send(
        {
          kind: 'OffsetCommit',
          groupId: this.groupId,
          generationId: commit.generationId,
          memberId: commit.memberId,
          groupInstanceId: commit.groupInstanceId,
          offsets,
        },
        {
          onResponse: (response) => {
            if (response.kind !== 'OffsetCommitResponse') return;
            callback(this.onCommitResults(response.results, commit.generationId));
          },
          onFailure: () => callback('NOT_COORDINATOR'),
        },
      ),
    );
  }

  /** The first error of the response, after acting on it as Java's handler does. */
  private onCommitResults(results: OffsetCommitResults, generationId: number): KafkaErrorCode {
    const error = results.find((result) => result.error !== 'NONE')?.error ?? 'NONE';
    if (COORDINATOR_MOVED.has(error)) this.host.channel.markUnknown();
    else if (error === 'ILLEGAL_GENERATION' || error === 'UNKNOWN_MEMBER_ID')
      this.host.onGenerationError(error, generationId);
    else if (error === 'REBALANCE_IN_PROGRESS') this.host.onRebalanceError();
    else if (error === 'FENCED_INSTANCE_ID') this.host.onFatalError(error);
    return error;
  }

  private fetchOnce(
    partitions: readonly TopicPartition[],
    callback: (error: KafkaErrorCode, offsets: Map<string, number>) => void,
  ): void {
    this.host.channel.whenKnown(() =>
      this.host.channel.send(
        {
          kind: 'OffsetFetch',
          groupId: this.groupId,
          partitions,
          requireStable: this.host.config.requireStable,
        },
        {
          onResponse: (response) => {
            if (response.kind !== 'OffsetFetchResponse') return;
            const [error, offsets] = this.onFetchResponse(response);
            callback(error, offsets);
          },
          onFailure: () => callback('NOT_COORDINATOR', new Map()),
        },
      ),
    );
  }

  private onFetchResponse(response: OffsetFetchResponse): [KafkaErrorCode, Map<string, number>] {
    const offsets = new Map<string, number>();
    const error =
      response.error !== 'NONE'
        ? response.error
        : (response.partitions.find((partition) => partition.error !== 'NONE')?.error ?? 'NONE');
    if (COORDINATOR_MOVED.has(error)) this.host.channel.markUnknown();
    if (error !== 'NONE') return [error, offsets];
    for (const partition of response.partitions)
      if (partition.offset >= 0) offsets.set(partitionKey(partition), partition.offset);
    return [error, offsets];
  }
}
