/**
 * The producer's configuration, Kafka's producer config keys in camelCase with the unit last
 * (`request.timeout.ms` → `requestTimeoutMs`), and the client-side transaction states
 * (TransactionManager.State.isTransitionValid).
 */
import { assert } from '../../kernel';
import { RECORD_BATCH_OVERHEAD, recordSizeInBytes } from '../protocol';
import type { ClientRules } from './client_rules';

/** Producer settings, from Kafka's producer config keys; the scenario loader fills defaults. */
export interface ProducerConfig {
  /** `transactional.id`; null for a non-transactional producer. @default null */
  readonly transactionalId: string | null;
  /** `enable.idempotence`. @default true */
  readonly enableIdempotence: boolean;
  /** `acks`: 0, 1 or -1 (`all`). @default -1 */
  readonly acks: 0 | 1 | -1;
  /** `max.in.flight.requests.per.connection`; at most 5 with idempotence. @default 5 */
  readonly maxInFlightRequestsPerConnection: number;
  /** `retries`. @default 2147483647 */
  readonly retries: number;
  /** `request.timeout.ms`. @default 30000 */
  readonly requestTimeoutMs: number;
  /** `delivery.timeout.ms`. @default 120000 */
  readonly deliveryTimeoutMs: number;
  /** `retry.backoff.ms`. @default 100 */
  readonly retryBackoffMs: number;
  /** `transaction.timeout.ms`. @default 60000 */
  readonly transactionTimeoutMs: number;
  /** `max.block.ms`: how long `send()` waits for its topic's metadata. @default 60000 */
  readonly maxBlockMs?: number;
  /**
   * `linger.ms`: how long a batch that is not full waits for more records before it may be sent
   * (RecordAccumulator.ready). The loader gives the release's default (KIP-1030: 5 from Kafka
   * 4.0, 0 before). @default 0
   */
  readonly lingerMs?: number;
  /** `metadata.max.age.ms`: a refresh at the latest this long after the last. @default 300000 */
  readonly metadataMaxAgeMs?: number;
  /** `client.flavour`, `client.version` and their switches. @default Kafka's Java client */
  readonly client?: ClientRules;
  /**
   * KAFKA-14034 (every Java release modelled; the fix proposed in apache/kafka#13796 was closed
   * unmerged): a batch that fails for good makes an idempotent producer bump its epoch at once,
   * rewriting the batches still in flight or waiting to retry, which may already be in the log.
   * false: the proposed fix, the partition's sequence is marked unresolved and the bump waits
   * until those batches complete (TransactionManager.markSequenceUnresolved). @default true
   */
  readonly bumpWithoutWaitingForInFlight?: boolean;
  /**
   * KAFKA-13412 (2.3 to 3.1.0): an initTransactions retried after a TimeoutException, once the
   * InitProducerId came back in the background, throws (init_transactions_call.ts). @default false
   */
  readonly initRetryAfterAnswerThrows?: boolean;
  /**
   * KAFKA-16386 on (3.7.0): the Java TxnOffsetCommitHandler before apache/kafka#15266 (3.8.0)
   * retries only the errors it lists and fails fatally on any other, NETWORK_EXCEPTION included
   * (txn_offsets.ts). @default false
   */
  readonly txnOffsetCommitRetriesListedOnly?: boolean;
}

/** `max.block.ms`'s default (ProducerConfig). */
export const MAX_BLOCK_MS_DEFAULT = 60_000;

/**
 * `batch.size`, Kafka's default: a batch takes records while its v2 size stays within it
 * (MemoryRecordsBuilder.hasRoomFor; the first record always fits).
 */
export const BATCH_SIZE_BYTES = 16_384;

/**
 * `max.request.size`, Kafka's default. The model sends one batch per Produce request, so this
 * bound is reached only when `batch.size` is larger (RecordAccumulator.drainBatchesForOneNode
 * stops adding batches to a request at it).
 */
export const MAX_REQUEST_SIZE_BYTES = 1_048_576;

/** The model's record: an 8-byte value (LongSerializer), a null key in the log, no headers. */
const RECORD_VALUE_BYTES = 8;

/**
 * How many of the model's records one batch holds: records are appended while the batch's
 * estimated size (the 61-byte header plus each record's DefaultRecord.sizeInBytes at its offset
 * delta) stays within `min(batch.size, max.request.size)` (MemoryRecordsBuilder.hasRoomFor,
 * uncompressed). 1,024 at Kafka's defaults.
 */
export function recordsPerBatch(
  batchSizeBytes = BATCH_SIZE_BYTES,
  maxRequestSizeBytes = MAX_REQUEST_SIZE_BYTES,
): number {
  const limit = Math.min(batchSizeBytes, maxRequestSizeBytes);
  let bytes = RECORD_BATCH_OVERHEAD + recordSizeInBytes(0, -1, RECORD_VALUE_BYTES);
  let records = 1;
  while (bytes + recordSizeInBytes(records, -1, RECORD_VALUE_BYTES) <= limit) {
    bytes += recordSizeInBytes(records, -1, RECORD_VALUE_BYTES);
    records += 1;
  }
  return records;
}

/** Records drained into one batch at most, at Kafka's `batch.size` and `max.request.size`. */
export const BATCH_RECORDS_MAX = recordsPerBatch();

/**
 * Keyless records the sticky partitioner sends to one partition before it draws another. Kafka
 * switches after `batch.size` bytes (BuiltInPartitioner.updatePartitionInfo, KIP-794), which for
 * the model's records would be 1,024; the model switches after 16, so that the short workloads
 * of its scenarios still spread keyless records over every partition.
 */
export const STICKY_PARTITION_RECORDS = 16;

/**
 * Backoff after CONCURRENT_TRANSACTIONS on a transaction's first AddPartitionsToTxn
 * (TransactionManager's response handlers).
 */
export const ADD_PARTITIONS_RETRY_BACKOFF_US = 20_000;

/** Kafka's client TransactionManager states. */
export type ClientTransactionState =
  | 'UNINITIALIZED'
  | 'INITIALIZING'
  | 'READY'
  | 'IN_TRANSACTION'
  | 'COMMITTING_TRANSACTION'
  | 'ABORTING_TRANSACTION'
  | 'ABORTABLE_ERROR'
  | 'FATAL_ERROR';

/**
 * Legal previous states of each target (TransactionManager.State.isTransitionValid)
 * (TransactionManager.State.isTransitionValid).
 */
const VALID_PREVIOUS = new Map<ClientTransactionState, readonly ClientTransactionState[]>([
  ['UNINITIALIZED', ['READY', 'ABORTABLE_ERROR']],
  ['INITIALIZING', ['UNINITIALIZED', 'ABORTING_TRANSACTION']],
  ['READY', ['INITIALIZING', 'COMMITTING_TRANSACTION', 'ABORTING_TRANSACTION']],
  ['IN_TRANSACTION', ['READY']],
  ['COMMITTING_TRANSACTION', ['IN_TRANSACTION']],
  ['ABORTING_TRANSACTION', ['IN_TRANSACTION', 'ABORTABLE_ERROR']],
  [
    'ABORTABLE_ERROR',
    ['IN_TRANSACTION', 'COMMITTING_TRANSACTION', 'ABORTABLE_ERROR', 'INITIALIZING'],
  ],
]);

/** Asserts a client transition is legal; FATAL_ERROR may follow any state. */
export function assertClientTransition(
  from: ClientTransactionState,
  to: ClientTransactionState,
): void {
  if (to === 'FATAL_ERROR') return;
  const previous = VALID_PREVIOUS.get(to) ?? [];
  assert(previous.includes(from), `illegal producer transaction transition ${from} -> ${to}`);
}
