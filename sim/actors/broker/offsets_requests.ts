/**
 * The broker's part in the transactional offset APIs (Kafka's KafkaApis): AddOffsetsToTxn is
 * answered by this broker's transaction coordinator as an AddPartitionsToTxn of the group's
 * `__consumer_offsets` partition (KafkaApis.handleAddOffsetsToTxnRequest), and a TxnOffsetCommit
 * goes through the KIP-890 verification of that partition before the group coordinator validates
 * and appends it (GroupCoordinator.validateOffsetCommit), exactly as a transactional Produce does
 * (ReplicaManager.maybeStartTransactionVerificationForPartitions, postVerificationCallback;
 * TransactionCoordinator.endTransaction).
 */
import type { ActorContext, NodeId } from '../../kernel';
import type {
  AddOffsetsToTxnRequest,
  KafkaErrorCode,
  KafkaMessage,
  TxnOffsetCommitRequest,
} from '../protocol';
import { CONSUMER_OFFSETS_TOPIC, NO_SEQUENCE, partitionKey } from '../protocol';
import type { TransactionCoordinator } from '../coordinator/transaction_coordinator';
import type { ClusterMetadata } from './cluster_metadata';
import type { ReplicaManager } from './replica_manager';
import type { TransactionVerifier, VerificationRequest } from './transaction_verifier';

type Ctx = ActorContext<KafkaMessage>;

/** What these handlers use of their broker. */
export interface OffsetsBroker {
  readonly metadata: ClusterMetadata;
  readonly coordinator: TransactionCoordinator;
  readonly replicaManager: ReplicaManager;
  readonly verifier: TransactionVerifier;
  /** `transaction.partition.verification.enable`. */
  readonly verificationEnable: boolean;
  /** The pre-KAFKA-19690 order (bug switch): the guard is checked before a stale epoch. */
  /** KAFKA-19690's switch, asked only for a stale epoch. */
  readonly verificationGuardBeforeEpochCheck: () => boolean;
  /** The leader of a transactional.id's `__transaction_state` partition, or null. */
  transactionCoordinatorOf(transactionalId: string): NodeId | null;
}

/**
 * AddOffsetsToTxn (KafkaApis.handleAddOffsetsToTxnRequest, Kafka's
 * KafkaApis.handleAddOffsetsToTxnRequest): the same state checks, fencing errors and
 * `__transaction_state` write as AddPartitionsToTxn for the partition
 * `__consumer_offsets-<partitionFor(groupId)>`; COORDINATOR_NOT_AVAILABLE without the topic.
 */
export function addOffsetsToTxn(
  request: AddOffsetsToTxnRequest,
  client: NodeId,
  ctx: Ctx,
  broker: OffsetsBroker,
): void {
  const { correlationId } = request;
  const tp = broker.metadata.consumerOffsetsPartition(request.groupId);
  if (tp === null) {
    const error = 'COORDINATOR_NOT_AVAILABLE';
    return ctx.send(client, { kind: 'AddOffsetsToTxnResponse', correlationId, error });
  }
  const add = {
    kind: 'AddPartitionsToTxn' as const,
    correlationId,
    transactionalId: request.transactionalId,
    producerId: request.producerId,
    producerEpoch: request.producerEpoch,
    partitions: [tp],
    verifyOnly: false,
  };
  broker.coordinator.handleAddPartitionsToTxn(add, ctx, (results) => {
    const error = results[0]?.error ?? 'UNKNOWN_SERVER_ERROR';
    ctx.send(client, { kind: 'AddOffsetsToTxnResponse', correlationId, error });
  });
}

/**
 * KIP-890 for a TxnOffsetCommit (GroupCoordinator.validateOffsetCommit): a producer without an open
 * transaction at its epoch on the `__consumer_offsets` partition is verified with (TV < 2) or added
 * by (TV2, which sends no AddOffsetsToTxn) its transaction coordinator first. `done` gets the guard
 * to append with: 0 when the producer already has a transaction open there, null when verification
 * is off.
 */
export function verifyOffsetsTransaction(
  target: { partition: number; request: TxnOffsetCommitRequest; broker: OffsetsBroker },
  ctx: Ctx,
  done: (error: KafkaErrorCode, guard: number | null) => void,
): void {
  const { partition, request, broker } = target;
  const tp = { topic: CONSUMER_OFFSETS_TOPIC, partition };
  const replica = broker.replicaManager.replicas.get(partitionKey(tp));
  const log = replica?.role === 'leader' ? replica.log : undefined;
  const { producerId, producerEpoch } = request;
  if (!broker.verificationEnable) return done('NONE', null);
  if (log === undefined || log.hasOngoingTransaction(producerId, producerEpoch)) {
    return done('NONE', 0);
  }
  // Since KAFKA-19690 a stale epoch is refused before a verification starts.
  if (log.isStaleEpoch(producerId, producerEpoch) && !broker.verificationGuardBeforeEpochCheck()) {
    return done('INVALID_PRODUCER_EPOCH', null);
  }
  const guard = log.startVerification(
    producerId,
    producerEpoch,
    NO_SEQUENCE,
    request.transactionVersion >= 2,
  );
  const verification: VerificationRequest = {
    ...tp,
    transactionalId: request.transactionalId,
    transactionVersion: request.transactionVersion,
    batch: { producerId, producerEpoch },
  };
  const coordinator = broker.transactionCoordinatorOf(request.transactionalId);
  broker.verifier.verify(
    verification,
    coordinator,
    ctx,
    (error) => (error === 'NONE' ? done('NONE', guard) : done(error, null)),
    'offsets',
  );
}
