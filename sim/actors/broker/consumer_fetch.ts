/**
 * A consumer's fetch at the leader (ReplicaManager.fetchMessages with a consumer's FetchParams):
 * every partition is read up to the high watermark or the last stable offset (UnifiedLog.read)
 * within the request's byte limit (`fetch.max.bytes`; ReplicaManager.readFromLog lets the first
 * batch of the response through even when it alone is larger, KIP-74). The fetch is answered at
 * once when it may not wait, when a partition has an error or when the bytes read reach
 * `fetch.min.bytes`; otherwise it is parked (DelayedFetch) and, when it completes, read again.
 */
import type { ActorContext } from '../../kernel';
import type {
  FetchPartitionResponse,
  FetchRequest,
  KafkaErrorCode,
  KafkaMessage,
  TopicPartition,
} from '../protocol';
import { partitionKey } from '../protocol';
import {
  canCompleteFetch,
  consumerIsolation,
  hasError,
  responseBytes,
  watchKeys,
  type FetchState,
} from './delayed_fetch';
import type { DelayedOperations } from './delayed_operations';

type Ctx = ActorContext<KafkaMessage>;

/** What a consumer fetch needs from its broker. */
export interface ConsumerFetchDeps {
  readonly state: FetchState;
  readonly delayed: DelayedOperations;
  /** Most batches one partition returns per fetch. */
  readonly fetchBatchesMax: number;
}

/** Answers a consumer fetch now, or parks it until it can complete or its wait ends. */
export function handleConsumerFetch(
  request: FetchRequest,
  deps: ConsumerFetchDeps,
  ctx: Ctx,
  respond: (answer: { partitions: FetchPartitionResponse[] }) => void,
): void {
  const first = readPartitions(request, deps);
  const answerNow =
    request.maxWaitMs <= 0 ||
    request.partitions.length === 0 ||
    hasError(first) ||
    responseBytes(first) >= request.minBytes;
  if (answerNow) return respond({ partitions: first });
  const parked = {
    isolation: consumerIsolation(request.isolationLevel),
    minBytes: request.minBytes,
  };
  deps.delayed.waitForData(
    {
      partitionKeys: watchKeys(request.partitions),
      canComplete: () => canCompleteFetch(request.partitions, parked, deps.state),
      complete: () => respond({ partitions: readPartitions(request, deps) }),
      waitUs: request.maxWaitMs * 1000,
    },
    ctx,
  );
}

/** ReplicaManager.readFromLog for a consumer: each partition in turn, within `maxBytes`. */
function readPartitions(request: FetchRequest, deps: ConsumerFetchDeps): FetchPartitionResponse[] {
  let limitBytes = request.maxBytes;
  let minOneMessage = true;
  return request.partitions.map((fetch) => {
    const replica = deps.state.replicaOf(partitionKey(fetch));
    const epochError = deps.state.epochError(replica, fetch);
    if (replica === undefined || epochError !== 'NONE') return emptyPartition(fetch, epochError);
    const log = replica.log;
    const limit = { maxBytes: limitBytes, minOneMessage };
    const read = log.read(fetch.fetchOffset, request.isolationLevel, deps.fetchBatchesMax, limit);
    if (read.bytes > 0) minOneMessage = false;
    limitBytes = Math.max(0, limitBytes - read.bytes);
    return {
      topic: fetch.topic,
      partition: fetch.partition,
      error: read.error,
      highWatermark: log.highWatermark,
      lastStableOffset: log.lastStableOffset,
      logStartOffset: log.logStartOffset,
      abortedTransactions: read.abortedTransactions,
      batches: read.batches,
      divergingEpoch: null,
    };
  });
}

/** A partition answer without records. */
export function emptyPartition(tp: TopicPartition, error: KafkaErrorCode): FetchPartitionResponse {
  return {
    topic: tp.topic,
    partition: tp.partition,
    error,
    highWatermark: -1,
    lastStableOffset: -1,
    logStartOffset: -1,
    abortedTransactions: null,
    batches: [],
    divergingEpoch: null,
  };
}
