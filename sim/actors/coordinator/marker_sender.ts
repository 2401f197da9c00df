/**
 * Sends a transaction's COMMIT/ABORT markers to the leaders of its partitions and retries until
 * each partition has one (TransactionMarkerChannelManager.addTxnMarkersToSend;
 * TransactionMarkerRequestCompletionHandler; Kafka's TransactionMarkerChannelManager). Retriable
 * errors and lost requests are retried; INVALID_PRODUCER_EPOCH and TRANSACTION_COORDINATOR_FENCED
 * stop the markers for good, so the transaction stays in Prepare* at this coordinator.
 *
 * A response (or lost request) sent under an older coordinator epoch than the transaction's
 * current job is not applied to it (TransactionMarkerRequestCompletionHandler compares the
 * marker's coordinatorEpoch with the cached one). Since KAFKA-16352 (3.8, apache/kafka#15524)
 * that cancels only the stale job's own pending completion; before it,
 * `removeMarkersForTxnId(transactionalId)` removed the current job's, whose markers then land
 * but whose CompleteCommit/CompleteAbort is never written: the transaction stays in Prepare*.
 *
 * KAFKA_STORAGE_ERROR (the leader's log directory failed) is retried since KAFKA-9749 (2.5,
 * apache/kafka#8336): the failing broker halts and the partition's leadership moves. Before it the
 * completion handler matched it to no case and threw IllegalStateException ("Unexpected error"),
 * which NetworkClient logged: the markers were neither retried nor completed, so the transaction
 * stayed in Prepare* until its coordinator moved.
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS, MARKER_CONNECTION } from '../protocol';
import type {
  KafkaErrorCode,
  KafkaMessage,
  TopicPartition,
  WriteTxnMarkersResponse,
} from '../protocol';
import { isRetriable, partitionKey } from '../protocol';
import type { CoordinatorSettings } from './coordinator_settings';

/** The markers one transaction still needs. */
export interface MarkerJob {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly committed: boolean;
  readonly partitions: readonly TopicPartition[];
  /** The transaction's clientTransactionVersion, sent with each marker (KAFKA-19446). */
  readonly transactionVersion: number;
}

interface PendingJob {
  readonly job: MarkerJob;
  /** Partitions still without a marker, keyed `topic-partition`. */
  readonly remaining: Map<string, TopicPartition>;
  /** Partitions with a request in flight. */
  readonly inFlight: Set<string>;
  stopped: boolean;
  /** KAFKA-16352: a stale response removed this job's pending completion; it never completes. */
  completionRemoved: boolean;
}

/** One WriteTxnMarkers in flight. */
interface MarkerRequest {
  readonly transactionalId: string;
  /** The coordinator epoch the markers were sent under. */
  readonly coordinatorEpoch: number;
  readonly keys: string[];
  readonly timerId: number;
  readonly leader: NodeId;
}

type Ctx = ActorContext<KafkaMessage>;

/** The coordinator settings that switch marker bugs on (`coordinator_settings.ts`). */
export type MarkerBugs = Pick<
  CoordinatorSettings,
  'staleMarkerResponseRemovesCompletion' | 'storageErrorStopsMarkers'
>;

/** Inter-broker request timeout for WriteTxnMarkers (`request.timeout.ms` of the channel). */
const MARKER_REQUEST_TIMEOUT_US = 30_000_000;
/** Backoff before resending a marker after a retriable error. */
const MARKER_RETRY_BACKOFF_US = 100_000;

/** Tracks and retries the markers of every transaction in a Prepare state. */
export class MarkerSender {
  private jobs = new BoundedMap<string, PendingJob>(COLLECTION_BOUNDS.markerJobs);
  private requests = new BoundedMap<number, MarkerRequest>(COLLECTION_BOUNDS.markerRequests);
  private nextCorrelationId = 1;

  constructor(
    private readonly host: { leaderOf(tp: TopicPartition): NodeId | null },
    private readonly onComplete: (transactionalId: string, ctx: Ctx) => void,
    /**
     * The coordinator's marker bugs: KAFKA-16352 (a stale response removes the current job's
     * completion) and KAFKA-9749 (KAFKA_STORAGE_ERROR throws in the completion handler).
     */
    private readonly bugs: MarkerBugs = {},
  ) {}

  private get staleResponseRemovesCompletion(): boolean {
    return this.bugs.staleMarkerResponseRemovesCompletion === true;
  }

  /** Forgets everything (crash). */
  clear(): void {
    this.jobs = new BoundedMap(COLLECTION_BOUNDS.markerJobs);
    this.requests = new BoundedMap(COLLECTION_BOUNDS.markerRequests);
  }

  /** Stops the markers of one transaction (its partition moved to another coordinator). */
  drop(transactionalId: string): void {
    this.jobs.delete(transactionalId);
  }

  /** Starts sending the markers of `job`; with no partitions it completes at once. */
  send(job: MarkerJob, ctx: Ctx): void {
    const remaining = new Map(job.partitions.map((tp) => [partitionKey(tp), tp] as const));
    this.jobs.set(job.transactionalId, {
      job,
      remaining,
      inFlight: new Set(),
      stopped: false,
      completionRemoved: false,
    });
    this.sendRemaining(job.transactionalId, ctx);
  }

  onResponse(response: WriteTxnMarkersResponse, ctx: Ctx): void {
    const request = this.requests.get(response.correlationId);
    if (request === undefined) return;
    this.requests.delete(response.correlationId);
    ctx.cancelTimer(request.timerId);
    const pending = this.currentJob(request, ctx);
    if (pending === undefined) return;
    let retry = false;
    for (const result of response.results) {
      const key = partitionKey(result);
      pending.inFlight.delete(key);
      retry = this.applyResult(pending, key, result.error) || retry;
    }
    this.afterResults(pending, retry, ctx);
  }

  onTimer(
    timer:
      | { type: 'marker-retry'; transactionalId: string }
      | { type: 'marker-timeout'; correlationId: number },
    ctx: Ctx,
  ): void {
    if (timer.type === 'marker-retry') {
      this.sendRemaining(timer.transactionalId, ctx);
      return;
    }
    const request = this.requests.get(timer.correlationId);
    if (request === undefined) return;
    // request.timeout.ms: NetworkClient.handleTimedOutRequests disconnects the leader, every
    // marker request on the connection fails and is retried, and what a partition still holds of
    // it is lost.
    ctx.closeConnection(request.leader, MARKER_CONNECTION);
    this.onConnectionReset(request.leader, ctx);
  }

  /** The connection to `peer` was reset: its marker requests are sent again. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    for (const [correlationId, request] of [...this.requests]) {
      if (request.leader !== peer) continue;
      ctx.cancelTimer(request.timerId);
      this.retryRequest(correlationId, ctx);
    }
  }

  private retryRequest(correlationId: number, ctx: Ctx): void {
    const request = this.requests.get(correlationId);
    if (request === undefined) return;
    this.requests.delete(correlationId);
    const pending = this.currentJob(request, ctx);
    if (pending === undefined) return;
    for (const key of request.keys) pending.inFlight.delete(key);
    ctx.setTimer(MARKER_RETRY_BACKOFF_US, {
      owner: 'coordinator',
      type: 'marker-retry',
      transactionalId: request.transactionalId,
    });
  }

  /**
   * The job `request` belongs to, or undefined when the transaction has none any more or its job
   * runs under another coordinator epoch (the request is then stale and is not applied).
   */
  private currentJob(request: MarkerRequest, ctx: Ctx): PendingJob | undefined {
    const pending = this.jobs.get(request.transactionalId);
    if (pending === undefined) return undefined;
    if (pending.job.coordinatorEpoch === request.coordinatorEpoch) return pending;
    ctx.trace(
      `markers of ${request.transactionalId} under coordinator epoch ` +
        `${request.coordinatorEpoch} are stale (now ${pending.job.coordinatorEpoch})` +
        (this.staleResponseRemovesCompletion ? ': the current completion is removed' : ''),
    );
    if (this.staleResponseRemovesCompletion) pending.completionRemoved = true;
    return undefined;
  }

  /** All markers are in: complete the transaction, unless its completion was removed. */
  private finish(pending: PendingJob, ctx: Ctx): void {
    const transactionalId = pending.job.transactionalId;
    this.jobs.delete(transactionalId);
    if (!pending.completionRemoved) this.onComplete(transactionalId, ctx);
  }

  /** Returns true when the partition must be retried. */
  private applyResult(pending: PendingJob, key: string, error: KafkaErrorCode): boolean {
    if (error === 'NONE') {
      pending.remaining.delete(key);
      return false;
    }
    if (error === 'INVALID_PRODUCER_EPOCH' || error === 'TRANSACTION_COORDINATOR_FENCED') {
      pending.stopped = true;
      return false;
    }
    // KAFKA-9749: the throw ends the handler before it retries or completes anything.
    if (error === 'KAFKA_STORAGE_ERROR' && this.bugs.storageErrorStopsMarkers === true) {
      pending.stopped = true;
      return false;
    }
    if (isRetriable(error)) return true;
    // Any other error (UNSUPPORTED_VERSION, ...) drops the partition from the pending set
    // (TransactionMarkerRequestCompletionHandler).
    pending.remaining.delete(key);
    return false;
  }

  private afterResults(pending: PendingJob, retry: boolean, ctx: Ctx): void {
    const transactionalId = pending.job.transactionalId;
    if (pending.stopped) {
      this.jobs.delete(transactionalId);
      return;
    }
    if (pending.remaining.size === 0 && pending.inFlight.size === 0) {
      this.finish(pending, ctx);
      return;
    }
    if (retry) {
      ctx.setTimer(MARKER_RETRY_BACKOFF_US, {
        owner: 'coordinator',
        type: 'marker-retry',
        transactionalId,
      });
    }
  }

  /** Sends one WriteTxnMarkers per leader for the partitions without a marker or request. */
  private sendRemaining(transactionalId: string, ctx: Ctx): void {
    const pending = this.jobs.get(transactionalId);
    if (pending === undefined || pending.stopped) return;
    if (pending.remaining.size === 0 && pending.inFlight.size === 0) {
      this.finish(pending, ctx);
      return;
    }
    const byLeader = new Map<NodeId, TopicPartition[]>();
    let leaderless = false;
    for (const [key, tp] of pending.remaining) {
      if (pending.inFlight.has(key)) continue;
      const leader = this.host.leaderOf(tp);
      if (leader === null) {
        // No live leader: park the partition and retry (TransactionMarkerRequestCompletionHandler).
        leaderless = true;
        continue;
      }
      const list = byLeader.get(leader) ?? [];
      list.push(tp);
      byLeader.set(leader, list);
    }
    if (leaderless) {
      ctx.setTimer(MARKER_RETRY_BACKOFF_US, {
        owner: 'coordinator',
        type: 'marker-retry',
        transactionalId,
      });
    }
    for (const [leader, partitions] of byLeader) {
      const correlationId = this.nextCorrelationId++;
      const keys = partitions.map(partitionKey);
      for (const key of keys) pending.inFlight.add(key);
      const timerId = ctx.setTimer(MARKER_REQUEST_TIMEOUT_US, {
        owner: 'coordinator',
        type: 'marker-timeout',
        correlationId,
      });
      const coordinatorEpoch = pending.job.coordinatorEpoch;
      this.requests.set(correlationId, {
        transactionalId,
        coordinatorEpoch,
        keys,
        timerId,
        leader,
      });
      ctx.send(leader, {
        kind: 'WriteTxnMarkers',
        correlationId,
        producerId: pending.job.producerId,
        producerEpoch: pending.job.producerEpoch,
        coordinatorEpoch: pending.job.coordinatorEpoch,
        committed: pending.job.committed,
        partitions,
        transactionVersion: pending.job.transactionVersion,
      });
    }
  }
}
