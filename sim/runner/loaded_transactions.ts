/**
 * Which `__transaction_state` records a truncation took from under a coordinator that had
 * loaded them. Kafka's coordinator loads its partition of the transaction log to the log end
 * (TransactionStateManager.loadTransactionMetadata, FetchIsolation.LOG_END; the review of
 * apache/kafka#2849 chose the log end over the high watermark), so it can hold, and answer
 * from, a record no follower has yet. A clean election of a replica without that record then
 * truncates it: the next coordinator never knew the transaction as the first one answered it.
 */
import type { LogBatch, TransactionView } from '../actors';
import { TRANSACTION_STATE_TOPIC } from '../actors';
import type { OracleLoadedTransaction } from '../history';
import type { ObservedCluster, ObservedTruncation } from './observed_cluster';

type Partitions = TransactionView['partitions'];

function samePartitions(a: Partitions, b: Partitions): boolean {
  const names = (list: Partitions): string =>
    list
      .map(({ topic, partition }) => `${topic}-${partition}`)
      .sort()
      .join(',');
  return a.length === b.length && names(a) === names(b);
}

/** The load of `record` (a removed batch's record) between its append and the truncation. */
function loadOf(
  cluster: ObservedCluster,
  truncation: ObservedTruncation,
  batch: LogBatch,
): OracleLoadedTransaction | null {
  const record = batch.transactionLog;
  const value = record?.value;
  if (record === undefined || value === null || value === undefined) return null;
  if (value.topicPartitions.length === 0) return null;
  const appendedUs = cluster.appendUs.get(batch) ?? batch.appendUs;
  for (const load of cluster.transactionLogLoads) {
    if (load.stateLogPartition !== truncation.partition) continue;
    if (load.timeUs < appendedUs || load.timeUs > truncation.timeUs) continue;
    const held = load.open.find(
      (view) =>
        view.transactionalId === record.transactionalId &&
        view.producerId === value.producerId &&
        view.producerEpoch === value.producerEpoch &&
        view.state === value.state &&
        samePartitions(view.partitions, value.topicPartitions),
    );
    if (held === undefined) continue;
    return {
      transactionalId: record.transactionalId,
      producerId: value.producerId,
      producerEpoch: value.producerEpoch,
      state: value.state,
      partitions: value.topicPartitions.map(({ topic, partition }) => ({ topic, partition })),
      loadedBy: load.coordinator,
      loadedUs: load.timeUs,
    };
  }
  return null;
}

/**
 * The open transactions `truncation` removed from `__transaction_state` after a coordinator had
 * loaded them; empty for any other topic.
 * @example loadedTransactionsOf(cluster, truncation)[0]?.loadedBy // 'b2'
 */
export function loadedTransactionsOf(
  cluster: ObservedCluster,
  truncation: ObservedTruncation,
): OracleLoadedTransaction[] {
  if (truncation.topic !== TRANSACTION_STATE_TOPIC) return [];
  return truncation.removed
    .map((batch) => loadOf(cluster, truncation, batch))
    .filter((loaded) => loaded !== null);
}
