/**
 * Stalls of the last stable offset: stretches during which a partition's LSO stays at one
 * offset while its high watermark is above it, because the oldest open transaction there
 * started at that offset (Kafka's ProducerStateManager.firstUnstableOffset). A read_committed
 * consumer is held at the LSO, so it shows no lag by its own `endOffsets()` (which returns the
 * LSO under read_committed) while broker-side tools, measuring against the end of the log, see
 * the whole held-back backlog; when the transaction ends the LSO jumps in one step. Each stall
 * records both views of lag at the consumers' last poll during it, and the jump.
 */
import type { History, PollValue } from '../history';
import type { LagAtPoll, LastStableOffsetStall } from './metrics_types';
import type { PartitionTimeline, RunPhase, RunPhaseName } from './report_types';
import { offsetRows, valueAt } from './series_thinning';

/** Stalls kept per partition and phase: those that held back the most offsets. */
export const STALLS_PER_PHASE_MAX = 3;

/**
 * The phase `timeUs` falls in: the one with `fromUs ≤ timeUs < toUs`, the last phase from its
 * start on, `workload` when the run has no phases (a report built outside the runner).
 */
export function phaseAt(phases: readonly RunPhase[], timeUs: number): RunPhaseName {
  const found = phases.find((phase) => timeUs >= phase.fromUs && timeUs < phase.toUs);
  return found?.name ?? phases.at(-1)?.name ?? 'workload';
}

type OpenStall = { -readonly [K in keyof LastStableOffsetStall]: LastStableOffsetStall[K] };

/** Every stall of one partition, in time order, without the consumers' lag. */
export function findStalls(series: PartitionTimeline, phases: readonly RunPhase[]): OpenStall[] {
  const stalls: OpenStall[] = [];
  let open: OpenStall | null = null;
  for (const row of offsetRows(series)) {
    const gap = row.highWatermark - row.lastStableOffset;
    if (open !== null && (row.lastStableOffset !== open.lastStableOffset || gap <= 0)) {
      open.toUs = row.timeUs;
      open.jumpTo = row.lastStableOffset;
      stalls.push(open);
      open = null;
    }
    if (open === null && gap > 0) {
      open = {
        topic: series.topic,
        partition: series.partition,
        phase: phaseAt(phases, row.timeUs),
        lastStableOffset: row.lastStableOffset,
        fromUs: row.timeUs,
        heldBackMax: gap,
        heldBackMaxUs: row.timeUs,
        highWatermark: row.highWatermark,
        logEndOffset: row.logEndOffset,
        consumers: [],
      };
    } else if (open !== null && gap > open.heldBackMax) {
      open.heldBackMax = gap;
      open.heldBackMaxUs = row.timeUs;
      open.highWatermark = row.highWatermark;
      open.logEndOffset = row.logEndOffset;
    }
  }
  if (open !== null) stalls.push(open);
  return stalls;
}

/**
 * The stalls a report keeps, in time order: per phase, the `STALLS_PER_PHASE_MAX` that held
 * back the most (then the longest, then the earliest).
 */
export function largestStalls(series: PartitionTimeline, phases: readonly RunPhase[]): OpenStall[] {
  return largestPerPhase(findStalls(series, phases));
}

/**
 * The times a thinned timeline must keep so it shows each kept stall as the stalls table does:
 * its start, its fullest moment and its end.
 */
export function stallTimes(series: PartitionTimeline, phases: readonly RunPhase[]): Set<number> {
  return new Set(
    largestStalls(series, phases).flatMap((stall) => [
      stall.fromUs,
      stall.heldBackMaxUs,
      ...(stall.toUs === undefined ? [] : [stall.toUs]),
    ]),
  );
}

function largestPerPhase(stalls: readonly OpenStall[]): OpenStall[] {
  const byPhase = new Map<RunPhaseName, OpenStall[]>();
  for (const stall of stalls) {
    const list = byPhase.get(stall.phase);
    if (list === undefined) byPhase.set(stall.phase, [stall]);
    else list.push(stall);
  }
  const kept: OpenStall[] = [];
  for (const list of byPhase.values()) {
    const ranked = [...list].sort(
      (a, b) =>
        b.heldBackMax - a.heldBackMax ||
        (b.toUs ?? Infinity) - b.fromUs - ((a.toUs ?? Infinity) - a.fromUs) ||
        a.fromUs - b.fromUs,
    );
    kept.push(...ranked.slice(0, STALLS_PER_PHASE_MAX));
  }
  return kept.sort((a, b) => a.fromUs - b.fromUs);
}

/** A partition's polls in history order: client, time and the position reported. */
interface PartitionPoll {
  readonly client: string;
  readonly isolationLevel: PollValue['isolationLevel'];
  readonly timeUs: number;
  readonly position: number;
}

function pollsOf(history: History, series: PartitionTimeline): PartitionPoll[] {
  const polls: PartitionPoll[] = [];
  for (const op of history) {
    if (op.f !== 'poll' || op.type !== 'ok') continue;
    for (const { topic, partition, position } of op.value.positions) {
      if (topic !== series.topic || partition !== series.partition) continue;
      const { isolationLevel } = op.value;
      polls.push({ client: op.client, isolationLevel, timeUs: op.timeUs, position });
    }
  }
  return polls;
}

/** A poll's lag against each offset in force at its time. */
export function lagAtPoll(poll: PartitionPoll, series: PartitionTimeline): LagAtPoll {
  const lag = (offsets: PartitionTimeline['logEndOffset']): number =>
    Math.max(0, valueAt(offsets, poll.timeUs) - poll.position);
  return {
    ...poll,
    logEndOffsetLag: lag(series.logEndOffset),
    highWatermarkLag: lag(series.highWatermark),
    lastStableOffsetLag: lag(series.lastStableOffset),
  };
}

/** Each client's last poll of the partition at or after `fromUs` and before `toUs`. */
function lastPollsDuring(polls: readonly PartitionPoll[], stall: OpenStall): PartitionPoll[] {
  const endUs = stall.toUs ?? Infinity;
  const last = new Map<string, PartitionPoll>();
  for (const poll of polls) {
    if (poll.timeUs >= stall.fromUs && poll.timeUs < endUs) last.set(poll.client, poll);
  }
  return [...last.values()].sort((a, b) => (a.client < b.client ? -1 : 1));
}

/**
 * The largest stalls of one partition (full-resolution series), with each consumer's lag at
 * its last poll during each.
 */
export function lastStableOffsetStalls(input: {
  readonly series: PartitionTimeline;
  readonly history: History;
  readonly phases: readonly RunPhase[];
}): LastStableOffsetStall[] {
  const kept = largestStalls(input.series, input.phases);
  if (kept.length === 0) return [];
  const polls = pollsOf(input.history, input.series);
  return kept.map((stall) => ({
    ...stall,
    consumers: lastPollsDuring(polls, stall).map((poll) => lagAtPoll(poll, input.series)),
  }));
}
