/**
 * What the workload needs to know about each client: its Kafka settings and what its
 * application does. The scenario loader's resolved types fit these shapes.
 */
import type { ConsumerConfig, ProducerConfig } from '../actors';

/** A transactional producer's application: `transactions` transactions of several sends. */
export interface TransactionsSpec {
  readonly type: 'transactions';
  readonly startMs: number;
  readonly transactions: number;
  readonly recordsPerTransaction: number;
  readonly sendIntervalMs: number;
  /** Records handed to `send()` back to back at each step; the last step may hold fewer. */
  readonly recordsPerSend: number;
  readonly transactionIntervalMs: number;
  /** Every n-th transaction is aborted by the application; 0 never. */
  readonly abortEvery: number;
  readonly topics: readonly string[];
  /**
   * What the application does when its producer is fenced: `stop` (the instance ends, Kafka's
   * advice) or `restart` (a new producer instance calls initTransactions again, as a deployment
   * that restarts on every crash does). @default 'stop'
   */
  readonly onFenced?: 'stop' | 'restart';
  /** Close the producer after the last transaction (`close.when.done`). */
  readonly closeWhenDone?: boolean;
}

/**
 * A non-transactional producer's application: `sends` single-record sends in all, in steps of
 * `recordsPerSend` every `sendIntervalMs`.
 */
export interface SendsSpec {
  readonly type: 'sends';
  readonly startMs: number;
  readonly sends: number;
  readonly sendIntervalMs: number;
  readonly recordsPerSend: number;
  readonly topics: readonly string[];
}

/** A consumer's application: poll every `pollIntervalMs`. */
export interface PollsSpec {
  readonly type: 'polls';
  readonly startMs: number;
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

/** Shared by every client: the phase of the run, set by the runner. */
export interface WorkloadControl {
  /** Set when the workload phase ends: applications start no new operation. */
  stopping: boolean;
}
