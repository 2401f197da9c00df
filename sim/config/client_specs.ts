/**
 * The resolved client and workload types: what the scenario loader produces from a file's
 * `clients:` section and what `sim/workload/` runs, written once. Config keys are named in each
 * field's comment; the Kafka client settings are the client model's own types.
 */
import type { ConsumerConfig, ProducerConfig } from '../actors';

/** How a producer's application routes its records to partitions (`partitioner`, `keys`). */
export interface RecordRouting {
  /**
   * How each record finds its partition: `explicit` (the application names a random partition,
   * as `new ProducerRecord(topic, partition, …)` does) or `default` (Java's default partitioner:
   * murmur2 of the key, sticky for keyless records). @default 'explicit', 'default' with keys
   */
  readonly partitioner?: 'explicit' | 'default';
  /** Record keys, used in turn (record i gets keys[i mod n]); none: keyless records. */
  readonly keys?: readonly string[];
}

/** What a transactional producer's application does. */
export interface TransactionsSpec extends RecordRouting {
  readonly type: 'transactions';
  /** When the application starts (`start.ms`). */
  readonly startMs: number;
  /** How many transactions it runs (`transactions`). */
  readonly transactions: number;
  /** Records per transaction (`records.per.transaction`). */
  readonly recordsPerTransaction: number;
  /** Pause between two sends of one transaction (`send.interval.ms`). @default 10 */
  readonly sendIntervalMs: number;
  /**
   * Records handed to `send()` back to back at each step (`records.per.send`), so a large
   * transaction costs one application event per step rather than per record. @default 1
   */
  readonly recordsPerSend: number;
  /** Pause between transactions (`transaction.interval.ms`). @default 50 */
  readonly transactionIntervalMs: number;
  /** Every n-th transaction is aborted by the application; 0 never (`abort.every`). @default 0 */
  readonly abortEvery: number;
  /**
   * What the application does when fenced (`on.fenced`): `stop` ends the instance; `restart`
   * starts a new producer instance that calls initTransactions again. @default 'stop'
   */
  readonly onFenced: 'stop' | 'restart';
  /**
   * `close.when.done`: after its last transaction the application closes the producer
   * (`KafkaProducer.close()`), so the liveness check does not ask it for more. @default false
   */
  readonly closeWhenDone: boolean;
  /**
   * `init.retry.ms`: initTransactions waits at most `max.block.ms`, and after its
   * TimeoutException the application calls it again this many ms later. Null: it waits until
   * the producer is initialised (as an application retrying at once does). @default null
   */
  readonly initRetryMs: number | null;
  /** The topics it writes (`topics`). */
  readonly topics: readonly string[];
}

/** What a non-transactional producer's application does. */
export interface SendsSpec extends RecordRouting {
  readonly type: 'sends';
  readonly startMs: number;
  /** How many records it sends in all, one `send` operation each (`sends`). */
  readonly sends: number;
  /** Pause between two steps (`send.interval.ms`). @default 10 */
  readonly sendIntervalMs: number;
  /** Records sent back to back at each step, one `send` operation each. @default 1 */
  readonly recordsPerSend: number;
  readonly topics: readonly string[];
}

/** What a consumer's application does: poll every `poll.interval.ms`. */
export interface PollsSpec {
  readonly type: 'polls';
  readonly startMs: number;
  /** @default 100 */
  readonly pollIntervalMs: number;
  readonly topics: readonly string[];
}

/**
 * A read-process-write pipeline instance (ExactlyOnceMessageProcessor): a consumer in group
 * `group.id` subscribed to `topics`, and a transactional producer writing one output record per
 * input record to `outputTopic` (same partition number modulo the output's partitions), one
 * transaction per poll, committing the input offsets in the transaction. The remaining fields are
 * client-policy switches for the misuse Kafka documents; the defaults are the correct loop.
 */
export interface PipelineSpec {
  readonly type: 'pipeline';
  readonly startMs: number;
  /** Input topics the consumer subscribes to. */
  readonly topics: readonly string[];
  /** `output.topic`. */
  readonly outputTopic: string;
  /** How long the loop waits after a poll that returned nothing (`poll.interval.ms`). */
  readonly pollIntervalMs: number;
  /** Every n-th transaction is aborted by the application; 0 never (`abort.every`). */
  readonly abortEvery: number;
  /**
   * `offsets.commit`: `transaction` (sendOffsetsToTransaction, the correct loop), `commit-sync`
   * (consumer.commitSync after the commit: offsets outside the transaction), `auto-commit`
   * (no explicit commit; enable.auto.commit commits positions). @default 'transaction'
   */
  readonly offsetsCommit: 'transaction' | 'commit-sync' | 'auto-commit';
  /**
   * `send.offsets.group.metadata`: pass consumer.groupMetadata() (KIP-447) or only the group id
   * (the deprecated overload: generation -1, no member id). @default true
   */
  readonly sendOffsetsGroupMetadata: boolean;
  /** `rewind.after.abort`: seek every assigned partition to its committed offset. @default true */
  readonly rewindAfterAbort: boolean;
  /**
   * `transactional.id.on.restart`: `same` keeps the configured id, `random` appends a fresh
   * suffix at every restart (BUG-18). @default 'same'
   */
  readonly transactionalIdOnRestart: 'same' | 'random';
  /**
   * `require.stable`: whether the consumer's OffsetFetch asks for stable offsets (KIP-447; the
   * Java consumer always does since 2.5). False models an older client or the Admin API
   * default (BUG-19). @default true
   */
  readonly requireStable: boolean;
  /** `on.fatal`: `restart` starts a new instance after a fatal error, `stop` ends it. */
  readonly onFatal: 'stop' | 'restart';
  /** `restart.delay.ms`: how long a restart takes. @default 1000 */
  readonly restartDelayMs: number;
}

/** One client of the scenario. */
export type ClientSpec =
  | {
      readonly role: 'producer';
      readonly name: string;
      readonly settings: ProducerConfig;
      readonly workload: TransactionsSpec | SendsSpec;
    }
  | {
      readonly role: 'consumer';
      readonly name: string;
      readonly settings: ConsumerConfig;
      readonly workload: PollsSpec;
    }
  | {
      readonly role: 'pipeline';
      readonly name: string;
      readonly settings: { readonly producer: ProducerConfig; readonly consumer: ConsumerConfig };
      readonly workload: PipelineSpec;
    };
