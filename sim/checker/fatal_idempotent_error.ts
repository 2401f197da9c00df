/**
 * The idempotent (non-transactional) side of `fatal-txn-error`: a producer's send that ended
 * with OUT_OF_ORDER_SEQUENCE_NUMBER on a partition whose leader had dropped the producer's
 * state (`producer.id.expiration.ms`, ProducerStateManager.removeExpiredProducers) after the
 * producer's last acknowledged write there. Since KIP-360 (Kafka 2.5) a leader with no state for
 * a producer accepts any first sequence on a log that holds records
 * (ProducerAppendInfo.checkSequence; only a never-written log wants sequence 0, KAFKA-15591), so
 * Kafka never refuses that batch, and a client that reads the answer as fatal (librdkafka's
 * "sequence desynchronization", rd_kafka_handle_idempotent_Produce_error) is killed by the
 * broker, not by its own misuse: redpanda-data/redpanda#22670. The Java client bumps its epoch
 * and retries, so its sends never end with this error. A truncation of the partition in the
 * window may lose acknowledged records and so excuses the answer; the op is then not counted.
 */
import type { HistoryOp, ProducerStateExpiration } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';

const REFUSED = 'OUT_OF_ORDER_SEQUENCE_NUMBER';

type SendOp = Extract<HistoryOp, { f: 'send' }>;

/** The partition of a single-record send, or undefined for a run. */
function partitionOf(op: SendOp): { topic: string; partition: number } | undefined {
  return 'send' in op.value ? op.value.send : undefined;
}

/** When `process` last had a send acknowledged on `topic`/`partition` before `timeUs`. */
function lastAckUs(context: CheckContext, op: SendOp, tp: { topic: string; partition: number }) {
  let last = -1;
  for (const other of context.history) {
    if (other.index >= op.index) break;
    if (other.f !== 'send' || other.type !== 'ok' || other.process !== op.process) continue;
    const at = partitionOf(other);
    if (at?.topic === tp.topic && at.partition === tp.partition) last = other.timeUs;
  }
  return last;
}

/** The expiration of `producerId`'s state on `tp` after `sinceUs` and before `untilUs`. */
function expiredBetween(
  expirations: readonly ProducerStateExpiration[],
  tp: { topic: string; partition: number },
  producerId: number,
  window: { sinceUs: number; untilUs: number },
): ProducerStateExpiration | undefined {
  return expirations.find(
    (expiration) =>
      expiration.topic === tp.topic &&
      expiration.partition === tp.partition &&
      expiration.producerIds.includes(producerId) &&
      expiration.timeUs > window.sinceUs &&
      expiration.timeUs <= window.untilUs,
  );
}

/** One anomaly per send refused after its producer's state expired ({@link this module}). */
export function checkFatalIdempotentError(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const expirations = context.oracle.producerStateExpirations ?? [];
  if (expirations.length === 0) return anomalies;
  const truncations = context.oracle.truncations ?? [];
  for (const op of context.history) {
    if (op.f !== 'send' || op.type === 'invoke' || op.error !== REFUSED) continue;
    const tp = partitionOf(op);
    const producerId = op.value.producerId;
    if (tp === undefined || producerId === undefined) continue;
    const sinceUs = lastAckUs(context, op, tp);
    const expiration = expiredBetween(expirations, tp, producerId, { sinceUs, untilUs: op.timeUs });
    if (expiration === undefined) continue;
    const truncated = truncations.some(
      (truncation) =>
        truncation.topic === tp.topic &&
        truncation.partition === tp.partition &&
        truncation.timeUs > sinceUs &&
        truncation.timeUs <= op.timeUs,
    );
    if (truncated) continue;
    anomalies.push({
      kind: 'fatal-txn-error',
      message:
        `Client ${op.client}'s send to ${tp.topic}-${tp.partition} (producerId ${producerId}) ` +
        `failed with ${REFUSED} at ${op.timeUs}us after ${expiration.broker} expired the ` +
        `producer's state at ${expiration.timeUs}us: Kafka accepts any sequence from a producer ` +
        'it has no state for',
      client: op.client,
      process: op.process,
      timeUs: op.timeUs,
      producerId,
      ...(op.value.producerEpoch === undefined ? {} : { producerEpoch: op.value.producerEpoch }),
      activeFaults: context.activeFaultsAt(op.timeUs),
    });
  }
  return anomalies;
}
