/**
 * `operator`: an operator running `kafka-transactions.sh` (KIP-664) through the run's admin
 * client: `describe-producers` of a partition, `find-hanging` on a topic (or one partition), or
 * `abort` of the open transaction starting at `start.offset` (without one: of every transaction
 * find-hanging reports there). The result is recorded in the history when the admin calls
 * complete. An abort is outside the guarantee: it writes a marker no coordinator decided.
 */
import { z } from 'zod';
import { integer, oneOf, positive, section, text } from '../../sim/config';
import { defineFaultKind } from './fault_kind';
import type { FaultContext, FaultProblem } from './fault_kind';
import { instant } from './timing';

/** The KIP-664 operator actions (`kafka-transactions.sh`) a scenario can run. */
export const OPERATOR_ACTIONS = ['describe-producers', 'find-hanging', 'abort'] as const;

/** One `kafka-transactions.sh` command. */
export interface OperatorFault {
  readonly kind: 'operator';
  readonly action: (typeof OPERATOR_ACTIONS)[number];
  readonly topic: string;
  /** null: every partition of the topic. */
  readonly partition: number | null;
  /** abort only; null: abort whatever find-hanging reports. */
  readonly startOffset: number | null;
  /** `--max-transaction-timeout` of find-hanging, in ms. @default 900000 */
  readonly maxTransactionTimeoutMs: number;
  readonly atMs: number;
}

const entry = section({
  kind: z.literal('operator'),
  action: oneOf(OPERATOR_ACTIONS),
  topic: text(),
  partition: integer({ min: 0 }).optional(),
  'start.offset': integer({ min: 0 }).optional(),
  'max.transaction.timeout.ms': positive().default(900000),
  ...instant,
});
type Entry = z.infer<typeof entry>;

/** The topic (and partition) exist; start.offset goes with abort and a partition. */
function check(fault: Entry, context: FaultContext): FaultProblem[] {
  const count = context.topics.get(fault.topic);
  if (count === undefined) {
    const known = [...context.topics.keys()].join(', ');
    return [{ path: ['topic'], detail: `unknown topic ${fault.topic}: expected one of ${known}` }];
  }
  const problems: FaultProblem[] = [];
  if (fault.partition !== undefined && fault.partition >= count) {
    const detail = `must be below the partition count of ${fault.topic}: ${count}`;
    problems.push({ path: ['partition'], detail });
  }
  if (fault['start.offset'] === undefined) return problems;
  if (fault.action !== 'abort') {
    problems.push({ path: ['start.offset'], detail: 'only abort takes it' });
  } else if (fault.partition === undefined) {
    problems.push({ path: ['start.offset'], detail: 'needs partition' });
  }
  return problems;
}

export const operatorKind = defineFaultKind<OperatorFault>({
  entries: { operator: entry },
  kinds: ['operator'],
  check,
  resolve: (fault: Entry) => ({
    kind: 'operator',
    action: fault.action,
    topic: fault.topic,
    partition: fault.partition ?? null,
    startOffset: fault['start.offset'] ?? null,
    maxTransactionTimeoutMs: fault['max.transaction.timeout.ms'],
    atMs: fault['at.ms'],
  }),
  entryOf: (fault) => ({
    kind: 'operator',
    action: fault.action,
    topic: fault.topic,
    partition: fault.partition ?? undefined,
    'start.offset': fault.startOffset ?? undefined,
    'max.transaction.timeout.ms': fault.maxTransactionTimeoutMs,
    'at.ms': fault.atMs,
  }),
  describe: (fault) => {
    const where = fault.partition === null ? fault.topic : `${fault.topic}-${fault.partition}`;
    const from = fault.startOffset === null ? '' : ` --start-offset ${fault.startOffset}`;
    return `operator: kafka-transactions ${fault.action} ${where}${from}`;
  },
  endMs: () => null,
  start(fault, { view }) {
    view.runOperatorAction(fault);
    // The operator node records the outcome when the admin calls complete.
    return { description: this.describe(fault), end: null, endRecordedLater: true };
  },
  docs: [
    {
      kind: 'operator',
      keys: '`action`, `topic`, `partition`, `start.offset`, `max.transaction.timeout.ms`, `at.ms`',
      effect: '`kafka-transactions.sh` (KIP-664): `describe-producers`, `find-hanging` or `abort`',
      eos: '`abort`: no (a marker no coordinator decided)',
    },
  ],
});
