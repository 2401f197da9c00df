/**
 * The broker side of the KIP-664 Admin APIs (TransactionsCommand): DescribeProducers answered by a
 * partition leader from its producer state, ListTransactions and DescribeTransactions answered by
 * the broker's transaction coordinator for the ids it serves.
 */
import type {
  DescribeProducersRequest,
  DescribeProducersResponse,
  DescribeTransactionsRequest,
  DescribeTransactionsResponse,
  ListTransactionsRequest,
  ListTransactionsResponse,
  ProducerStateView,
} from '../protocol';
import { partitionKey } from '../protocol';
import type { TransactionCoordinator } from '../coordinator/transaction_coordinator';
import type { ReplicaManager } from './replica_manager';
import { lastTimestampOf } from './producer_state';

/** DescribeProducers: NOT_LEADER_OR_FOLLOWER unless this broker leads the partition. */
export function describeProducers(
  request: DescribeProducersRequest,
  replicas: ReplicaManager,
): DescribeProducersResponse {
  const partitions = request.partitions.map((tp) => {
    const replica = replicas.replicas.get(partitionKey(tp));
    if (replica === undefined || replica.role !== 'leader') {
      return { ...tp, error: 'NOT_LEADER_OR_FOLLOWER' as const, producers: [] };
    }
    const producers: ProducerStateView[] = [];
    for (const entry of replica.log.producerEntries()) {
      producers.push({
        producerId: entry.producerId,
        producerEpoch: entry.producerEpoch,
        lastSequence: entry.batchMetadata.at(-1)?.lastSequence ?? -1,
        lastTimestampUs: lastTimestampOf(entry, replica.log.markerTimestampIgnored),
        coordinatorEpoch: entry.coordinatorEpoch,
        currentTxnStartOffset: entry.currentTxnFirstOffset,
      });
    }
    return { ...tp, error: 'NONE' as const, producers };
  });
  return { kind: 'DescribeProducersResponse', correlationId: request.correlationId, partitions };
}

/** ListTransactions: every id this coordinator serves, filtered by producerId. */
export function listTransactions(
  request: ListTransactionsRequest,
  coordinator: TransactionCoordinator,
): ListTransactionsResponse {
  const filter = new Set(request.producerIdFilters);
  const transactions = coordinator
    .transactions()
    .filter((metadata) => filter.size === 0 || filter.has(metadata.producerId))
    .map((metadata) => ({
      transactionalId: metadata.transactionalId,
      producerId: metadata.producerId,
      state: metadata.state,
    }));
  return { kind: 'ListTransactionsResponse', correlationId: request.correlationId, transactions };
}

/** DescribeTransactions: the coordinator's record of each id, or why it has none. */
export function describeTransactions(
  request: DescribeTransactionsRequest,
  coordinator: TransactionCoordinator,
): DescribeTransactionsResponse {
  const transactions = request.transactionalIds.map((transactionalId) => {
    const status = coordinator.state.status(transactionalId);
    const metadata = coordinator.metadataOf(transactionalId);
    const missing = status === 'NONE' ? 'TRANSACTIONAL_ID_NOT_FOUND' : status;
    if (status !== 'NONE' || metadata === undefined) {
      return {
        transactionalId,
        error: missing,
        state: null,
        producerId: -1,
        producerEpoch: -1,
        transactionTimeoutMs: -1,
        transactionStartUs: -1,
        partitions: [],
      };
    }
    return {
      transactionalId,
      error: 'NONE' as const,
      state: metadata.state,
      producerId: metadata.producerId,
      producerEpoch: metadata.producerEpoch,
      transactionTimeoutMs: metadata.txnTimeoutMs,
      transactionStartUs: metadata.txnStartUs,
      partitions: [...metadata.topicPartitions.values()],
    };
  });
  return {
    kind: 'DescribeTransactionsResponse',
    correlationId: request.correlationId,
    transactions,
  };
}

/** The KIP-664 Admin APIs (kafka-transactions.sh), answered by this broker. */
export function answerAdmin(
  request: DescribeProducersRequest | ListTransactionsRequest | DescribeTransactionsRequest,
  replicaManager: ReplicaManager,
  coordinator: TransactionCoordinator,
): DescribeProducersResponse | ListTransactionsResponse | DescribeTransactionsResponse {
  switch (request.kind) {
    case 'DescribeProducers':
      return describeProducers(request, replicaManager);
    case 'ListTransactions':
      return listTransactions(request, coordinator);
    case 'DescribeTransactions':
      return describeTransactions(request, coordinator);
  }
}
