/**
 * The Admin API requests of KIP-664 that find and abort hanging transactions
 * (`kafka-transactions.sh describe-producers | list | describe | find-hanging | abort`):
 * DescribeProducers goes to a partition leader, ListTransactions to every broker's coordinator,
 * DescribeTransactions to the coordinator of each id. The abort itself is a WriteTxnMarkers
 * (ABORT) the admin client sends to the partition leader (KIP-664; TransactionsCommand). And
 * the topic admin requests of `kafka-topics.sh --create` and `--alter --partitions`:
 * CreateTopics and CreatePartitions, which a broker forwards to the controller (KIP-590).
 */
import type { KafkaErrorCode } from './errors';
import type { TopicPartition } from './messages';
import type { TransactionState } from './transaction_log';

/** DescribeProducers: the producer state a leader keeps for each partition. */
export interface DescribeProducersRequest {
  readonly kind: 'DescribeProducers';
  readonly correlationId: number;
  readonly partitions: readonly TopicPartition[];
}

/** One producer a partition leader knows (DescribeProducersResponse.ProducerState). */
export interface ProducerStateView {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly lastSequence: number;
  /** When its last batch or marker was appended, virtual µs. */
  readonly lastTimestampUs: number;
  readonly coordinatorEpoch: number;
  /** First offset of its open transaction; -1 when none. */
  readonly currentTxnStartOffset: number;
}

export interface DescribeProducersResponse {
  readonly kind: 'DescribeProducersResponse';
  readonly correlationId: number;
  readonly partitions: ReadonlyArray<
    TopicPartition & {
      readonly error: KafkaErrorCode;
      readonly producers: readonly ProducerStateView[];
    }
  >;
}

/** ListTransactions: the transactional.ids a broker's coordinator serves, optionally filtered. */
export interface ListTransactionsRequest {
  readonly kind: 'ListTransactions';
  readonly correlationId: number;
  /** Only these producerIds; empty: all. */
  readonly producerIdFilters: readonly number[];
}

export interface ListTransactionsResponse {
  readonly kind: 'ListTransactionsResponse';
  readonly correlationId: number;
  readonly transactions: ReadonlyArray<{
    readonly transactionalId: string;
    readonly producerId: number;
    readonly state: TransactionState;
  }>;
}

/** DescribeTransactions: the coordinator's record of each transactional.id. */
export interface DescribeTransactionsRequest {
  readonly kind: 'DescribeTransactions';
  readonly correlationId: number;
  readonly transactionalIds: readonly string[];
}

/** One transactional.id as its coordinator describes it. */
export interface TransactionDescription {
  readonly transactionalId: string;
  /** NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or TRANSACTIONAL_ID_NOT_FOUND on error. */
  readonly error: KafkaErrorCode;
  readonly state: TransactionState | null;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactionTimeoutMs: number;
  readonly transactionStartUs: number;
  readonly partitions: readonly TopicPartition[];
}

export interface DescribeTransactionsResponse {
  readonly kind: 'DescribeTransactionsResponse';
  readonly correlationId: number;
  readonly transactions: readonly TransactionDescription[];
}

/**
 * Who a broker forwarded an admin request for (KIP-590's EnvelopeRequest): the controller answers
 * the broker, which relays the answer to this client under its own correlation id.
 */
export interface ForwardedFor {
  readonly client: string;
  readonly correlationId: number;
}

/** CreateTopics: new topics, created by the controller (ReplicationControlManager.createTopics). */
export interface CreateTopicsRequest {
  readonly kind: 'CreateTopics';
  readonly correlationId: number;
  readonly topics: ReadonlyArray<{
    readonly name: string;
    readonly numPartitions: number;
    readonly replicationFactor: number;
  }>;
  /** Set by the broker that forwards the request to the controller. */
  readonly forwardedFor?: ForwardedFor;
}

/** One topic's outcome of CreateTopics or CreatePartitions, with Kafka's error message. */
export interface TopicResult {
  readonly name: string;
  readonly error: KafkaErrorCode;
  readonly errorMessage: string | null;
}

export interface CreateTopicsResponse {
  readonly kind: 'CreateTopicsResponse';
  readonly correlationId: number;
  readonly topics: readonly TopicResult[];
  readonly forwardedFor?: ForwardedFor;
}

/** CreatePartitions: raises each topic's partition count to `count` (the new total). */
export interface CreatePartitionsRequest {
  readonly kind: 'CreatePartitions';
  readonly correlationId: number;
  readonly topics: ReadonlyArray<{ readonly name: string; readonly count: number }>;
  readonly forwardedFor?: ForwardedFor;
}

export interface CreatePartitionsResponse {
  readonly kind: 'CreatePartitionsResponse';
  readonly correlationId: number;
  readonly topics: readonly TopicResult[];
  readonly forwardedFor?: ForwardedFor;
}
