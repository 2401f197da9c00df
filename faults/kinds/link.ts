/**
 * The link faults `drop`, `duplicate`, `delay` and `hold`: a directional rule on the kernel's
 * network for the messages from `from` to `to` of the given Kafka kinds. `hold` keeps every
 * matching message until the fault ends, then releases them in order.
 */
import { z } from 'zod';
import { nodeId, ratio, type LinkEffect, type Ratio } from '../../sim/kernel';
import { list, oneOf, positive, section, text, message } from '../../sim/config';
import { KAFKA_MESSAGE_KINDS } from '../../sim/actors/protocol/message_kinds';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { timing } from './timing';

/** Drop, duplicate, delay or hold the messages from `from` to `to` of the given Kafka kinds. */
export interface LinkFault {
  readonly kind: 'drop' | 'duplicate' | 'delay' | 'hold';
  /** Source node; null matches every node. */
  readonly from: string | null;
  /** Target node; null matches every node. */
  readonly to: string | null;
  /** Kafka message kinds (`ProduceResponse`); empty matches all. */
  readonly messages: readonly string[];
  /** Only the first this many matching messages (`count`); null: every one. */
  readonly count: number | null;
  /** For drop and duplicate: the probability, as an exact ratio. */
  readonly probability: Ratio;
  /** For delay: extra delay per message. */
  readonly delayMs: number;
  readonly atMs: number;
  readonly forMs: number;
}

/** Fault probabilities become exact ratios over this denominator. */
export const PROBABILITY_DENOMINATOR = 1_000_000;

/** A probability from a file as an exact ratio: `round(p × 1000000) / 1000000`. */
export function ratioOf(probability: number): Ratio {
  return ratio(Math.round(probability * PROBABILITY_DENOMINATOR), PROBABILITY_DENOMINATOR);
}

/** An exact ratio as the number a file gives. */
export function probabilityOf(value: Ratio): number {
  return value.numerator / value.denominator;
}

/** A probability in (0, 1], at least 0.000001. */
export const probability = z
  .number(message('must be a number'))
  .min(0.000001, message('must be a number > 0 and <= 1, at least 0.000001'))
  .max(1, message('must be a number > 0 and <= 1'));

/** Keys of the link faults: which messages on which link. */
const link = {
  ...timing,
  from: text().optional(),
  to: text().optional(),
  messages: list(oneOf(KAFKA_MESSAGE_KINDS), { empty: true }).default([]),
  count: positive().optional(),
};

const drop = section({ kind: z.literal('drop'), ...link, probability: probability.default(1) });
const duplicate = section({
  kind: z.literal('duplicate'),
  ...link,
  probability: probability.default(1),
});
const delay = section({ kind: z.literal('delay'), ...link, 'delay.ms': positive() });
const hold = section({ kind: z.literal('hold'), ...link });
type Entry = z.infer<typeof drop | typeof duplicate | typeof delay | typeof hold>;

function describeLink(fault: LinkFault): string {
  const what = fault.messages.length === 0 ? 'messages' : fault.messages.join('/');
  const link = `${fault.from ?? '*'} -> ${fault.to ?? '*'}`;
  const how =
    fault.kind === 'delay'
      ? ` (+${fault.delayMs} ms)`
      : fault.kind === 'hold'
        ? ''
        : ` (p=${fault.probability.numerator}/${fault.probability.denominator})`;
  const first = fault.count === null ? '' : ` (first ${fault.count})`;
  return `${fault.kind} ${what}${first} ${link}${how} for ${fault.forMs} ms`;
}

const LINK_KEYS = 'link keys';

export const linkKind = defineFaultKind<LinkFault>({
  entries: { drop, duplicate, delay, hold },
  kinds: ['drop', 'duplicate', 'delay', 'hold'],
  check: (fault: Entry, context) => [
    ...checkNode(fault.from, context, 'from'),
    ...checkNode(fault.to, context, 'to'),
  ],
  resolve: (fault: Entry) => ({
    kind: fault.kind,
    from: fault.from ?? null,
    to: fault.to ?? null,
    messages: fault.messages,
    count: fault.count ?? null,
    probability: ratioOf(
      fault.kind === 'drop' || fault.kind === 'duplicate' ? fault.probability : 1,
    ),
    delayMs: fault.kind === 'delay' ? fault['delay.ms'] : 0,
    atMs: fault['at.ms'],
    forMs: fault['for.ms'],
  }),
  entryOf: (fault) => ({
    kind: fault.kind,
    from: fault.from ?? undefined,
    to: fault.to ?? undefined,
    messages: [...fault.messages],
    count: fault.count ?? undefined,
    probability:
      fault.kind === 'drop' || fault.kind === 'duplicate'
        ? probabilityOf(fault.probability)
        : undefined,
    'delay.ms': fault.kind === 'delay' ? fault.delayMs : undefined,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs,
  }),
  describe: describeLink,
  endMs: endOf,
  aftermathMs: (fault) => fault.delayMs,
  start(fault, { sim, view, rng }) {
    const from = fault.from === null ? null : resolveNode(fault.from, view);
    const to = fault.to === null ? null : resolveNode(fault.to, view);
    if ((fault.from !== null && from === null) || (fault.to !== null && to === null)) {
      return skipped(describeLink(fault), 'a link end names no broker now');
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
    return { description: describeLink(fault) + notes, end: () => sim.removeLinkRule(rule) };
  },
  random: {
    kinds: ['drop', 'duplicate', 'delay', 'hold'],
    draw: ({ kind, target, atMs, forMs, spec, rng, duration }) => {
      const linkKind = kind as LinkFault['kind'];
      const inbound = rng.chance(ratio(1, 2));
      const delayMs = linkKind === 'delay' ? duration() : 0;
      const lossy = linkKind === 'drop' || linkKind === 'duplicate';
      return {
        kind: linkKind,
        from: inbound ? null : target,
        to: inbound ? target : null,
        messages: [],
        count: null,
        probability: lossy ? spec.probability : ratio(1, 1),
        delayMs,
        atMs,
        forMs,
      };
    },
  },
  docs: [
    {
      kind: 'drop',
      keys: `${LINK_KEYS}, \`probability\`, \`count\``,
      effect: 'each matching message is lost with `probability`',
      eos: 'yes',
    },
    {
      kind: 'duplicate',
      keys: `${LINK_KEYS}, \`probability\`, \`count\``,
      effect: 'each matching message is delivered twice with `probability`',
      eos: 'yes',
    },
    {
      kind: 'delay',
      keys: `${LINK_KEYS}, \`delay.ms\`, \`count\``,
      effect:
        'each matching message arrives `delay.ms` later (connections stay FIFO, so later ' +
        'messages on the same connection wait behind it; the heal phase waits for them)',
      eos: 'yes',
    },
    {
      kind: 'hold',
      keys: `${LINK_KEYS}, \`count\``,
      effect:
        'matching messages are kept until the fault ends (`at.ms + for.ms`), then delivered in ' +
        'order: a Produce held past an abort arrives after the abort marker',
      eos:
        'yes with KIP-890 (`transaction.version: 2`); before it a held Produce can leave a ' +
        'hanging transaction',
    },
  ],
});
