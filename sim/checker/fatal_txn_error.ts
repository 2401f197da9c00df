/**
 * `fatal-txn-error`: a transactional producer that follows Kafka's client rules was told
 * INVALID_TXN_STATE, the fatal "not part of an ongoing transaction" error. Kafka promises such a
 * client only fencing (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH), abortable and retriable errors:
 * a producer whose transaction timed out during a pause must get the abortable
 * INVALID_PRODUCER_EPOCH (KAFKA-19690, case BUG-16), and a coordinator must never be driven into
 * a state the client's EndTxn does not expect (a stale EndTxn, BUG-03). The error kills the
 * application instead of letting it abort and carry on: a liveness bug, not lost data, so the
 * checker reads only the history (the op's `error`).
 */
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';

/** The fatal error a well-behaved client never gets. */
const UNEXPECTED_FATAL_ERROR = 'INVALID_TXN_STATE';

/** One anomaly per init or txn operation that completed with INVALID_TXN_STATE. */
export function checkFatalTxnError(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  for (const op of context.history) {
    if (op.type === 'invoke' || op.error !== UNEXPECTED_FATAL_ERROR) continue;
    if (op.f !== 'txn' && op.f !== 'init') continue;
    const identity =
      op.value.producerId === undefined
        ? ''
        : ` (producerId ${op.value.producerId}, epoch ${op.value.producerEpoch ?? -1})`;
    anomalies.push({
      kind: 'fatal-txn-error',
      message:
        `Client ${op.client}'s ${op.f} of transactional.id ${op.value.transactionalId}` +
        `${identity} failed with the fatal ${UNEXPECTED_FATAL_ERROR} at ${op.timeUs}us, where ` +
        'Kafka gives a client that follows the protocol an abortable or fencing error',
      client: op.client,
      process: op.process,
      transactionalId: op.value.transactionalId,
      timeUs: op.timeUs,
      ...(op.value.producerId === undefined ? {} : { producerId: op.value.producerId }),
      ...(op.value.producerEpoch === undefined ? {} : { producerEpoch: op.value.producerEpoch }),
      activeFaults: context.activeFaultsAt(op.timeUs),
    });
  }
  return anomalies;
}
