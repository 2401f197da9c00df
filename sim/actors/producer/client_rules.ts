/**
 * Where librdkafka's producer (rdkafka_request.c, rdkafka_idempotence.c, rdkafka_broker.c)
 * differs from Kafka's Java client (Sender, TransactionManager) in the rules the model has: what
 * an OUT_OF_ORDER_SEQUENCE_NUMBER means, how an epoch bump is made and which partitions it
 * renumbers, and what a batch that fails for good does to an idempotent producer. The Java
 * rules stay in record_sender.ts; this file holds librdkafka's, so a Java run takes none of
 * these paths.
 */
import { NO_SEQUENCE, incrementSequence, type KafkaErrorCode } from '../protocol';
import { PURGED_FROM_QUEUE, failRecords } from './producer_batch';
import type { PartitionSendState, ProducerBatch } from './producer_batch';

/** The client library a producer behaves as (`client.flavour`). */
export type ClientFlavour = 'java' | 'librdkafka' | 'franz-go' | 'sarama';

/** A producer's client library and the switches of that library. */
export interface ClientRules {
  readonly flavour: ClientFlavour;
  /** `client.version`: the library's release (a Kafka release for Java). */
  readonly version: string;
  /**
   * librdkafka `enable.gapless.guarantee`: a batch that fails for good raises a fatal error
   * (ERR__GAPLESS_GUARANTEE) instead of bumping the epoch. @default false
   */
  readonly enableGaplessGuarantee: boolean;
  /**
   * confluentinc/librdkafka#4953: OUT_OF_ORDER_SEQUENCE_NUMBER on a batch behind the next
   * expected one bumps the epoch (rd_kafka_idemp_drain_epoch_bump, "skipped sequence numbers")
   * instead of only retrying (the fix proposed in #4972, Java's TransactionManager.canRetry).
   */
  readonly bumpOnSkippedSequence: boolean;
  /**
   * confluentinc/librdkafka#3575 (before 1.8.2): a transactional producer's epoch bump goes to
   * the coordinator as InitProducerId in the middle of the transaction, which carries on;
   * fixed: the transaction becomes abortable and the bump follows the abort.
   */
  readonly bumpWithoutAbort: boolean;
  /**
   * twmb/franz-go#1217 (before v1.20.7): a batch answered REQUEST_TIMED_OUT or
   * NOT_ENOUGH_REPLICAS_AFTER_APPEND may still fail at its limits, and its sequence is reused.
   * @default false
   */
  readonly reuseAmbiguousSequence?: boolean;
  /**
   * IBM/sarama#1661 (before 1.26.2): a message that failed for good keeps its sequence number
   * and the epoch is not bumped, so the partition's next batch leaves a gap. @default false
   */
  readonly keepFailedSequence?: boolean;
  /**
   * confluentinc/librdkafka#4438 (before 2.3.0): a retried batch whose error leaves it possibly
   * persisted moves the sequence librdkafka next expects acknowledged past it
   * (`update_next_ack` in rd_kafka_handle_Produce_error), so a later batch refused
   * OUT_OF_ORDER_SEQUENCE_NUMBER is read as "rewound" or "desynchronized": fatal. @default false
   */
  readonly advanceAckOnPossiblyPersisted?: boolean;
}

/** Whether a producer's config says it is librdkafka. */
export function isLibrdkafka(config: { readonly client?: ClientRules }): boolean {
  return config.client?.flavour === 'librdkafka';
}

/**
 * The transaction version a producer speaks (0 without a transactional.id): the cluster's for
 * the Java client; 0 for
 * librdkafka, which sends EndTxn v0-1 and AddPartitionsToTxn v0 only (rd_kafka_EndTxnRequest,
 * rd_kafka_AddPartitionsToTxnRequest in 2.15.0: no KIP-890 part 2), so the coordinator keeps
 * the pre-KIP-890 rules for its transactions.
 */
export function clientTransactionVersion(
  config: { readonly client?: ClientRules; readonly transactionalId: string | null },
  cluster: { readonly transactionVersion: number },
): number {
  if (config.transactionalId === null) return 0;
  return isLibrdkafka(config) ? 0 : cluster.transactionVersion;
}

/** Kafka's Java client: none of librdkafka's rules. */
export const JAVA_CLIENT: ClientRules = {
  flavour: 'java',
  version: 'newest',
  enableGaplessGuarantee: false,
  bumpOnSkippedSequence: false,
  bumpWithoutAbort: false,
};

/**
 * What librdkafka does with OUT_OF_ORDER_SEQUENCE_NUMBER (rd_kafka_handle_idempotent_Produce_error)
 * by where the batch stands against the next sequence the partition expects acknowledged:
 * the next one itself (`r == 0`, "sequence desynchronization") or one before it ("rewound
 * sequence number") is a fatal error; one behind it (`r > 0`, "skipped sequence numbers") is
 * retried without counting a retry, and with #4953 the epoch is bumped as well.
 */
export type OutOfOrderAction = 'fatal' | 'retry' | 'retry-and-bump';

/** librdkafka's reading of OUT_OF_ORDER_SEQUENCE_NUMBER on `batch`. */
export function librdkafkaOutOfOrder(
  batch: ProducerBatch,
  state: PartitionSendState,
  rules: ClientRules | undefined,
): OutOfOrderAction {
  if (batch.baseSequence <= librdkafkaNextAck(state)) return 'fatal';
  return rules?.bumpOnSkippedSequence === true ? 'retry-and-bump' : 'retry';
}

/**
 * The sequence librdkafka expects acknowledged next on `state` (rktp_eos.next_ack_seq): the one
 * after the last acknowledged, unless a possibly persisted error moved it further under the
 * partition's current producerId and epoch (#4438; an epoch bump renumbers from 0).
 */
export function librdkafkaNextAck(state: PartitionSendState): number {
  const moved = state.possiblyAckedNext;
  const current =
    moved !== undefined &&
    moved.producerId === state.producerId &&
    moved.producerEpoch === state.producerEpoch;
  return current ? moved.sequence : incrementSequence(state.lastAckedSequence, 1);
}

/**
 * Errors after which librdkafka counts a Produce's messages as possibly persisted
 * (RD_KAFKA_ERR_ACTION_MSG_POSSIBLY_PERSISTED in rd_kafka_err_action and the Produce error
 * table): a transport failure or client-side timeout (the model's NETWORK_EXCEPTION: the
 * producer closed the connection), REQUEST_TIMED_OUT and NOT_ENOUGH_REPLICAS_AFTER_APPEND.
 */
const POSSIBLY_PERSISTED: ReadonlySet<KafkaErrorCode> = new Set<KafkaErrorCode>([
  'NETWORK_EXCEPTION',
  'REQUEST_TIMED_OUT',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
]);

/**
 * librdkafka retries `batch` after `error` (rd_kafka_handle_Produce_error, retry branch): the
 * partition drains first (rd_kafka_idemp_drain_toppar), and before 2.3.0 (#4438, fix 0fd8e30e5)
 * a possibly persisted batch moves the next expected acknowledgement past itself, as if its
 * retry were sure to be answered as a duplicate. 2.3.0 leaves it, expecting
 * DUPLICATE_SEQUENCE_NUMBER if the batch was written and success if it was not.
 */
export function librdkafkaOnRetry(
  batch: ProducerBatch,
  state: PartitionSendState,
  error: KafkaErrorCode,
  rules: ClientRules | undefined,
): void {
  state.waitDrain = true;
  if (!POSSIBLY_PERSISTED.has(error) || batch.baseSequence === NO_SEQUENCE) return;
  if (rules?.advanceAckOnPossiblyPersisted !== true) return;
  state.possiblyAckedNext = {
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    sequence: incrementSequence(batch.baseSequence, batch.records.length),
  };
}

/**
 * After librdkafka's drain-and-bump (rd_kafka_idemp_drain_done) every partition takes the new
 * producerId/epoch and numbers the messages it has not had acknowledged from sequence 0
 * (rd_kafka_toppar_pid_change sets the epoch's base msgid to the first unacknowledged
 * message): the batches waiting for a retry, in order, and then what is queued. A batch the
 * leader had appended but whose answer was lost is then written a second time.
 */
export function renumberEveryPartition(
  partitions: Iterable<PartitionSendState>,
  identity: { readonly producerId: number; readonly producerEpoch: number },
): void {
  for (const state of partitions) {
    state.nextSequence = 0;
    for (const batch of state.retries) {
      batch.producerId = identity.producerId;
      batch.producerEpoch = identity.producerEpoch;
      batch.baseSequence = state.nextSequence;
      batch.sequenceReset = true;
      state.nextSequence = incrementSequence(state.nextSequence, batch.records.length);
    }
    state.lastAckedSequence = NO_SEQUENCE;
    state.producerId = identity.producerId;
    state.producerEpoch = identity.producerEpoch;
    state.unresolvedNextSequence = NO_SEQUENCE;
  }
}

/**
 * Whether librdkafka holds back `state`'s sends to `broker`: nothing goes out while the producer
 * drains for an epoch bump, nor to a partition that waits for its requests to drain, before a
 * retry or after its leader moved (rktp_eos.wait_drain in rd_kafka_toppar_producer_serve).
 * Once drained, its retries go out in order, several in flight, as any batch.
 */
export function librdkafkaHolds(options: {
  readonly state: PartitionSendState;
  readonly broker: string;
  readonly requests: Iterable<{ readonly batch: ProducerBatch; readonly broker: string }>;
  readonly draining: boolean;
}): boolean {
  const { state, broker } = options;
  if (options.draining) return true;
  let elsewhere = false;
  for (const request of options.requests) {
    if (request.batch.tp === state.tp && request.broker !== broker) elsewhere = true;
  }
  if (state.waitDrain !== true && !elsewhere) return false;
  if (state.inFlight.length > 0) return true;
  state.waitDrain = false;
  return false;
}

/**
 * librdkafka's fatal error purges the producer's queues (rd_kafka_set_fatal_error0 asks its main
 * thread for rd_kafka_purge with RD_KAFKA_PURGE_F_QUEUE): what is queued and the retries waiting
 * to be re-sent end with the local error _PURGE_QUEUE, under the identity they were sent with;
 * the requests in flight are left to their own answers.
 */
export function purgeQueues(state: PartitionSendState): void {
  const records = state.queue.splice(0);
  for (const batch of state.retries.splice(0)) failRecords(batch.records, PURGED_FROM_QUEUE, batch);
  failRecords(records, PURGED_FROM_QUEUE, { producerId: -1, producerEpoch: -1 });
}
