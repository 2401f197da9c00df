/**
 * Lookups over the client history that several checkers share: which client sent each value
 * (from the first `send` or `txn` operation naming it, normally its invoke) and which operations
 * delivered records (`poll` and `final-read` completions of type `ok`). Values are unique across
 * a run, so a value names one logical message.
 */
import type { History, HistoryOp, SendMicroOp } from '../history';
import { sentRecordsOf } from '../history';

/** A `poll` or `final-read` operation. */
export type DeliveryOp = Extract<HistoryOp, { readonly f: 'poll' | 'final-read' }>;

/** Who sent a value, from the history. */
export interface SentValue {
  readonly value: number;
  readonly topic: string;
  readonly partition: number;
  /** The scenario's client name, e.g. `A`. */
  readonly client: string;
  /** The logical process, e.g. `A#2`. */
  readonly process: string;
  /** History index of the first operation naming the value. */
  readonly opIndex: number;
  readonly timeUs: number;
  readonly f: 'send' | 'txn';
  /** The transaction's transactional.id; null for a non-transactional send. */
  readonly transactionalId: string | null;
  /** How many invokes named the value; more than one means the application resent it. */
  readonly invokeCount: number;
}

interface MutableSentValue extends Omit<SentValue, 'invokeCount'> {
  invokeCount: number;
}

/** The records a `send` or `txn` operation names; none for other operations. */
function sendsOf(op: HistoryOp): readonly SendMicroOp[] {
  if (op.f === 'send') return sentRecordsOf(op.value);
  if (op.f === 'txn') return op.value.sends;
  return [];
}

/**
 * Who sent each value, keyed by value.
 * @example indexSentValues(history).get(17)?.client // 'A'
 */
export function indexSentValues(history: History): Map<number, SentValue> {
  const sent = new Map<number, MutableSentValue>();
  for (const op of history) {
    if (op.f !== 'send' && op.f !== 'txn') continue;
    const transactionalId = op.f === 'txn' ? op.value.transactionalId : null;
    for (const send of sendsOf(op)) {
      const known = sent.get(send.value);
      if (known !== undefined) {
        if (op.type === 'invoke') known.invokeCount += 1;
        continue;
      }
      sent.set(send.value, {
        value: send.value,
        topic: send.topic,
        partition: send.partition,
        client: op.client,
        process: op.process,
        opIndex: op.index,
        timeUs: op.timeUs,
        f: op.f,
        transactionalId,
        invokeCount: op.type === 'invoke' ? 1 : 0,
      });
    }
  }
  return sent;
}

/**
 * The operations that delivered records to an application: `ok` completions of `poll` and
 * `final-read`, in history order.
 * @example deliveryOps(history).filter((op) => op.f === 'final-read')
 */
export function deliveryOps(history: History): DeliveryOp[] {
  const ops: DeliveryOp[] = [];
  for (const op of history) {
    if (op.type !== 'ok') continue;
    if (op.f === 'poll' || op.f === 'final-read') ops.push(op);
  }
  return ops;
}
