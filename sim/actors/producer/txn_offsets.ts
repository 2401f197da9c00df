/**
 * `sendOffsetsToTransaction` on the producer side (Java's TransactionManager
 * `AddOffsetsToTxnHandler` and `TxnOffsetCommitHandler`; KIP-447;
 * KafkaApis.handleAddOffsetsToTxnRequest; TransactionManager's response handlers). Before
 * transaction version 2 the producer first sends AddOffsetsToTxn(groupId) to its transaction
 * coordinator, which adds the group's `__consumer_offsets` partition to the transaction; with
 * transaction version 2 (KIP-890 part 2) that request is skipped and the group coordinator adds the
 * partition itself. Then TxnOffsetCommit goes to the group coordinator (found with FindCoordinator
 * keyType group) with the consumer's generation, member id and instance id (KIP-447), or -1 / '' /
 * null from the groupId-only API. The entries queue in call order, ahead of EndTxn, so
 * commitTransaction waits for them.
 */
import type { NodeId } from '../../kernel';
import { pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS, isRetriable } from '../protocol';
import type { KafkaErrorCode, OffsetCommitResults, OffsetToCommit } from '../protocol';
import { partitionKey } from '../protocol';

/** The group identity sent with the offsets (the consumer's `groupMetadata()`). */
export interface TxnGroupMetadata {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

/** One `sendOffsetsToTransaction` call still in progress. */
interface OffsetsEntry {
  /** The partitions not yet committed (a retry resends only those, as Java does). */
  offsets: readonly OffsetToCommit[];
  readonly group: TxnGroupMetadata;
  /** 'add' until AddOffsetsToTxn succeeded, then 'commit'. */
  stage: 'add' | 'commit';
  readonly callback: (error: KafkaErrorCode) => void;
}

/** What the producer does after an offsets response. */
export type OffsetsOutcome =
  | { readonly type: 'progress' }
  | { readonly type: 'retry'; readonly rediscover: 'transaction' | 'group' | null }
  | { readonly type: 'abortable'; readonly error: KafkaErrorCode }
  | { readonly type: 'fatal'; readonly error: KafkaErrorCode };

/** The next offsets request the producer should send. */
export type OffsetsRequestKind = 'AddOffsetsToTxn' | 'FindGroupCoordinator' | 'TxnOffsetCommit';

/** The queue of offset commits of the current transaction. */
export class TxnOffsets {
  /** The group coordinator last found, or null. */
  groupCoordinator: NodeId | null = null;
  /**
   * True once the group's offsets partition is part of the transaction (AddOffsetsToTxn
   * succeeded, or transaction version 2): EndTxn can no longer be skipped (Java's
   * `transactionStarted`).
   */
  offsetsAdded = false;
  private readonly queue: OffsetsEntry[] = [];

  /** True while a call waits for its requests. */
  get hasWork(): boolean {
    return this.queue.length > 0;
  }

  /** Queues one call; transaction version 2 skips AddOffsetsToTxn. */
  enqueue(
    offsets: readonly OffsetToCommit[],
    group: TxnGroupMetadata,
    callback: (error: KafkaErrorCode) => void,
    version2: boolean,
  ): void {
    if (version2) this.offsetsAdded = true;
    const entry: OffsetsEntry = { offsets, group, stage: version2 ? 'commit' : 'add', callback };
    pushWithin(COLLECTION_BOUNDS.queuedOffsetCommits, this.queue, entry);
  }

  /** The request the head entry needs next. */
  nextKind(): OffsetsRequestKind | null {
    const head = this.queue[0];
    if (head === undefined) return null;
    if (head.stage === 'add') return 'AddOffsetsToTxn';
    return this.groupCoordinator === null ? 'FindGroupCoordinator' : 'TxnOffsetCommit';
  }

  /** The head entry's group and offsets, for building its request. */
  head(): { readonly group: TxnGroupMetadata; readonly offsets: readonly OffsetToCommit[] } {
    const head = this.queue[0];
    if (head === undefined) throw new Error('No offsets are queued');
    return head;
  }

  /** Java's AddOffsetsToTxnHandler: classifies the transaction coordinator's answer. */
  onAddOffsetsToTxn(error: KafkaErrorCode): OffsetsOutcome {
    const head = this.queue[0];
    switch (error) {
      case 'NONE':
        this.offsetsAdded = true;
        if (head !== undefined) head.stage = 'commit';
        return { type: 'progress' };
      case 'COORDINATOR_NOT_AVAILABLE':
      case 'NOT_COORDINATOR':
        return { type: 'retry', rediscover: 'transaction' };
      case 'COORDINATOR_LOAD_IN_PROGRESS':
      case 'CONCURRENT_TRANSACTIONS':
      case 'REQUEST_TIMED_OUT':
        return { type: 'retry', rediscover: null };
      case 'INVALID_PRODUCER_EPOCH':
      case 'PRODUCER_FENCED':
        return { type: 'fatal', error: 'PRODUCER_FENCED' };
      case 'TRANSACTION_ABORTABLE':
      case 'INVALID_PRODUCER_ID_MAPPING':
        return { type: 'abortable', error };
      default:
        return { type: 'fatal', error };
    }
  }

  /**
   * Java's TxnOffsetCommitHandler: committed partitions leave the entry; coordinator errors
   * retry the rest (NOT_COORDINATOR-like ones after a new FindCoordinator), as does any other
   * retriable error since apache/kafka#15266 (3.8.0); a stale generation or member (KIP-447
   * fencing) is abortable (CommitFailedException); fencing is fatal. With
   * `txnOffsetCommitRetriesListedOnly` (KAFKA-16386 on: the 3.7 client beside the 3.7.0
   * broker) only UNKNOWN_TOPIC_OR_PARTITION and COORDINATOR_LOAD_IN_PROGRESS retry at once, and
   * any error not listed, retriable or not, is fatal ("Unexpected error in
   * TxnOffsetCommitResponse").
   */
  onTxnOffsetCommit(
    results: OffsetCommitResults,
    rules: { readonly txnOffsetCommitRetriesListedOnly?: boolean } = {},
  ): OffsetsOutcome {
    const head = this.queue[0];
    if (head === undefined) return { type: 'progress' };
    const failed = new Set(
      results.filter((result) => result.error !== 'NONE').map((result) => partitionKey(result)),
    );
    head.offsets = head.offsets.filter((offset) => failed.has(partitionKey(offset)));
    const error = results.find((result) => result.error !== 'NONE')?.error ?? 'NONE';
    switch (error) {
      case 'NONE':
        if (head.offsets.length > 0) return { type: 'retry', rediscover: null };
        this.queue.shift();
        head.callback('NONE');
        return { type: 'progress' };
      case 'COORDINATOR_NOT_AVAILABLE':
      case 'NOT_COORDINATOR':
      case 'REQUEST_TIMED_OUT':
        return { type: 'retry', rediscover: 'group' };
      case 'UNKNOWN_TOPIC_OR_PARTITION':
      case 'COORDINATOR_LOAD_IN_PROGRESS':
        return { type: 'retry', rediscover: null };
      case 'ILLEGAL_GENERATION':
      case 'UNKNOWN_MEMBER_ID':
      case 'FENCED_INSTANCE_ID':
      case 'TRANSACTION_ABORTABLE':
        return { type: 'abortable', error };
      case 'INVALID_PRODUCER_EPOCH':
      case 'PRODUCER_FENCED':
        return { type: 'fatal', error: 'PRODUCER_FENCED' };
      default:
        if (isRetriable(error) && rules.txnOffsetCommitRetriesListedOnly !== true) {
          return { type: 'retry', rediscover: null };
        }
        return { type: 'fatal', error };
    }
  }

  /** Fails every queued call with `error` (the producer entered an error state, or aborts). */
  failAll(error: KafkaErrorCode): void {
    const entries = this.queue.splice(0);
    for (const entry of entries) entry.callback(error);
  }

  /** The transaction ended: nothing of it remains. */
  reset(): void {
    this.failAll('INVALID_TXN_STATE');
    this.offsetsAdded = false;
  }
}
