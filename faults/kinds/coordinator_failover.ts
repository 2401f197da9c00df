/**
 * `coordinator-failover`: a crash of whichever broker coordinates `key` when the fault starts,
 * the transaction coordinator of a transactional.id or the group coordinator of a group.id
 * (FindCoordinator's keyType), restarted after `for.ms`.
 */
import { z } from 'zod';
import { nodeId } from '../../sim/kernel';
import { section, text } from '../../sim/config';
import { crashMode, crashWord } from './crash';
import { defineFaultKind, endOf, lasting, skipped } from './fault_kind';
import type { FaultContext, FaultProblem } from './fault_kind';
import { checkNode } from './node_rules';
import { openTiming } from './timing';

/** A crash of the broker coordinating `key` at the fault's start. */
export interface CoordinatorFailoverFault {
  readonly kind: 'coordinator-failover';
  readonly keyType: 'transaction' | 'group';
  /** The transactional.id or group.id. */
  readonly key: string;
  readonly atMs: number;
  readonly forMs: number | null;
  readonly mode: 'process' | 'power-loss';
}

const entry = section({
  kind: z.literal('coordinator-failover'),
  'transactional.id': text().optional(),
  'group.id': text().optional(),
  ...openTiming,
  mode: crashMode,
});
type Entry = z.infer<typeof entry>;

function check(fault: Entry, context: FaultContext): FaultProblem[] {
  const transactionalId = fault['transactional.id'];
  const groupId = fault['group.id'];
  if ((transactionalId === undefined) === (groupId === undefined)) {
    return [{ path: ['kind'], detail: 'give exactly one of transactional.id and group.id' }];
  }
  if (groupId !== undefined) return checkNode(`group-coordinator:${groupId}`, context, 'group.id');
  return checkNode(`coordinator:${transactionalId}`, context, 'transactional.id');
}

export const coordinatorFailoverKind = defineFaultKind<CoordinatorFailoverFault>({
  entries: { 'coordinator-failover': entry },
  kinds: ['coordinator-failover'],
  check,
  resolve: (fault: Entry) => ({
    kind: 'coordinator-failover',
    ...(fault['group.id'] === undefined
      ? { keyType: 'transaction' as const, key: fault['transactional.id'] ?? '' }
      : { keyType: 'group' as const, key: fault['group.id'] }),
    atMs: fault['at.ms'],
    forMs: fault['for.ms'] ?? null,
    mode: fault.mode,
  }),
  entryOf: (fault) => ({
    kind: 'coordinator-failover',
    [fault.keyType === 'group' ? 'group.id' : 'transactional.id']: fault.key,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs ?? undefined,
    mode: fault.mode,
  }),
  describe: (fault) =>
    `${crashWord(fault.mode)} of the ${fault.keyType === 'group' ? 'group ' : ''}coordinator ` +
    `of ${fault.key}${lasting(fault.forMs)}`,
  endMs: endOf,
  start(fault, { sim, view }) {
    const description = this.describe(fault);
    const node =
      fault.keyType === 'group'
        ? view.groupCoordinatorOf(fault.key)
        : view.coordinatorOf(fault.key);
    if (node === null) return skipped(description, 'the coordinator partition is offline');
    sim.crash(nodeId(node), fault.mode);
    return {
      description: `${description} (${node})`,
      end: () => sim.restart(nodeId(node), fault.mode),
    };
  },
  random: {
    kinds: ['coordinator-failover'],
    draw: ({ atMs, forMs, spec, rng }) => {
      const keys = [
        ...spec.transactionalIds.map((key) => ({ keyType: 'transaction' as const, key })),
        ...spec.groupIds.map((key) => ({ keyType: 'group' as const, key })),
      ];
      if (keys.length === 0) return null;
      return { kind: 'coordinator-failover', ...rng.pick(keys), atMs, forMs, mode: 'process' };
    },
  },
  docs: [
    {
      kind: 'coordinator-failover',
      keys: '`transactional.id` or `group.id` (exactly one), `at.ms`, `for.ms` (optional), `mode`',
      effect:
        'crashes the broker that coordinates the transactional.id (see `coordinator:`) or the ' +
        'consumer group (see `group-coordinator:`) at that moment, restarts it after `for.ms`',
      eos: '`process`: yes',
    },
  ],
});
