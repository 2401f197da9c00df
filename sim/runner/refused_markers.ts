/**
 * Why a transactional producer can make no progress after its coordinator reloaded an older
 * state: the coordinator that leads the id's `__transaction_state` partition holds it in
 * PrepareCommit/PrepareAbort at a producerEpoch below the one a partition of the transaction
 * already has. The leader refuses that marker with INVALID_PRODUCER_EPOCH
 * (ProducerStateManager's epoch check on WriteTxnMarkers), the coordinator then stops sending it
 * ("producer or coordinator epoch has changed, this txn can now be ignored",
 * TransactionMarkerRequestCompletionHandler) and never writes CompleteCommit/CompleteAbort, and
 * every InitProducerId for the id is answered CONCURRENT_TRANSACTIONS
 * (TransactionCoordinator.handleInitProducerId while a transition is pending). This is Kafka's
 * own behaviour once `__transaction_state` lost the records of the newer epoch; the report names
 * the truncation that lost them when the oracle saw one.
 */
import { TRANSACTION_STATE_TOPIC, partitionKey } from '../actors';
import type { TransactionView } from '../actors';
import type { ObservedCluster } from './observed_cluster';

/**
 * The sentence explaining why `transactionalId` is stuck behind refused markers, or null.
 * @example refusedMarkers(observed, 'pa') // 'coordinator b1 holds pa in PrepareAbort at ...'
 */
export function refusedMarkers(observed: ObservedCluster, transactionalId: string): string | null {
  for (const [coordinator, held] of observed.coordinators) {
    const entry = held.get(transactionalId);
    if (entry === undefined) continue;
    const { view, stateLogPartition } = entry;
    if (view.state !== 'PrepareCommit' && view.state !== 'PrepareAbort') continue;
    const stateLog = partitionKey({ topic: TRANSACTION_STATE_TOPIC, partition: stateLogPartition });
    if (observed.partitions.get(stateLog)?.state?.leader !== coordinator) continue;
    for (const tp of view.partitions) {
      const leader = observed.partitions.get(partitionKey(tp))?.state?.leader;
      if (leader === null || leader === undefined) continue;
      const newer = observed
        .replica(tp.topic, tp.partition, leader)
        .batches.find(
          (batch) =>
            batch.producerId === view.producerId && batch.producerEpoch > view.producerEpoch,
        );
      if (newer === undefined) continue;
      const marker = view.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT';
      return (
        `coordinator ${coordinator} holds ${transactionalId} in ${view.state} at producerId ` +
        `${view.producerId} epoch ${view.producerEpoch}, but ${partitionKey(tp)} (leader ` +
        `${leader}) already has epoch ${newer.producerEpoch}: its ${marker} marker is refused ` +
        'with INVALID_PRODUCER_EPOCH, the coordinator stops sending it ' +
        '(TransactionMarkerRequestCompletionHandler) and answers every InitProducerId with ' +
        `CONCURRENT_TRANSACTIONS${lostState(observed, view, stateLogPartition)}`
      );
    }
  }
  return null;
}

/**
 * The last truncation of the id's state log partition that removed one of its records at a
 * newer epoch than the coordinator holds, as a clause ('' when the oracle saw none).
 */
function lostState(observed: ObservedCluster, view: TransactionView, partition: number): string {
  const truncation = [...observed.truncations].reverse().find(
    (candidate) =>
      candidate.topic === TRANSACTION_STATE_TOPIC &&
      candidate.partition === partition &&
      candidate.removed.some((batch) => {
        const record = batch.transactionLog;
        return (
          record?.transactionalId === view.transactionalId &&
          record.value !== null &&
          record.value.producerEpoch > view.producerEpoch
        );
      }),
  );
  if (truncation === undefined) return '';
  return (
    `; ${TRANSACTION_STATE_TOPIC}-${partition} lost the newer epoch's records on ` +
    `${truncation.broker} at ${truncation.timeUs / 1e6} s (${truncation.reason} truncation to ` +
    `offset ${truncation.toOffset}), so the coordinator loaded the older state`
  );
}
