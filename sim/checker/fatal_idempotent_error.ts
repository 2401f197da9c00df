/**
 * The idempotent (non-transactional) side of `fatal-txn-error`: a producer's send that ended
 * with OUT_OF_ORDER_SEQUENCE_NUMBER on a partition that lost nothing (no truncation) since the
 * producer's last acknowledged write there. Since KIP-360 (Kafka 2.5) a leader with no state for
 * a producer accepts any first sequence on a log that holds records
 * (ProducerAppendInfo.checkSequence; only a never-written log wants sequence 0, KAFKA-15591),
 * and a leader that holds the producer's state refuses only a batch that is not next in line,
 * which a correct client retries behind the one before it (Java's Sender.canRetry;
 * librdkafka's "not the next in line" branch of rd_kafka_handle_idempotent_Produce_error). So
 * without a loss Kafka never answers in a way that should end the send, and a client that reads
 * the answer as fatal is killed either by the broker having dropped its state
 * (`producer.id.expiration.ms`, ProducerStateManager.removeExpiredProducers;
 * redpanda-data/redpanda#22670) or by its own bookkeeping (librdkafka before 2.3.0 counting a
 * possibly persisted batch as acknowledged, confluentinc/librdkafka#4438). The Java client bumps
 * its epoch and retries, so its sends never end with this error. A truncation of the partition in
 * the window may lose acknowledged records and so excuses the answer; the op is then not counted.
 * Kafka's any-first-sequence rule has one consequence of its own: with more than one request in
 * flight, a head-of-line Produce lost in transit lets the next one in as the producer's first
 * batch, and the retried head is then not next in line. Such an op is classified
 * `first-batch-taken-out-of-order` (the log's first batch of that producerId and epoch starts
 * above sequence 0), which the guarantee model judges by the client's rules. A send that never
 * got a producerId (ended by the client's fatal error before it went out) met no answer and is
 * not counted.
 */
import { oracleBatchesOf, type HistoryOp, type ProducerStateExpiration } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';

const REFUSED = 'OUT_OF_ORDER_SEQUENCE_NUMBER';
/** The classification of a refusal behind a later batch the leader took as the first. */
export const FIRST_OUT_OF_ORDER = 'first-batch-taken-out-of-order';
const REORDERED_BECAUSE =
  ': the leader, with no state for that producerId and epoch, had taken a later batch as its ' +
  'first (any first sequence is accepted on a log that holds records), so this one was no ' +
  'longer next in line';

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

/**
 * True when the leader took a later batch of `producerId` at `producerEpoch` as its first on
 * `tp`: the log's first batch of that identity, appended by `untilUs`, starts above sequence 0.
 */
function firstTakenOutOfOrder(
  context: CheckContext,
  tp: { topic: string; partition: number },
  identity: { producerId: number; producerEpoch: number | undefined },
  untilUs: number,
): boolean {
  const partition = context.oracle.partitions.find(
    (candidate) => candidate.topic === tp.topic && candidate.partition === tp.partition,
  );
  if (partition === undefined || identity.producerEpoch === undefined) return false;
  const first = oracleBatchesOf(partition).find(
    (batch) =>
      batch.control === undefined &&
      batch.producerId === identity.producerId &&
      batch.producerEpoch === identity.producerEpoch,
  );
  return first !== undefined && first.baseSequence > 0 && first.appendUs <= untilUs;
}

/** What the message says of the refusal: an expiration before it, or none. */
function because(expiration: ProducerStateExpiration | undefined): string {
  if (expiration !== undefined) {
    return (
      ` after ${expiration.broker} expired the producer's state at ${expiration.timeUs}us: ` +
      'Kafka accepts any sequence from a producer it has no state for'
    );
  }
  return (
    ' while the partition had lost nothing since its last acknowledged write there and its ' +
    "leader still held the producer's state: Kafka refuses only a batch that is not next in " +
    'line, which a client retries, yet the client ended it as fatal'
  );
}

/** One anomaly per send ended by an out-of-order answer without a loss ({@link this module}). */
export function checkFatalIdempotentError(context: CheckContext): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const expirations = context.oracle.producerStateExpirations ?? [];
  const truncations = context.oracle.truncations ?? [];
  for (const op of context.history) {
    if (op.f !== 'send' || op.type === 'invoke' || op.error !== REFUSED) continue;
    const tp = partitionOf(op);
    const producerId = op.value.producerId;
    if (tp === undefined || producerId === undefined || producerId < 0) continue;
    const sinceUs = lastAckUs(context, op, tp);
    const expiration = expiredBetween(expirations, tp, producerId, { sinceUs, untilUs: op.timeUs });
    const truncated = truncations.some(
      (truncation) =>
        truncation.topic === tp.topic &&
        truncation.partition === tp.partition &&
        truncation.timeUs > sinceUs &&
        truncation.timeUs <= op.timeUs,
    );
    if (truncated) continue;
    const identity = { producerId, producerEpoch: op.value.producerEpoch };
    const reordered =
      expiration === undefined && firstTakenOutOfOrder(context, tp, identity, op.timeUs);
    anomalies.push({
      kind: 'fatal-txn-error',
      classification: reordered ? FIRST_OUT_OF_ORDER : REFUSED,
      message:
        `Client ${op.client}'s send to ${tp.topic}-${tp.partition} (producerId ${producerId}) ` +
        `failed with ${REFUSED} at ${op.timeUs}us` +
        (reordered ? REORDERED_BECAUSE : because(expiration)),
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
