/**
 * `partition` and `isolate`: nothing passes between `nodes` and `between` (`both`), or only the
 * messages from `nodes` to `between` are held (`one-way`); see `cut_links.ts` for what a
 * partition does to open connections. `isolate` is a partition of one
 * target from every other broker and client.
 */
import { z } from 'zod';
import { list, oneOf, section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import type { FaultContext, FaultProblem } from './fault_kind';
import { checkNode } from './node_rules';
import { timing } from './timing';
import { bothWays, cut, listed } from './cut_links';

/** A network partition between `nodes` and `between`, both ways or one way. */
export interface PartitionFault {
  readonly kind: 'partition';
  readonly nodes: readonly string[];
  readonly between: readonly string[];
  readonly direction: 'both' | 'one-way';
  readonly atMs: number;
  readonly forMs: number;
}

const direction = oneOf(['both', 'one-way']).default('both');
const partition = section({
  kind: z.literal('partition'),
  nodes: list(text(), { empty: false }),
  between: list(text(), { empty: false }).optional(),
  direction,
  ...timing,
});
const isolate = section({ kind: z.literal('isolate'), target: text(), direction, ...timing });
type Entry = z.infer<typeof partition> | z.infer<typeof isolate>;

function check(fault: Entry, context: FaultContext): FaultProblem[] {
  if (fault.kind === 'isolate') return checkNode(fault.target, context, 'target');
  const problems = fault.nodes.flatMap((node, position) =>
    checkNode(node, context, 'nodes', position),
  );
  fault.between?.forEach((node, position) => {
    problems.push(...checkNode(node, context, 'between', position));
    if (fault.nodes.includes(node)) {
      problems.push({ path: ['between', position], detail: `${node} is also in nodes` });
    }
  });
  if (fault.between === undefined && context.nodes.every((node) => fault.nodes.includes(node))) {
    problems.push({ path: ['nodes'], detail: 'must leave at least one node on the other side' });
  }
  return problems;
}

function describe(fault: PartitionFault): string {
  const sign = fault.direction === 'both' ? '|' : '->';
  const what = fault.direction === 'both' ? 'network partition' : 'one-way partition';
  return `${what} ${listed(fault.nodes)} ${sign} ${listed(fault.between)}${lasting(fault.forMs)}`;
}

export const partitionKind = defineFaultKind<PartitionFault>({
  entries: { partition, isolate },
  kinds: ['partition'],
  check,
  resolve: (fault: Entry, { nodes }) => {
    const isolated = fault.kind === 'partition' ? fault.nodes : [fault.target];
    const between =
      (fault.kind === 'partition' ? fault.between : undefined) ??
      nodes.filter((node) => !isolated.includes(node));
    const { direction } = fault;
    const forMs = fault['for.ms'];
    return { kind: 'partition', nodes: isolated, between, direction, atMs: fault['at.ms'], forMs };
  },
  entryOf: (fault) => ({
    kind: 'partition',
    nodes: [...fault.nodes],
    between: [...fault.between],
    direction: fault.direction,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe,
  endMs: endOf,
  start(fault, world) {
    const nodes: string[] = [];
    for (const ref of fault.nodes) {
      const node = resolveNode(ref, world.view);
      if (node === null) return skipped(describe(fault), `${ref} names no broker now`);
      nodes.push(node);
    }
    const between = fault.between.filter((node) => !nodes.includes(node));
    const links =
      fault.direction === 'both'
        ? bothWays({ a: nodes, b: between })
        : nodes.flatMap((a) => between.map((b) => [a, b] as const));
    const notes = fault.nodes.map((ref, index) => resolvedNote(ref, nodes[index] ?? ref)).join('');
    return { description: describe(fault) + notes, end: cut(links, world) };
  },
  random: {
    kinds: ['partition', 'one-way'],
    draw: ({ kind, target, atMs, forMs, spec }) => {
      const between = spec.nodes.filter((node) => node !== target);
      const direction = kind === 'partition' ? 'both' : 'one-way';
      return { kind: 'partition', nodes: [target], between, direction, atMs, forMs };
    },
  },
  docs: [
    {
      kind: 'partition',
      keys: '`nodes`, `between`, `direction`, `at.ms`, `for.ms`',
      effect:
        'nothing passes between `nodes` and `between` (`both`), or only from `nodes` to ' +
        '`between` (`one-way`); what is sent meanwhile is held, as TCP holds the bytes of an ' +
        'open connection, and arrives in order after the heal unless a timeout closed its ' +
        'connection first (see "Partitions and connections")',
      eos: 'yes',
    },
    {
      kind: 'isolate',
      keys: '`target`, `direction`, `at.ms`, `for.ms`',
      effect:
        '`partition` with `nodes: [target]` and every other broker and client on the other side',
      eos: 'yes',
    },
  ],
});
