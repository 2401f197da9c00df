/**
 * `npm run golden:update [FILE...]`: re-pins the event hashes of the bundled scenarios in
 * `test/golden/event_hashes.json`, for a change that is meant to alter runs (its commit says
 * why). With files given, only their pins are rewritten; without, every bundled scenario at
 * every golden seed (the worked example included: about two minutes in all). Prints one line per
 * pin that changed, so the commit can name what moved.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  bundledScenarios,
  GOLDEN_FILE,
  GOLDEN_SEEDS,
  pinnedRun,
  type GoldenHashes,
  type PinnedRun,
} from './bundled_scenarios';

function readPins(): GoldenHashes {
  return existsSync(GOLDEN_FILE)
    ? (JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenHashes)
    : {};
}

function describeChange(
  file: string,
  seed: string,
  before: PinnedRun | undefined,
  after: PinnedRun,
): string {
  if (before === undefined) return `${file} seed ${seed}: pinned ${after.eventHash}`;
  if (before.eventHash === after.eventHash) return '';
  return (
    `${file} seed ${seed}: ${before.eventHash} (${before.eventsRun} events) -> ` +
    `${after.eventHash} (${after.eventsRun} events)`
  );
}

function main(requested: readonly string[]): number {
  const bundled = bundledScenarios();
  const unknown = requested.filter((file) => !bundled.includes(file));
  if (unknown.length > 0) {
    process.stderr.write(`Not a bundled scenario: ${unknown.join(', ')}\n`);
    return 64;
  }
  const old = readPins();
  const pins: GoldenHashes = {};
  for (const file of bundled) {
    const keep = requested.length > 0 && !requested.includes(file) && old[file] !== undefined;
    if (keep) {
      pins[file] = old[file] as Record<string, PinnedRun>;
      continue;
    }
    const seeds: Record<string, PinnedRun> = {};
    pins[file] = seeds;
    for (const seed of GOLDEN_SEEDS) {
      const pin = pinnedRun(file, seed);
      seeds[seed] = pin;
      const line = describeChange(file, seed, old[file]?.[seed], pin);
      if (line !== '') process.stdout.write(`${line}\n`);
    }
  }
  writeFileSync(GOLDEN_FILE, `${JSON.stringify(pins, null, 2)}\n`);
  process.stdout.write(`wrote ${GOLDEN_FILE} (${bundled.length} scenarios)\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
