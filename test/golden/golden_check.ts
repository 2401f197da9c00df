/**
 * The comparison both golden tiers make: a run of a bundled scenario against its pin in
 * `event_hashes.json`, failing with a message that says how to re-pin when the change is meant
 * to alter runs.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { GOLDEN_FILE, type GoldenHashes, type PinnedRun } from './bundled_scenarios';

/** The pinned values, as committed. */
export function readGolden(): GoldenHashes {
  return JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenHashes;
}

/** Asserts that `actual`, a run of `file` at `seed`, is the run pinned for it. */
export function expectPinned(
  golden: GoldenHashes,
  file: string,
  seed: string,
  actual: PinnedRun,
): void {
  const pinned = golden[file]?.[seed];
  const was = pinned === undefined ? 'nothing' : `${pinned.eventsRun} events, ${pinned.eventHash}`;
  const advice =
    `${file} seed ${seed} ran ${actual.eventsRun} events to event hash ${actual.eventHash}; ` +
    `pinned: ${was}. ` +
    'If the change is meant to alter runs, re-pin with `npm run golden:update` and say why in ' +
    'the commit; otherwise the change broke the replay contract.';
  expect(actual, advice).toEqual(pinned);
}
