/**
 * `produce-error`: a partition leader answers the next Produce requests of one partition with
 * chosen Kafka errors, in order, the way librdkafka's mock cluster injects them
 * (rd_kafka_mock_push_request_errors; tests/0105-transactions_mock.c). The broker answers each
 * as its real leader answers that error (sim/actors/broker/injected_produce_errors.ts): the
 * batch is refused, or for NOT_ENOUGH_REPLICAS_AFTER_APPEND appended first. It lets a scenario
 * reach a client's handling of one error sequence on every seed, e.g. an
 * OUT_OF_ORDER_SEQUENCE_NUMBER behind failed batches.
 */
import { z } from 'zod';
import { list, oneOf, section, text } from '../../sim/config';
import { INJECTABLE_PRODUCE_ERRORS, type InjectableProduceError } from '../../sim/actors';
import { LEADER_REF, resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import { checkNode, topicPartitionProblem } from './node_rules';
import { openTiming } from './timing';

/** Errors for the Produce requests of `topic`-`partition` at `target`. */
export interface ProduceErrorFault {
  readonly kind: 'produce-error';
  /** The broker (or a reference); default the partition's leader when the fault starts. */
  readonly target: string;
  readonly topic: string;
  readonly partition: number;
  /** One per Produce request, in order. */
  readonly errors: readonly InjectableProduceError[];
  readonly atMs: number;
  /** Null: errors not yet answered stay until the heal phase. */
  readonly forMs: number | null;
}

const entry = section({
  kind: z.literal('produce-error'),
  partition: text(),
  target: text().optional(),
  errors: list(oneOf(INJECTABLE_PRODUCE_ERRORS), { empty: false }),
  ...openTiming,
});
type Entry = z.infer<typeof entry>;

function describeProduceError(fault: ProduceErrorFault): string {
  const tp = `${fault.topic}-${fault.partition}`;
  return (
    `Produce errors ${fault.errors.join(', ')} on ${tp} at ${fault.target}` + lasting(fault.forMs)
  );
}

export const produceErrorKind = defineFaultKind<ProduceErrorFault>({
  entries: { 'produce-error': entry },
  kinds: ['produce-error'],
  check: (fault: Entry, context) => {
    const detail = topicPartitionProblem(fault.partition, context);
    return [
      ...(detail === undefined ? [] : [{ path: ['partition'], detail }]),
      ...checkNode(fault.target, context, 'target'),
    ];
  },
  resolve: (fault: Entry) => {
    const match = /^(.+)-(\d+)$/.exec(fault.partition);
    return {
      kind: 'produce-error',
      target: fault.target ?? `${LEADER_REF}${fault.partition}`,
      topic: match?.[1] ?? fault.partition,
      partition: Number(match?.[2] ?? 0),
      errors: fault.errors,
      atMs: fault['at.ms'],
      forMs: fault['for.ms'] ?? null,
    };
  },
  entryOf: (fault) => ({
    kind: 'produce-error',
    partition: `${fault.topic}-${fault.partition}`,
    target: fault.target,
    errors: [...fault.errors],
    'at.ms': fault.atMs,
    'for.ms': fault.forMs ?? undefined,
  }),
  describe: describeProduceError,
  endMs: endOf,
  start(fault, { view }) {
    const description = describeProduceError(fault);
    const broker = resolveNode(fault.target, view);
    if (broker === null) return skipped(description, `${fault.target} names no broker now`);
    if (!view.brokers.includes(broker)) return skipped(description, `${broker} is not a broker`);
    const injection = {
      topic: fault.topic,
      partition: fault.partition,
      remaining: [...fault.errors],
    };
    const end = view.injectProduceErrors(broker, injection);
    return { description: description + resolvedNote(fault.target, broker), end };
  },
  docs: [
    {
      kind: 'produce-error',
      keys: '`partition` (`<topic>-<partition>`), `errors`, `target`, `at.ms`, `for.ms`',
      effect:
        '`target` (default `leader:<partition>`) answers each of the next Produce requests of ' +
        'the partition with the next of `errors`, as a leader answers that error: the batch is ' +
        'not appended, except for NOT_ENOUGH_REPLICAS_AFTER_APPEND (appended, then answered). ' +
        'Errors: ' +
        INJECTABLE_PRODUCE_ERRORS.join(', ') +
        '. Errors still unanswered when the fault ends (`for.ms`, else the heal phase) are dropped',
      eos: 'yes',
    },
  ],
});
