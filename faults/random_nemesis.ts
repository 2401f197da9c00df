/**
 * The random nemesis: from the run's `nemesis` stream it draws a schedule of faults (which kind,
 * which node, when, for how long) before the run starts, so a seed fixes the whole schedule and
 * the schedule can be printed and replayed as scripted faults (`--export-scenario`). Fault
 * model: each kind's own (see `kinds/`); with the kinds inside the guarantee, acks=all,
 * min.insync.replicas=2 and unclean elections off, Kafka promises no anomaly. Each kind's module
 * draws the rest of its fault (`random.draw`).
 *
 * Timeout-aware sizing: when `timeoutsMs` is not empty, half of the durations are drawn just
 * below, at or just above one of the scenario's timeouts (transaction.timeout.ms,
 * replica.lag.time.max.ms, broker.session.timeout.ms, request.timeout.ms, delivery.timeout.ms),
 * where the protocol's behaviour changes. Extra draws happen only for the kinds that need them,
 * so a spec with the original four kinds draws exactly what it always drew.
 */
import { ratio, type Rng } from '../sim/kernel';
import { RANDOM_FAULT_KINDS, randomKindOf, type DrawSpec, type ScriptedFault } from './kinds';

export { RANDOM_FAULT_KINDS };

/** One of {@link RANDOM_FAULT_KINDS}. */
export type RandomFaultKind = string;

/** The random nemesis of a scenario (`nemesis:` in the file). Times in milliseconds. */
export interface RandomNemesisSpec extends DrawSpec {
  /** Fault kinds to draw from. */
  readonly kinds: readonly RandomFaultKind[];
  /** Nodes the faults hit. */
  readonly targets: readonly string[];
  /** When the first fault may start. */
  readonly startMs: number;
  /** No fault starts after this. */
  readonly stopMs: number;
  /** Mean gap between fault starts; each gap is uniform in [interval/2, 3·interval/2]. */
  readonly intervalMs: number;
}

/**
 * A duration: uniform in the spec's range, or (timeout-aware, half the time) one of the
 * timeouts minus, plus or exactly nothing: the offset is uniform in 1 … a tenth of it.
 */
export function drawDurationMs(spec: DrawSpec, rng: Rng): number {
  if (spec.timeoutsMs.length > 0 && rng.chance(ratio(1, 2))) {
    const timeoutMs = rng.pick(spec.timeoutsMs);
    const side = rng.intInclusive(-1, 1);
    const offsetMs = side === 0 ? 0 : rng.intInclusive(1, Math.max(1, Math.floor(timeoutMs / 10)));
    return Math.max(1, timeoutMs + side * offsetMs);
  }
  return rng.intInclusive(spec.durationMsMin, spec.durationMsMax);
}

/** Draws the schedule; the same stream gives the same faults. */
export function drawRandomFaults(spec: RandomNemesisSpec, rng: Rng): ScriptedFault[] {
  const faults: ScriptedFault[] = [];
  const halfInterval = Math.max(1, Math.floor(spec.intervalMs / 2));
  let atMs = spec.startMs + rng.intInclusive(0, halfInterval);
  while (atMs <= spec.stopMs && spec.kinds.length > 0 && spec.targets.length > 0) {
    const kind = rng.pick(spec.kinds);
    const target = rng.pick(spec.targets);
    const forMs = drawDurationMs(spec, rng);
    const duration = (): number => drawDurationMs(spec, rng);
    const module = randomKindOf(kind);
    const fault = module.random?.draw({ kind, target, atMs, forMs, spec, rng, duration }) ?? null;
    if (fault !== null) faults.push(fault as ScriptedFault);
    atMs += rng.intInclusive(halfInterval, 3 * halfInterval);
  }
  return faults;
}
