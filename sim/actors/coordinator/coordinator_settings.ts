/**
 * What the transaction coordinator is configured with and what it needs from its broker: the
 * settings (Kafka's config keys and the bug switches of the coordinator), the timers it sets and
 * the host interface.
 */
import type { ActorContext, NodeId } from '../../kernel';
import type {
  KafkaErrorCode,
  KafkaMessage,
  TopicPartition,
  TransactionLogRecord,
} from '../protocol';

/** Broker settings the coordinator uses, from Kafka's config keys. */
export interface CoordinatorSettings {
  /** `transaction.max.timeout.ms`. @default 900000 */
  readonly transactionMaxTimeoutMs: number;
  /** `transaction.abort.timed.out.transaction.cleanup.interval.ms`. @default 10000 */
  readonly abortTimedOutTransactionCleanupIntervalMs: number;
  /** `transaction.state.log.num.partitions`. @default 50 */
  readonly transactionStateLogNumPartitions: number;
  /**
   * `transactional.id.expiration.ms`: an idle transactional.id (Empty, CompleteCommit or
   * CompleteAbort) not updated for this long is removed. @default 604800000
   */
  readonly transactionalIdExpirationMs: number;
  /** `transaction.remove.expired.transaction.cleanup.interval.ms`. @default 3600000 */
  readonly removeExpiredTransactionalIdsIntervalMs: number;
  /** The cluster's `transaction.version` feature level: 0, 1 or 2. @default 2 */
  readonly transactionVersion: number;
  /**
   * KAFKA-16352 (before 3.8): a WriteTxnMarkers response under an older coordinator epoch
   * removes the pending completion of the reloaded transaction. @default false
   */
  readonly staleMarkerResponseRemovesCompletion?: boolean;
  /**
   * KAFKA-9749 (before 2.5): a WriteTxnMarkers answered KAFKA_STORAGE_ERROR throws in the
   * completion handler, so the markers are neither retried nor completed. @default false
   */
  readonly storageErrorStopsMarkers?: boolean;
  /**
   * KAFKA-20310 (4.0 to 4.2): previousProducerId and nextProducerId are not written to
   * `__transaction_state`, so a failover forgets a rotation in progress. @default false
   */
  readonly rotationNotLogged?: boolean;
  /**
   * KAFKA-20357 (4.0 to 4.3): lastProducerEpoch is not written to `__transaction_state`, so a
   * retried InitProducerId after a failover is fenced. @default false
   */
  readonly lastProducerEpochNotLogged?: boolean;
  /**
   * KAFKA-20090 (4.0 to 4.2): an abort by epoch fence (timeout, InitProducerId) never rotates the
   * producerId, so the epoch can reach Short.MAX_VALUE with a transaction to come. @default false
   */
  readonly noRotationOnFenceAbort?: boolean;
  /**
   * KAFKA-19367 (4.0.0): under TV2 the abort after an epoch fence (InitProducerId on an Ongoing
   * transaction, or a timeout) bumps the epoch a second time; from a fenced 32767 the bump
   * overflows and the request fails. @default false
   */
  readonly fenceAbortBumpsTwice?: boolean;
  /**
   * KAFKA-6119 (0.11.0.0 and 0.11.0.1): a timed-out transaction is aborted at its current epoch
   * instead of being fenced with a bump. @default false
   */
  readonly timeoutAbortKeepsEpoch?: boolean;
  /**
   * KAFKA-9666 (before 2.6): an epoch fence bumps the epoch even when the previous fence's
   * PrepareAbort write failed (no hasFailedEpochFence), so every retry of a failing fence bumps
   * it once more. @default false
   */
  readonly fenceBumpsAfterFailedFence?: boolean;
  /**
   * KAFKA-7519 (before 2.1): a transactional.id expiration whose tombstone append fails keeps
   * the pending Dead state, so the id answers CONCURRENT_TRANSACTIONS for good. @default false
   */
  readonly failedTombstoneKeepsPendingDead?: boolean;
  /**
   * KAFKA-8803 (before 2.5): completing the move to Ongoing refuses a start timestamp older than
   * the one stored from the previous transaction (TransactionMetadata.completeTransitionTo), as
   * after a clock step back; the refusal throws in the append callback, so the pending
   * transition stays set and the request is never answered. @default false
   */
  readonly startTimestampMustNotGoBack?: boolean;
}

/** Timers the coordinator sets; `owner` lets the broker route them. */
export type CoordinatorTimer =
  | { readonly owner: 'coordinator'; readonly type: 'timeout-scan' }
  | { readonly owner: 'coordinator'; readonly type: 'expiration-scan' }
  | {
      readonly owner: 'coordinator';
      readonly type: 'load';
      readonly partition: number;
      readonly coordinatorEpoch: number;
    }
  | {
      readonly owner: 'coordinator';
      readonly type: 'complete-retry';
      readonly transactionalId: string;
    }
  | {
      readonly owner: 'coordinator';
      readonly type: 'marker-retry';
      readonly transactionalId: string;
    }
  | {
      readonly owner: 'coordinator';
      readonly type: 'marker-timeout';
      readonly correlationId: number;
    };

/** The coordinator's actor context. */
export type Ctx = ActorContext<KafkaMessage>;

/** What the coordinator needs from its broker. */
export interface CoordinatorHost {
  /** The leader of a data partition, or null when it has none now. */
  leaderOf(tp: TopicPartition): NodeId | null;
  /** A fresh producerId (durable counter, as the controller's id blocks are). */
  allocateProducerId(): number;
  /**
   * Appends one record to `__transaction_state-<partition>` as its leader with acks=all; `done`
   * gets NONE once it is replicated, or the produce error, and the record's offset (-1 when it
   * was not appended).
   */
  appendTransactionLog(
    partition: number,
    record: TransactionLogRecord,
    ctx: Ctx,
    done: (error: KafkaErrorCode, offset: number) => void,
  ): void;
  /** Every record of this broker's replica of `__transaction_state-<partition>`, oldest first. */
  readTransactionLog(partition: number): readonly TransactionLogRecord[];
}
