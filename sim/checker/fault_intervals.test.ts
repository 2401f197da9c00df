/**
 * Goal: pin which faults an anomaly names as active: nemesis starts and ends are matched by
 * fault and description in order, a start never ended stays active, the oracle's intervals are
 * added, both ends are inclusive, and each description appears once in first-seen order.
 * Method: a short nemesis history plus oracle intervals, probed at chosen times.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryOp, Oracle } from '../history';
import { activeFaultsAt, buildFaultIntervals } from './fault_intervals';

/** `[timeUs, phase, fault, description]` of one nemesis operation. */
type Row = readonly [timeUs: number, phase: 'start' | 'end', fault: string, description: string];

function nemesisOps(table: readonly Row[]): HistoryOp[] {
  return table.map(([timeUs, phase, fault, description], index) => ({
    index,
    timeUs,
    type: 'info',
    process: 'nemesis',
    client: 'nemesis',
    f: 'nemesis',
    value: { fault, phase, description },
  }));
}

const history = nemesisOps([
  [100, 'start', 'partition', 'isolate b1'],
  [150, 'start', 'partition', 'isolate b1'],
  [200, 'end', 'partition', 'isolate b1'],
  [250, 'start', 'pause', 'pause b2'],
  [260, 'end', 'crash', 'pause b2'],
  [300, 'end', 'partition', 'isolate b1'],
  [400, 'end', 'pause', 'never started'],
]);

const oracle: Oracle = {
  partitions: [],
  epochGrants: [],
  faults: [
    { description: 'pause b2', startUs: 50, endUs: 120 },
    { description: 'skew b3', startUs: 280 },
  ],
  invariantViolations: [],
};

describe('buildFaultIntervals', () => {
  it('matches each end to the earliest open start with the same fault and description', () => {
    expect(buildFaultIntervals(history, oracle)).toEqual([
      { description: 'isolate b1', startUs: 100, endUs: 200 },
      { description: 'isolate b1', startUs: 150, endUs: 300 },
      { description: 'pause b2', startUs: 250, endUs: null },
      { description: 'pause b2', startUs: 50, endUs: 120 },
      { description: 'skew b3', startUs: 280, endUs: null },
    ]);
  });
});

describe('activeFaultsAt', () => {
  const intervals = buildFaultIntervals(history, oracle);

  it.each([
    [0, []],
    [50, ['pause b2']],
    [110, ['isolate b1', 'pause b2']],
    [200, ['isolate b1']],
    [280, ['isolate b1', 'pause b2', 'skew b3']],
    [301, ['pause b2', 'skew b3']],
  ])('at %ius: %j', (timeUs, expected) => {
    expect(activeFaultsAt(intervals, timeUs)).toEqual(expected);
  });
});
