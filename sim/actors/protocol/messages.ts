/**
 * The Kafka requests and responses the model exchanges. Shapes follow Kafka's protocol where it
 * matters for exactly-once behaviour and are simplified elsewhere (one batch per Produce request,
 * no byte sizes). Every request carries a `correlationId` that its response echoes, as on the
 * wire; a response whose request the client already gave up on is ignored.
 */
import type { KafkaErrorCode } from './errors';
import type { LogBatch, ProducedBatch } from './records';

/** A partition of a topic. */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** `topic-partition`, Kafka's own spelling of a partition name. */
export function partitionKey(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** `isolation.level` of a fetch or a ListOffsets request. */
export type IsolationLevel = 'read_committed' | 'read_uncommitted';

/** Produce: one batch for one partition. `acks` is 0, 1 or -1. */
export interface ProduceRequest {
  readonly kind: 'Produce';
  readonly correlationId: number;
  readonly acks: 0 | 1 | -1;
  readonly transactionalId: string | null;
  readonly topic: string;
  readonly partition: number;
  readonly batch: ProducedBatch;
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
export interface FetchRequest {
  readonly kind: 'Fetch';
  readonly correlationId: number;
  readonly isolationLevel: IsolationLevel;
  readonly partitions: ReadonlyArray<TopicPartition & { readonly fetchOffset: number }>;
}

/** An entry of the aborted-transaction list of a read_committed fetch (R4.4). */
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
}

export interface FetchResponse {
  readonly kind: 'FetchResponse';
  readonly correlationId: number;
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
  /** The transactional.id whose coordinator is wanted. */
  readonly key: string;
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
}

export interface EndTxnResponse {
  readonly kind: 'EndTxnResponse';
  readonly correlationId: number;
  readonly error: KafkaErrorCode;
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
}

export interface WriteTxnMarkersResponse {
  readonly kind: 'WriteTxnMarkersResponse';
  readonly correlationId: number;
  readonly producerId: number;
  readonly results: ReadonlyArray<TopicPartition & { readonly error: KafkaErrorCode }>;
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
  | WriteTxnMarkersRequest;

/** Every response. */
export type KafkaResponse =
  | ProduceResponse
  | FetchResponse
  | ListOffsetsResponse
  | FindCoordinatorResponse
  | InitProducerIdResponse
  | AddPartitionsToTxnResponse
  | EndTxnResponse
  | WriteTxnMarkersResponse;

/** Any Kafka message. */
export type KafkaMessage = KafkaRequest | KafkaResponse;
