/**
 * The Markdown report's view of the workload phase, shown right after the summary: the phases
 * of the run, and each of the workload's largest stalls of the last stable offset with the
 * offset it was held at, the high watermark and log end offset above it, each consumer's lag
 * measured both ways (against the end of the log, as broker-side tools see it, and against the
 * LSO, as a read_committed consumer's `endOffsets()` sees it) and the jump of the LSO when the
 * stall ended. Heal and liveness phases are summarised on their own line, so their probe
 * transactions do not mix with the workload's figures.
 */
import type { LastStableOffsetStall, RunPhase, RunReport } from '../sim/runner';
import { formatSeconds, groupDigits } from './text_layout';

/** Workload stalls shown on the first screen; the JSON keeps three per partition and phase. */
const STALLS_SHOWN_MAX = 3;

/** `text` with Markdown's and HTML's special characters escaped (the caller's escaper). */
type Escape = (text: string) => string;

/**
 * The phases as one line.
 * @example phasesLine(report.phases) // 'workload 0 s – 720 s · heal 720 s – 720.4 s · …'
 */
export function phasesLine(phases: readonly RunPhase[]): string {
  if (phases.length === 0) return 'not recorded';
  return phases
    .map((phase) => `${phase.name} ${formatSeconds(phase.fromUs)} – ${formatSeconds(phase.toUs)}`)
    .join(' · ');
}

function stallRow(stall: LastStableOffsetStall, escape: Escape): string[] {
  const jump =
    stall.jumpTo === undefined || stall.toUs === undefined
      ? 'still held at the end'
      : `**${groupDigits(stall.lastStableOffset)} → ${groupDigits(stall.jumpTo)}** at ` +
        `${formatSeconds(stall.toUs)} (${groupDigits(stall.jumpTo - stall.lastStableOffset)} ` +
        'offsets at once)';
  return [
    escape(`${stall.topic}-${stall.partition}`),
    `**${groupDigits(stall.lastStableOffset)}**`,
    `${formatSeconds(stall.fromUs)} – ` +
      (stall.toUs === undefined ? 'end' : formatSeconds(stall.toUs)),
    `${groupDigits(stall.highWatermark)} / ${groupDigits(stall.logEndOffset)}`,
    groupDigits(stall.heldBackMax),
    jump,
  ];
}

function lagRows(stalls: readonly LastStableOffsetStall[], escape: Escape): string[][] {
  return stalls.flatMap((stall) =>
    stall.consumers.map((lag) => [
      escape(lag.client),
      escape(`${stall.topic}-${stall.partition}`),
      lag.isolationLevel,
      formatSeconds(lag.timeUs),
      groupDigits(lag.position),
      `**${groupDigits(lag.logEndOffsetLag)}**`,
      groupDigits(lag.highWatermarkLag),
      `**${groupDigits(lag.lastStableOffsetLag)}**`,
    ]),
  );
}

/** Largest HW−LSO gap over the partitions within `phase`, and the partition it was on. */
function gapIn(report: RunReport, phase: RunPhase['name']): string {
  let best: { gap: number; where: string } | null = null;
  for (const gap of report.metrics.stableOffsetGaps) {
    const inPhase = gap.phases.find((entry) => entry.phase === phase);
    if (inPhase !== undefined && (best === null || inPhase.gapMax > best.gap)) {
      best = { gap: inPhase.gapMax, where: `${gap.topic}-${gap.partition}` };
    }
  }
  return best === null ? 'no partition' : `${groupDigits(best.gap)} (${best.where})`;
}

/** The report's own table builder (cells escaped by the caller). */
type Table = (header: readonly string[], rows: ReadonlyArray<readonly string[]>) => string[];

const STALL_HEADER = [
  'partition',
  'LSO held at',
  'from – to',
  'HW / LEO at the most held back',
  'held back',
  'LSO jump',
];

const LAG_HEADER = [
  'consumer',
  'partition',
  'isolation.level',
  'poll at',
  'position',
  'vs LEO',
  'vs HW',
  'vs LSO',
];

/** The workload's stalls that held back the most, at most {@link STALLS_SHOWN_MAX}, by time. */
function shownStalls(report: RunReport): {
  shown: LastStableOffsetStall[];
  kept: number;
} {
  const stalls = report.metrics.stalls.filter((stall) => stall.phase === 'workload');
  const shown = [...stalls]
    .sort((a, b) => b.heldBackMax - a.heldBackMax || a.fromUs - b.fromUs)
    .slice(0, STALLS_SHOWN_MAX)
    .sort((a, b) => a.fromUs - b.fromUs);
  return { shown, kept: stalls.length };
}

/** The heading, the phases and the largest gap of each phase. */
function phaseLines(report: RunReport, escape: Escape): string[] {
  const workload = report.phases.find((phase) => phase.name === 'workload');
  const span =
    workload === undefined
      ? ''
      : ` (${formatSeconds(workload.fromUs)} – ${formatSeconds(workload.toUs)})`;
  const after = (['heal', 'liveness', 'settle'] as const)
    .map((phase) => `${phase} ${escape(gapIn(report, phase))}`)
    .join(', ');
  return [
    `## Workload phase${span}`,
    '',
    `Phases: ${phasesLine(report.phases)}.`,
    '',
    'Largest gap between high watermark and last stable offset: ' +
      `${escape(gapIn(report, 'workload'))} in the workload; ${after}.`,
    '',
  ];
}

/** The section, as Markdown lines; `table` and `escape` are the report's own. */
export function workloadSection(
  report: RunReport,
  helpers: { readonly table: Table; readonly escape: Escape },
): string[] {
  const { table, escape } = helpers;
  const lines = phaseLines(report, escape);
  const { shown, kept } = shownStalls(report);
  if (shown.length === 0) {
    return [...lines, 'The last stable offset never stalled below the high watermark.'];
  }
  lines.push(
    `Stalls of the last stable offset (largest ${shown.length} of ${kept} kept):`,
    '',
    ...table(
      STALL_HEADER,
      shown.map((stall) => stallRow(stall, escape)),
    ),
  );
  const lags = lagRows(shown, escape);
  if (lags.length === 0) return lines;
  return [
    ...lines,
    '',
    'Consumer lag at the last poll of each stall, two ways: against the log end offset ' +
      '(broker-side tools) and against the LSO (a read_committed `endOffsets()` returns the ' +
      'LSO, so `endOffsets()` − `position()`):',
    '',
    ...table(LAG_HEADER, lags),
  ];
}
