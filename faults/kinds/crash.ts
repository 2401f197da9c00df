/**
 * `crash` and `power-loss`: one node's process dies and restarts after `for.ms` (or at heal).
 * A power loss also drops what the page cache had not flushed: Kafka relies on replication, not
 * fsync (`log.flush.interval.messages` is unlimited by default), so it is outside the guarantee.
 * Crashes are counted holds, so they nest (see `sim/kernel/node_holds.ts`).
 */
import { z } from 'zod';
import { nodeId } from '../../sim/kernel';
import { oneOf, section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { openTiming } from './timing';

/** A crash of `target`, restarted after `forMs` (or at heal when null). */
export interface CrashFault {
  readonly kind: 'crash';
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number | null;
  readonly mode: 'process' | 'power-loss';
}

/** `mode` of a crash: `process` keeps the page cache, `power-loss` drops the unflushed tail. */
export const crashMode = oneOf(['process', 'power-loss']).default('process');

const crash = section({ kind: z.literal('crash'), target: text(), ...openTiming, mode: crashMode });
const powerLoss = section({ kind: z.literal('power-loss'), target: text(), ...openTiming });
type Entry = z.infer<typeof crash> | z.infer<typeof powerLoss>;

/** `crash` or `power loss`, as descriptions name the mode. */
export function crashWord(mode: 'process' | 'power-loss'): string {
  return mode === 'power-loss' ? 'power loss' : 'crash';
}

export const crashKind = defineFaultKind<CrashFault>({
  entries: { crash, 'power-loss': powerLoss },
  kinds: ['crash'],
  check: (fault: Entry, context) => checkNode(fault.target, context, 'target'),
  resolve: (fault: Entry) => ({
    kind: 'crash',
    target: fault.target,
    atMs: fault['at.ms'],
    forMs: fault['for.ms'] ?? null,
    mode: fault.kind === 'crash' ? fault.mode : 'power-loss',
  }),
  entryOf: (fault) => ({
    kind: 'crash',
    target: fault.target,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs ?? undefined,
    mode: fault.mode,
  }),
  describe: (fault) => `${crashWord(fault.mode)} of ${fault.target}${lasting(fault.forMs)}`,
  endMs: endOf,
  start(fault, { sim, view }) {
    const description = this.describe(fault);
    const node = resolveNode(fault.target, view);
    if (node === null) return skipped(description, `${fault.target} names no broker now`);
    sim.crash(nodeId(node), fault.mode);
    return {
      description: description + resolvedNote(fault.target, node),
      end: () => sim.restart(nodeId(node), fault.mode),
    };
  },
  random: {
    kinds: ['crash', 'power-loss'],
    draw: ({ kind, target, atMs, forMs }) => {
      const mode = kind === 'crash' ? 'process' : 'power-loss';
      return { kind: 'crash', target, atMs, forMs, mode };
    },
  },
  docs: [
    {
      kind: 'crash',
      keys: '`target`, `at.ms`, `for.ms` (optional), `mode`',
      effect:
        "the process dies (timers and in-flight messages lost, peers' connections reset); " +
        'restarts after `for.ms`, or at heal without it. A crashed client continues as new ' +
        'processes. Crashes nest (see below)',
      eos: '`process`: yes; `power-loss`: no',
    },
    {
      kind: 'power-loss',
      keys: '`target`, `at.ms`, `for.ms` (optional)',
      effect: '`crash` with `mode: power-loss`: the unflushed log tail is lost too',
      eos: 'no',
    },
  ],
});
