/**
 * transactional.id expiration at the coordinator, as Kafka's TransactionStateManager does it
 * (enableTransactionalIdExpiration schedules removeExpiredTransactionalIds every
 * `transaction.remove.expired.transaction.cleanup.interval.ms`, first one interval after startup).
 * Each run walks the loaded `__transaction_state` partitions and expires every id that
 * - has no transition in flight (`pendingState` empty),
 * - is in a state whose TransactionState.isExpirationAllowed is true: Empty, CompleteCommit or
 *   CompleteAbort, never Ongoing, PrepareCommit, PrepareAbort or PrepareEpochFence,
 * - was last updated at least `transactional.id.expiration.ms` ago
 *   (TransactionStateManager.shouldExpire: `txnLastUpdateTimestamp <= now - expiration`).
 * Such an id gets `pendingState = Dead` (TransactionMetadata.prepareDead) and a tombstone (null
 * value) is appended to its partition with acks=all; the metadata leaves the cache only when the
 * append succeeded and the partition's coordinator epoch, the pending Dead and the producerEpoch
 * are all unchanged (writeTombstonesForExpiredTransactionalIds), otherwise the pending state is
 * cleared and the id stays (after a failed append only since KAFKA-7519's fix, 2.1). While Dead
 * is pending, its requests see CONCURRENT_TRANSACTIONS, and a later InitProducerId for a removed
 * id creates fresh metadata with a new producerId.
 *
 * Kafka appends one batch of tombstones per partition; this model's `__transaction_state` batches
 * hold one record each, so each expired id is its own append (same records, same order).
 */
import type { KafkaObservation } from '../protocol';
import { viewOf } from './coordinator_observations';
import type { CoordinatorHost, CoordinatorTimer, Ctx } from './coordinator_settings';
import { assertValidTransition, isIdle, type TransactionMetadata } from './transaction_metadata';
import type { TransactionStateManager } from './transaction_state_manager';

/** What one expiration run needs from its coordinator. */
export interface ExpirationDeps extends Pick<CoordinatorHost, 'appendTransactionLog'> {
  readonly state: TransactionStateManager;
  /** `transactional.id.expiration.ms`. */
  readonly transactionalIdExpirationMs: number;
  /** KAFKA-7519 (before 2.1): a failed tombstone append leaves the pending Dead in place. */
  readonly failedTombstoneKeepsPendingDead: boolean;
  observe(observation: KafkaObservation, ctx: Ctx): void;
}

/**
 * TransactionStateManager.shouldExpire: an idle state (isExpirationAllowed) whose last update is
 * at least the expiration old, with no transition in flight.
 */
export function shouldExpire(
  metadata: Readonly<TransactionMetadata>,
  nowUs: number,
  expirationMs: number,
): boolean {
  return (
    metadata.pendingState === null &&
    isIdle(metadata.state) &&
    metadata.txnLastUpdateUs <= nowUs - expirationMs * 1000
  );
}

/** One run of TransactionStateManager.removeExpiredTransactionalIds over every loaded partition. */
export function removeExpiredTransactionalIds(deps: ExpirationDeps, ctx: Ctx): void {
  const nowUs = ctx.nowUs();
  for (const { partition, coordinatorEpoch, transactions } of deps.state.loadedPartitions()) {
    for (const metadata of transactions) {
      if (!shouldExpire(metadata, nowUs, deps.transactionalIdExpirationMs)) continue;
      writeTombstone(deps, { partition, coordinatorEpoch, metadata }, ctx);
    }
  }
}

/** prepareDead, then the tombstone; removal from the cache once it is durable. */
function writeTombstone(
  deps: ExpirationDeps,
  expired: { partition: number; coordinatorEpoch: number; metadata: TransactionMetadata },
  ctx: Ctx,
): void {
  const { partition, coordinatorEpoch, metadata } = expired;
  assertValidTransition(metadata, 'Dead');
  metadata.pendingState = 'Dead';
  const producerEpoch = metadata.producerEpoch;
  ctx.trace(`transactional.id ${metadata.transactionalId} expired: writing its tombstone`);
  const record = { transactionalId: metadata.transactionalId, value: null };
  deps.appendTransactionLog(partition, record, ctx, (error) => {
    if (!deps.state.isCurrent(metadata, coordinatorEpoch)) return;
    const removable =
      error === 'NONE' &&
      metadata.pendingState === 'Dead' &&
      metadata.producerEpoch === producerEpoch;
    if (error !== 'NONE' && deps.failedTombstoneKeepsPendingDead) {
      // Before KAFKA-7519's fix the removal callback ignored a failed append: pendingState stays
      // Dead, so shouldExpire never picks the id again and its requests wait for good.
      ctx.trace(`transactional.id ${metadata.transactionalId} left pending Dead: ${error}`);
      return;
    }
    if (!removable) {
      ctx.trace(`transactional.id ${metadata.transactionalId} kept: tombstone append ${error}`);
      metadata.pendingState = null;
      return;
    }
    deps.state.remove(metadata);
    deps.observe(
      {
        kind: 'TransactionalIdExpired',
        coordinator: ctx.nodeId,
        stateLogPartition: partition,
        view: viewOf(metadata),
      },
      ctx,
    );
  });
}

/**
 * When removeExpiredTransactionalIds runs: at a fixed rate of `intervalUs` from the coordinator's
 * start (KafkaScheduler.schedule, a ScheduledThreadPoolExecutor.scheduleAtFixedRate), so a run
 * held up by a pause is followed by the missed ones at once. The timer of the next run is armed
 * only once it is due within one abort-scan interval (from that scan's timer), which leaves the
 * times unchanged and adds no event to a run that ends before its first expiration run (the
 * default interval is an hour): such runs schedule exactly what they did without expiration.
 */
export class ExpirationSchedule {
  private dueUs = -1;
  private armed = false;

  constructor(
    private readonly intervalUs: number,
    private readonly abortScanIntervalUs: number,
  ) {}

  /** The coordinator started: the first run is one interval away. */
  start(ctx: Ctx): void {
    this.dueUs = ctx.nowUs() + this.intervalUs;
    this.armed = false;
    this.armIfDueBefore(this.abortScanIntervalUs, ctx);
  }

  /** The coordinator crashed: its timers are gone. */
  stop(): void {
    this.dueUs = -1;
    this.armed = false;
  }

  /** Arms the next run's timer if it is due within `windowUs` from now. */
  armIfDueBefore(windowUs: number, ctx: Ctx): void {
    if (this.armed || this.dueUs < 0 || this.dueUs - ctx.nowUs() > windowUs) return;
    this.armed = true;
    ctx.setTimer(Math.max(0, this.dueUs - ctx.nowUs()), {
      owner: 'coordinator',
      type: 'expiration-scan',
    } satisfies CoordinatorTimer);
  }

  /** A run happened: the next is due one interval after this one was, and armed at once. */
  fired(ctx: Ctx): void {
    this.armed = false;
    this.dueUs += this.intervalUs;
    this.armIfDueBefore(Number.POSITIVE_INFINITY, ctx);
  }
}
