/**
 * How each fault kind starts, on kernel primitives only (style rules 17 and 19): node pause and
 * resume, crash and restart, clock skew, and directional link rules that drop, duplicate, delay
 * or hold. Node references (`leader:orders-0`, `coordinator:orders-tx`) are resolved here, at the
 * moment the fault starts, through the {@link ClusterView}. Each start returns the description
 * of what it did (naming the resolved nodes) and how to end it.
 */
import { nodeId, ratio, type LinkEffect, type Rng, type Simulation } from '../sim/kernel';
import { resolveNode, type ClusterView } from './cluster_view';
import { describeFault, type LinkFault, type ScriptedFault } from './fault_types';

/** A started fault: what it did, and how to end it (null when there is nothing to end). */
export interface StartedFault {
  readonly description: string;
  readonly end: (() => void) | null;
}

/** What a fault start needs. */
export interface FaultWorld {
  readonly sim: Simulation;
  readonly view: ClusterView;
  /** The fault's own stream (drop and duplicate chances). */
  readonly rng: Rng;
}

/** A fault that could not start: its references name no node now. */
function skipped(fault: ScriptedFault, why: string): StartedFault {
  return { description: `${describeFault(fault)} (skipped: ${why})`, end: null };
}

/** ` (b2)` after a reference that resolved, nothing after a plain node name. */
function resolvedNote(ref: string, node: string): string {
  return ref === node ? '' : ` (${ref} = ${node})`;
}

/** Starts `fault` now and returns how to end it. */
export function startFault(fault: ScriptedFault, world: FaultWorld): StartedFault {
  const { sim, view } = world;
  switch (fault.kind) {
    case 'pause':
    case 'crash':
    case 'clock-skew': {
      const node = resolveNode(fault.target, view);
      if (node === null) return skipped(fault, `${fault.target} names no broker now`);
      const description = describeFault(fault) + resolvedNote(fault.target, node);
      return { description, end: startNodeFault(fault, { sim, node }) };
    }
    case 'coordinator-failover': {
      const node =
        fault.keyType === 'group'
          ? view.groupCoordinatorOf(fault.key)
          : view.coordinatorOf(fault.key);
      if (node === null) return skipped(fault, 'the coordinator partition is offline');
      sim.crash(nodeId(node), fault.mode);
      return {
        description: `${describeFault(fault)} (${node})`,
        end: () => sim.restart(nodeId(node), fault.mode),
      };
    }
    case 'operator':
      view.runOperatorAction(fault);
      return { description: describeFault(fault), end: null };
    case 'unclean-election': {
      const leader = view.forceUncleanElection(fault.topic, fault.partition);
      if (leader === null) return skipped(fault, 'no live replica to elect');
      return { description: `${describeFault(fault)}: ${leader} elected`, end: null };
    }
    case 'partition':
    case 'split':
    case 'bridge':
      return startPartition(fault, world);
    default:
      return startLinkFault(fault, world);
  }
}

/** Pause, crash or skew one node; returns how to undo it. */
function startNodeFault(
  fault: ScriptedFault & { kind: 'pause' | 'crash' | 'clock-skew' },
  options: { sim: Simulation; node: string },
): () => void {
  const { sim } = options;
  const node = nodeId(options.node);
  switch (fault.kind) {
    case 'pause':
      sim.pause(node);
      return () => sim.resume(node);
    case 'crash':
      sim.crash(node, fault.mode);
      return () => sim.restart(node, fault.mode);
    case 'clock-skew':
      sim.skewClock(node, fault.skewMs * 1000);
      return () => sim.skewClock(node, 0);
  }
}

/** The directed links a partition-shaped fault cuts, after resolving references. */
function cutLinks(
  fault: ScriptedFault & { kind: 'partition' | 'split' | 'bridge' },
  view: ClusterView,
): Array<readonly [string, string]> | string {
  const both = (sides: { a: readonly string[]; b: readonly string[] }) =>
    sides.a.flatMap((a) => sides.b.flatMap((b) => [[a, b] as const, [b, a] as const]));
  switch (fault.kind) {
    case 'partition': {
      const nodes: string[] = [];
      for (const ref of fault.nodes) {
        const node = resolveNode(ref, view);
        if (node === null) return `${ref} names no broker now`;
        nodes.push(node);
      }
      const between = fault.between.filter((node) => !nodes.includes(node));
      if (fault.direction === 'both') return both({ a: nodes, b: between });
      return nodes.flatMap((a) => between.map((b) => [a, b] as const));
    }
    case 'split':
      return both({ a: fault.minority, b: [...fault.majority, view.controller] });
    case 'bridge':
      return both({ a: fault.left, b: fault.right });
  }
}

function startPartition(
  fault: ScriptedFault & { kind: 'partition' | 'split' | 'bridge' },
  world: FaultWorld,
): StartedFault {
  const { sim, view, rng } = world;
  const links = cutLinks(fault, view);
  if (typeof links === 'string') return skipped(fault, links);
  const rules = links.map(([source, target]) =>
    sim.addLinkRule({
      source: nodeId(source),
      target: nodeId(target),
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng,
    }),
  );
  const nodes = fault.kind === 'partition' ? fault.nodes : [];
  const notes = nodes.map((ref) => resolvedNote(ref, resolveNode(ref, view) ?? ref)).join('');
  return {
    description: describeFault(fault) + notes,
    end: () => rules.forEach((rule) => sim.removeLinkRule(rule)),
  };
}

function startLinkFault(fault: LinkFault, world: FaultWorld): StartedFault {
  const { sim, view, rng } = world;
  const from = fault.from === null ? null : resolveNode(fault.from, view);
  const to = fault.to === null ? null : resolveNode(fault.to, view);
  if ((fault.from !== null && from === null) || (fault.to !== null && to === null)) {
    return skipped(fault, 'a link end names no broker now');
  }
  const effect: LinkEffect =
    fault.kind === 'delay'
      ? { type: 'delay', delayUs: fault.delayMs * 1000 }
      : fault.kind === 'hold'
        ? { type: 'hold' }
        : { type: fault.kind, chance: fault.probability };
  const rule = sim.addLinkRule({
    ...(from === null ? {} : { source: nodeId(from) }),
    ...(to === null ? {} : { target: nodeId(to) }),
    ...(fault.messages.length === 0 ? {} : { kinds: fault.messages }),
    ...(fault.count === null ? {} : { matchesMax: fault.count }),
    effect,
    rng,
  });
  const notes =
    (fault.from === null || from === null ? '' : resolvedNote(fault.from, from)) +
    (fault.to === null || to === null ? '' : resolvedNote(fault.to, to));
  return { description: describeFault(fault) + notes, end: () => sim.removeLinkRule(rule) };
}
