/** `clock-skew`: one node's clock reads `skew.ms` off until the fault ends. */
import { z } from 'zod';
import { nodeId, ratio } from '../../sim/kernel';
import { message, section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { openTiming } from './timing';

/** `target`'s clock reads `skewMs` off (may be negative) until the fault ends. */
export interface ClockSkewFault {
  readonly kind: 'clock-skew';
  readonly target: string;
  readonly skewMs: number;
  readonly atMs: number;
  readonly forMs: number | null;
}

const entry = section({
  kind: z.literal('clock-skew'),
  target: text(),
  'skew.ms': z
    .int(message('must be an integer other than 0'))
    .refine((skew) => skew !== 0, message('must be an integer other than 0')),
  ...openTiming,
});

export const clockSkewKind = defineFaultKind<ClockSkewFault>({
  entries: { 'clock-skew': entry },
  kinds: ['clock-skew'],
  check: (fault: z.infer<typeof entry>, context) => checkNode(fault.target, context, 'target'),
  resolve: (fault: z.infer<typeof entry>) => ({
    kind: 'clock-skew',
    target: fault.target,
    skewMs: fault['skew.ms'],
    atMs: fault['at.ms'],
    forMs: fault['for.ms'] ?? null,
  }),
  entryOf: (fault) => ({
    kind: 'clock-skew',
    target: fault.target,
    'skew.ms': fault.skewMs,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs ?? undefined,
  }),
  describe: (fault) => `clock skew of ${fault.target} by ${fault.skewMs} ms${lasting(fault.forMs)}`,
  endMs: endOf,
  // A clock that ran ahead steps back when the skew ends: a deadline the node stamped from it
  // (a Java client's delivery.timeout.ms and request.timeout.ms are measured with
  // System.currentTimeMillis) falls that much later.
  aftermathMs: (fault) => Math.max(0, fault.skewMs),
  start(fault, { sim, view }) {
    const description = this.describe(fault);
    const node = resolveNode(fault.target, view);
    if (node === null) return skipped(description, `${fault.target} names no broker now`);
    sim.skewClock(nodeId(node), fault.skewMs * 1000);
    return {
      description: description + resolvedNote(fault.target, node),
      end: () => sim.skewClock(nodeId(node), 0),
    };
  },
  random: {
    kinds: ['clock-skew'],
    draw: ({ target, atMs, forMs, rng }) => {
      const sign = rng.chance(ratio(1, 2)) ? 1 : -1;
      return { kind: 'clock-skew', target, skewMs: sign * forMs, atMs, forMs };
    },
  },
  docs: [
    {
      kind: 'clock-skew',
      keys: '`target`, `skew.ms`, `at.ms`, `for.ms` (optional)',
      effect:
        "the node's clock reads `skew.ms` off until the fault ends (the heal phase without " +
        '`for.ms`)',
      eos:
        'yes (Kafka does not rely on clocks for safety; the oracle is stamped with true virtual ' +
        "time, so a skew cannot change a verdict); the node's timeouts and deadlines read its " +
        'skewed clock, so a clock that ran ahead delays them after the skew ends, and the heal ' +
        'phase waits that much longer',
    },
  ],
});
