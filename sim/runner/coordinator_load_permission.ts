/**
 * A hanging transaction Kafka's own coordinator makes: it answers from a `__transaction_state`
 * record it loaded above the high watermark, and a clean election then truncates that record.
 * Part of the guarantee model (kafka_guarantee.ts), granted only where the oracle saw it happen.
 *
 * Kafka's coordinator loads its transaction log partition to the log end
 * (TransactionStateManager.loadTransactionMetadata, FetchIsolation.LOG_END), and answers an
 * AddPartitionsToTxn, or a partition leader's KIP-890 verification, for partitions already in
 * the cached Ongoing transaction with NONE and no write
 * (TransactionCoordinator.handleAddPartitionsToTransaction). A batch is then appended on such a
 * partition. If a replica without the record is elected (it was in the ISR: the record was never
 * committed), the record is truncated, the next coordinator ends the transaction without that
 * partition, and the batch holds the partition's last stable offset for good: read_committed
 * consumers stall, and the records after it are held back.
 */
import type { OracleLoadedTransaction, OracleTruncation } from '../history';
import type { Permission } from './kafka_guarantee';
import type { ReplicationFacts } from './fault_scope';
import { UNPLACED_KINDS, partitionNames, uniquePartitions } from './fault_scope';

/** `tx-random's Ongoing record [events-1, events-2], loaded by b2 at 22.44 s, …`. */
function describe(loaded: OracleLoadedTransaction, truncation: OracleTruncation): string {
  const at = (us: number): string => `${us / 1e6} s`;
  return (
    `${loaded.transactionalId}'s ${loaded.state} record [${partitionNames(loaded.partitions)}] ` +
    `in ${truncation.topic}-${truncation.partition}, loaded by coordinator ${loaded.loadedBy} ` +
    `at ${at(loaded.loadedUs)}, truncated on ${truncation.broker} at ${at(truncation.timeUs)} ` +
    `(${truncation.reason})`
  );
}

/**
 * The permission, or null when no truncation removed a record a coordinator had loaded. Scoped
 * to the partitions those records listed.
 * @example coordinatorLoadPermission(facts)?.id // 'coordinator-loaded-uncommitted'
 */
export function coordinatorLoadPermission(
  replication: ReplicationFacts | undefined,
): Permission | null {
  if (replication === undefined) return null;
  const found = replication.truncations.flatMap((truncation) =>
    (truncation.loadedTransactions ?? []).map((loaded) => ({ loaded, truncation })),
  );
  const [first] = found;
  if (first === undefined) return null;
  const unique = uniquePartitions(found.flatMap(({ loaded }) => loaded.partitions));
  const more = found.length > 1 ? ` (and ${found.length - 1} more)` : '';
  return {
    id: 'coordinator-loaded-uncommitted',
    kinds: ['hanging-transaction', 'lost-write'],
    classifications: { 'lost-write': ['held-back-by-last-stable-offset'] },
    setting: `${describe(first.loaded, first.truncation)}${more}`,
    because:
      'a transaction coordinator loads __transaction_state to the log end, records above the ' +
      'high watermark included, and answers for partitions already in the loaded transaction ' +
      'without a write; when a clean election truncates that record, the next coordinator ends ' +
      'the transaction without those partitions, so a batch appended there opens a transaction ' +
      'no coordinator will finish, the last stable offset stays below it and read_committed ' +
      'consumers stall, holding back the records after it',
    source:
      'TransactionStateManager.loadTransactionMetadata (FetchIsolation.LOG_END; review of ' +
      'apache/kafka#2849); TransactionCoordinator.handleAddPartitionsToTransaction; KIP-890',
    scope: { partitions: unique, everywhere: UNPLACED_KINDS },
    placedByFault: true,
  };
}
