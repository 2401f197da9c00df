/**
 * The producer's configuration, Kafka's producer config keys in camelCase with the unit last
 * (`request.timeout.ms` → `requestTimeoutMs`), and the client-side transaction states
 * (TransactionManager.State.isTransitionValid).
 */
import { assert } from '../../kernel';

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
  /** `metadata.max.age.ms`: a refresh at the latest this long after the last. @default 300000 */
  readonly metadataMaxAgeMs?: number;
}

/** `max.block.ms`'s default (ProducerConfig). */
export const MAX_BLOCK_MS_DEFAULT = 60_000;

/** Records drained into one batch at most (stands in for `batch.size`). */
export const BATCH_RECORDS_MAX = 16;

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
