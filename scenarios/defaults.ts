/**
 * Kafka's client defaults and the workload's, as the loader fills them in (ProducerConfig,
 * ConsumerConfig).
 */
/** Kafka's producer defaults (ProducerConfig); `enable.idempotence` is resolved by the loader. */
export const PRODUCER_DEFAULTS = {
  acks: -1,
  maxInFlightRequestsPerConnection: 5,
  retries: 2147483647,
  requestTimeoutMs: 30000,
  deliveryTimeoutMs: 120000,
  retryBackoffMs: 100,
  transactionTimeoutMs: 60000,
} as const;

/** Kafka's consumer defaults (ConsumerConfig). */
export const CONSUMER_DEFAULTS = {
  isolationLevel: 'read_uncommitted',
  autoOffsetReset: 'latest',
  requestTimeoutMs: 30000,
  fetchMinBytes: 1,
  fetchMaxWaitMs: 500,
  fetchMaxBytes: 52428800,
} as const;

/**
 * Kafka's consumer-group defaults (ConsumerConfig, GroupCoordinatorConfig): consumer keys, then
 * broker keys.
 */
export const GROUP_DEFAULTS = {
  sessionTimeoutMs: 45000,
  heartbeatIntervalMs: 3000,
  maxPollIntervalMs: 300000,
  maxPollRecords: 500,
  enableAutoCommit: true,
  autoCommitIntervalMs: 5000,
} as const;

/** Workload defaults, in milliseconds or counts. */
export const WORKLOAD_DEFAULTS = {
  startMs: 0,
  recordsPerTransaction: 1,
  sendIntervalMs: 10,
  recordsPerSend: 1,
  transactionIntervalMs: 50,
  abortEvery: 0,
  pollIntervalMs: 100,
  restartDelayMs: 1000,
} as const;
