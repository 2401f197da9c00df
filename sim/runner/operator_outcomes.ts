/**
 * What the operator's `kafka-transactions.sh` and `kafka-topics.sh` commands did, from the
 * history's nemesis info operations (`fault: 'operator'`, phase `end`): the command line and its
 * outcome in the tool's words, e.g. why an abort did not end a hanging transaction (find-hanging
 * failed with "Failed to describe producers for 1 partitions: payments-0 REQUEST_TIMED_OUT", the
 * transaction's last write was not older than --max-transaction-timeout, or the
 * WriteTxnMarkers(ABORT) answer's error).
 */
import type { History } from '../history';

/** One operator command's outcome, at the virtual time it completed. */
export interface OperatorOutcome {
  readonly timeUs: number;
  readonly description: string;
}

/** Every operator outcome of the run, in history order. */
export function operatorOutcomes(history: History): OperatorOutcome[] {
  const outcomes: OperatorOutcome[] = [];
  for (const op of history) {
    if (op.f !== 'nemesis' || op.value.fault !== 'operator' || op.value.phase !== 'end') continue;
    outcomes.push({ timeUs: op.timeUs, description: op.value.description });
  }
  return outcomes;
}
