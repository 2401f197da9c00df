/** `pause`: a GC pause of one node (counted, so pauses nest; see `sim/kernel/node_holds.ts`). */
import { z } from 'zod';
import { nodeId } from '../../sim/kernel';
import { section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { timing } from './timing';

/** A GC pause: nothing runs on `target` for `forMs`; its timers fire late, the rest goes on. */
export interface PauseFault {
  readonly kind: 'pause';
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number;
}

const entry = section({ kind: z.literal('pause'), target: text(), ...timing });

export const pauseKind = defineFaultKind<PauseFault>({
  entries: { pause: entry },
  kinds: ['pause'],
  check: (fault: z.infer<typeof entry>, context) => checkNode(fault.target, context, 'target'),
  resolve: (fault: z.infer<typeof entry>) => ({
    kind: 'pause',
    target: fault.target,
    atMs: fault['at.ms'],
    forMs: fault['for.ms'],
  }),
  entryOf: (fault) => ({
    kind: 'pause',
    target: fault.target,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe: (fault) => `GC pause of ${fault.target} for ${fault.forMs} ms`,
  endMs: endOf,
  start(fault, { sim, view }) {
    const description = this.describe(fault);
    const node = resolveNode(fault.target, view);
    if (node === null) return skipped(description, `${fault.target} names no broker now`);
    sim.pause(nodeId(node));
    return {
      description: description + resolvedNote(fault.target, node),
      end: () => sim.resume(nodeId(node)),
    };
  },
  random: {
    kinds: ['pause'],
    draw: ({ target, atMs, forMs }) => ({ kind: 'pause', target, atMs, forMs }),
  },
  docs: [
    {
      kind: 'pause',
      keys: '`target`, `at.ms`, `for.ms`',
      effect:
        'a GC pause: nothing runs on the node; messages and timers that fall due wait and run ' +
        'when it resumes (a timer due at the pause start fires exactly `for.ms` late); the rest ' +
        'of the cluster goes on. Pauses nest (see below)',
      eos: 'yes',
    },
  ],
});
