/**
 * The transactions of a history as the clients saw them: one attempt per `txn` invoke, paired
 * with its completion (a process runs one operation at a time, so the next `txn` op of the same
 * process completes it), with the records the invoke named and the outcome the client learned.
 * One pass over the history, O(n).
 */
import type { History, HistoryOp, SendMicroOp } from '../history';

/** What the client learned about a transaction (style rule 24: `info` means unknown). */
export type ClientOutcome = 'committed' | 'aborted' | 'unknown';

/** One `txn` operation: a transaction of one transactional.id. */
export interface TransactionAttempt {
  /** History index of the `txn` invoke: the attempt's identity. */
  readonly index: number;
  readonly transactionalId: string;
  readonly client: string;
  readonly process: string;
  /** The records the invoke named, in send order. */
  readonly sends: readonly SendMicroOp[];
  /**
   * `committed`: an `ok` completion of a commit; `aborted`: an `ok` completion of the abort the
   * application chose, or a `fail` (it definitely did not commit); `unknown`: an `info`
   * completion, or none.
   */
  readonly outcome: ClientOutcome;
  readonly invokeUs: number;
  /** Time of the completion; null when the history ends first. */
  readonly completionUs: number | null;
  /** The identity the completion names, if any. */
  readonly producerId: number | null;
  readonly producerEpoch: number | null;
}

type TxnOp = Extract<HistoryOp, { readonly f: 'txn' }>;

/**
 * Every transaction attempt, by the history index of its invoke, in history order.
 * @example transactionAttempts(history).get(4)?.outcome // 'aborted'
 */
export function transactionAttempts(history: History): Map<number, TransactionAttempt> {
  const attempts = new Map<number, TransactionAttempt>();
  const open = new Map<string, TxnOp>();
  for (const op of history) {
    if (op.f !== 'txn') continue;
    if (op.type === 'invoke') {
      const previous = open.get(op.process);
      if (previous !== undefined) attempts.set(previous.index, attemptOf(previous, null));
      open.set(op.process, op);
      continue;
    }
    const invoke = open.get(op.process);
    if (invoke === undefined) continue;
    open.delete(op.process);
    attempts.set(invoke.index, attemptOf(invoke, op));
  }
  for (const invoke of open.values()) attempts.set(invoke.index, attemptOf(invoke, null));
  return new Map([...attempts].sort(([a], [b]) => a - b));
}

function attemptOf(invoke: TxnOp, completion: TxnOp | null): TransactionAttempt {
  return {
    index: invoke.index,
    transactionalId: invoke.value.transactionalId,
    client: invoke.client,
    process: invoke.process,
    sends: invoke.value.sends,
    outcome: completion === null ? 'unknown' : outcomeOf(completion),
    invokeUs: invoke.timeUs,
    completionUs: completion?.timeUs ?? null,
    producerId: completion?.value.producerId ?? null,
    producerEpoch: completion?.value.producerEpoch ?? null,
  };
}

function outcomeOf(completion: TxnOp): ClientOutcome {
  if (completion.type === 'fail') return 'aborted';
  if (completion.type === 'ok') return completion.value.commit ? 'committed' : 'aborted';
  return 'unknown';
}
