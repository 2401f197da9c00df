/**
 * Faults triggered by protocol events (`on:` of any fault): instead of a clock time, a fault
 * starts `at.ms` after the `count`-th delivery of a Kafka message kind (`message`) on a link
 * (`from`, `to`: nodes or references, resolved at each delivery; absent: any node), observed
 * through the kernel's delivery watcher after the receiving node handled the message. So a case
 * that hinges on an ordering ("crash the coordinator when EndTxn arrives", "pause A once its
 * first Produce is acknowledged") reproduces on every seed. The vocabulary is message deliveries
 * today; named protocol events can join it as further trigger shapes.
 */
import { z } from 'zod';
import type { DeliveryObservation } from '../sim/kernel';
import { positive, section, text, oneOf } from '../sim/config';
import { KAFKA_MESSAGE_KINDS } from '../sim/actors/protocol/message_kinds';
import { resolveNode, type ClusterView } from './cluster_view';

/** A resolved trigger: the `count`-th delivery of `message` from `from` to `to`. */
export interface FaultTrigger {
  readonly message: string;
  /** Source node or reference; null matches every node. */
  readonly from: string | null;
  /** Target node or reference; null matches every node. */
  readonly to: string | null;
  readonly count: number;
}

/** The schema of `on:`. */
export const triggerSchema = section({
  message: oneOf(KAFKA_MESSAGE_KINDS),
  from: text().optional(),
  to: text().optional(),
  count: positive().default(1),
});

/** A parsed `on:` → the trigger. */
export function resolveTrigger(entry: z.infer<typeof triggerSchema>): FaultTrigger {
  return {
    message: entry.message,
    from: entry.from ?? null,
    to: entry.to ?? null,
    count: entry.count,
  };
}

/** The trigger as the `on:` mapping a file holds. */
export function triggerEntryOf(trigger: FaultTrigger): Record<string, unknown> {
  return {
    message: trigger.message,
    ...(trigger.from === null ? {} : { from: trigger.from }),
    ...(trigger.to === null ? {} : { to: trigger.to }),
    count: trigger.count,
  };
}

/** ` on the 3rd Produce A -> leader:orders-1`, for descriptions. */
export function describeTrigger(trigger: FaultTrigger): string {
  const n = trigger.count;
  const suffix =
    n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : 'th';
  const ordinal = n % 10 === 3 && n % 100 !== 13 ? `${n}rd` : `${n}${suffix}`;
  return ` on the ${ordinal} ${trigger.message} ${trigger.from ?? '*'} -> ${trigger.to ?? '*'}`;
}

/** Whether one delivery matches the trigger's link and kind, references resolved now. */
export function matchesTrigger(
  trigger: FaultTrigger,
  delivery: DeliveryObservation,
  view: ClusterView,
): boolean {
  const { envelope } = delivery;
  if (envelope.payload.kind !== trigger.message) return false;
  if (trigger.from !== null && resolveNode(trigger.from, view) !== envelope.source) return false;
  return trigger.to === null || resolveNode(trigger.to, view) === envelope.target;
}
