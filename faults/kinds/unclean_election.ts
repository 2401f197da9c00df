/**
 * `unclean-election`: a forced unclean leader election of one partition, through the
 * controller's public admin operation (`kafka-leader-election.sh --election-type unclean`): a
 * live replica outside the ISR if any, else another live replica, leads with an ISR of itself.
 * Outside the guarantee: it may elect a replica that lacks committed records.
 */
import { z } from 'zod';
import { section, text } from '../../sim/config';
import { defineFaultKind, skipped } from './fault_kind';
import { topicPartitionProblem } from './node_rules';
import { instant } from './timing';

/** A forced unclean leader election of `topic`-`partition`. */
export interface UncleanElectionFault {
  readonly kind: 'unclean-election';
  readonly topic: string;
  readonly partition: number;
  readonly atMs: number;
}

const entry = section({ kind: z.literal('unclean-election'), partition: text(), ...instant });

export const uncleanElectionKind = defineFaultKind<UncleanElectionFault>({
  entries: { 'unclean-election': entry },
  kinds: ['unclean-election'],
  check: (fault: z.infer<typeof entry>, context) => {
    const detail = topicPartitionProblem(fault.partition, context);
    return detail === undefined ? [] : [{ path: ['partition'], detail }];
  },
  resolve: (fault: z.infer<typeof entry>) => {
    const match = /^(.+)-(\d+)$/.exec(fault.partition);
    const topic = match?.[1] ?? fault.partition;
    const partition = Number(match?.[2] ?? 0);
    return { kind: 'unclean-election', topic, partition, atMs: fault['at.ms'] };
  },
  entryOf: (fault) => ({
    kind: 'unclean-election',
    partition: `${fault.topic}-${fault.partition}`,
    'at.ms': fault.atMs,
  }),
  describe: (fault) => `forced unclean leader election of ${fault.topic}-${fault.partition}`,
  endMs: () => null,
  start(fault, { view }) {
    const description = this.describe(fault);
    const leader = view.forceUncleanElection(fault.topic, fault.partition);
    if (leader === null) return skipped(description, 'no live replica to elect');
    return { description: `${description}: ${leader} elected`, end: null };
  },
  random: {
    kinds: ['unclean-election'],
    draw: ({ atMs, spec, rng }) => {
      if (spec.partitions.length === 0) return null;
      const { topic, partition } = rng.pick(spec.partitions);
      return { kind: 'unclean-election', topic, partition, atMs };
    },
  },
  docs: [
    {
      kind: 'unclean-election',
      keys: '`partition` (`<topic>-<partition>`), `at.ms`',
      effect:
        "a forced unclean election through the controller's admin operation, whatever " +
        '`unclean.leader.election.enable` says: a live replica outside the ISR (else another ' +
        'live replica) leads with an ISR of itself',
      eos: 'no',
    },
  ],
});
