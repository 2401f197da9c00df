/**
 * Kafka's error codes as data, by their wire names (`Errors.java`), with their numeric codes and
 * whether the Java exception is retriable (Errors.java and the classes of common/errors). Simulated
 * errors are values, never thrown exceptions. Style rule 24.
 */

/** Wire name, numeric code, and whether Kafka's client retries it internally. */
const ERROR_TABLE = [
  ['NONE', 0, false],
  ['UNKNOWN_SERVER_ERROR', -1, false],
  ['OFFSET_OUT_OF_RANGE', 1, false],
  ['UNKNOWN_TOPIC_OR_PARTITION', 3, true],
  ['LEADER_NOT_AVAILABLE', 5, true],
  ['NOT_LEADER_OR_FOLLOWER', 6, true],
  ['REQUEST_TIMED_OUT', 7, true],
  ['NETWORK_EXCEPTION', 13, true],
  ['COORDINATOR_LOAD_IN_PROGRESS', 14, true],
  ['COORDINATOR_NOT_AVAILABLE', 15, true],
  ['NOT_COORDINATOR', 16, true],
  ['NOT_ENOUGH_REPLICAS', 19, true],
  ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 20, true],
  ['INVALID_REQUIRED_ACKS', 21, false],
  ['ILLEGAL_GENERATION', 22, false],
  ['INCONSISTENT_GROUP_PROTOCOL', 23, false],
  ['UNKNOWN_MEMBER_ID', 25, false],
  ['INVALID_SESSION_TIMEOUT', 26, false],
  ['REBALANCE_IN_PROGRESS', 27, false],
  ['INVALID_REQUEST', 42, false],
  ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45, false],
  ['INVALID_PRODUCER_EPOCH', 47, false],
  ['INVALID_TXN_STATE', 48, false],
  ['INVALID_PRODUCER_ID_MAPPING', 49, false],
  ['INVALID_TRANSACTION_TIMEOUT', 50, false],
  ['TOPIC_ALREADY_EXISTS', 36, false],
  ['INVALID_PARTITIONS', 37, false],
  ['INVALID_REPLICATION_FACTOR', 38, false],
  ['CONCURRENT_TRANSACTIONS', 51, true],
  ['TRANSACTION_COORDINATOR_FENCED', 52, false],
  ['KAFKA_STORAGE_ERROR', 56, true],
  ['FETCH_SESSION_ID_NOT_FOUND', 70, true],
  ['INVALID_FETCH_SESSION_EPOCH', 71, true],
  ['FENCED_LEADER_EPOCH', 74, true],
  ['UNKNOWN_LEADER_EPOCH', 75, true],
  ['OFFSET_NOT_AVAILABLE', 78, true],
  ['MEMBER_ID_REQUIRED', 79, false],
  ['FENCED_INSTANCE_ID', 82, false],
  ['UNSTABLE_OFFSET_COMMIT', 88, true],
  ['PRODUCER_FENCED', 90, false],
  ['INVALID_UPDATE_VERSION', 95, false],
  ['INELIGIBLE_REPLICA', 107, false],
  ['TRANSACTIONAL_ID_NOT_FOUND', 105, false],
  ['STALE_MEMBER_EPOCH', 113, false],
  ['TRANSACTION_ABORTABLE', 120, false],
] as const;

/** A Kafka error by its wire name. */
export type KafkaErrorCode = (typeof ERROR_TABLE)[number][0];

const RETRIABLE = new Set<KafkaErrorCode>(
  ERROR_TABLE.filter(([, , retriable]) => retriable).map(([name]) => name),
);

/** True when Kafka's exception for this error extends RetriableException. */
export function isRetriable(error: KafkaErrorCode): boolean {
  return RETRIABLE.has(error);
}

/**
 * The errors that fence a producer: a newer instance (or a timeout fence) owns a newer epoch for
 * its producerId or transactional.id (TransactionManager: ProducerFencedException and
 * InvalidProducerEpochException).
 */
const FENCING_ERRORS: ReadonlySet<string> = new Set<KafkaErrorCode>([
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
]);

/** True for an error that fences a producer; a history op's `error` (a name or none) fits. */
export function isFencingError(error: string | undefined): boolean {
  return error !== undefined && FENCING_ERRORS.has(error);
}
