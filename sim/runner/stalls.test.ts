/**
 * Goal: pin the stalls of the last stable offset and the per-phase split on a hand-built
 * partition where each number is worked out by hand: a transaction open from offset 10 holds
 * the LSO there while the high watermark climbs to 30 during the workload; it commits (marker at
 * 30) and the LSO jumps to 31; a later probe transaction in the liveness phase holds it again.
 * A read_committed consumer's lag is 20 against the log end offset and 0 against the LSO at its
 * last poll of the stall. Method: literal offset series, polls and phases.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryOp } from '../history';
import { consumerLag, stableOffsetGap } from './metrics';
import type { PartitionTimeline, RunPhase } from './report_types';
import { findStalls, lastStableOffsetStalls, phaseAt } from './stalls';

const PHASES: RunPhase[] = [
  { name: 'workload', fromUs: 0, toUs: 1000 },
  { name: 'heal', fromUs: 1000, toUs: 1000 },
  { name: 'liveness', fromUs: 1000, toUs: 2000 },
];

const SERIES: PartitionTimeline = {
  topic: 'events',
  partition: 0,
  logEndOffset: [
    { timeUs: 0, offset: 0 },
    { timeUs: 100, offset: 10 },
    { timeUs: 200, offset: 20 },
    { timeUs: 300, offset: 30 },
    { timeUs: 700, offset: 31 },
    { timeUs: 1200, offset: 40 },
  ],
  highWatermark: [
    { timeUs: 0, offset: 0 },
    { timeUs: 110, offset: 10 },
    { timeUs: 210, offset: 20 },
    { timeUs: 310, offset: 30 },
    { timeUs: 710, offset: 31 },
    { timeUs: 1210, offset: 40 },
    { timeUs: 1500, offset: 41 },
  ],
  lastStableOffset: [
    { timeUs: 0, offset: 0 },
    { timeUs: 110, offset: 10 },
    { timeUs: 710, offset: 31 },
    { timeUs: 1500, offset: 41 },
  ],
};

function poll(index: number, timeUs: number, position: number): HistoryOp {
  return {
    index,
    timeUs,
    type: 'ok',
    process: 'reader#0',
    client: 'reader',
    f: 'poll',
    value: {
      isolationLevel: 'read_committed',
      batches: [],
      positions: [{ topic: 'events', partition: 0, position }],
    },
  };
}

const HISTORY = [poll(0, 400, 10), poll(1, 600, 10), poll(2, 800, 31), poll(3, 1300, 31)];

describe('phaseAt', () => {
  it('names the phase a time falls in; an empty phase holds no time', () => {
    expect([0, 999, 1000, 1999, 2500].map((t) => phaseAt(PHASES, t))).toEqual([
      'workload',
      'workload',
      'liveness',
      'liveness',
      'liveness',
    ]);
    expect(phaseAt([], 5)).toBe('workload');
  });
});

describe('stalls of the last stable offset', () => {
  it('finds each stretch the LSO stayed below the HW at one offset, and its jump', () => {
    const stalls = findStalls(SERIES, PHASES);
    expect(stalls.map(({ consumers: _, ...stall }) => stall)).toEqual([
      {
        topic: 'events',
        partition: 0,
        phase: 'workload',
        lastStableOffset: 10,
        fromUs: 210,
        toUs: 710,
        heldBackMax: 20,
        heldBackMaxUs: 310,
        highWatermark: 30,
        logEndOffset: 30,
        jumpTo: 31,
      },
      {
        topic: 'events',
        partition: 0,
        phase: 'liveness',
        lastStableOffset: 31,
        fromUs: 1210,
        toUs: 1500,
        heldBackMax: 9,
        heldBackMaxUs: 1210,
        highWatermark: 40,
        logEndOffset: 40,
        jumpTo: 41,
      },
    ]);
  });

  it("measures each consumer's lag both ways at its last poll of the stall", () => {
    const [workload, liveness] = lastStableOffsetStalls({
      series: SERIES,
      history: HISTORY,
      phases: PHASES,
    });
    expect(workload?.consumers).toEqual([
      {
        client: 'reader',
        isolationLevel: 'read_committed',
        timeUs: 600,
        position: 10,
        logEndOffsetLag: 20,
        highWatermarkLag: 20,
        lastStableOffsetLag: 0,
      },
    ]);
    expect(liveness?.consumers.map((lag) => lag.logEndOffsetLag)).toEqual([9]);
  });

  it('keeps a stall still open at the end without a jump', () => {
    const open = {
      ...SERIES,
      lastStableOffset: SERIES.lastStableOffset.slice(0, 2),
    };
    const stalls = findStalls(open, PHASES);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]).toMatchObject({ lastStableOffset: 10, fromUs: 210, heldBackMax: 31 });
    expect(stalls[0]?.toUs).toBeUndefined();
    expect(stalls[0]?.jumpTo).toBeUndefined();
  });
});

describe('metrics per phase', () => {
  it('splits the HW−LSO gap and the lag by phase', () => {
    const gap = stableOffsetGap(SERIES, PHASES);
    expect(gap.gapMax).toBe(20);
    expect(gap.phases).toEqual([
      { phase: 'workload', gapMax: 20, unstableUs: 500 },
      { phase: 'heal', gapMax: 0, unstableUs: 0 },
      { phase: 'liveness', gapMax: 9, unstableUs: 290 },
    ]);
    const [lag] = consumerLag(HISTORY, [SERIES], PHASES);
    expect(lag?.phases).toEqual([
      {
        phase: 'workload',
        polls: 3,
        logEndOffsetLagMax: 20,
        highWatermarkLagMax: 20,
        lastStableOffsetLagMax: 0,
      },
      {
        phase: 'liveness',
        polls: 1,
        logEndOffsetLagMax: 9,
        highWatermarkLagMax: 9,
        lastStableOffsetLagMax: 0,
      },
    ]);
  });
});
