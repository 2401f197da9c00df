/**
 * The cluster as it stands at one moment of a run (`eos-sim run --until`): what a person
 * debugging a seed reads after the verdict. A printout for people, not a verdict: nothing
 * checks it, and it is read from the actors' state directly. Every time is virtual, in µs.
 */
import type { RunPhaseName } from './report_types';

/** One batch of a partition's log, as `kafka-dump-log --print-data-log` would summarise it. */
export interface BatchLine {
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly isTransactional: boolean;
  /** `COMMIT` or `ABORT` for a control batch (a transaction marker). */
  readonly control?: 'COMMIT' | 'ABORT';
  readonly coordinatorEpoch?: number;
  readonly leaderEpoch: number;
  readonly appendUs: number;
  /** A `__transaction_state` record: `transactionalId state producerId/epoch` or a tombstone. */
  readonly transactionLog?: string;
}

/** Batches left out between two shown ones (or before the first shown). */
export interface OmittedBatches {
  readonly omitted: number;
  readonly fromOffset: number;
  readonly toOffset: number;
}

/** What one partition replica knows about one producerId (Kafka's ProducerStateEntry). */
export interface ProducerStateLine {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  /** First offset of its open transaction here; absent when none is open. */
  readonly currentTxnFirstOffset?: number;
  /** The last retained batch's sequences and offsets; absent when none is retained. */
  readonly lastBatch?: {
    readonly firstSequence: number;
    readonly lastSequence: number;
    readonly firstOffset: number;
    readonly lastOffset: number;
  };
}

/** One replica of a partition on one broker. */
export interface ReplicaState {
  readonly broker: string;
  readonly role: 'leader' | 'follower' | 'none';
  readonly logStartOffset: number;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  /** Open transactions: producerId and first offset, oldest first. */
  readonly openTransactions: ReadonlyArray<{ producerId: number; firstOffset: number }>;
  readonly producers: readonly ProducerStateLine[];
  /** Batches in the log. */
  readonly batches: number;
  /** The batches around the offsets that matter (LSO, HW, LEO), in offset order. */
  readonly log: ReadonlyArray<BatchLine | OmittedBatches>;
}

/** One partition: the controller's view (leader, epoch, ISR) and every replica. */
export interface PartitionState {
  readonly topic: string;
  readonly partition: number;
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly isr: readonly string[];
  readonly replicas: readonly ReplicaState[];
}

/** One transactional.id at its coordinator (Kafka's TransactionMetadata). */
export interface CoordinatorTransaction {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly state: string;
  readonly pendingState: string | null;
  readonly partitions: readonly string[];
  readonly txnStartUs: number;
  readonly txnTimeoutMs: number;
}

/** One broker's transaction coordinator. */
export interface CoordinatorState {
  readonly broker: string;
  /** The `__transaction_state` partitions it leads, with their coordinator epochs. */
  readonly partitions: ReadonlyArray<{
    partition: number;
    coordinatorEpoch: number;
    loading: boolean;
  }>;
  readonly transactions: readonly CoordinatorTransaction[];
}

/** A message sent and not yet handed to its target. */
export interface MessageLine {
  readonly source: string;
  readonly target: string;
  readonly kind: string;
  readonly correlationId?: number;
  readonly sentUs: number;
  /** When it is due; null while a link rule holds it or a pause defers it. */
  readonly dueUs: number | null;
  readonly where: string;
}

/** One client node. */
export interface ClientState {
  readonly name: string;
  readonly role: string;
  readonly status: string;
  /** The application has an operation open. */
  readonly busy: boolean;
  readonly producer?: {
    readonly transactionalId: string | null;
    readonly state: string;
    readonly producerId: number;
    readonly producerEpoch: number;
    readonly lastError: string;
  };
  readonly consumer?: {
    readonly isolationLevel: string;
    readonly polling: boolean;
    readonly positions: ReadonlyArray<{
      topic: string;
      partition: number;
      position: number | null;
    }>;
  };
  /** Messages from or to this client still on their way. */
  readonly inFlight: readonly MessageLine[];
}

/** The whole cluster at one moment. */
export interface ClusterState {
  readonly seed: string;
  readonly scenario: string;
  readonly timeUs: number;
  /** Events executed so far: the moment is right after event number `eventsRun`. */
  readonly eventsRun: number;
  readonly phase: RunPhaseName;
  /** Why the run stopped here. */
  readonly stoppedBy: string;
  readonly nodes: ReadonlyArray<{ readonly id: string; readonly status: string }>;
  /** Application partitions, then internal ones that hold records. */
  readonly partitions: readonly PartitionState[];
  readonly coordinators: readonly CoordinatorState[];
  readonly clients: readonly ClientState[];
  /** Every message on its way, including between brokers (replication, markers). */
  readonly messagesInFlight: number;
}
