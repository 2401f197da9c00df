/**
 * Installs and removes the link rules of the partition-shaped kinds. A partition holds what is
 * sent across it, as TCP does with the bytes of an open connection: the sender keeps
 * retransmitting them and they arrive in order after the heal, unless a timeout closes the
 * connection first (then they are lost, see `ctx.closeConnection`). Message loss is the separate
 * `drop` fault. Not modelled: the retransmission backoff (the bytes arrive with the normal link
 * delay right after the heal, not at the next retransmission timeout) and TCP's own give-up after
 * `tcp_retries2` (about 15 minutes on Linux, longer than Kafka's request timeouts).
 */
import { nodeId } from '../../sim/kernel';
import type { FaultWorld } from './fault_kind';

/** Both directions between every node of `a` and every node of `b`. */
export function bothWays(sides: {
  readonly a: readonly string[];
  readonly b: readonly string[];
}): Array<readonly [string, string]> {
  return sides.a.flatMap((a) => sides.b.flatMap((b) => [[a, b] as const, [b, a] as const]));
}

/** Cuts every directed link in `links` now; returns how to heal them (held bytes arrive). */
export function cut(links: ReadonlyArray<readonly [string, string]>, world: FaultWorld) {
  const { sim } = world;
  const rules = links.map(([source, target]) =>
    sim.addLinkRule({
      source: nodeId(source),
      target: nodeId(target),
      effect: { type: 'hold', onConnection: true },
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
