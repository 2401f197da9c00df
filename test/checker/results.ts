/**
 * Assertions on whole `checkHistory` results that the checker suites share: a result holding
 * exactly one anomaly (returned for closer assertions), one anomaly of a given kind among
 * others, and a clean result.
 */
import { expect } from 'vitest';
import type { Anomaly, AnomalyKind, CheckResult } from '../../sim/checker';

/** The only anomaly of a result; fails the test when there is not exactly one. */
export function onlyAnomaly(result: CheckResult): Anomaly {
  expect(result.checkerErrors).toEqual([]);
  expect(result.anomalies).toHaveLength(1);
  const [anomaly] = result.anomalies;
  if (anomaly === undefined) throw new Error('Expected one anomaly');
  expect(result.valid).toBe(false);
  expect(result.anomalyTypes).toEqual([anomaly.kind]);
  expect(result.anomalyCounts).toEqual([{ kind: anomaly.kind, count: 1 }]);
  return anomaly;
}

/** The only anomaly of `kind` in a result that may hold other kinds too. */
export function onlyOfKind(result: CheckResult, kind: AnomalyKind): Anomaly {
  expect(result.checkerErrors).toEqual([]);
  const ofKind = result.anomalies.filter((anomaly) => anomaly.kind === kind);
  expect(ofKind).toHaveLength(1);
  const [anomaly] = ofKind;
  if (anomaly === undefined) throw new Error(`Expected one ${kind} anomaly`);
  return anomaly;
}

/** Fails unless the result is valid, with no anomaly and no checker error. */
export function expectClean(result: CheckResult): void {
  expect(result).toEqual({
    valid: true,
    anomalyTypes: [],
    anomalies: [],
    anomalyCounts: [],
    checkerErrors: [],
  });
}
