/**
 * Whether the copies of one value are exactly what an idempotent producer's epoch bump writes
 * (KIP-360), judged per record from the history. Kafka's Java client bumps the epoch of an
 * idempotent, non-transactional producer itself (TransactionManager.handleFailedBatch requests
 * it when a batch fails with retries left or with OUT_OF_ORDER_SEQUENCE_NUMBER, and
 * maybeResolveSequences after a batch expired past delivery.timeout.ms; then
 * bumpIdempotentEpochAndResetIdIfNeeded increments the epoch and startSequencesAtBeginning
 * rewrites the partition's in-flight batches from sequence 0). A batch the leader had appended
 * under the old epoch but whose acknowledgement never reached the client is then appended again
 * under the new epoch; the broker deduplicates only within one (producerId, producerEpoch)
 * (KAFKA-14034). So a value's copies are an epoch-bump rewrite only when:
 *
 * - every copy is in one partition, from one non-transactional producerId, each under a later
 *   producerEpoch;
 * - the application sent the value once (one `send` invoke);
 * - no copy but the last was acknowledged: the send was still in flight when the last copy was
 *   appended (the rewrite takes only in-flight batches; a send never completed, its client
 *   stopped first, was in flight throughout, and so was one its client gave up on, an `info`
 *   completion, since bytes already sent may still land), and an `ok` completion carries the
 *   last copy's epoch;
 * - what makes the client ask for the bump happened: a send of the same client, producerId and
 *   partition failed (`fail` or `info` with an error) under an epoch from the earlier copy's up
 *   to the later one's before the later copy was appended (handleFailedBatch,
 *   maybeResolveSequences), or a fault was active while the value was in flight (a batch the
 *   new or cut-off leader never got makes the next-in-line batch meet
 *   OUT_OF_ORDER_SEQUENCE_NUMBER, and canRetry asks for the bump without failing anything the
 *   application sees). "In flight" starts at the invoke of the oldest send of the same client
 *   and partition still outstanding when the value was sent: the bump rewrites every in-flight
 *   batch of the partition, so the lost batch may be an earlier one (a leader that had expired
 *   the producer's state, producer.id.expiration.ms, accepts the value's batch across that gap,
 *   and the lost batch's retry then meets OUT_OF_ORDER_SEQUENCE_NUMBER).
 *
 * One producerId writing values under epoch 0, all acknowledged, and the same values again
 * under epoch 1 (a broker that lost its deduplication window) is a plain duplicate.
 */
import type { History, HistoryOp } from '../history';
import type { ActiveInterval } from './fault_intervals';
import type { OracleCopy } from './check_context';
import { topicPartitionKey } from './topic_partition';
import { sentRecordsOf, type SendMicroOp } from '../history';

/** A `send` completion that was not `ok`: a batch the producer failed. */
interface FailedSend {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly timeUs: number;
  readonly error: string;
}

/**
 * What asked for the bump that rewrote a value. `after-failed-batch`: a send of the partition
 * failed with an error other than OUT_OF_ORDER_SEQUENCE_NUMBER (handleFailedBatch with
 * adjustSequenceNumbers, the path KAFKA-14034's proposed fix, apache/kafka#13796, makes wait
 * for the in-flight batches). `after-out-of-order`: no such failure, only
 * OUT_OF_ORDER_SEQUENCE_NUMBER or a fault while the value was in flight (handleFailedBatch's
 * OutOfOrderSequenceException branch and canRetry bump at once, with or without that fix).
 */
export type EpochBumpRoute = 'after-failed-batch' | 'after-out-of-order';

interface SendOutcome {
  invokes: number;
  invokedUs: number;
  /** The client that sent the value (from its first op, the invoke). */
  client: string;
  completion?: HistoryOp;
}

/** One send of a client on a partition: when it was invoked and when it completed. */
interface PartitionSend {
  readonly value: number;
  readonly invokedUs: number;
}

/** What the history says about sends, for epoch-bump judgements. */
export interface SendOutcomes {
  /** Per value: its first `send` invoke time and completion, and how many invokes named it. */
  readonly byValue: ReadonlyMap<number, SendOutcome>;
  /** Failed sends per `client topic-partition`, in history order. */
  readonly failed: ReadonlyMap<string, readonly FailedSend[]>;
  /** Every send invoke per `client topic-partition`, in history order. */
  readonly invoked: ReadonlyMap<string, readonly PartitionSend[]>;
}

/**
 * Indexes the history's non-transactional sends.
 * @example indexSendOutcomes(history).failed.get('P events-0')?.length
 */
export function indexSendOutcomes(history: History): SendOutcomes {
  const byValue = new Map<number, SendOutcome>();
  const failed = new Map<string, FailedSend[]>();
  const invoked = new Map<string, PartitionSend[]>();
  for (const op of history) {
    if (op.f !== 'send') continue;
    const { producerId, producerEpoch } = op.value;
    const sends = sentRecordsOf(op.value);
    for (const send of sends) {
      const entry = byValue.get(send.value) ?? {
        invokes: 0,
        invokedUs: op.timeUs,
        client: op.client,
      };
      if (op.type === 'invoke') entry.invokes += 1;
      else entry.completion ??= op;
      byValue.set(send.value, entry);
      if (op.type !== 'invoke') continue;
      const key = `${op.client} ${topicPartitionKey(send.topic, send.partition)}`;
      const list = invoked.get(key) ?? [];
      list.push({ value: send.value, invokedUs: op.timeUs });
      invoked.set(key, list);
    }
    if (op.type === 'invoke' || op.type === 'ok' || op.error === undefined) continue;
    if (producerId === undefined || producerEpoch === undefined) continue;
    const send = sends[0] as SendMicroOp;
    const key = `${op.client} ${topicPartitionKey(send.topic, send.partition)}`;
    const list = failed.get(key) ?? [];
    list.push({ producerId, producerEpoch, timeUs: op.timeUs, error: op.error });
    failed.set(key, list);
  }
  return { byValue, failed, invoked };
}

/**
 * The route of the bump when `copies` of `value` (two or more) are an epoch-bump rewrite as the
 * module comment defines it, else null: a failed send other than OUT_OF_ORDER_SEQUENCE_NUMBER
 * before any later copy makes it `after-failed-batch`.
 * @example epochBumpRoute(evidence, 17, copies) // 'after-out-of-order'
 */
export function epochBumpRoute(
  evidence: { readonly outcomes: SendOutcomes; readonly faults: readonly ActiveInterval[] },
  value: number,
  copies: readonly OracleCopy[],
): EpochBumpRoute | null {
  const { outcomes } = evidence;
  if (copies.length < 2) return null;
  const ordered = [...copies].sort((a, b) => a.record.appendUs - b.record.appendUs);
  const first = ordered[0] as OracleCopy;
  const producerId = first.record.producerId;
  if (producerId < 0) return null;
  for (const copy of ordered) {
    if (copy.record.producerId !== producerId || copy.record.isTransactional) return null;
    // The rewrite is of one partition's in-flight batches.
    if (copy.topic !== first.topic || copy.partition !== first.partition) return null;
  }
  const sent = outcomes.byValue.get(value);
  if (sent?.invokes !== 1) return null;
  const last = ordered[ordered.length - 1] as OracleCopy;
  // A send without a completion was still outstanding when the history ended (its client lost
  // power or the run ended first): as Jepsen reads an op with no completion, it was in flight
  // through every copy, and nothing acknowledged any of them.
  // An `info` completion is indeterminate: the client gave up on the request (request.timeout.ms,
  // delivery.timeout.ms) but bytes already sent may still be appended after it, so only a
  // definite `ok` or `fail` ends the flight before the last copy.
  const completion = sent.completion;
  const definite = completion !== undefined && completion.type !== 'info';
  if (definite && completion.timeUs < last.record.appendUs) return null;
  if (completion?.f === 'send' && completion.type === 'ok') {
    if (completion.value.producerEpoch !== last.record.producerEpoch) return null;
  }
  const key = `${sent.client} ${topicPartitionKey(first.topic, first.partition)}`;
  const inFlightFromUs = oldestOutstandingInvokeUs(outcomes, key, sent.invokedUs);
  let route: EpochBumpRoute = 'after-out-of-order';
  for (let index = 1; index < ordered.length; index++) {
    const earlier = ordered[index - 1] as OracleCopy;
    const later = ordered[index] as OracleCopy;
    if (later.record.producerEpoch <= earlier.record.producerEpoch) return null;
    const failures = (outcomes.failed.get(key) ?? []).filter(
      (failure) =>
        failure.producerId === producerId &&
        failure.producerEpoch >= earlier.record.producerEpoch &&
        failure.producerEpoch < later.record.producerEpoch &&
        failure.timeUs <= later.record.appendUs,
    );
    if (failures.some((failure) => failure.error !== 'OUT_OF_ORDER_SEQUENCE_NUMBER')) {
      route = 'after-failed-batch';
    } else if (
      failures.length === 0 &&
      !faultWhileInFlight(evidence.faults, inFlightFromUs, later)
    ) {
      return null;
    }
  }
  return route;
}

/**
 * The invoke time of the oldest send on the partition key that was still outstanding (not yet
 * completed) at `invokedUs`; `invokedUs` itself when none was.
 */
function oldestOutstandingInvokeUs(outcomes: SendOutcomes, key: string, invokedUs: number): number {
  for (const send of outcomes.invoked.get(key) ?? []) {
    if (send.invokedUs >= invokedUs) break;
    const completion = outcomes.byValue.get(send.value)?.completion;
    if (completion === undefined || completion.timeUs > invokedUs) return send.invokedUs;
  }
  return invokedUs;
}

/** Whether a fault was active at some time from `invokedUs` to the later copy's append. */
function faultWhileInFlight(
  faults: readonly ActiveInterval[],
  invokedUs: number,
  later: OracleCopy,
): boolean {
  return faults.some(
    (fault) =>
      fault.startUs <= later.record.appendUs && (fault.endUs === null || fault.endUs >= invokedUs),
  );
}
