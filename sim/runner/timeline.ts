/**
 * Builds the charts' data of a run report from the history and the oracle: each partition's
 * log end offset, high watermark and last stable offset as step series over virtual time, and
 * each transactional.id's transactions (from the client's `txn` operations) with the producer
 * epochs its coordinator granted (from the oracle). Pure functions of their inputs.
 */
import type { History, HistoryOp, Oracle, OraclePartition, TxnValue } from '../history';
import { oracleBatchesOf } from '../history';
import type {
  OffsetPoint,
  PartitionTimeline,
  RunPhase,
  RunTimeline,
  TransactionOutcome,
  TransactionSpan,
  TransactionalIdTimeline,
} from './report_types';
import { thin, thinPartitionSeries } from './series_thinning';
import { stallTimes } from './stalls';

/** Points kept per series in a report. */
export const SERIES_POINTS_MAX = 1500;

/** Drops points that repeat the previous offset; keeps the last of several at one instant. */
export function compactSteps(points: readonly OffsetPoint[]): OffsetPoint[] {
  const compacted: OffsetPoint[] = [];
  for (const point of points) {
    const previous = compacted[compacted.length - 1];
    if (previous !== undefined && previous.timeUs === point.timeUs) compacted.pop();
    const before = compacted[compacted.length - 1];
    if (before === undefined || before.offset !== point.offset) compacted.push(point);
  }
  return compacted;
}

/** The log end offset over time, from the append times of the final leader's records. */
function logEndOffsetSeries(partition: OraclePartition): OffsetPoint[] {
  const points: OffsetPoint[] = [{ timeUs: 0, offset: partition.logStartOffset }];
  // One point per batch: its records share one append time, and the steps keep the last offset.
  const batches = [...oracleBatchesOf(partition)].sort((a, b) => a.baseOffset - b.baseOffset);
  for (const batch of batches)
    points.push({ timeUs: batch.appendUs, offset: batch.lastOffset + 1 });
  points.sort((a, b) => a.timeUs - b.timeUs || a.offset - b.offset);
  return compactSteps(points);
}

/** Full-resolution offset series of one partition (the metrics use these before thinning). */
export function partitionSeries(partition: OraclePartition): PartitionTimeline {
  return {
    topic: partition.topic,
    partition: partition.partition,
    logEndOffset: logEndOffsetSeries(partition),
    highWatermark: compactSteps(partition.highWatermarkChanges),
    lastStableOffset: compactSteps(partition.lastStableOffsetChanges),
  };
}

function outcomeOf(completion: HistoryOp | undefined): TransactionOutcome {
  if (completion === undefined) return 'open';
  if (completion.type === 'info') return 'unknown';
  if (completion.type === 'fail') return 'failed';
  return (completion.value as TxnValue).commit ? 'committed' : 'aborted';
}

/** Every `txn` operation as a span, grouped by transactional.id in order of first appearance. */
function transactionSpans(history: History): Map<string, TransactionSpan[]> {
  const open = new Map<string, HistoryOp & { f: 'txn' }>();
  const spans = new Map<string, TransactionSpan[]>();
  const add = (invoke: HistoryOp & { f: 'txn' }, completion?: HistoryOp & { f: 'txn' }): void => {
    const value = completion?.value ?? invoke.value;
    const list = spans.get(invoke.value.transactionalId) ?? [];
    list.push({
      client: invoke.client,
      process: invoke.process,
      startUs: invoke.timeUs,
      ...(completion === undefined ? {} : { endUs: completion.timeUs }),
      ...(value.producerId === undefined ? {} : { producerId: value.producerId }),
      ...(value.producerEpoch === undefined ? {} : { producerEpoch: value.producerEpoch }),
      outcome: outcomeOf(completion),
      ...(completion?.error === undefined ? {} : { error: completion.error }),
    });
    spans.set(invoke.value.transactionalId, list);
  };
  for (const op of history) {
    if (op.f !== 'txn') continue;
    if (op.type === 'invoke') open.set(op.process, op);
    else {
      const invoke = open.get(op.process);
      open.delete(op.process);
      if (invoke !== undefined) add(invoke, op);
    }
  }
  for (const invoke of open.values()) add(invoke);
  for (const list of spans.values()) list.sort((a, b) => a.startUs - b.startUs);
  return spans;
}

/** Each transactional.id's spans and epoch grants, sorted by transactional.id. */
function transactionalIdTimelines(history: History, oracle: Oracle): TransactionalIdTimeline[] {
  const spans = transactionSpans(history);
  const ids = new Set([...spans.keys(), ...oracle.epochGrants.map((g) => g.transactionalId)]);
  return [...ids]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((transactionalId) => ({
      transactionalId,
      spans: thin(spans.get(transactionalId) ?? [], SERIES_POINTS_MAX),
      epochGrants: oracle.epochGrants.filter((g) => g.transactionalId === transactionalId),
    }));
}

/**
 * Whether a topic is Kafka's own (`__transaction_state`, `__consumer_offsets`): charts and
 * metrics are about the application's partitions.
 */
export function isInternalTopic(topic: string): boolean {
  return topic.startsWith('__');
}

/**
 * The timeline of a run: each partition's three offsets thinned together to
 * {@link SERIES_POINTS_MAX} common times (extremes and the report's stalls kept), each
 * transactional.id's spans evenly.
 */
export function buildTimeline(
  history: History,
  oracle: Oracle,
  phases: readonly RunPhase[] = [],
): RunTimeline {
  const partitions = oracle.partitions.filter((partition) => !isInternalTopic(partition.topic));
  return {
    partitions: partitions.map((partition) => {
      const series = partitionSeries(partition);
      return thinPartitionSeries(series, SERIES_POINTS_MAX, stallTimes(series, phases));
    }),
    transactionalIds: transactionalIdTimelines(history, oracle),
    pointsMax: SERIES_POINTS_MAX,
  };
}
