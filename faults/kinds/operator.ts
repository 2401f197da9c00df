/**
 * `operator`: an operator running `kafka-transactions.sh` (KIP-664) through the run's admin
 * client: `describe-producers` of a partition, `find-hanging` on a topic (or one partition), or
 * `abort` of the open transaction starting at `start.offset` (without one: of every transaction
 * find-hanging reports there); or `kafka-topics.sh`: `create-topics` (`--create --partitions
 * --replication-factor`) and `create-partitions` (`--alter --partitions`, the new total). The
 * result is recorded in the history when the admin calls complete. An abort is outside the
 * guarantee: it writes a marker no coordinator decided.
 */
import { z } from 'zod';
import { integer, oneOf, positive, section, text } from '../../sim/config';
import { defineFaultKind } from './fault_kind';
import type { FaultContext, FaultProblem } from './fault_kind';
import { instant } from './timing';

/** The KIP-664 operator actions (`kafka-transactions.sh`) a scenario can run. */
export const OPERATOR_ACTIONS = [
  'describe-producers',
  'find-hanging',
  'abort',
  'create-topics',
  'create-partitions',
] as const;

/** The `kafka-topics.sh` actions: the topic need not exist when the scenario is loaded. */
const TOPIC_ACTIONS: ReadonlySet<string> = new Set(['create-topics', 'create-partitions']);

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
  /** create-topics and create-partitions: `--partitions` (for create-partitions the new total). */
  readonly partitions: number | null;
  /** create-topics: `--replication-factor`. */
  readonly replicationFactor: number | null;
  readonly atMs: number;
}

const entry = section({
  kind: z.literal('operator'),
  action: oneOf(OPERATOR_ACTIONS),
  topic: text(),
  partition: integer({ min: 0 }).optional(),
  'start.offset': integer({ min: 0 }).optional(),
  'max.transaction.timeout.ms': positive().default(900000),
  partitions: integer({ min: 0 }).optional(),
  'replication.factor': integer({ min: 0 }).optional(),
  ...instant,
});
type Entry = z.infer<typeof entry>;

/** The keys of the kafka-topics.sh actions, which Kafka's controller checks at run time. */
function checkTopicAction(fault: Entry): FaultProblem[] {
  const problems: FaultProblem[] = [];
  const needed = fault.action === 'create-topics' ? ['partitions', 'replication.factor'] : [];
  if (fault.action === 'create-partitions') needed.push('partitions');
  for (const key of needed) {
    if (fault[key as 'partitions'] === undefined)
      problems.push({ path: [key], detail: 'required' });
  }
  for (const key of ['partition', 'start.offset', 'replication.factor'] as const) {
    if (fault[key] !== undefined && !needed.includes(key)) {
      problems.push({ path: [key], detail: `${fault.action} does not take it` });
    }
  }
  return problems;
}

/** The topic (and partition) exist; start.offset goes with abort and a partition. */
function check(fault: Entry, context: FaultContext): FaultProblem[] {
  if (TOPIC_ACTIONS.has(fault.action)) return checkTopicAction(fault);
  for (const key of ['partitions', 'replication.factor'] as const) {
    if (fault[key] !== undefined) {
      return [{ path: [key], detail: 'only create-topics and create-partitions take it' }];
    }
  }
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
    partitions: fault.partitions ?? null,
    replicationFactor: fault['replication.factor'] ?? null,
    atMs: fault['at.ms'],
  }),
  entryOf: (fault) => ({
    kind: 'operator',
    action: fault.action,
    topic: fault.topic,
    partition: fault.partition ?? undefined,
    'start.offset': fault.startOffset ?? undefined,
    'max.transaction.timeout.ms': fault.maxTransactionTimeoutMs,
    partitions: fault.partitions ?? undefined,
    'replication.factor': fault.replicationFactor ?? undefined,
    'at.ms': fault.atMs,
  }),
  describe: (fault) => {
    if (fault.action === 'create-topics') {
      return (
        `operator: kafka-topics --create --topic ${fault.topic} --partitions ` +
        `${fault.partitions} --replication-factor ${fault.replicationFactor}`
      );
    }
    if (fault.action === 'create-partitions') {
      const { topic, partitions } = fault;
      return `operator: kafka-topics --alter --topic ${topic} --partitions ${partitions}`;
    }
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
      keys:
        '`action`, `topic`, `partition`, `start.offset`, `max.transaction.timeout.ms`, ' +
        '`partitions`, `replication.factor`, `at.ms`',
      effect:
        '`kafka-transactions.sh` (KIP-664): `describe-producers`, `find-hanging` or `abort`; ' +
        '`kafka-topics.sh`: `create-topics` (`partitions`, `replication.factor`) or ' +
        '`create-partitions` (`partitions`: the new total), through the controller',
      eos: '`abort`: no (a marker no coordinator decided)',
    },
  ],
});
