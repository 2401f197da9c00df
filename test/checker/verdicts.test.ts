/**
 * Goal: show how the real checkers' verdicts merge: a checker that throws, or an input it cannot
 * read, gives `unknown` and never `false`, and the per-kind example cap never changes the counts.
 * Method: a stub checker that throws, a malformed oracle, and thirty recorded invariant
 * violations beside one lost write, checked with and without a cap.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import type { NamedChecker } from '../../sim/checker';
import {
  READ_UNCOMMITTED,
  data,
  finalRead,
  historyOf,
  oracleOf,
  oracleOfPartition0,
  send,
} from './builders';

describe('merging verdicts', () => {
  it('a checker that throws yields unknown with its error, never false', () => {
    const throwing: NamedChecker = {
      name: 'exploding',
      check: () => {
        throw new TypeError('boom');
      },
    };
    const result = checkHistory([], oracleOf({}), { checkers: [throwing] });
    expect(result.valid).toBe('unknown');
    expect(result.checkerErrors).toEqual([{ checker: 'exploding', error: 'TypeError: boom' }]);
  });

  it('a malformed oracle makes the checkers that read it unknown', () => {
    const oracle = oracleOfPartition0([
      data({ offset: 3, value: 1 }),
      data({ offset: 2, value: 2 }),
    ]);
    const result = checkHistory([], oracle);
    expect(result.valid).toBe('unknown');
    expect(result.anomalies).toEqual([]);
    expect(result.checkerErrors).toContainEqual({
      checker: 'zombie-write',
      error: 'CheckerInputError: Oracle offsets must strictly increase: t-0 offset 2',
    });
  });

  it('the example cap keeps anomalyCounts exact and anomalyTypes sorted', () => {
    const violations = Array.from({ length: 30 }, (_, position) => ({
      timeUs: 1000 - position,
      topic: 't',
      partition: 0,
      description: `violation ${position}`,
    }));
    const history = historyOf(
      send({ client: 'A', partition: 0, value: 1, offset: 0, atUs: 100 }),
      finalRead('reader', { isolationLevel: READ_UNCOMMITTED, records: [], atUs: 900 }),
    );
    const oracle = oracleOf({ invariantViolations: violations });
    const capped = checkHistory(history, oracle, { examplesMax: 5 });
    expect(capped.anomalyTypes).toEqual(['invariant', 'lost-write']);
    expect(capped.anomalyCounts).toEqual([
      { kind: 'invariant', count: 30 },
      { kind: 'lost-write', count: 1 },
    ]);
    const times = capped.anomalies.map((anomaly) => anomaly.timeUs);
    expect(times).toEqual([971, 972, 973, 974, 975, 110]);
    const byDefault = checkHistory(history, oracle);
    expect(byDefault.anomalies.filter((anomaly) => anomaly.kind === 'invariant')).toHaveLength(20);
    expect(byDefault.anomalyCounts).toEqual(capped.anomalyCounts);
  });
});
