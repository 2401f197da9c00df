/** Installs and removes the drop-everything link rules of the partition-shaped kinds. */
import { nodeId, ratio } from '../../sim/kernel';
import type { FaultWorld } from './fault_kind';

/** Both directions between every node of `a` and every node of `b`. */
export function bothWays(sides: {
  readonly a: readonly string[];
  readonly b: readonly string[];
}): Array<readonly [string, string]> {
  return sides.a.flatMap((a) => sides.b.flatMap((b) => [[a, b] as const, [b, a] as const]));
}

/** Cuts every directed link in `links` now; returns how to heal them. */
export function cut(links: ReadonlyArray<readonly [string, string]>, world: FaultWorld) {
  const { sim, rng } = world;
  const rules = links.map(([source, target]) =>
    sim.addLinkRule({
      source: nodeId(source),
      target: nodeId(target),
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng,
    }),
  );
  return (): void => rules.forEach((rule) => sim.removeLinkRule(rule));
}

/** `[b1, b2]`. */
export function listed(nodes: readonly string[]): string {
  return `[${nodes.join(', ')}]`;
}

/** The brokers in name order. */
export function sorted(items: readonly string[]): string[] {
  return [...items].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
