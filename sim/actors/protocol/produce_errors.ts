/**
 * The errors a partition leader can answer a Produce with, by Kafka's wire names, as a scenario's
 * `produce-error` fault names them, and whether the leader had appended the batch before
 * answering. Kafka's ProduceResponse documents them (ProduceResponse.java, ReplicaManager
 * .appendRecords): all refuse the batch before it reaches the log except
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND, which `Partition.appendRecordsToLeader` never returns and
 * `DelayedProduce` does: the batch is in the leader's log and the ISR fell below
 * `min.insync.replicas` before `acks=all` was satisfied.
 */
import type { KafkaErrorCode } from './errors';

/** The Produce errors a fault may inject, in the order the docs list them. */
export const INJECTABLE_PRODUCE_ERRORS = [
  'NOT_LEADER_OR_FOLLOWER',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'INVALID_PRODUCER_EPOCH',
  'PRODUCER_FENCED',
  'INVALID_TXN_STATE',
  'TRANSACTION_ABORTABLE',
  'UNKNOWN_SERVER_ERROR',
] as const satisfies readonly KafkaErrorCode[];

/** One of {@link INJECTABLE_PRODUCE_ERRORS}. */
export type InjectableProduceError = (typeof INJECTABLE_PRODUCE_ERRORS)[number];

/** Whether the leader appends the batch before answering `error` (see the file comment). */
export function answeredAfterAppend(error: InjectableProduceError): boolean {
  return error === 'NOT_ENOUGH_REPLICAS_AFTER_APPEND';
}

/**
 * Produce errors injected at one broker for one partition: each Produce of the partition that
 * arrives while errors remain takes the first one, in order.
 */
export interface ProduceErrorInjection {
  readonly topic: string;
  readonly partition: number;
  /** The errors not yet answered, first next. */
  readonly remaining: InjectableProduceError[];
}
