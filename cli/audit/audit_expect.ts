/**
 * What each `--expect` forbids. `exactly-once` forbids every anomaly kind; `no-loss` the kinds
 * where an acknowledged or committed record goes missing or a read is later undone;
 * `at-least-once` those and a hanging transaction (a read_committed consumer never gets past
 * it); `no-duplicates` a record written or processed twice. A model invariant breaking is
 * forbidden by all of them: it means the simulation itself went wrong.
 */
import { ANOMALY_KINDS, type AnomalyKind } from '../../sim/checker';

export const EXPECTATIONS = ['exactly-once', 'no-loss', 'no-duplicates', 'at-least-once'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

const LOSS: readonly AnomalyKind[] = [
  'lost-write',
  'vanished-read',
  'inconsistent-offsets',
  'poll-skip',
  'read-above-hw',
  'torn-transaction',
  'invariant',
];

const FORBIDDEN: Readonly<Record<Expectation, readonly AnomalyKind[]>> = {
  'exactly-once': ANOMALY_KINDS,
  'no-loss': LOSS,
  'at-least-once': [...LOSS, 'hanging-transaction'],
  'no-duplicates': ['duplicate', 'epoch-bump-duplicate', 'eos-violation', 'invariant'],
};

/**
 * The kinds `expectation` forbids.
 * @example forbiddenKinds('no-duplicates').includes('duplicate') // true
 */
export function forbiddenKinds(expectation: Expectation): readonly AnomalyKind[] {
  return FORBIDDEN[expectation];
}

export function isExpectation(text: string): text is Expectation {
  return (EXPECTATIONS as readonly string[]).includes(text);
}
