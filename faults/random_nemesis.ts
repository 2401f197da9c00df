/**
 * The random nemesis: from the run's `faults` stream it draws a schedule of faults (which kind,
 * which node, when, for how long) before the run starts, so a seed fixes the whole schedule and
 * the schedule can be printed and replayed as scripted faults. Fault model: crashes and pauses of
 * one node and partitions isolating one node, all inside Kafka's exactly-once guarantee with
 * acks=all, min.insync.replicas=2 and unclean elections off; power loss is not.
 */
import type { Rng } from '../sim/kernel';
import type { ScriptedFault } from './fault_types';

/** The random nemesis of a scenario (`nemesis:` in the file). Times in milliseconds. */
export interface RandomNemesisSpec {
  /** Fault kinds to draw from. */
  readonly kinds: ReadonlyArray<'crash' | 'power-loss' | 'pause' | 'partition'>;
  /** Nodes the faults hit. */
  readonly targets: readonly string[];
  /** Every node, for partitions: the target is cut off from all others. */
  readonly nodes: readonly string[];
  /** When the first fault may start. */
  readonly startMs: number;
  /** No fault starts after this. */
  readonly stopMs: number;
  /** Mean gap between fault starts; each gap is uniform in [interval/2, 3·interval/2]. */
  readonly intervalMs: number;
  readonly durationMsMin: number;
  readonly durationMsMax: number;
}

/** Draws the schedule; the same stream gives the same faults. */
export function drawRandomFaults(spec: RandomNemesisSpec, rng: Rng): ScriptedFault[] {
  const faults: ScriptedFault[] = [];
  const halfInterval = Math.max(1, Math.floor(spec.intervalMs / 2));
  let atMs = spec.startMs + rng.intInclusive(0, halfInterval);
  while (atMs <= spec.stopMs && spec.kinds.length > 0 && spec.targets.length > 0) {
    const kind = rng.pick(spec.kinds);
    const target = rng.pick(spec.targets);
    const forMs = rng.intInclusive(spec.durationMsMin, spec.durationMsMax);
    faults.push(faultOf({ kind, target, atMs, forMs, nodes: spec.nodes }));
    atMs += rng.intInclusive(halfInterval, 3 * halfInterval);
  }
  return faults;
}

function faultOf(draw: {
  kind: RandomNemesisSpec['kinds'][number];
  target: string;
  atMs: number;
  forMs: number;
  nodes: readonly string[];
}): ScriptedFault {
  const { kind, target, atMs, forMs } = draw;
  switch (kind) {
    case 'crash':
    case 'power-loss':
      return {
        kind: 'crash',
        target,
        atMs,
        forMs,
        mode: kind === 'crash' ? 'process' : 'power-loss',
      };
    case 'pause':
      return { kind: 'pause', target, atMs, forMs };
    case 'partition':
      return {
        kind: 'partition',
        nodes: [target],
        between: draw.nodes.filter((node) => node !== target),
        atMs,
        forMs,
      };
  }
}
