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
    };

/** Shared by every client: the phase of the run, set by the runner. */
export interface WorkloadControl {
  /** Set when the workload phase ends: applications start no new operation. */
  stopping: boolean;
}
