/**
 * KIP-890 at a partition leader (Kafka's AddPartitionsToTxnManager and the verification path of
 * ReplicaManager, ReplicaManager.maybeStartTransactionVerificationForPartitions,
 * postVerificationCallback; TransactionCoordinator.endTransaction). Before the first transactional
 * write of a producer that has no open transaction on the partition, the leader asks the
 * coordinator of the transactional.id: with part 1 (`transaction.partition.verification.enable`)
 * whether the partition is in the transaction (`verifyOnly`), and for a transaction version 2
 * client it adds the partition on the client's behalf. The coordinator's answer is translated to a
 * produce error (ReplicaManager.postVerificationCallback); a TxnOffsetCommit gets it as
 * AddPartitionsToTxnManager hands it over (GroupCoordinator.handleTxnCommitOffsets'
 * postVerificationCallback converts it with maybeConvertOffsetCommitError, group_offsets.ts).
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS, VERIFICATION_CONNECTION } from '../protocol';
import type {
  AddPartitionsToTxnResponse,
  KafkaErrorCode,
  KafkaMessage,
  ProduceRequest,
  ProducedBatch,
} from '../protocol';

type Ctx = ActorContext<KafkaMessage>;

/** Inter-broker `request.timeout.ms` for the verification request. */
const VERIFICATION_TIMEOUT_US = 30_000_000;

/**
 * What a verification needs from the write it guards: a Produce, or a TxnOffsetCommit on its
 * `__consumer_offsets` partition.
 */
export type VerificationRequest = Pick<
  ProduceRequest,
  'transactionalId' | 'transactionVersion' | 'topic' | 'partition'
> & { readonly batch: Pick<ProducedBatch, 'producerId' | 'producerEpoch'> };

/** The verifier's timer. */
export interface VerifierTimer {
  readonly owner: 'verifier';
  readonly correlationId: number;
}

/**
 * The produce error for a coordinator answer (clients of produce v11+)
 * (ReplicaManager.postVerificationCallback).
 */
function produceErrorForVerification(error: KafkaErrorCode): KafkaErrorCode {
  switch (error) {
    case 'NONE':
    case 'TRANSACTION_ABORTABLE':
    case 'INVALID_PRODUCER_ID_MAPPING':
      return error;
    case 'PRODUCER_FENCED':
    case 'INVALID_PRODUCER_EPOCH':
      return 'INVALID_PRODUCER_EPOCH';
    case 'CONCURRENT_TRANSACTIONS':
    case 'NETWORK_EXCEPTION':
    case 'COORDINATOR_LOAD_IN_PROGRESS':
    case 'COORDINATOR_NOT_AVAILABLE':
    case 'NOT_COORDINATOR':
    case 'REQUEST_TIMED_OUT':
      // Retriable for every client, without a metadata refresh.
      return 'NOT_ENOUGH_REPLICAS';
    default:
      return 'INVALID_TXN_STATE';
  }
}

/**
 * The error AddPartitionsToTxnManager hands to the verification's callback: the coordinator's
 * answer with PRODUCER_FENCED as INVALID_PRODUCER_EPOCH (AddPartitionsToTxnManager.onComplete),
 * NETWORK_EXCEPTION for a request that died in transport.
 */
function managerErrorFor(error: KafkaErrorCode): KafkaErrorCode {
  return error === 'PRODUCER_FENCED' ? 'INVALID_PRODUCER_EPOCH' : error;
}

/** Who waits for a verification: a Produce, or a TxnOffsetCommit (its raw error). */
export type VerificationCaller = 'produce' | 'offsets';

/** The verification requests of one broker. */
export class TransactionVerifier {
  private pending = new BoundedMap<
    number,
    { coordinator: NodeId; timerId: number; done: (error: KafkaErrorCode) => void }
  >(COLLECTION_BOUNDS.pendingVerifications);
  private correlationIds = 1;

  /** Forgets every request (crash): their produce requests are never answered. */
  onCrash(): void {
    this.pending = new BoundedMap(COLLECTION_BOUNDS.pendingVerifications);
  }

  /**
   * Sends AddPartitionsToTxn for the partition of `request` to `coordinator` (null: none known,
   * answered COORDINATOR_NOT_AVAILABLE); `done` gets the produce-level error, or for `offsets`
   * the error as AddPartitionsToTxnManager passes it on.
   */
  verify(
    request: VerificationRequest,
    coordinator: NodeId | null,
    ctx: Ctx,
    answer: (error: KafkaErrorCode) => void,
    caller: VerificationCaller = 'produce',
  ): void {
    const done = (error: KafkaErrorCode): void =>
      answer(caller === 'produce' ? produceErrorForVerification(error) : managerErrorFor(error));
    if (coordinator === null || request.transactionalId === null) {
      return done('COORDINATOR_NOT_AVAILABLE');
    }
    const correlationId = this.correlationIds++;
    const timerId = ctx.setTimer(VERIFICATION_TIMEOUT_US, {
      owner: 'verifier',
      correlationId,
    } satisfies VerifierTimer);
    this.pending.set(correlationId, { coordinator, timerId, done });
    ctx.send(coordinator, {
      kind: 'AddPartitionsToTxn',
      correlationId,
      transactionalId: request.transactionalId,
      producerId: request.batch.producerId,
      producerEpoch: request.batch.producerEpoch,
      partitions: [{ topic: request.topic, partition: request.partition }],
      verifyOnly: request.transactionVersion < 2,
    });
  }

  /** Whether a response is the answer to one of this verifier's requests. */
  owns(response: AddPartitionsToTxnResponse): boolean {
    return this.pending.has(response.correlationId);
  }

  onResponse(response: AddPartitionsToTxnResponse, ctx: Ctx): void {
    const request = this.pending.get(response.correlationId);
    if (request === undefined) return;
    this.pending.delete(response.correlationId);
    ctx.cancelTimer(request.timerId);
    request.done(response.results[0]?.error ?? 'UNKNOWN_SERVER_ERROR');
  }

  /**
   * The inter-broker `request.timeout.ms` ran out: NetworkClient disconnects the coordinator, so
   * every verification on the connection fails and what a partition holds of it is lost.
   */
  onTimer(timer: VerifierTimer, ctx: Ctx): void {
    const coordinator = this.pending.get(timer.correlationId)?.coordinator;
    if (coordinator === undefined) return;
    ctx.closeConnection(coordinator, VERIFICATION_CONNECTION);
    this.onConnectionReset(coordinator, ctx);
  }

  /** The connection to `peer` was reset: its requests fail as NETWORK_EXCEPTION. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    for (const [correlationId, request] of [...this.pending]) {
      if (request.coordinator !== peer) continue;
      ctx.cancelTimer(request.timerId);
      this.fail(correlationId);
    }
  }

  private fail(correlationId: number): void {
    const request = this.pending.get(correlationId);
    if (request === undefined) return;
    this.pending.delete(correlationId);
    request.done('NETWORK_EXCEPTION');
  }
}
