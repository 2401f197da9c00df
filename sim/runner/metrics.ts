/**
 * Computes a run's {@link RunMetrics} from its history and oracle: per-call transaction
 * timings from the `init` and `txn` operations (a `txn` completion carries `endTxnUs`, when the
 * application called commitTransaction() or abortTransaction()), fencing and abort counts, the
 * gap between high watermark and last stable offset from the oracle's offset histories, and
 * consumer lag from the positions each `poll` reports against those histories.
 */
import { isFencingError } from '../actors';
import type { History, HistoryOp, Oracle, PollValue } from '../history';
import type {
  ConsumerLag,
  LatencySummary,
  RunMetrics,
  StableOffsetGap,
  TransactionCounts,
  TransactionPhases,
} from './metrics_types';
import type { PartitionTimeline } from './report_types';
import { SERIES_POINTS_MAX, isInternalTopic, partitionSeries, thin, valueAt } from './timeline';

/**
 * Summary of `samplesUs` (microseconds): mean rounded down, nearest-rank percentiles.
 * @example latencySummary([10, 20, 30]).p50Us // 20
 */
export function latencySummary(samplesUs: readonly number[], note?: string): LatencySummary {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const rank = (percent: number): number =>
    sorted[Math.max(0, Math.ceil((percent / 100) * sorted.length) - 1)] ?? 0;
  const total = sorted.reduce((sum, sample) => sum + sample, 0);
  return {
    count: sorted.length,
    meanUs: sorted.length === 0 ? 0 : Math.floor(total / sorted.length),
    p50Us: rank(50),
    p90Us: rank(90),
    p99Us: rank(99),
    maxUs: sorted[sorted.length - 1] ?? 0,
    ...(note === undefined ? {} : { note }),
  };
}

/** Each invoke paired with its completion, by process. */
function completedPairs(history: History, f: 'init' | 'txn'): Array<[HistoryOp, HistoryOp]> {
  const open = new Map<string, HistoryOp>();
  const pairs: Array<[HistoryOp, HistoryOp]> = [];
  for (const op of history) {
    if (op.f !== f) continue;
    if (op.type === 'invoke') open.set(op.process, op);
    else {
      const invoke = open.get(op.process);
      open.delete(op.process);
      if (invoke !== undefined) pairs.push([invoke, op]);
    }
  }
  return pairs;
}

interface PhaseSamples {
  readonly commit: number[];
  readonly committedCommit: number[];
  readonly abort: number[];
  readonly transaction: number[];
}

function txnSamples(history: History): PhaseSamples {
  const samples: PhaseSamples = { commit: [], committedCommit: [], abort: [], transaction: [] };
  for (const [invoke, completion] of completedPairs(history, 'txn')) {
    if (completion.f !== 'txn') continue;
    const { endTxnUs, commit } = completion.value;
    if (endTxnUs === undefined) continue;
    const phaseUs = completion.timeUs - endTxnUs;
    (commit ? samples.commit : samples.abort).push(phaseUs);
    if (commit && completion.type === 'ok') {
      samples.committedCommit.push(phaseUs);
      samples.transaction.push(completion.timeUs - invoke.timeUs);
    }
  }
  return samples;
}

function transactionPhases(history: History, samples: PhaseSamples): TransactionPhases {
  const init = completedPairs(history, 'init').map(([invoke, done]) => done.timeUs - invoke.timeUs);
  const begins = history.filter((op) => op.f === 'txn' && op.type === 'invoke').length;
  return {
    init: latencySummary(init),
    begin: latencySummary(
      new Array<number>(begins).fill(0),
      'beginTransaction() is a local state change: it never waits, in Kafka or in the model',
    ),
    sendOffsets: latencySummary(
      [],
      'not exercised: the workload has no consume-transform-produce pipeline',
    ),
    commit: latencySummary(samples.commit),
    abort: latencySummary(samples.abort),
  };
}

function transactionCounts(history: History, oracle: Oracle): TransactionCounts {
  const counts = { transactions: 0, committed: 0, aborted: 0, failed: 0, unknown: 0 };
  let fencingErrors = 0;
  const fenced = new Set<string>();
  for (const op of history) {
    if (isFencingError(op.error)) {
      fencingErrors += 1;
      fenced.add(op.client);
    }
    if (op.f !== 'txn') continue;
    if (op.type === 'invoke') counts.transactions += 1;
    else if (op.type === 'info') counts.unknown += 1;
    else if (op.type === 'fail') counts.failed += 1;
    else if (op.value.commit) counts.committed += 1;
    else counts.aborted += 1;
  }
  const epochBumps = { init: 0, fence: 0, timeout: 0, end: 0 };
  for (const grant of oracle.epochGrants) epochBumps[grant.reason] += 1;
  return { ...counts, fencingErrors, fencedClients: fenced.size, epochBumps };
}

/** High watermark minus last stable offset at every change of either. */
export function stableOffsetGap(series: PartitionTimeline): StableOffsetGap {
  const times = [...series.highWatermark, ...series.lastStableOffset].map((p) => p.timeUs);
  const instants = [...new Set(times)].sort((a, b) => a - b);
  const points = instants.map((timeUs) => ({
    timeUs,
    gap: Math.max(
      0,
      valueAt(series.highWatermark, timeUs) - valueAt(series.lastStableOffset, timeUs),
    ),
  }));
  let unstableUs = 0;
  points.forEach((point, index) => {
    const next = points[index + 1];
    if (point.gap > 0 && next !== undefined) unstableUs += next.timeUs - point.timeUs;
  });
  const compacted = points.filter(
    (point, index) => index === 0 || points[index - 1]?.gap !== point.gap,
  );
  return {
    topic: series.topic,
    partition: series.partition,
    gapMax: points.reduce((max, point) => Math.max(max, point.gap), 0),
    unstableUs,
    series: thin(compacted, SERIES_POINTS_MAX),
  };
}

/** Lag after each poll of each consumer client, per partition it holds a position on. */
export function consumerLag(history: History, series: readonly PartitionTimeline[]): ConsumerLag[] {
  const byKey = new Map<string, PartitionTimeline>();
  for (const partition of series) byKey.set(`${partition.topic}-${partition.partition}`, partition);
  const lags = new Map<string, ConsumerLag & { series: Array<ConsumerLag['series'][number]> }>();
  for (const op of history) {
    if (op.f !== 'poll' || op.type !== 'ok') continue;
    const value: PollValue = op.value;
    for (const { topic, partition, position } of value.positions) {
      const offsets = byKey.get(`${topic}-${partition}`);
      if (offsets === undefined) continue;
      const key = `${op.client}\u0000${topic}-${partition}`;
      const lag = lags.get(key) ?? {
        client: op.client,
        topic,
        partition,
        isolationLevel: value.isolationLevel,
        highWatermarkLagMax: 0,
        lastStableOffsetLagMax: 0,
        series: [],
      };
      const point = {
        timeUs: op.timeUs,
        position,
        logEndOffsetLag: Math.max(0, valueAt(offsets.logEndOffset, op.timeUs) - position),
        highWatermarkLag: Math.max(0, valueAt(offsets.highWatermark, op.timeUs) - position),
        lastStableOffsetLag: Math.max(0, valueAt(offsets.lastStableOffset, op.timeUs) - position),
      };
      lag.series.push(point);
      lags.set(key, {
        ...lag,
        highWatermarkLagMax: Math.max(lag.highWatermarkLagMax, point.highWatermarkLag),
        lastStableOffsetLagMax: Math.max(lag.lastStableOffsetLagMax, point.lastStableOffsetLag),
      });
    }
  }
  return [...lags.values()]
    .map((lag) => ({ ...lag, series: thin(lag.series, SERIES_POINTS_MAX) }))
    .sort((a, b) =>
      a.client < b.client ? -1 : a.client > b.client ? 1 : compareTopicPartition(a, b),
    );
}

function compareTopicPartition(
  a: { topic: string; partition: number },
  b: { topic: string; partition: number },
): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** Every metric of a run. */
export function buildMetrics(history: History, oracle: Oracle): RunMetrics {
  const samples = txnSamples(history);
  const series = oracle.partitions
    .filter((partition) => !isInternalTopic(partition.topic))
    .map(partitionSeries);
  return {
    transactionPhases: transactionPhases(history, samples),
    commitLatency: latencySummary(samples.committedCommit),
    transactionLatency: latencySummary(samples.transaction),
    counts: transactionCounts(history, oracle),
    stableOffsetGaps: series.map(stableOffsetGap),
    consumerLag: consumerLag(history, series),
  };
}
