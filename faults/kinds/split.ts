/**
 * `split` and `bridge`, the broker-side partitions. A split cuts a strict minority of brokers
 * from the majority and the controller, so the minority is fenced as a KRaft quorum would fence
 * it; a bridge (Jepsen's majorities ring on a line) cuts a left half from a right half while the
 * bridge broker reaches both. Clients reach every broker in both.
 */
import { z } from 'zod';
import { list, section, text } from '../../sim/config';
import { defineFaultKind, endOf, lasting } from './fault_kind';
import type { FaultContext, FaultProblem } from './fault_kind';
import { timing } from './timing';
import { bothWays, cut, listed, sorted } from './cut_links';

/** Brokers split into a minority and a majority (with the controller) that cannot talk. */
export interface SplitFault {
  readonly kind: 'split';
  readonly minority: readonly string[];
  readonly majority: readonly string[];
  readonly atMs: number;
  readonly forMs: number;
}

/** `left` and `right` cannot reach each other; the `bridge` broker reaches both. */
export interface BridgeFault {
  readonly kind: 'bridge';
  readonly bridge: string;
  readonly left: readonly string[];
  readonly right: readonly string[];
  readonly atMs: number;
  readonly forMs: number;
}

const split = section({
  kind: z.literal('split'),
  minority: list(text(), { empty: false }).optional(),
  ...timing,
});
const bridge = section({ kind: z.literal('bridge'), bridge: text().optional(), ...timing });

function notBroker(name: string, brokers: readonly string[]): string {
  return `unknown broker ${name}: expected one of ${brokers.join(', ')}`;
}

function checkSplit(fault: z.infer<typeof split>, { brokers }: FaultContext): FaultProblem[] {
  const minority = fault.minority ?? [];
  const problems: FaultProblem[] = [];
  minority.forEach((name, position) => {
    if (!brokers.includes(name)) {
      problems.push({ path: ['minority', position], detail: notBroker(name, brokers) });
    }
  });
  const size =
    fault.minority === undefined ? Math.floor((brokers.length - 1) / 2) : minority.length;
  if (size < 1 || size * 2 >= brokers.length) {
    const detail = `must be a strict minority of the ${brokers.length} brokers, at least one`;
    problems.push({ path: [fault.minority === undefined ? 'kind' : 'minority'], detail });
  }
  return problems;
}

export const splitKind = defineFaultKind<SplitFault>({
  entries: { split },
  kinds: ['split'],
  check: checkSplit,
  resolve: (fault: z.infer<typeof split>, { brokers }) => {
    const minority = fault.minority ?? brokers.slice(0, Math.floor((brokers.length - 1) / 2));
    const majority = brokers.filter((broker) => !minority.includes(broker));
    return { kind: 'split', minority, majority, atMs: fault['at.ms'], forMs: fault['for.ms'] };
  },
  entryOf: (fault) => ({
    kind: 'split',
    minority: [...fault.minority],
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe: (fault) =>
    `split: minority ${listed(fault.minority)} | majority ${listed(fault.majority)}` +
    lasting(fault.forMs),
  endMs: endOf,
  start(fault, world) {
    const links = bothWays({ a: fault.minority, b: [...fault.majority, world.view.controller] });
    return { description: this.describe(fault), end: cut(links, world) };
  },
  random: {
    kinds: ['split'],
    draw: ({ atMs, forMs, spec, rng }) => {
      const brokers = rng.shuffle(spec.brokers);
      const minoritySize = Math.floor((brokers.length - 1) / 2);
      if (minoritySize < 1) return null;
      const minority = sorted(brokers.slice(0, minoritySize));
      const majority = sorted(brokers.slice(minoritySize));
      return { kind: 'split', minority, majority, atMs, forMs };
    },
  },
  docs: [
    {
      kind: 'split',
      keys: '`minority` (optional), `at.ms`, `for.ms`',
      effect:
        'brokers split into a strict minority and a majority; the controller stays with the ' +
        'majority (so the minority is fenced, as a KRaft quorum would); clients reach both',
      eos: 'yes',
    },
  ],
});

/** The sides of a bridge: the other brokers in broker order, halved. */
function sidesOf(bridgeBroker: string, brokers: readonly string[]) {
  const rest = brokers.filter((broker) => broker !== bridgeBroker);
  const half = Math.floor(rest.length / 2);
  return { left: rest.slice(0, half), right: rest.slice(half) };
}

function checkBridge(fault: z.infer<typeof bridge>, { brokers }: FaultContext): FaultProblem[] {
  if (brokers.length < 3) return [{ path: ['kind'], detail: 'bridge needs at least 3 brokers' }];
  if (fault.bridge !== undefined && !brokers.includes(fault.bridge)) {
    return [{ path: ['bridge'], detail: notBroker(fault.bridge, brokers) }];
  }
  return [];
}

export const bridgeKind = defineFaultKind<BridgeFault>({
  entries: { bridge },
  kinds: ['bridge'],
  check: checkBridge,
  resolve: (fault: z.infer<typeof bridge>, { brokers }) => {
    const broker = fault.bridge ?? (brokers[Math.floor((brokers.length - 1) / 2)] as string);
    const forMs = fault['for.ms'];
    return {
      kind: 'bridge',
      bridge: broker,
      ...sidesOf(broker, brokers),
      atMs: fault['at.ms'],
      forMs,
    };
  },
  entryOf: (fault) => ({
    kind: 'bridge',
    bridge: fault.bridge,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe: (fault) =>
    `bridge ${fault.bridge}: ${listed(fault.left)} | ${listed(fault.right)}${lasting(fault.forMs)}`,
  endMs: endOf,
  start(fault, world) {
    const links = bothWays({ a: fault.left, b: fault.right });
    return { description: this.describe(fault), end: cut(links, world) };
  },
  random: {
    kinds: ['bridge'],
    draw: ({ atMs, forMs, spec, rng }) => {
      if (spec.brokers.length < 3) return null;
      // Only the bridge is drawn; the sides follow broker order, as a scripted `bridge:` has them.
      const broker = rng.pick(spec.brokers);
      return { kind: 'bridge', bridge: broker, ...sidesOf(broker, spec.brokers), atMs, forMs };
    },
  },
  docs: [
    {
      kind: 'bridge',
      keys: '`bridge` (optional), `at.ms`, `for.ms`',
      effect:
        'the other brokers split into a left half and a right half (broker order) that cannot ' +
        'reach each other; the bridge broker, the controller and clients reach everyone',
      eos: 'yes',
    },
  ],
});
