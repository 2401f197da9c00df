/**
 * Vitest setup, run before every test file (style rules 10 and 35).
 *
 * 1. A runtime tripwire: while `Simulation.runUntil` runs, `Math.random`, `Date.now` and
 *    `performance.now` throw, so a wall-clock or unseeded read that slipped past ESLint and the
 *    source-rules scan fails the test that reached it. They are restored when the run returns or
 *    throws, so test code around a run may still use them.
 * 2. `SIM_SEEDS` (e.g. `1..2000`) is read here, and only here, and handed to `sweepSeeds()`.
 */
import { Simulation } from '../sim/kernel';
import { parseSeedRange, setSweepSeedsOverride } from './seed_range';

const TRIPWIRE = Symbol.for('eos-sim.determinismTripwire');

type RunUntil = Simulation['runUntil'];

function tripped(name: string, replacement: string): () => never {
  return () => {
    throw new Error(
      `${name} was called while a simulation was running: style rule 10 bans it in sim/ and ` +
        `faults/; use ${replacement}`,
    );
  };
}

/** Replaces `target[key]` and returns a function that puts the old property back exactly. */
function override(target: object, key: string, value: unknown): () => void {
  const own = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, writable: true, configurable: true });
  return () => {
    if (own === undefined) Reflect.deleteProperty(target, key);
    else Object.defineProperty(target, key, own);
  };
}

function installTripwire(): void {
  const prototype = Simulation.prototype as RunUntilHost;
  if (prototype[TRIPWIRE] === true) return;
  const runUntil = prototype.runUntil;
  prototype.runUntil = function runUntilWithTripwire(
    this: Simulation,
    ...args: Parameters<RunUntil>
  ): ReturnType<RunUntil> {
    const restores = [
      override(Math, 'random', tripped('Math.random', 'ctx.rng')),
      override(Date, 'now', tripped('Date.now', 'ctx.nowUs()')),
      override(performance, 'now', tripped('performance.now', 'ctx.nowUs()')),
    ];
    try {
      return runUntil.apply(this, args);
    } finally {
      for (const restore of restores.reverse()) restore();
    }
  };
  prototype[TRIPWIRE] = true;
}

interface RunUntilHost {
  runUntil: RunUntil;
  [TRIPWIRE]?: boolean;
}

installTripwire();

const simSeeds = process.env['SIM_SEEDS'];
setSweepSeedsOverride(
  simSeeds === undefined || simSeeds.trim() === '' ? undefined : parseSeedRange(simSeeds),
);
