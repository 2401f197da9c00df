/**
 * `slow-node`: a node that answers everything late, as a broker starved of CPU or stuck behind a
 * slow disk does: every message it receives waits `delay.ms` before it is handled (Kafka's
 * request-queue time, `RequestQueueTimeMs` of `kafka.network:type=RequestMetrics`, grows), so
 * each response, each fetch answer and each follower fetch it serves is that much later. Its
 * links stay FIFO. Inside the guarantee: slowness is what the timeouts exist for.
 */
import { z } from 'zod';
import { nodeId } from '../../sim/kernel';
import { positive, section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { timing } from './timing';

/** `target` handles every message it receives `delayMs` late, for `forMs`. */
export interface SlowNodeFault {
  readonly kind: 'slow-node';
  readonly target: string;
  readonly delayMs: number;
  readonly atMs: number;
  readonly forMs: number;
}

const entry = section({
  kind: z.literal('slow-node'),
  target: text(),
  'delay.ms': positive(),
  ...timing,
});

export const slowNodeKind = defineFaultKind<SlowNodeFault>({
  entries: { 'slow-node': entry },
  kinds: ['slow-node'],
  check: (fault: z.infer<typeof entry>, context) => checkNode(fault.target, context, 'target'),
  resolve: (fault: z.infer<typeof entry>) => ({
    kind: 'slow-node',
    target: fault.target,
    delayMs: fault['delay.ms'],
    atMs: fault['at.ms'],
    forMs: fault['for.ms'],
  }),
  entryOf: (fault) => ({
    kind: 'slow-node',
    target: fault.target,
    'delay.ms': fault.delayMs,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe: (fault) =>
    `slow node ${fault.target}: every message handled ${fault.delayMs} ms late` +
    lasting(fault.forMs),
  endMs: endOf,
  aftermathMs: (fault) => fault.delayMs,
  start(fault, { sim, view, rng }) {
    const description = this.describe(fault);
    const node = resolveNode(fault.target, view);
    if (node === null) return skipped(description, `${fault.target} names no broker now`);
    const rule = sim.addLinkRule({
      target: nodeId(node),
      effect: { type: 'delay', delayUs: fault.delayMs * 1000 },
      rng,
    });
    return {
      description: description + resolvedNote(fault.target, node),
      end: () => sim.removeLinkRule(rule),
    };
  },
  random: {
    kinds: ['slow-node'],
    draw: ({ target, atMs, forMs, duration }) => ({
      kind: 'slow-node',
      target,
      delayMs: duration(),
      atMs,
      forMs,
    }),
  },
  docs: [
    {
      kind: 'slow-node',
      keys: '`target`, `delay.ms`, `at.ms`, `for.ms`',
      effect:
        'the node answers everything late: every message it receives waits `delay.ms` before ' +
        'it is handled (its request-queue time), so every response and every fetch it serves ' +
        'is that much later; its links stay FIFO and the heal phase waits for the last one',
      eos: 'yes',
    },
  ],
});
