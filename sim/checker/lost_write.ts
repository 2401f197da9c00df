/**
 * `lost-write`: a value whose non-transactional `send` completed `ok`, or that belongs to a `txn`
 * with `commit: true` that completed `ok`, and that no final read delivered. The final reads are
 * the `final-read` ok operations of read_committed consumers when there are any, else those of
 * read_uncommitted ones; a run without final reads did not read, so nothing can be called lost.
 * The oracle says why, in this order. A value missing from the partition's final log was either
 * truncated away, classified by the truncation that removed it (`truncation_cause.ts`:
 * `truncated-after-unclean-election`, `truncated-by-legacy-hw-truncation`, `lost-on-power-loss`,
 * `truncated-after-clean-election`), or `never-written` when no recorded truncation removed it.
 * A value in the log is `aborted` (its transaction aborted), `held-back-by-last-stable-offset`
 * (at or above the final lastStableOffset) or `not-delivered` (committed and stable, yet the
 * reads missed it).
 */
import type { HistoryOp, OracleRecord, SendMicroOp } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionName } from './topic_partition';
import {
  describeTruncationCause,
  explainTruncation,
  type TruncationCause,
  type TruncationClassification,
} from './truncation_cause';
import { sentRecordsOf } from '../history';

/** Why the oracle thinks an acknowledged value is missing. */
export type LostWriteClassification =
  | TruncationClassification
  | 'never-written'
  | 'aborted'
  | 'held-back-by-last-stable-offset'
  | 'not-delivered';

interface Acknowledgement {
  readonly op: HistoryOp;
  readonly send: SendMicroOp;
  readonly producerId: number | undefined;
  readonly producerEpoch: number | undefined;
}

/**
 * Reports every acknowledged value absent from the final reads, one anomaly per value, at the
 * time of its acknowledgement. `offset` is the offset the producer was told, when it was told.
 * @example checkLostWrite(new CheckContext(history, oracle))[0]?.classification // 'aborted'
 */
export function checkLostWrite(context: CheckContext): Anomaly[] {
  const finalRead = finalReadValues(context);
  if (finalRead === null) return [];
  const anomalies: Anomaly[] = [];
  const reported = new Set<number>();
  for (const op of context.history) {
    const values = acknowledgedValuesOf(op);
    // An acknowledgement object only for a value the final reads miss.
    for (let at = 0; at < values.length; at++) {
      const value = values[at] as number;
      if (finalRead.values.has(value) || reported.has(value)) continue;
      reported.add(value);
      const acknowledgement = acknowledgementsOf(op)[at] as Acknowledgement;
      const { isolationLevel } = finalRead;
      anomalies.push(lostWriteAnomaly(context, { ...acknowledgement, isolationLevel }));
    }
  }
  return anomalies;
}

/** The values {@link acknowledgementsOf} lists for `op`, in its order. */
function acknowledgedValuesOf(op: HistoryOp): readonly number[] {
  if (op.type !== 'ok') return [];
  if (op.f === 'send') return 'send' in op.value ? [op.value.send.value] : op.value.run.values;
  if (op.f === 'txn' && op.value.commit) return op.value.sends.map((send) => send.value);
  return [];
}

/**
 * A set of values kept as sorted, disjoint spans of consecutive values: the values of a fetched
 * batch are mostly consecutive, so a final read of a long log is a few spans.
 */
class ValueSpans {
  private readonly lows: number[] = [];
  private readonly highs: number[] = [];

  constructor(runs: ReadonlyArray<readonly number[]>) {
    const spans: Array<readonly [number, number]> = [];
    for (const values of runs) {
      let low = 0;
      for (let at = 1; at <= values.length; at++) {
        if (at < values.length && values[at] === (values[at - 1] as number) + 1) continue;
        spans.push([values[low] as number, values[at - 1] as number]);
        low = at;
      }
    }
    spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [low, high] of spans) {
      const last = this.highs.length - 1;
      if (last >= 0 && low <= (this.highs[last] as number) + 1) {
        this.highs[last] = Math.max(this.highs[last] as number, high);
      } else {
        this.lows.push(low);
        this.highs.push(high);
      }
    }
  }

  has(value: number): boolean {
    let low = 0;
    let high = this.lows.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.highs[middle] as number) < value) low = middle + 1;
      else high = middle;
    }
    return low < this.lows.length && (this.lows[low] as number) <= value;
  }
}

/** The values the final reads delivered, or null when the run has no final reads. */
function finalReadValues(
  context: CheckContext,
): { readonly values: ValueSpans; readonly isolationLevel: string } | null {
  const finalReads = context.deliveries.filter((op) => op.f === 'final-read');
  const committed = finalReads.filter((op) => op.value.isolationLevel === 'read_committed');
  const chosen = committed.length > 0 ? committed : finalReads;
  if (chosen.length === 0) return null;
  const values = new ValueSpans(chosen.flatMap((op) => op.value.batches.map((b) => b.values)));
  const isolationLevel = committed.length > 0 ? 'read_committed' : 'read_uncommitted';
  return { values, isolationLevel };
}

function acknowledgementsOf(op: HistoryOp): Acknowledgement[] {
  if (op.type !== 'ok') return [];
  if (op.f === 'send') {
    const { producerId, producerEpoch } = op.value;
    return sentRecordsOf(op.value).map((send) => ({ op, send, producerId, producerEpoch }));
  }
  if (op.f === 'txn' && op.value.commit) {
    const { producerId, producerEpoch } = op.value;
    return op.value.sends.map((send) => ({ op, send, producerId, producerEpoch }));
  }
  return [];
}

/** A missing value's classification and what the oracle holds of it. */
export interface LostWriteExplanation {
  readonly classification: LostWriteClassification;
  /** The value's first record in the final log; null when the log does not hold it. */
  readonly record: OracleRecord | null;
  /** The truncation that removed it, when the log does not hold it and one did. */
  readonly cause: TruncationCause | null;
}

/**
 * Classifies a missing value from its partition's oracle log and, when the log no longer holds
 * it, the oracle's truncations.
 * @example classifyLostWrite(context, { topic: 't', partition: 0, value: 17 }).classification
 */
function classifyLostWrite(
  context: CheckContext,
  sent: { readonly topic: string; readonly partition: number; readonly value: number },
): LostWriteExplanation {
  const index = context.partitionIndex(sent.topic, sent.partition);
  const offset = index?.offsetsOf(sent.value)?.[0];
  const record = offset === undefined ? undefined : index?.recordAt(offset);
  if (index === undefined || record === undefined) {
    const cause = explainTruncation(context.replicationIndex, sent);
    const classification = cause?.classification ?? 'never-written';
    return { classification, record: null, cause };
  }
  if (index.outcomeAt(record.offset)?.status === 'aborted') {
    return { classification: 'aborted', record, cause: null };
  }
  if (record.offset >= index.partition.lastStableOffset) {
    return { classification: 'held-back-by-last-stable-offset', record, cause: null };
  }
  return { classification: 'not-delivered', record, cause: null };
}

function lostWriteAnomaly(
  context: CheckContext,
  acknowledgement: Acknowledgement & { readonly isolationLevel: string },
): Anomaly {
  const { op, send, isolationLevel } = acknowledgement;
  const lastStableOffset = context.partitionIndex(send.topic, send.partition)?.partition
    .lastStableOffset;
  const { classification, record, cause } = classifyLostWrite(context, send);
  const name = topicPartitionName(send.topic, send.partition);
  const told = send.offset === undefined ? 'without an offset' : `at offset ${send.offset}`;
  const what = op.f === 'txn' ? 'in a committed transaction' : 'by a send';
  const where =
    record === null || lastStableOffset === undefined
      ? ''
      : ` (oracle offset ${record.offset}, lastStableOffset ${lastStableOffset})`;
  const removed =
    cause === null
      ? ''
      : ` (was at offset ${cause.record.offset}, ${describeTruncationCause(cause)})`;
  const message =
    `Value ${send.value} sent by client ${op.client} to ${name} was acknowledged ${what} ` +
    `${told} but is absent from the ${isolationLevel} final reads: ${classification}` +
    `${where}${removed}`;
  const written = record ?? cause?.record ?? null;
  const producerId = written?.producerId ?? acknowledgement.producerId;
  const producerEpoch = written?.producerEpoch ?? acknowledgement.producerEpoch;
  return {
    kind: 'lost-write',
    message,
    topic: send.topic,
    partition: send.partition,
    ...(send.offset === undefined ? {} : { offset: send.offset }),
    value: send.value,
    ...(producerId === undefined ? {} : { producerId }),
    ...(producerEpoch === undefined ? {} : { producerEpoch }),
    ...(cause === null ? {} : { brokers: [cause.truncation.broker] }),
    client: op.client,
    timeUs: op.timeUs,
    classification,
    activeFaults: context.activeFaultsAt(op.timeUs),
  };
}
