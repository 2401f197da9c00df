/**
 * `torn-transaction` (the `atomicity` class): at the end of the run a transaction is not
 * all-or-nothing to read_committed consumers. Kafka writes markers partition by partition
 * (TransactionMarkerChannelManager.addTxnMarkersToSend, TransactionMarkerRequestCompletionHandler),
 * so for a while a transaction may be visible on one partition and not yet on another; KIP-98
 * allows that and this checker never looks at it. It judges only the final state: what the final
 * reads delivered after the heal phase, when every marker has been written, and what the leaders'
 * logs hold at the end.
 *
 * History facts it relies on:
 * - every `txn` operation is one transaction attempt of one transactional.id; its invoke names
 *   every record (value, topic, partition) the attempt sends, and values are unique in a run;
 * - its completion says what the client learned: `ok` of a commit (committed), `ok` of the abort
 *   the application chose or `fail` (not committed), `info` or none (unknown);
 * - the `ok` completions of `final-read` at read_committed say which values are visible.
 *
 * Oracle facts: where each value sits in its partition's final log, the marker that decided it
 * (transaction_outcome.ts) and the partition's final last stable offset.
 *
 * The fate of each record of an attempt: `visible` when a read_committed final read delivered it
 * (unless the oracle holds it under an ABORT marker: that is `aborted-read`); `aborted` when its
 * partition holds every copy under an ABORT marker below the last stable offset; `absent` when
 * its partition does not hold it; `pending` otherwise (still open, or above the last stable
 * offset: a hanging transaction or a run that did not settle, not a tear). Two rules:
 * - `partly-committed`: an attempt the client committed (or does not know about) has a visible
 *   record and an aborted or absent one;
 * - `aborted-committed-by-later-transaction` / `aborted-but-committed`: an attempt the client knows
 *   did not commit has a visible record (H2 of KIP-890 motivation; KAFKA-14053: a late batch joins
 *   the producer's next transaction on that partition and its COMMIT marker exposes it). The first
 *   names the other attempt whose records the same COMMIT marker decided.
 * Two attempts merged under one marker when both were committed by the client show nothing to
 * readers and are not reported. A committed attempt's missing record is also a `lost-write`;
 * this checker adds the atomicity view (which records of the same transaction are visible).
 * Cost: O(history + oracle records).
 */
import type { OracleRecord } from '../history';
import type { Anomaly, TransactionRecordFate } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionKey, topicPartitionName } from './topic_partition';
import { transactionAttempts, type TransactionAttempt } from './transaction_attempts';
import type { PartitionIndex } from './transaction_outcome';

/** One record's fate, with the oracle copy and deciding marker when the partition holds it. */
interface RecordFate extends TransactionRecordFate {
  readonly record: OracleRecord | null;
  readonly markerOffset: number | null;
}

/**
 * Reports every transaction attempt torn at the end of the run, one anomaly per attempt.
 * @example checkTornTransaction(new CheckContext(history, oracle))[0]?.classification
 * // 'partly-committed'
 */
export function checkTornTransaction(context: CheckContext): Anomaly[] {
  const attempts = transactionAttempts(context.history);
  const visible = visibleValues(context, attempts);
  const mergedWith = new MarkerAttempts(context);
  const anomalies: Anomaly[] = [];
  for (const attempt of attempts.values()) {
    // Fast path, map lookups only: nothing visible, or a committed attempt wholly visible.
    const visibleCount = attempt.sends.filter((send) => visible.has(send.value)).length;
    if (visibleCount === 0) continue;
    if (attempt.outcome !== 'aborted' && visibleCount === attempt.sends.length) continue;
    const fates = attempt.sends.map((send) => fateOf(context, visible, send));
    if (!fates.some((fate) => fate.fate === 'visible')) continue;
    if (attempt.outcome !== 'aborted' && !fates.some(isMissing)) continue;
    anomalies.push(tornAnomaly(context, { attempt, fates, others: mergedWith.of(attempt, fates) }));
  }
  return anomalies;
}

/** Decided not visible for good: under a stable ABORT marker, or not in the log at all. */
function isMissing(fate: RecordFate): boolean {
  return fate.fate === 'aborted' || fate.fate === 'absent';
}

/** Values a read_committed final read delivered, by value, with the first delivered offset. */
function visibleValues(
  context: CheckContext,
  attempts: ReadonlyMap<number, TransactionAttempt>,
): Map<number, number> {
  // Only the values of transactions are looked up, so only they are kept.
  const wanted = new Set<number>();
  for (const attempt of attempts.values()) for (const send of attempt.sends) wanted.add(send.value);
  const visible = new Map<number, number>();
  if (wanted.size === 0) return visible;
  let lowest = Number.POSITIVE_INFINITY;
  let highest = Number.NEGATIVE_INFINITY;
  for (const value of wanted) {
    lowest = Math.min(lowest, value);
    highest = Math.max(highest, value);
  }
  for (const op of context.deliveries) {
    if (op.f !== 'final-read' || op.value.isolationLevel !== 'read_committed') continue;
    for (const { offset, values } of op.value.batches) {
      for (let at = 0; at < values.length; at++) {
        const value = values[at] as number;
        if (value < lowest || value > highest || !wanted.has(value)) continue;
        if (!visible.has(value)) visible.set(value, offset + at);
      }
    }
  }
  return visible;
}

function fateOf(
  context: CheckContext,
  visible: ReadonlyMap<number, number>,
  send: { readonly topic: string; readonly partition: number; readonly value: number },
): RecordFate {
  const { topic, partition, value } = send;
  const index = context.partitionIndex(topic, partition);
  const visibleOffset = visible.get(value);
  let offset: number | null = null;
  let fate: RecordFate['fate'] = 'pending';
  // A delivered record the partition holds as aborted is an `aborted-read`, not visible data.
  if (visibleOffset !== undefined && index?.outcomeAt(visibleOffset)?.status !== 'aborted') {
    offset = visibleOffset;
    fate = 'visible';
  } else if (index !== undefined) {
    const offsets = index.offsetsOf(value);
    offset = offsets[0] ?? null;
    if (offset === null) fate = 'absent';
    else if (offsets.every((copy) => isStablyAborted(index, copy))) fate = 'aborted';
  }
  const record = offset === null ? null : (index?.recordAt(offset) ?? null);
  const markerOffset = offset === null ? null : (index?.outcomeAt(offset)?.markerOffset ?? null);
  return { topic, partition, offset, value, fate, record, markerOffset };
}

/** Decided by an ABORT marker that is itself below the partition's final last stable offset. */
function isStablyAborted(index: PartitionIndex, offset: number): boolean {
  const outcome = index.outcomeAt(offset);
  if (outcome?.status !== 'aborted' || outcome.markerOffset === null) return false;
  return outcome.markerOffset < index.partition.lastStableOffset;
}

/**
 * Which attempts each marker decided records of, built on first use in one pass over the
 * oracle's data records (values map to attempts through the history's sends).
 */
class MarkerAttempts {
  private byMarker: Map<string, Set<number>> | null = null;

  constructor(private readonly context: CheckContext) {}

  /** Other attempts whose records share a deciding marker with a visible record of `attempt`. */
  of(attempt: TransactionAttempt, fates: readonly RecordFate[]): number[] {
    const others = new Set<number>();
    for (const fate of fates) {
      if (fate.fate !== 'visible' || fate.markerOffset === null) continue;
      const key = markerKey(fate.topic, fate.partition, fate.markerOffset);
      for (const index of this.index().get(key) ?? [])
        if (index !== attempt.index) others.add(index);
    }
    return [...others].sort((a, b) => a - b);
  }

  private index(): Map<string, Set<number>> {
    if (this.byMarker !== null) return this.byMarker;
    const byMarker = new Map<string, Set<number>>();
    for (const partitionIndex of this.context.partitionIndexes.values()) {
      const { topic, partition } = partitionIndex.partition;
      partitionIndex.batches.forEach((batch, position) => {
        const markerOffset = partitionIndex.outcomeOfBatch(position)?.markerOffset ?? null;
        if (markerOffset === null) return;
        const key = markerKey(topic, partition, markerOffset);
        for (const value of batch.values) {
          const sent = this.context.sentValues.get(value);
          if (sent === undefined || sent.f !== 'txn') continue;
          const known = byMarker.get(key);
          if (known === undefined) byMarker.set(key, new Set([sent.opIndex]));
          else known.add(sent.opIndex);
        }
      });
    }
    this.byMarker = byMarker;
    return byMarker;
  }
}

function markerKey(topic: string, partition: number, markerOffset: number): string {
  return `${topicPartitionKey(topic, partition)}@${markerOffset}`;
}

/** A torn attempt, the fate of each of its records, and the attempts merged into its markers. */
interface TornAttempt {
  readonly attempt: TransactionAttempt;
  readonly fates: readonly RecordFate[];
  readonly others: readonly number[];
}

function classificationOf(torn: TornAttempt): string {
  if (torn.attempt.outcome !== 'aborted') return 'partly-committed';
  return torn.others.length > 0
    ? 'aborted-committed-by-later-transaction'
    : 'aborted-but-committed';
}

function tornAnomaly(context: CheckContext, torn: TornAttempt): Anomaly {
  const { attempt, fates } = torn;
  const classification = classificationOf(torn);
  const shown = fates.find((fate) => fate.fate === 'visible');
  const missing = fates.find(isMissing);
  const located = (classification === 'partly-committed' ? missing : shown) ?? shown;
  const identityRecord = shown?.record ?? null;
  const producerId = attempt.producerId ?? identityRecord?.producerId ?? -1;
  const producerEpoch = attempt.producerEpoch ?? identityRecord?.producerEpoch ?? -1;
  const timeUs = decidedAtUs(context, fates) ?? attempt.completionUs ?? attempt.invokeUs;
  return {
    kind: 'torn-transaction',
    message: tornMessage({ ...torn, classification, producerId, producerEpoch }),
    ...(located === undefined
      ? {}
      : {
          topic: located.topic,
          partition: located.partition,
          ...(located.offset === null ? {} : { offset: located.offset }),
          value: located.value,
        }),
    producerId,
    producerEpoch,
    transactionalId: attempt.transactionalId,
    client: attempt.client,
    timeUs,
    classification,
    transactionRecords: fates.map(({ topic, partition, offset, value, fate }) => ({
      topic,
      partition,
      offset,
      value,
      fate,
    })),
    activeFaults: context.activeFaultsAt(timeUs),
  };
}

/** When the tear became final: the latest marker append deciding a visible or aborted record. */
function decidedAtUs(context: CheckContext, fates: readonly RecordFate[]): number | null {
  let latest: number | null = null;
  for (const fate of fates) {
    if (fate.markerOffset === null || fate.fate === 'absent' || fate.fate === 'pending') continue;
    const index = context.partitionIndex(fate.topic, fate.partition);
    const appendUs = index?.recordAt(fate.markerOffset)?.appendUs;
    if (appendUs !== undefined && (latest === null || appendUs > latest)) latest = appendUs;
  }
  return latest;
}

function tornMessage(
  torn: TornAttempt & { classification: string; producerId: number; producerEpoch: number },
): string {
  const { attempt, fates, others, classification } = torn;
  const where = (fate: RecordFate): string => {
    const name = topicPartitionName(fate.topic, fate.partition);
    if (fate.offset === null) return `${name} value ${fate.value} (absent from the log)`;
    const marker = fate.markerOffset === null ? '' : `, marker at ${fate.markerOffset}`;
    return `${name}@${fate.offset} value ${fate.value}${marker}`;
  };
  const list = (kind: RecordFate['fate']): string =>
    fates
      .filter((fate) => fate.fate === kind)
      .map(where)
      .join('; ') || 'none';
  const merged =
    others.length === 0
      ? ''
      : `; its COMMIT marker also decided the records of the transaction invoked at history ` +
        `index ${others.join(', ')}`;
  return (
    `Transaction of transactional.id ${attempt.transactionalId} (producerId ${torn.producerId}, ` +
    `producerEpoch ${torn.producerEpoch}, client ${attempt.client}, invoked at history index ` +
    `${attempt.index}, client outcome ${attempt.outcome}) is torn at the end of the run: ` +
    `visible to read_committed: ${list('visible')}; aborted: ${list('aborted')}; absent: ` +
    `${list('absent')}; pending: ${list('pending')}${merged}: ${classification}`
  );
}
