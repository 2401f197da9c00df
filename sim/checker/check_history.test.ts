/**
 * Goal: pin how `checkHistory` merges checkers: a throw is `unknown` and never hides another
 * checker's anomaly (Jepsen's merge: false outranks unknown outranks true), anomalies are grouped
 * by sorted kind and ordered by time, the cap applies per kind while counts stay exact, and a bad
 * `examplesMax` is refused. Method: stub checkers returning fixed anomalies over an empty run.
 */
import { describe, expect, it } from 'vitest';
import type { Oracle } from '../history';
import type { Anomaly, AnomalyKind } from './anomaly_types';
import { checkHistory, type NamedChecker } from './check_history';

const oracle: Oracle = { partitions: [], epochGrants: [], faults: [], invariantViolations: [] };

function anomaly(kind: AnomalyKind, options: { timeUs: number; message?: string }): Anomaly {
  const { timeUs } = options;
  return { kind, message: options.message ?? `${kind} at ${timeUs}`, timeUs, activeFaults: [] };
}

function returning(name: string, anomalies: readonly Anomaly[]): NamedChecker {
  return { name, check: () => anomalies };
}

const throwing: NamedChecker = {
  name: 'broken',
  check: () => {
    throw new RangeError('index out of range');
  },
};

describe('checkHistory', () => {
  it('is valid with no anomaly and no checker error', () => {
    expect(checkHistory([], oracle).valid).toBe(true);
  });

  it('is unknown when a checker throws, and false when another found an anomaly', () => {
    const unknown = checkHistory([], oracle, { checkers: [throwing] });
    expect(unknown.valid).toBe('unknown');
    expect(unknown.checkerErrors).toEqual([
      { checker: 'broken', error: 'RangeError: index out of range' },
    ]);
    const found = returning('lost-write', [anomaly('lost-write', { timeUs: 5 })]);
    const merged = checkHistory([], oracle, { checkers: [throwing, found] });
    expect(merged.valid).toBe(false);
    expect(merged.checkerErrors).toHaveLength(1);
  });

  it('groups by sorted kind, orders by time, and caps per kind with exact counts', () => {
    const checkers = [
      returning('zombie-write', [
        anomaly('zombie-write', { timeUs: 9 }),
        anomaly('zombie-write', { timeUs: 3 }),
      ]),
      returning('duplicate', [
        anomaly('duplicate', { timeUs: 7, message: 'first' }),
        anomaly('duplicate', { timeUs: 7, message: 'second' }),
      ]),
      returning('aborted-read', [
        anomaly('aborted-read', { timeUs: 1 }),
        anomaly('aborted-read', { timeUs: 2 }),
      ]),
    ];
    const result = checkHistory([], oracle, { checkers, examplesMax: 1 });
    expect(result.anomalyTypes).toEqual(['aborted-read', 'duplicate', 'zombie-write']);
    expect(result.anomalies.map((found) => found.message)).toEqual([
      'aborted-read at 1',
      'first',
      'zombie-write at 3',
    ]);
    expect(result.anomalyCounts).toEqual([
      { kind: 'aborted-read', count: 2 },
      { kind: 'duplicate', count: 2 },
      { kind: 'zombie-write', count: 2 },
    ]);
    const none = checkHistory([], oracle, { checkers, examplesMax: 0 });
    expect(none.anomalies).toEqual([]);
    expect(none.valid).toBe(false);
  });

  it('refuses an examplesMax that is not a non-negative integer', () => {
    expect(() => checkHistory([], oracle, { examplesMax: -1 })).toThrow(RangeError);
    expect(() => checkHistory([], oracle, { examplesMax: 1.5 })).toThrow('non-negative integer');
  });
});
