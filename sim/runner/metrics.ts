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
  PhaseLag,
  RunMetrics,
  StableOffsetGap,
  TransactionCounts,
  TransactionPhases,
} from './metrics_types';
import type { PartitionTimeline, RunPhase } from './report_types';
import { thinKeepingExtremes, valueAt } from './series_thinning';
import { lagAtPoll, lastStableOffsetStalls, phaseAt } from './stalls';
import { SERIES_POINTS_MAX, isInternalTopic, partitionSeries } from './timeline';

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

/** Largest gap and time with a gap of `points` (a step series) within `[fromUs, toUs)`. */
function gapWithin(
  points: ReadonlyArray<{ timeUs: number; gap: number }>,
  window: { fromUs: number; toUs: number },
): { gapMax: number; unstableUs: number } {
  let gapMax = 0;
  let unstableUs = 0;
  points.forEach((point, index) => {
    const startUs = Math.max(point.timeUs, window.fromUs);
    const endUs = Math.min(points[index + 1]?.timeUs ?? window.toUs, window.toUs);
    if (endUs <= startUs) return;
    gapMax = Math.max(gapMax, point.gap);
    if (point.gap > 0) unstableUs += endUs - startUs;
  });
  return { gapMax, unstableUs };
}

/** High watermark minus last stable offset at every change of either, overall and per phase. */
export function stableOffsetGap(
  series: PartitionTimeline,
  phases: readonly RunPhase[] = [],
): StableOffsetGap {
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
    phases: phases.map((phase) => ({ phase: phase.name, ...gapWithin(points, phase) })),
    series: thinKeepingExtremes(compacted, SERIES_POINTS_MAX, [(point) => point.gap]),
  };
}

type LagPoint = ConsumerLag['series'][number];

/** The largest lags of each phase over `points`; phases without a poll are left out. */
function lagPerPhase(points: readonly LagPoint[], phases: readonly RunPhase[]): PhaseLag[] {
  const byPhase = new Map<RunPhase['name'], PhaseLag>();
  for (const point of points) {
    const phase = phaseAt(phases, point.timeUs);
    const seen = byPhase.get(phase);
    byPhase.set(phase, {
      phase,
      polls: (seen?.polls ?? 0) + 1,
      logEndOffsetLagMax: Math.max(seen?.logEndOffsetLagMax ?? 0, point.logEndOffsetLag),
      highWatermarkLagMax: Math.max(seen?.highWatermarkLagMax ?? 0, point.highWatermarkLag),
      lastStableOffsetLagMax: Math.max(
        seen?.lastStableOffsetLagMax ?? 0,
        point.lastStableOffsetLag,
      ),
    });
  }
  return phases.flatMap((phase) => byPhase.get(phase.name) ?? []);
}

/** Lag after each poll of each consumer client, per partition it holds a position on. */
export function consumerLag(
  history: History,
  series: readonly PartitionTimeline[],
  phases: readonly RunPhase[] = [],
): ConsumerLag[] {
  const byKey = new Map<string, PartitionTimeline>();
  for (const partition of series) byKey.set(`${partition.topic}-${partition.partition}`, partition);
  const lags = new Map<string, Omit<ConsumerLag, 'series'> & { series: LagPoint[] }>();
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
        phases: [],
        series: [],
      };
      const { timeUs, ...point } = lagAtPoll(
        { client: op.client, isolationLevel: value.isolationLevel, timeUs: op.timeUs, position },
        offsets,
      );
      lag.series.push({
        timeUs,
        position,
        logEndOffsetLag: point.logEndOffsetLag,
        highWatermarkLag: point.highWatermarkLag,
        lastStableOffsetLag: point.lastStableOffsetLag,
      });
      lags.set(key, {
        ...lag,
        highWatermarkLagMax: Math.max(lag.highWatermarkLagMax, point.highWatermarkLag),
        lastStableOffsetLagMax: Math.max(lag.lastStableOffsetLagMax, point.lastStableOffsetLag),
      });
    }
  }
  return [...lags.values()]
    .map((lag) => ({
      ...lag,
      phases: lagPerPhase(lag.series, phases),
      series: thinKeepingExtremes(lag.series, SERIES_POINTS_MAX, [
        (point) => point.logEndOffsetLag,
        (point) => point.highWatermarkLag,
        (point) => point.lastStableOffsetLag,
      ]),
    }))
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

/** Every metric of a run; `phases` splits the gaps, lags and stalls by phase. */
export function buildMetrics(
  history: History,
  oracle: Oracle,
  phases: readonly RunPhase[] = [],
): RunMetrics {
  const samples = txnSamples(history);
  const series = oracle.partitions
    .filter((partition) => !isInternalTopic(partition.topic))
    .map(partitionSeries);
  return {
    transactionPhases: transactionPhases(history, samples),
    commitLatency: latencySummary(samples.committedCommit),
    transactionLatency: latencySummary(samples.transaction),
    counts: transactionCounts(history, oracle),
    stableOffsetGaps: series.map((partition) => stableOffsetGap(partition, phases)),
    consumerLag: consumerLag(history, series, phases),
    stalls: series.flatMap((partition) =>
      lastStableOffsetStalls({ series: partition, history, phases }),
    ),
    ...(oracle.lateTransactions === undefined ? {} : { lateTransactions: oracle.lateTransactions }),
  };
}
