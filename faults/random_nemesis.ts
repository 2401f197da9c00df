/**
 * The random nemesis: from the run's `nemesis` stream it draws a schedule of faults (which kind,
 * which node, when, for how long) before the run starts, so a seed fixes the whole schedule and
 * the schedule can be printed and replayed as scripted faults (`--export-scenario`). Fault
 * model: each kind's own (see `fault_types.ts`); with the kinds inside the guarantee, acks=all,
 * min.insync.replicas=2 and unclean elections off, Kafka promises no anomaly.
 *
 * Timeout-aware sizing: when `timeoutsMs` is not empty, half of the durations are drawn just
 * below, at or just above one of the scenario's timeouts (transaction.timeout.ms,
 * replica.lag.time.max.ms, broker.session.timeout.ms, request.timeout.ms, delivery.timeout.ms),
 * where the protocol's behaviour changes. Extra draws happen only for the kinds that need them,
 * so a spec with the original four kinds draws exactly what it always drew.
 */
import { ratio, type Ratio, type Rng } from '../sim/kernel';
import type { ScriptedFault } from './fault_types';

/** The kinds the random nemesis draws from. */
export const RANDOM_FAULT_KINDS = [
  'crash',
  'power-loss',
  'pause',
  'partition',
  'one-way',
  'split',
  'bridge',
  'drop',
  'duplicate',
  'delay',
  'hold',
  'clock-skew',
  'unclean-election',
  'coordinator-failover',
] as const;

/** One of {@link RANDOM_FAULT_KINDS}. */
export type RandomFaultKind = (typeof RANDOM_FAULT_KINDS)[number];

/** The random nemesis of a scenario (`nemesis:` in the file). Times in milliseconds. */
export interface RandomNemesisSpec {
  /** Fault kinds to draw from. */
  readonly kinds: readonly RandomFaultKind[];
  /** Nodes the faults hit. */
  readonly targets: readonly string[];
  /** Every node, for partitions: the target is cut off from all others. */
  readonly nodes: readonly string[];
  /** The brokers, for splits and bridges. */
  readonly brokers: readonly string[];
  /** When the first fault may start. */
  readonly startMs: number;
  /** No fault starts after this. */
  readonly stopMs: number;
  /** Mean gap between fault starts; each gap is uniform in [interval/2, 3·interval/2]. */
  readonly intervalMs: number;
  readonly durationMsMin: number;
  readonly durationMsMax: number;
  /** Timeouts to size durations around; empty for uniform durations only. */
  readonly timeoutsMs: readonly number[];
  /** The chance a drop or duplicate fault applies to each matching message. */
  readonly probability: Ratio;
  /** Topic-partitions an unclean election may pick. */
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  /** Transactional ids a coordinator failover may pick. */
  readonly transactionalIds: readonly string[];
  /** Group ids whose group coordinator a coordinator failover may pick. */
  readonly groupIds: readonly string[];
}

/**
 * A duration: uniform in the spec's range, or (timeout-aware, half the time) one of the
 * timeouts minus, plus or exactly nothing: the offset is uniform in 1 … a tenth of it.
 */
export function drawDurationMs(spec: RandomNemesisSpec, rng: Rng): number {
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
    const fault = faultOf({ kind, target, atMs, forMs, spec, rng });
    if (fault !== null) faults.push(fault);
    atMs += rng.intInclusive(halfInterval, 3 * halfInterval);
  }
  return faults;
}

interface Draw {
  readonly kind: RandomFaultKind;
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number;
  readonly spec: RandomNemesisSpec;
  readonly rng: Rng;
}

function faultOf(draw: Draw): ScriptedFault | null {
  const { kind, target, atMs, forMs, spec } = draw;
  const others = spec.nodes.filter((node) => node !== target);
  switch (kind) {
    case 'crash':
    case 'power-loss': {
      const mode = kind === 'crash' ? 'process' : 'power-loss';
      return { kind: 'crash', target, atMs, forMs, mode };
    }
    case 'pause':
      return { kind: 'pause', target, atMs, forMs };
    case 'partition':
    case 'one-way': {
      const direction = kind === 'partition' ? 'both' : 'one-way';
      return { kind: 'partition', nodes: [target], between: others, direction, atMs, forMs };
    }
    case 'split':
    case 'bridge':
      return brokerSplitOf(draw);
    default:
      return otherFaultOf(draw);
  }
}

/** A majority/minority split or a bridge of the brokers; null when there are too few. */
function brokerSplitOf(draw: Draw): ScriptedFault | null {
  const { atMs, forMs, spec, rng } = draw;
  if (draw.kind === 'split') {
    const brokers = rng.shuffle(spec.brokers);
    const minoritySize = Math.floor((brokers.length - 1) / 2);
    if (minoritySize < 1) return null;
    const minority = sorted(brokers.slice(0, minoritySize));
    const majority = sorted(brokers.slice(minoritySize));
    return { kind: 'split', minority, majority, atMs, forMs };
  }
  if (spec.brokers.length < 3) return null;
  // Only the bridge is drawn; the sides follow broker order, as a scripted `bridge:` has them.
  const bridge = rng.pick(spec.brokers);
  const rest = spec.brokers.filter((broker) => broker !== bridge);
  const half = Math.floor(rest.length / 2);
  const left = rest.slice(0, half);
  const right = rest.slice(half);
  return { kind: 'bridge', bridge, left, right, atMs, forMs };
}

/** Link faults, clock skew, unclean elections and coordinator failovers. */
function otherFaultOf(draw: Draw): ScriptedFault | null {
  const { kind, target, atMs, forMs, spec, rng } = draw;
  switch (kind) {
    case 'drop':
    case 'duplicate':
    case 'delay':
    case 'hold': {
      const inbound = rng.chance(ratio(1, 2));
      const delayMs = kind === 'delay' ? drawDurationMs(spec, rng) : 0;
      return {
        kind,
        from: inbound ? null : target,
        to: inbound ? target : null,
        messages: [],
        count: null,
        probability: kind === 'drop' || kind === 'duplicate' ? spec.probability : ratio(1, 1),
        delayMs,
        atMs,
        forMs,
      };
    }
    case 'clock-skew': {
      const sign = rng.chance(ratio(1, 2)) ? 1 : -1;
      return { kind: 'clock-skew', target, skewMs: sign * forMs, atMs, forMs };
    }
    case 'unclean-election': {
      if (spec.partitions.length === 0) return null;
      const { topic, partition } = rng.pick(spec.partitions);
      return { kind: 'unclean-election', topic, partition, atMs };
    }
    case 'coordinator-failover': {
      const keys = [
        ...spec.transactionalIds.map((key) => ({ keyType: 'transaction' as const, key })),
        ...spec.groupIds.map((key) => ({ keyType: 'group' as const, key })),
      ];
      if (keys.length === 0) return null;
      return { kind: 'coordinator-failover', ...rng.pick(keys), atMs, forMs, mode: 'process' };
    }
    default:
      throw new Error(`Unexpected random fault kind: ${kind}`);
  }
}

function sorted(items: readonly string[]): string[] {
  return [...items].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
