/**
 * Goal: pin the replay contract of style rules 5, 9 and 16: a run is a pure function of the
 * scenario text and the seed. Method: run bundled scenarios twice with the same seed and compare
 * the event hash, the whole report as JSON and the history; and change the scenario text by one
 * comment line, which must change the scenario hash in the report and nothing in the schedule.
 * Distinct seeds giving distinct schedules: `determinism.sweep.test.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario, parseScenario } from '../../scenarios';

const ZOMBIE_FENCING = 'scenarios/zombie-fencing.yaml';
const RETRY_DUPLICATES = 'scenarios/retry-duplicates.yaml';
/** Small, large and u64-max seeds: the seed is a decimal string, not a JS number. */
const REPLAY_SEEDS = ['1', '7', '18446744073709551615'] as const;

describe('same scenario, same seed', () => {
  for (const file of [ZOMBIE_FENCING, RETRY_DUPLICATES]) {
    for (const seed of REPLAY_SEEDS) {
      it(`${file} seed ${seed} replays to the same event hash, report and history`, () => {
        const scenario = loadScenario(file);
        const first = runScenario(scenario, { seed });
        const second = runScenario(loadScenario(file), { seed });
        expect(second.report.eventHash).toBe(first.report.eventHash);
        expect(second.report.eventsRun).toBe(first.report.eventsRun);
        expect(JSON.stringify(second.report)).toBe(JSON.stringify(first.report));
        expect(JSON.stringify(second.history)).toBe(JSON.stringify(first.history));
        expect(JSON.stringify(second.oracle)).toBe(JSON.stringify(first.oracle));
        expect(first.report.seed).toBe(seed);
        expect(first.report.eventHash).toMatch(/^[0-9a-f]{16}$/);
      });
    }
  }
});

describe('scenario hash', () => {
  it('is the SHA-256 of the file bytes, and one more comment line changes it', () => {
    const text = readFileSync(ZOMBIE_FENCING, 'utf8');
    const original = parseScenario(text, ZOMBIE_FENCING);
    const edited = parseScenario(`${text}# one more comment line\n`, ZOMBIE_FENCING);
    const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
    expect(original.hash).toBe(sha256);
    expect(loadScenario(ZOMBIE_FENCING).hash).toBe(sha256);
    expect(edited.hash).not.toBe(original.hash);

    const before = runScenario(original, { seed: '3' }).report;
    const after = runScenario(edited, { seed: '3' }).report;
    expect(before.scenario.hash).toBe(original.hash);
    expect(after.scenario.hash).toBe(edited.hash);
    expect(after.scenario.hash).not.toBe(before.scenario.hash);
    // A comment changes no setting, so the schedule is the same event for event.
    expect(after.eventHash).toBe(before.eventHash);
    expect(after.check).toEqual(before.check);
  });
});
