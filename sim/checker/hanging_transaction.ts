/**
 * `hanging-transaction` (KIP-890 motivation, KIP-664): a partition's leader holds
 * an open transaction (an entry of `ongoing`, ProducerStateManager.ongoingTxns) that no coordinator
 * will ever close, so its last stable offset stays pinned at the transaction's first offset and
 * read_committed consumers stall there (UnifiedLog.lastStableOffset).
 *
 * Oracle facts it relies on, all taken at the end of the run:
 * - `partitions[].openTransactions`: the current leader's open transactions, each with its
 *   producerId, the producerEpoch of the leader's producer state, and its first offset;
 * - `partitions[].lastStableOffsetChanges`: the partition's last stable offset over time;
 * - `coordinatorTransactions`: each transactional.id at the coordinator that owns it (producerId,
 *   producerEpoch, state, partition set, txnStartTimestamp, txnTimeoutMs, since when it holds
 *   it); without it the checker reports nothing;
 * - `transactionMaxTimeoutMs` (default 900000), `transactionAbortCleanupIntervalMs` (default
 *   10000) and `endUs` (default: the latest time in the history or the LSO changes).
 *
 * An open transaction is hanging when (1) no coordinator entry holds it: state `Ongoing` with the
 * same producerId and producerEpoch and the partition in its partition set (a coordinator in
 * `Empty`, `Complete*` or `Prepare*`, with another epoch or without the partition will never write
 * its marker, or has already written it elsewhere); and (2) the last stable offset has stayed
 * pinned at the first offset for longer than `transaction.max.timeout.ms`: it ends the run there,
 * and the pin is measured from the first time it reached that offset after it was last above it to
 * the end of the run. A transaction the coordinator knows as Ongoing is left to its timeout
 * (TransactionCoordinator.abortTimedOutTransactions) unless it is still Ongoing long after that
 * timeout and the coordinator's load (`timeout-never-aborts`, {@link isOverdue}); a pin shorter
 * than the maximum timeout may still be resolved; neither is reported. An open transaction
 * behind an older one does not pin the LSO itself and is reported once the older one is gone.
 * The catalogue's other `hanging` case, a coordinator stuck in `Prepare*`, shows here as
 * `coordinator-not-ongoing` with that state.
 * Cost: O(open transactions × LSO changes of their partition).
 */
import type { OracleCoordinatorTransaction, OffsetChange, OraclePartition } from '../history';
import { oracleBatchesOf, oracleRecordAt } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionName } from './topic_partition';

/** Kafka's default `transaction.max.timeout.ms` (15 minutes). */
export const TRANSACTION_MAX_TIMEOUT_MS_DEFAULT = 900_000;

/** Kafka's default `transaction.abort.timed.out.transaction.cleanup.interval.ms` (10 s). */
export const TRANSACTION_ABORT_CLEANUP_INTERVAL_MS_DEFAULT = 10_000;

/** One open transaction at the end of the run. */
interface OpenTransaction {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly firstOffset: number;
}

/**
 * Reports every open transaction unknown to its coordinator whose partition's last stable offset
 * stayed pinned past `transaction.max.timeout.ms`, one anomaly per (partition, producerId).
 * @example checkHangingTransaction(new CheckContext(history, oracle))[0]?.durationUs
 */
export function checkHangingTransaction(context: CheckContext): Anomaly[] {
  const { oracle } = context;
  if (oracle.coordinatorTransactions === undefined) return [];
  const byProducer = new Map<number, OracleCoordinatorTransaction[]>();
  for (const entry of oracle.coordinatorTransactions) {
    const known = byProducer.get(entry.producerId);
    if (known === undefined) byProducer.set(entry.producerId, [entry]);
    else known.push(entry);
  }
  const maxTimeoutUs =
    (oracle.transactionMaxTimeoutMs ?? TRANSACTION_MAX_TIMEOUT_MS_DEFAULT) * 1000;
  const endUs = oracle.endUs ?? latestTimeUs(context);
  const cleanupIntervalMs =
    oracle.transactionAbortCleanupIntervalMs ?? TRANSACTION_ABORT_CLEANUP_INTERVAL_MS_DEFAULT;
  const overdue = { endUs, graceUs: maxTimeoutUs + 2 * cleanupIntervalMs * 1000 };
  const anomalies: Anomaly[] = [];
  for (const partition of oracle.partitions) {
    for (const open of partition.openTransactions) {
      const entries = byProducer.get(open.producerId) ?? [];
      const willEnd = (entry: OracleCoordinatorTransaction): boolean =>
        holdsOngoing(entry, partition, open) && !isOverdue(entry, overdue);
      if (entries.some(willEnd)) continue;
      const pinnedUs = pinnedSinceUs(partition.lastStableOffsetChanges, open.firstOffset);
      // The pin counts from when the transaction opened: the LSO may have sat at that offset
      // (then the log end) before its first record arrived.
      const openedUs = oracleRecordAt(oracleBatchesOf(partition), open.firstOffset);
      const sinceUs = pinnedUs === null ? null : Math.max(pinnedUs, openedUs?.appendUs ?? pinnedUs);
      if (sinceUs === null || endUs - sinceUs <= maxTimeoutUs) continue;
      const found = { partition, open, entries, sinceUs, durationUs: endUs - sinceUs, overdue };
      anomalies.push(hangingAnomaly(context, { ...found, maxTimeoutUs }));
    }
  }
  return anomalies;
}

/** The coordinator has the transaction in `Ongoing` with this partition: it will end it. */
function holdsOngoing(
  entry: OracleCoordinatorTransaction,
  partition: OraclePartition,
  open: OpenTransaction,
): boolean {
  if (entry.state !== 'Ongoing' || entry.producerEpoch !== open.producerEpoch) return false;
  return entry.partitions.some(
    (held) => held.topic === partition.topic && held.partition === partition.partition,
  );
}

/**
 * The coordinator holds the transaction Ongoing long past its deadline: its timeout scan runs
 * every cleanup interval and fences and aborts an Ongoing transaction older than its
 * `txnTimeoutMs` (TransactionCoordinator.abortTimedOutTransactions), so one still Ongoing more
 * than `graceUs` (transaction.max.timeout.ms plus two cleanup intervals) after both its deadline
 * and the coordinator's load is one it cannot abort (an epoch fence past Short.MAX_VALUE,
 * KAFKA-20090). The generous grace absorbs the coordinator's clock skew and a scan whose fence
 * write failed and is tried again. An entry without the times (an older history file) is
 * trusted to time out.
 */
function isOverdue(
  entry: OracleCoordinatorTransaction,
  overdue: { readonly endUs: number; readonly graceUs: number },
): boolean {
  const { txnStartUs, txnTimeoutMs, heldSinceUs } = entry;
  if (txnStartUs === undefined || txnTimeoutMs === undefined || txnStartUs < 0) return false;
  const deadlineUs = Math.max(txnStartUs + txnTimeoutMs * 1000, heldSinceUs ?? 0);
  return overdue.endUs - deadlineUs > overdue.graceUs;
}

/**
 * Since when the last stable offset has stayed at `firstOffset`: null unless it ends there;
 * else the first change to exactly `firstOffset` after the last change above it (a dip below it,
 * as when a new leader starts with a lagging high watermark, does not release the pin).
 * @example pinnedSinceUs([{ timeUs: 0, offset: 0 }, { timeUs: 5, offset: 3 }], 3) // 5
 */
export function pinnedSinceUs(
  changes: readonly OffsetChange[],
  firstOffset: number,
): number | null {
  if (changes[changes.length - 1]?.offset !== firstOffset) return null;
  let since: number | null = null;
  for (const change of changes) {
    if (change.offset > firstOffset) since = null;
    else if (change.offset === firstOffset && since === null) since = change.timeUs;
  }
  return since;
}

/** The latest time the history or the LSO changes mention: the end when the oracle has none. */
function latestTimeUs(context: CheckContext): number {
  let latest = context.history[context.history.length - 1]?.timeUs ?? 0;
  for (const partition of context.oracle.partitions) {
    const last = partition.lastStableOffsetChanges[partition.lastStableOffsetChanges.length - 1];
    if (last !== undefined) latest = Math.max(latest, last.timeUs);
  }
  return latest;
}

/** A hanging transaction and what the checker measured about it. */
interface HangingTransaction {
  readonly partition: OraclePartition;
  readonly open: OpenTransaction;
  readonly entries: readonly OracleCoordinatorTransaction[];
  readonly sinceUs: number;
  readonly durationUs: number;
  readonly maxTimeoutUs: number;
  readonly overdue: { readonly endUs: number; readonly graceUs: number };
}

/** Why the coordinator will not end it: KIP-890's cases. */
function classificationOf(found: HangingTransaction): string {
  const { entries, open, partition } = found;
  if (entries.length === 0) return 'unknown-producer-id';
  const holding = entries.filter((entry) => holdsOngoing(entry, partition, open));
  if (holding.some((entry) => isOverdue(entry, found.overdue))) return 'timeout-never-aborts';
  const ongoing = entries.filter((entry) => entry.state === 'Ongoing');
  if (ongoing.length === 0) return 'coordinator-not-ongoing';
  if (!ongoing.some((entry) => entry.producerEpoch === open.producerEpoch)) {
    return 'producer-epoch-mismatch';
  }
  return 'partition-not-in-transaction';
}

function hangingAnomaly(context: CheckContext, found: HangingTransaction): Anomaly {
  const { partition, open, entries, sinceUs, durationUs, maxTimeoutUs } = found;
  const name = topicPartitionName(partition.topic, partition.partition);
  const entry = entries[0];
  const held = (entry?.partitions ?? []).map((tp) => topicPartitionName(tp.topic, tp.partition));
  const coordinator =
    entry === undefined
      ? 'no coordinator knows the producerId'
      : `coordinator ${entry.coordinator} holds transactional.id ${entry.transactionalId} in ` +
        `${entry.state} with producerEpoch ${entry.producerEpoch} and partitions ` +
        `[${held.join(', ')}]`;
  const classification = classificationOf(found);
  const message =
    `Producer ${open.producerId} epoch ${open.producerEpoch} holds an open transaction at ` +
    `${name} from offset ${open.firstOffset}; the last stable offset has stayed pinned there ` +
    `since ${sinceUs}us, for ${durationUs}us (transaction.max.timeout.ms is ` +
    `${maxTimeoutUs / 1000}ms), and ${coordinator}: ${classification}`;
  return {
    kind: 'hanging-transaction',
    message,
    topic: partition.topic,
    partition: partition.partition,
    offset: open.firstOffset,
    producerId: open.producerId,
    producerEpoch: open.producerEpoch,
    ...(entry === undefined ? {} : { transactionalId: entry.transactionalId }),
    timeUs: sinceUs,
    durationUs,
    coordinatorState: entry?.state ?? 'none',
    classification,
    activeFaults: context.activeFaultsAt(sinceUs),
  };
}
