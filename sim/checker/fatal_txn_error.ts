/**
 * `fatal-txn-error`: a transactional producer that follows Kafka's client rules was told
 * INVALID_TXN_STATE, the fatal "not part of an ongoing transaction" error, ended a transaction
 * on a transport error it should have retried (NETWORK_EXCEPTION), or, alone on its
 * transactional.id, INVALID_PRODUCER_ID_MAPPING. Kafka promises such a
 * client only fencing (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH), abortable and retriable errors:
 * a producer whose transaction timed out during a pause must get the abortable
 * INVALID_PRODUCER_EPOCH (KAFKA-19690, case BUG-16), and a coordinator must never be driven into
 * a state the client's EndTxn does not expect (a stale EndTxn, BUG-03). The error kills the
 * application instead of letting it abort and carry on: a liveness bug, not lost data, so the
 * checker reads the history (the op's `error`) and, to tell why, the oracle's expirations and
 * epoch grants. A producer alone on its id fenced by its own InitProducerId while its
 * transaction was open counts too (`isSelfFence`), and so does one fenced after its own epoch
 * bump by no one else (`isFencedAfterOwnBump`).
 */
import type { Anomaly } from './anomaly_types';
import type { EpochGrant, TransactionalIdExpiration } from '../history';
import type { CheckContext } from './check_context';
import { checkFatalIdempotentError } from './fatal_idempotent_error';

/** The fatal error a well-behaved client never gets. */
const UNEXPECTED_FATAL_ERROR = 'INVALID_TXN_STATE';

/**
 * Fatal too, and never due to a producer alone on its transactional.id: the coordinator does not
 * know the producerId it handed out (a producerId rotation it forgot, KAFKA-20310) or refuses a
 * retry of a rotation it made (endTransaction's retryOnOverflow). Another instance of the id
 * may rotate it legitimately, so ops after another process's init of the id are not counted;
 * nor are ops after the coordinator expired the producerId's transactional.id
 * (`transactional.id.expiration.ms`, TransactionStateManager.removeExpiredTransactionalIds): it
 * then rightly knows the id no more, and the Java client takes the error as abortable
 * (TransactionManager.abortableErrorIfPossible, KIP-360) and re-initialises.
 */
const UNKNOWN_IDENTITY_ERROR = 'INVALID_PRODUCER_ID_MAPPING';

/**
 * A transport error, NetworkException, which Kafka's clients retry (it is a RetriableException):
 * a transaction that ends with it was ended by a client rule that did not retry what the broker
 * answered, the Java TxnOffsetCommitHandler before apache/kafka#15266 meeting a TxnOffsetCommit
 * answered NETWORK_EXCEPTION by a 3.7.0 broker (KAFKA-16386). Counted for `txn` operations only.
 */
const TRANSPORT_ERROR = 'NETWORK_EXCEPTION';

/**
 * Fenced, and by its own open transaction: the epoch that fenced the producer was granted by an
 * InitProducerId that found the transaction Ongoing (`handleInitProducerId` fences and aborts it,
 * `prepareFenceProducerEpoch`, and the client's retry is then PRODUCER_FENCED), while no other
 * instance had called initTransactions on the id. Kafka's Java client never sends InitProducerId
 * with a transaction open: it bumps after the abort (TransactionManager, KIP-360). A librdkafka
 * producer before 1.8.2 did (confluentinc/librdkafka#3575), and so fenced itself.
 */
const FENCED_ERROR = 'PRODUCER_FENCED';

/**
 * Whether a truncation of `__transaction_state` (a truncation naming transactional.ids) removed a
 * record of `op`'s transactional.id before `op` ended: its coordinator then loads a log without
 * that record (TransactionStateManager.loadTransactionsForTxnTopicPartition), and may not know the
 * producerId it handed out.
 */
function logLostRecordOf(
  context: CheckContext,
  op: { timeUs: number; value: { transactionalId: string } },
): boolean {
  return (context.oracle.truncations ?? []).some(
    (truncation) =>
      truncation.timeUs <= op.timeUs &&
      (truncation.transactionalIds ?? []).includes(op.value.transactionalId),
  );
}

/** transactionalId → when another process than `process` first invoked an init of it. */
function sharedSince(context: CheckContext): Map<string, Map<string, number>> {
  const firstInit = new Map<string, Map<string, number>>();
  for (const op of context.history) {
    if (op.f !== 'init' || op.type !== 'invoke') continue;
    const byProcess = firstInit.get(op.value.transactionalId) ?? new Map<string, number>();
    if (!byProcess.has(op.process)) byProcess.set(op.process, op.timeUs);
    firstInit.set(op.value.transactionalId, byProcess);
  }
  return firstInit;
}

/** A PRODUCER_FENCED op's own init time and the first init of each process of its id. */
function fencedOpInits(
  op: { error?: string; process: string; value: { transactionalId: string } },
  inits: Map<string, Map<string, number>>,
): { readonly ownInit: number; readonly byProcess: ReadonlyMap<string, number> } | null {
  if (op.error !== FENCED_ERROR) return null;
  const byProcess = inits.get(op.value.transactionalId) ?? new Map<string, number>();
  const ownInit = byProcess.get(op.process);
  return ownInit === undefined ? null : { ownInit, byProcess };
}

/** Whether no process but `process` had invoked an init of the id by `timeUs`. */
function aloneUntil(byProcess: ReadonlyMap<string, number>, process: string, timeUs: number) {
  return [...byProcess].every(([other, initUs]) => other === process || initUs > timeUs);
}

/**
 * Whether `op` was PRODUCER_FENCED by a fencing InitProducerId (grant reason `fence`) made while
 * its process was alone on the transactional.id, after its own init.
 */
function isSelfFence(
  op: { error?: string; process: string; timeUs: number; value: { transactionalId: string } },
  inits: Map<string, Map<string, number>>,
  grants: readonly EpochGrant[],
): boolean {
  const fenced = fencedOpInits(op, inits);
  if (fenced === null) return false;
  return grants.some(
    (grant) =>
      grant.reason === 'fence' &&
      grant.transactionalId === op.value.transactionalId &&
      grant.timeUs > fenced.ownInit &&
      grant.timeUs <= op.timeUs &&
      aloneUntil(fenced.byProcess, op.process, grant.timeUs),
  );
}

/**
 * Whether `op` was PRODUCER_FENCED after its own epoch bump, by no one else: its process was
 * alone on the transactional.id up to `op`, an InitProducerId grant since its init (its own
 * KIP-360 bump) holds an epoch above the one `op` ran at, and no fencing InitProducerId or
 * timeout abort of the id was granted in the whole run (a fence is observed when its record is
 * written, which may be after the client heard of it). Kafka recognises a retried InitProducerId
 * of a bump it already made by lastProducerEpoch (TransactionCoordinator
 * .prepareInitProducerIdTransit); a coordinator that loaded a record without it fences the
 * producer that asked for the bump (KAFKA-20357).
 */
function isFencedAfterOwnBump(
  op: {
    error?: string;
    process: string;
    timeUs: number;
    value: { transactionalId: string; producerEpoch?: number };
  },
  inits: Map<string, Map<string, number>>,
  grants: readonly EpochGrant[],
): boolean {
  const own = fencedOpInits(op, inits);
  if (own === null || !aloneUntil(own.byProcess, op.process, op.timeUs)) return false;
  const id = op.value.transactionalId;
  const ofId = grants.filter((grant) => grant.transactionalId === id && grant.timeUs > own.ownInit);
  const fenced = ofId.some((grant) => grant.reason === 'fence' || grant.reason === 'timeout');
  const ownBump = ofId.some(
    (grant) =>
      grant.reason === 'init' &&
      grant.timeUs <= op.timeUs &&
      grant.producerEpoch > (op.value.producerEpoch ?? -1),
  );
  return !fenced && ownBump;
}

/** Whether `op`'s error is one a well-behaved producer alone on its id never gets. */
function isUnexpectedFatal(
  op: {
    f: 'txn' | 'init';
    error?: string;
    process: string;
    timeUs: number;
    value: { transactionalId: string; producerId?: number };
  },
  inits: Map<string, Map<string, number>>,
  expirations: readonly TransactionalIdExpiration[],
): boolean {
  if (op.error === UNEXPECTED_FATAL_ERROR) return true;
  if (op.error === TRANSPORT_ERROR) return op.f === 'txn';
  if (op.error !== UNKNOWN_IDENTITY_ERROR) return false;
  const expired = expirations.some(
    (expiration) =>
      expiration.transactionalId === op.value.transactionalId &&
      expiration.producerId === op.value.producerId &&
      expiration.timeUs <= op.timeUs,
  );
  if (expired) return false;
  const others = [...(inits.get(op.value.transactionalId) ?? new Map<string, number>())].filter(
    ([process, timeUs]) => process !== op.process && timeUs <= op.timeUs,
  );
  return others.length === 0;
}

/**
 * One anomaly per init or txn operation that completed with INVALID_TXN_STATE, a txn operation
 * that completed with NETWORK_EXCEPTION, or an init or txn operation with
 * INVALID_PRODUCER_ID_MAPPING while its producer was alone on its transactional.id, or
 * PRODUCER_FENCED by a fence of its own open transaction ({@link isSelfFence}); and, for an
 * idempotent producer, each send refused after its state expired (checkFatalIdempotentError).
 */
export function checkFatalTxnError(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const inits = sharedSince(context);
  const expirations = context.oracle.transactionalIdExpirations ?? [];
  for (const op of context.history) {
    if (op.type === 'invoke' || (op.f !== 'txn' && op.f !== 'init')) continue;
    const selfFence = isSelfFence(op, inits, context.oracle.epochGrants);
    const noOne = !selfFence && isFencedAfterOwnBump(op, inits, context.oracle.epochGrants);
    if (!selfFence && !noOne && !isUnexpectedFatal(op, inits, expirations)) continue;
    const identity =
      op.value.producerId === undefined
        ? ''
        : ` (producerId ${op.value.producerId}, epoch ${op.value.producerEpoch ?? -1})`;
    const forgotten =
      (op.error === UNKNOWN_IDENTITY_ERROR || noOne) && logLostRecordOf(context, op);
    anomalies.push({
      kind: 'fatal-txn-error',
      message:
        `Client ${op.client}'s ${op.f} of transactional.id ${op.value.transactionalId}` +
        `${identity} failed with the fatal ${op.error ?? ''} at ${op.timeUs}us, where ` +
        (selfFence
          ? 'its own InitProducerId fenced its open transaction while it was alone on the id'
          : forgotten
            ? '__transaction_state had lost a record of the id, so its coordinator no longer ' +
              'knew the producerId or epoch it had handed out'
            : noOne
              ? "it was alone on the id and the epoch above its own was its own InitProducerId's " +
                'bump: no other producer, fence or timeout abort took it'
              : 'Kafka gives a client that follows the protocol an abortable or fencing error'),
      classification: selfFence
        ? 'self-fence'
        : forgotten
          ? 'transaction-log-truncated'
          : noOne
            ? 'fenced-after-own-bump'
            : (op.error ?? ''),
      client: op.client,
      process: op.process,
      transactionalId: op.value.transactionalId,
      timeUs: op.timeUs,
      ...(op.value.producerId === undefined ? {} : { producerId: op.value.producerId }),
      ...(op.value.producerEpoch === undefined ? {} : { producerEpoch: op.value.producerEpoch }),
      activeFaults: context.activeFaultsAt(op.timeUs),
    });
  }
  return [...anomalies, ...checkFatalIdempotentError(context)];
}
