/**
 * The Kafka requests and responses the model exchanges. Shapes follow Kafka's protocol where it
 * matters for exactly-once behaviour and are simplified elsewhere (one batch per Produce request,
 * no byte sizes). Every request carries a `correlationId` that its response echoes, as on the
 * wire; a response whose request the client already gave up on is ignored.
 */
import type { ConnectionReset } from '../../kernel';
import type {
  CreatePartitionsRequest,
  CreatePartitionsResponse,
  CreateTopicsRequest,
  CreateTopicsResponse,
  DescribeProducersRequest,
  DescribeProducersResponse,
  DescribeTransactionsRequest,
  DescribeTransactionsResponse,
  ListTransactionsRequest,
  ListTransactionsResponse,
} from './admin_messages';
import type { KafkaErrorCode } from './errors';
import type { GroupRequest, GroupResponse } from './group_messages';
import type { LogBatch, ProducedBatch } from './records';

/** A partition of a topic. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/**
 * The keys {@link partitionKey} made, by topic and partition. Brokers, clients and the runner
 * look partitions up by key on every fetch, append and observation: one string per partition,
 * made once, whose hash V8 then keeps, costs less than a new string each time. A pure function's
 * cache, so it changes no run; emptied past {@link PARTITION_KEYS_MAX} so it stays bounded.
 */
const partitionKeys = new Map<string, Map<number, string>>();
let partitionKeysCount = 0;
const PARTITION_KEYS_MAX = 100_000;

/** `topic-partition`, Kafka's own spelling of a partition name. */
export function partitionKey(tp: TopicPartition): string {
  const known = partitionKeys.get(tp.topic)?.get(tp.partition);
  if (known !== undefined) return known;
  const key = `${tp.topic}-${tp.partition}`;
  if (partitionKeysCount >= PARTITION_KEYS_MAX) {
    partitionKeys.clear();
    partitionKeysCount = 0;
  }
  let byPartition = partitionKeys.get(tp.topic);
  if (byPartition === undefined) {
    byPartition = new Map();
    partitionKeys.set(tp.topic, byPartition);
  }
  byPartition.set(tp.partition, key);
  partitionKeysCount += 1;
  return key;
}

/** `isolation.level` of a fetch or a ListOffsets request. */
export type IsolationLevel = 'read_committed' | 'read_uncommitted';

/** Produce: one batch for one partition. `acks` is 0, 1 or -1. */
export interface ProduceRequest {
  readonly kind: 'Produce';
  readonly correlationId: number;
  readonly acks: 0 | 1 | -1;
  /** How long an acks=all produce may wait for replication (the client's request.timeout.ms). */
  readonly timeoutMs: number;
  readonly transactionalId: string | null;
  readonly topic: string;
  readonly partition: number;
  readonly batch: ProducedBatch;
  /**
   * 2 when the client runs transaction version 2 (Produce v12+: the leader adds the partition
   * to the transaction itself, KIP-890 part 2); 0 otherwise.
   */
  readonly transactionVersion: number;
}

export interface ProduceResponse {
  readonly kind: 'ProduceResponse';
  readonly correlationId: number;
  readonly topic: string;
  readonly partition: number;
  readonly error: KafkaErrorCode;
  /** Offset of the batch's first record, -1 on error. */
  readonly baseOffset: number;
}

/** Fetch from several partitions led by the receiving broker. */
/** One partition of a fetch. Epochs are -1 when the fetcher does not know them. */
export interface FetchPartition extends TopicPartition {
  readonly fetchOffset: number;
  /** The leader epoch the fetcher believes current (Partition.fetchRecords). */
  readonly currentLeaderEpoch: number;
  /**
   * A follower's latest epoch in its epoch cache, for divergence detection (AbstractFetcherThread).
   */
  readonly lastFetchedEpoch: number;
}

/** Fetch from several partitions led by the receiving broker, by a consumer or a follower. */
export interface FetchRequest {
  readonly kind: 'Fetch';
  readonly correlationId: number;
  /** The fetching follower broker; null for a consumer. */
  readonly replicaId: string | null;
  readonly isolationLevel: IsolationLevel;
  /**
   * How long the leader may park the fetch for `minBytes` (MaxWaitMs: the consumer's
   * `fetch.max.wait.ms`, a follower's `replica.fetch.wait.max.ms`).
   */
  readonly maxWaitMs: number;
  /** MinBytes: `fetch.min.bytes` / `replica.fetch.min.bytes`. */
  readonly minBytes: number;
  /** MaxBytes: the response's byte limit (`fetch.max.bytes`), one batch always allowed. */
  readonly maxBytes: number;
  /**
   * A follower's fetch session (KIP-227): the session id, 0 for none, and its epoch, 0 for a
   * full fetch that opens a new session. An incremental fetch lists only the partitions whose
   * parameters changed. Absent: a sessionless fetch (consumers).
   */
  readonly sessionId?: number;
  readonly sessionEpoch?: number;
  /** Partitions an incremental fetch drops from its session. */
  readonly forgottenPartitions?: readonly TopicPartition[];
  readonly partitions: readonly FetchPartition[];
}

/**
 * An entry of the aborted-transaction list of a read_committed fetch
 * (LocalLog.collectAbortedTransactions).
 */
export interface AbortedTransaction {
  readonly producerId: number;
  readonly firstOffset: number;
}

export interface FetchPartitionResponse extends TopicPartition {
  readonly error: KafkaErrorCode;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logStartOffset: number;
  /** null for read_uncommitted fetches. */
  readonly abortedTransactions: readonly AbortedTransaction[] | null;
  readonly batches: readonly LogBatch[];
  /**
   * For a follower whose log diverged: where the leader's log for that epoch ends
   * (Partition.fetchRecords).
   */
  readonly divergingEpoch: { readonly epoch: number; readonly endOffset: number } | null;
}

export interface FetchResponse {
  readonly kind: 'FetchResponse';
  readonly correlationId: number;
  /** A fetch-session error (KIP-227) answers no partition. Absent: NONE. */
  readonly error?: KafkaErrorCode;
  /** The follower's fetch session; absent for a sessionless fetch. */
  readonly sessionId?: number;
  /** Partitions of a sessionless or full fetch; only the changed ones of an incremental one. */
  readonly partitions: readonly FetchPartitionResponse[];
}

/** Kafka's ListOffsets timestamps: -1 latest, -2 earliest. */
export const LATEST_TIMESTAMP = -1;
export const EARLIEST_TIMESTAMP = -2;

export interface ListOffsetsRequest {
  readonly kind: 'ListOffsets';
  readonly correlationId: number;
  readonly isolationLevel: IsolationLevel;
  readonly partitions: ReadonlyArray<TopicPartition & { readonly timestamp: -1 | -2 }>;
}

export interface ListOffsetsResponse {
  readonly kind: 'ListOffsetsResponse';
  readonly correlationId: number;
  readonly partitions: ReadonlyArray<
    TopicPartition & { readonly error: KafkaErrorCode; readonly offset: number }
  >;
}

export interface FindCoordinatorRequest {
  readonly kind: 'FindCoordinator';
  readonly correlationId: number;
  /** The transactional.id or group.id whose coordinator is wanted. */
  readonly key: string;
  /** FindCoordinator keyType: 0 = group (`__consumer_offsets`), 1 = transaction. */
  readonly keyType: 'group' | 'transaction';
}

export interface FindCoordinatorResponse {
  readonly kind: 'FindCoordinatorResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  /** The coordinator's node id, empty on error. */
  readonly nodeId: string;
}

/** InitProducerId; `producerId`/`producerEpoch` are -1 unless bumping an epoch (KIP-360). */
export interface InitProducerIdRequest {
  readonly kind: 'InitProducerId';
  readonly correlationId: number;
  readonly transactionalId: string | null;
  readonly transactionTimeoutMs: number;
  readonly producerId: number;
  readonly producerEpoch: number;
}

export interface InitProducerIdResponse {
  readonly kind: 'InitProducerIdResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  readonly producerId: number;
  readonly producerEpoch: number;
}

export interface AddPartitionsToTxnRequest {
  readonly kind: 'AddPartitionsToTxn';
  readonly correlationId: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly partitions: readonly TopicPartition[];
  /**
   * KIP-890: true when a partition leader only asks whether the partitions are in the
   * transaction (part 1); false from a client, or from a leader adding the partition on a
   * transaction version 2 client's behalf (part 2).
   */
  readonly verifyOnly: boolean;
}

export interface AddPartitionsToTxnResponse {
  readonly kind: 'AddPartitionsToTxnResponse';
  readonly correlationId: number;
  readonly results: ReadonlyArray<TopicPartition & { readonly error: KafkaErrorCode }>;
}

export interface EndTxnRequest {
  readonly kind: 'EndTxn';
  readonly correlationId: number;
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** true commits, false aborts. */
  readonly committed: boolean;
  /**
   * 2 for EndTxn v5+ (a transaction version 2 client, TransactionCoordinator.endTransaction); 0
   * otherwise.
   */
  readonly transactionVersion: number;
}

export interface EndTxnResponse {
  readonly kind: 'EndTxnResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  /** Transaction version 2 (EndTxn v5): the producerId and epoch to use next; -1 otherwise. */
  readonly producerId: number;
  readonly producerEpoch: number;
}

/** WriteTxnMarkers for one transaction's partitions on one broker. */
export interface WriteTxnMarkersRequest {
  readonly kind: 'WriteTxnMarkers';
  readonly correlationId: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly committed: boolean;
  readonly partitions: readonly TopicPartition[];
  /**
   * The transaction's version (WriteTxnMarkers v2, KAFKA-19446 / apache/kafka#20882): at 2 the
   * marker carries the epoch the EndTxn bumped to, and the partition leader checks it against
   * that. 0 for the Admin client's abort (the producer's own epoch).
   */
  readonly transactionVersion: number;
}

export interface WriteTxnMarkersResponse {
  readonly kind: 'WriteTxnMarkersResponse';
  readonly correlationId: number;
  readonly producerId: number;
  readonly results: ReadonlyArray<TopicPartition & { readonly error: KafkaErrorCode }>;
}

/** What every broker knows of one partition: its replicas, leader, epochs and ISR. */
export interface PartitionState extends TopicPartition {
  readonly replicas: readonly string[];
  /** null when the partition is offline (no eligible leader). */
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  /** Empty only with eligible leader replicas on (KIP-966), when every member left. */
  readonly isr: readonly string[];
  /**
   * Eligible leader replicas (KIP-966, `PartitionRecord.EligibleLeaderReplicas`): replicas that
   * left the ISR while it was below min.insync.replicas, so they hold every offset below the
   * high watermark; leaders when the ISR is empty. Always empty with ELR off.
   */
  readonly elr: readonly string[];
  /** `LastKnownElr`: the last leader, once the ISR became empty (KIP-966). */
  readonly lastKnownElr: readonly string[];
}

/** A client asking any broker which broker leads each partition. */
export interface MetadataRequest {
  readonly kind: 'Metadata';
  readonly correlationId: number;
}

export interface MetadataResponse {
  readonly kind: 'MetadataResponse';
  readonly correlationId: number;
  readonly partitions: readonly PartitionState[];
}

/** A broker telling the controller it is alive (KRaft BrokerHeartbeat). */
export interface BrokerHeartbeatRequest {
  readonly kind: 'BrokerHeartbeat';
  readonly correlationId: number;
  readonly brokerId: string;
  /** True on the first heartbeat after the broker (re)started: it needs the full metadata. */
  readonly starting: boolean;
  /**
   * The highest metadata offset the broker has applied (BrokerHeartbeat's
   * CurrentMetadataOffset), -1 before any. A broker behind the controller catches up.
   */
  readonly metadataOffset: number;
}

export interface BrokerHeartbeatResponse {
  readonly kind: 'BrokerHeartbeatResponse';
  readonly correlationId: number;
  readonly isFenced: boolean;
}

/** A partition leader asking the controller to change the ISR (KIP-497). */
export interface AlterPartitionRequest {
  readonly kind: 'AlterPartition';
  readonly correlationId: number;
  readonly brokerId: string;
  readonly topic: string;
  readonly partition: number;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  readonly newIsr: readonly string[];
}

export interface AlterPartitionResponse {
  readonly kind: 'AlterPartitionResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
  readonly state: PartitionState | null;
}

/** The controller publishing partition changes to brokers (LeaderAndIsr / metadata records). */
export interface PartitionChangeNotice {
  readonly kind: 'PartitionChange';
  readonly correlationId: number;
  readonly partitions: readonly PartitionState[];
  /** Every broker the controller currently fences (ineligible for the ISR, KIP-841). */
  readonly fencedBrokers: readonly string[];
  /** The controller's metadata offset once this change is applied (the metadata log's end). */
  readonly metadataOffset: number;
  /** True when `partitions` is every partition (the full state), not one change. */
  readonly snapshot: boolean;
  /**
   * On the full state answering a restarted broker's heartbeat with `starting` set (its
   * registration): that heartbeat's correlationId. The first metadata the broker may act on.
   */
  readonly registrationOf?: number;
}

/** Every request a client or broker sends. */
export type KafkaRequest =
  | ProduceRequest
  | FetchRequest
  | ListOffsetsRequest
  | FindCoordinatorRequest
  | InitProducerIdRequest
  | AddPartitionsToTxnRequest
  | EndTxnRequest
  | WriteTxnMarkersRequest
  | MetadataRequest
  | BrokerHeartbeatRequest
  | AlterPartitionRequest
  | PartitionChangeNotice
  | DescribeProducersRequest
  | ListTransactionsRequest
  | DescribeTransactionsRequest
  | CreateTopicsRequest
  | CreatePartitionsRequest
  | GroupRequest;

/** Every response. */
export type KafkaResponse =
  | ProduceResponse
  | FetchResponse
  | ListOffsetsResponse
  | FindCoordinatorResponse
  | InitProducerIdResponse
  | AddPartitionsToTxnResponse
  | EndTxnResponse
  | WriteTxnMarkersResponse
  | MetadataResponse
  | BrokerHeartbeatResponse
  | AlterPartitionResponse
  | DescribeProducersResponse
  | ListTransactionsResponse
  | DescribeTransactionsResponse
  | CreateTopicsResponse
  | CreatePartitionsResponse
  | GroupResponse;

/** Any Kafka message, or the transport's notice that a connection was reset. */
export type KafkaMessage = KafkaRequest | KafkaResponse | ConnectionReset;
