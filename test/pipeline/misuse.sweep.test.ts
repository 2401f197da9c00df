/**
 * Goal: each misuse scenario of `scenarios/known-bugs/` reports eos-violation and names the
 * instance responsible, and the same scenario with the misuse switched back to Kafka's advice
 * is clean, so the switch (not the faults) is the cause. Method: the bundled files, seeds 1..2
 * (SIM_SEEDS widens), with one text edit for the safe counterpart.
 */
import { describe, expect, it } from 'vitest';
import type { Anomaly } from '../../sim/checker';
import { sweepSeeds } from '../seed_range';
import { eosViolations, runEdited } from './pipeline_helpers';

const SEEDS = sweepSeeds('1..2');

/** The clients an eos-violation names: the writers of a duplicate, the skipper of a gap. */
function named(anomaly: Anomaly): string[] {
  return anomaly.writers?.map((writer) => writer.client) ?? [anomaly.client ?? ''];
}

/** An eos-violation names its instances: client, and for a writer its producer identity. */
function expectNamed(anomaly: Anomaly): void {
  expect(named(anomaly).every((client) => /^P\d$/.test(client))).toBe(true);
  for (const writer of anomaly.writers ?? []) {
    expect(writer.transactionalId).toMatch(/\S/);
    expect(writer.producerId).toBeGreaterThanOrEqual(0);
    expect(writer.producerEpoch).toBeGreaterThanOrEqual(0);
  }
}

const CASES: ReadonlyArray<{
  readonly file: string;
  readonly classification: 'duplicated' | 'missing';
  readonly safe: ReadonlyArray<readonly [string, string]>;
}> = [
  {
    file: 'known-bugs/random-transactional-id',
    classification: 'duplicated',
    safe: [['send.offsets.group.metadata: false', 'send.offsets.group.metadata: true']],
  },
  {
    file: 'known-bugs/stale-offsets-before-marker',
    classification: 'duplicated',
    safe: [['require.stable: false', 'require.stable: true']],
  },
  {
    file: 'known-bugs/offsets-outside-transaction',
    classification: 'duplicated',
    safe: [
      ['enable.auto.commit: true', 'enable.auto.commit: false'],
      ['offsets.commit: auto-commit', 'offsets.commit: transaction'],
    ],
  },
  {
    file: 'known-bugs/no-rewind-after-abort',
    classification: 'missing',
    safe: [['rewind.after.abort: false', 'rewind.after.abort: true']],
  },
];

describe('pipeline misuse', () => {
  for (const { file, classification, safe } of CASES) {
    for (const seed of SEEDS) {
      it(`${file} seed ${seed}: eos-violation (${classification}) naming the instance`, () => {
        const violations = eosViolations(runEdited(file, seed));
        const ofKind = violations.filter((a) => a.classification === classification);
        expect(ofKind.length).toBeGreaterThan(0);
        for (const anomaly of ofKind) expectNamed(anomaly);
      });

      it(`${file} seed ${seed}: clean with the misuse switched off`, () => {
        expect(eosViolations(runEdited(file, seed, safe))).toEqual([]);
      });
    }
  }
});

describe('the writer of a transaction a crash left open', () => {
  // Seed 36 (found by the 1..200 sweep): P1 crashed with a committed transaction still open in
  // the history; its writer was named with producerId -1 because the identity was recorded only
  // at completion. The invoke now carries it.
  it('offsets-outside-transaction seed 36: every writer has its producer identity', () => {
    const violations = eosViolations(runEdited('known-bugs/offsets-outside-transaction', '36'));
    expect(violations.some((anomaly) => (anomaly.writers ?? []).length > 1)).toBe(true);
    for (const anomaly of violations) expectNamed(anomaly);
  });
});
