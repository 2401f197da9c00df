/**
 * Where the Go clients' idempotent producers keep their sequence numbers differently from
 * Kafka's Java client (Sender, TransactionManager): franz-go (twmb/franz-go, pkg/kgo/sink.go)
 * and sarama (IBM/sarama, async_producer.go). Only these rules are modelled for them; the rest
 * of a Go client runs the Java rules in record_sender.ts.
 *
 * franz-go, both sides of twmb/franz-go#1217: a batch of an idempotent producer can fail only
 * once a broker answered its last request (`recBatch.canFailFromLoadErrs`: a request that died
 * in transport is retried, whatever the limits, since it may have been written). When it fails
 * for good, `recBuf.failAllRecords` fails every buffered record of the partition and rewinds the
 * partition's sequence to that batch's (`resetBatchDrainIdx`: `seq = batch0Seq`) under the same
 * producer id and epoch: right when the broker refused the batch, wrong when it may have
 * written it. Before v1.20.7 REQUEST_TIMED_OUT and NOT_ENOUGH_REPLICAS_AFTER_APPEND answers
 * counted as refusals, so the next records reused the sequence of a batch in the log and the
 * leader answered them as its duplicates: acknowledged, never written. Commit 32e1580a marks such
 * a batch `unsureIfProduced`: it is retried past `RecordRetries` and the record timeout until
 * an answer settles it.
 *
 * sarama, both sides of IBM/sarama#1661: sarama does not retry OUT_OF_ORDER_SEQUENCE_NUMBER
 * (`brokerProducer.handleSuccess` returns it to the application). Before 1.26.2 a message took
 * its sequence from `transactionManager.getAndIncrementSequenceNumber` when it entered
 * (`topicProducer.dispatch`) and kept it when it failed for good, so the partition's next batch
 * left a gap the leader refused, and so did every batch after it: the partition stalls.
 * Commit 9df3038a takes the sequence when the message is sent and bumps the epoch, resetting
 * the sequences, when a message with a sequence fails (`asyncProducer.returnError`,
 * `transactionManager.bumpEpoch`).
 */
import { NO_SEQUENCE, type KafkaErrorCode } from '../protocol';
import type { ProducerConfig } from './producer_config';
import type { PartitionSendState, ProducerBatch } from './producer_batch';
import type { SenderPolicy } from './sender_types';

/** The answers after which franz-go cannot know whether the batch was written. */
const AMBIGUOUS_ANSWERS: ReadonlySet<KafkaErrorCode> = new Set<KafkaErrorCode>([
  'REQUEST_TIMED_OUT',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
]);

/** Whether `config` is a franz-go idempotent, non-transactional producer. */
export function isFranzGoIdempotent(config: ProducerConfig): boolean {
  return (
    config.client?.flavour === 'franz-go' &&
    config.enableIdempotence &&
    config.transactionalId === null
  );
}

/** Whether `config` is a sarama idempotent producer (sarama's lines modelled have no other). */
export function isSaramaIdempotent(config: ProducerConfig): boolean {
  return config.client?.flavour === 'sarama' && config.enableIdempotence;
}

/**
 * franz-go, on an error for `batch` (NETWORK_EXCEPTION: its request died in transport): notes
 * whether a broker answered and whether that answer was ambiguous, and returns whether the
 * batch must be retried whatever `retries` and `delivery.timeout.ms` say (a transport error;
 * from v1.20.7 also a batch once answered ambiguously).
 */
export function franzGoKeepsRetrying(
  batch: ProducerBatch,
  error: KafkaErrorCode,
  config: ProducerConfig,
): boolean {
  if (!isFranzGoIdempotent(config)) return false;
  batch.answered = error !== 'NETWORK_EXCEPTION';
  if (AMBIGUOUS_ANSWERS.has(error)) batch.unsureIfProduced = true;
  return !mayFail(batch, config);
}

/** franz-go: whether `batch` may fail now (`maybeFailErr` is consulted only then). */
export function mayFail(batch: ProducerBatch, config: ProducerConfig): boolean {
  if (!isFranzGoIdempotent(config)) return true;
  if (batch.answered !== true) return false;
  return batch.unsureIfProduced !== true || config.client?.reuseAmbiguousSequence === true;
}

/**
 * franz-go `failAllRecords` after `batch` failed for good (its own callback already ran): the
 * partition's waiting batches and queued records fail too, and its next sequence is the failed
 * batch's, under the same producer id and epoch. Returns false, doing nothing, for any other
 * client.
 */
export function franzGoFailAll(
  config: ProducerConfig,
  batch: ProducerBatch,
  state: PartitionSendState,
  policy: SenderPolicy,
  error: KafkaErrorCode,
): boolean {
  if (!isFranzGoIdempotent(config)) return false;
  for (const waiting of state.retries.splice(0)) policy.onBatchFailed(waiting, error);
  for (const record of state.queue.splice(0)) {
    record.callback({ error, offset: -1, producerId: -1, producerEpoch: -1 });
  }
  if (batch.baseSequence !== NO_SEQUENCE) state.nextSequence = batch.baseSequence;
  return true;
}

/** sarama: OUT_OF_ORDER_SEQUENCE_NUMBER is returned to the application, never retried. */
export function saramaRefusesRetry(config: ProducerConfig, error: KafkaErrorCode): boolean {
  return isSaramaIdempotent(config) && error === 'OUT_OF_ORDER_SEQUENCE_NUMBER';
}

/**
 * sarama, a batch with a sequence failed for good: from 1.26.2 the epoch is bumped (`bump`);
 * before, with IBM/sarama#1661, nothing happens and the sequence stays consumed (`keep`). Null
 * for any other client.
 */
export function saramaAfterFailure(config: ProducerConfig): 'bump' | 'keep' | null {
  if (!isSaramaIdempotent(config)) return null;
  return config.client?.keepFailedSequence === true ? 'keep' : 'bump';
}
