/** The shapes a broker's replica manager is built from and schedules (Kafka's ReplicaManager). */
import type { PartitionState } from '../protocol';
import type { ObservationSink } from '../protocol';
import type { DelayedTimer } from './delayed_operations';
import type { LogDirState } from './log_dir_failure';
import type { PartitionBugs } from './partition_log';
import type { ReplicationSettings } from './partition_replica';

/** Timers of the replica manager. */
export type ReplicaTimer =
  | DelayedTimer
  | { readonly owner: 'replica'; readonly type: 'isr-check' }
  | { readonly owner: 'replica'; readonly type: 'producer-expiration' }
  | { readonly owner: 'replica'; readonly type: 'alter-timeout'; readonly correlationId: number };

/** What a broker's replica manager is built from. */
export interface ReplicaManagerOptions {
  readonly brokerId: string;
  readonly initialStates: readonly PartitionState[];
  readonly replication: ReplicationSettings;
  readonly bugs: PartitionBugs;
  readonly fetchBatchesMax: number;
  /** A topic's own `min.insync.replicas` (transaction.state.log.min.isr), or null. */
  readonly minInsyncReplicasOf: (topic: string) => number | null;
  /** The disk under the log directory (`log_dir_failure.ts`). @default never fails */
  readonly logDir?: LogDirState;
  /** Where the replicas report their observations. @default dropped */
  readonly observe?: ObservationSink;
}
