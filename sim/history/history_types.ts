/**
 * The client-side history of a run, shaped like Jepsen's: every operation a client performs is
 * an `invoke` followed by one completion (`ok`, `fail` or `info`), plus `info` operations for the
 * nemesis. `ok` means it happened, `fail` means it definitely did not, `info` means unknown. The
 * workload is the only writer. Checkers read this and the oracle only, so a history recorded
 * from a real Kafka cluster can be checked too. Style rules 23 and 24.
 */

/** Jepsen's operation types. */
export type OpType = 'invoke' | 'ok' | 'fail' | 'info';

/** One record a client sent; `offset` is filled in on `ok` completions. */
export interface SendMicroOp {
  readonly topic: string;
  readonly partition: number;
  /** The record's value: a number unique across the whole run. */
  readonly value: number;
  /** The record key (a String key, StringSerializer), for keyed workloads only. */
  readonly key?: string;
  readonly offset?: number;
  /**
   * The input record a read-process-write pipeline made this output from (as a real pipeline
   * would carry in a header); absent for records that are not a pipeline's output.
   */
  readonly source?: DeliveredRecord;
}

/**
 * The consumer group metadata a pipeline's transaction committed its offsets with
 * (`consumer.groupMetadata()`, KIP-447); generation -1 and an empty member id for the
 * groupId-only API.
 */
export interface TxnGroupMetadata {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId: string | null;
}

/** One input offset a pipeline committed: the next record of the partition to read. */
export interface CommittedInputOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** One record a consumer delivered to the application. */
export interface DeliveredRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly value: number;
}

/**
 * Records a consumer delivered from consecutive offsets of one partition, in delivery order: the
 * history's range form of `DeliveredRecord` (record `i` is at `offset + i` with `values[i]`). A
 * fetched Kafka record batch is delivered this way, so a poll costs what its batches cost.
 */
export interface DeliveredBatch {
  readonly topic: string;
  readonly partition: number;
  /** The offset of the first record. */
  readonly offset: number;
  /** One value per offset, from `offset` on; never empty. */
  readonly values: readonly number[];
}

/** `init`: `initTransactions()` of a transactional producer. */
export interface InitValue {
  readonly transactionalId: string;
  /** Set on `ok`: the identity the coordinator granted. */
  readonly producerId?: number;
  readonly producerEpoch?: number;
}

/** `txn`: one transaction; `commit` false means the application chose to abort it. */
export interface TxnValue {
  readonly transactionalId: string;
  readonly commit: boolean;
  readonly sends: readonly SendMicroOp[];
  /** Set on completions: the identity the records were written with. */
  readonly producerId?: number;
  readonly producerEpoch?: number;
  /**
   * Set on completions once the application called commitTransaction() (or abortTransaction()
   * when `commit` is false): the virtual time of that call, microseconds. With the completion
   * time it gives the commit or abort phase timing.
   */
  readonly endTxnUs?: number;
  /**
   * A read-process-write transaction: the input offsets it committed and how
   * (`transaction`: sendOffsetsToTransaction; `commit-sync`/`auto-commit`: outside the
   * transaction, a misuse), with the group metadata it sent. Absent for plain producers.
   */
  readonly consumed?: {
    readonly offsets: readonly CommittedInputOffset[];
    readonly commit: 'transaction' | 'commit-sync' | 'auto-commit';
    readonly group: TxnGroupMetadata;
  };
}

/** `send`: one record of a non-transactional (possibly idempotent) producer. */
export interface SendValue {
  readonly send: SendMicroOp;
  readonly producerId?: number;
  readonly producerEpoch?: number;
}

/** `poll` and `final-read`: records delivered, and the position after the poll. */
export interface PollValue {
  readonly isolationLevel: 'read_committed' | 'read_uncommitted';
  /**
   * The records delivered, in delivery order, as runs of consecutive offsets of one partition
   * (`deliveredRecordsOf` lists them one per record). A history file may give `records`
   * instead, one entry per record; reading it converts them.
   */
  readonly batches: readonly DeliveredBatch[];
  /** `position()` per partition after the poll, keyed `topic-partition`, sorted by key. */
  readonly positions: ReadonlyArray<{
    readonly topic: string;
    readonly partition: number;
    readonly position: number;
    /** The high watermark the leader reported in the last fetch of the partition, if any. */
    readonly highWatermark?: number;
  }>;
  /**
   * The partitions whose position the application or its consumer group set since the
   * consumer's previous poll: `seek()` (a rewind to the committed offsets after an abort), or a
   * new assignment, whose position comes from the committed offset or `auto.offset.reset`
   * (ConsumerRebalanceListener.onPartitionsAssigned; under the eager protocol every rebalance
   * revokes and reassigns every partition). A consumer's delivery order restarts there. Absent:
   * none.
   */
  readonly repositioned?: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
}

/**
 * `send` in the range form: records a non-transactional producer's application sent back to
 * back to one partition that landed in one producer batch, so one operation stands for the
 * whole batch (Kafka acknowledges a batch as a whole: contiguous offsets, one outcome).
 */
export interface SendRun {
  readonly topic: string;
  readonly partition: number;
  /** One value per record, in send order; at least two. */
  readonly values: readonly number[];
  /**
   * Set on `ok` completions: the first record's offset; record `i` is at `offset + i` (-1 for
   * every record under acks=0, which learns no offsets).
   */
  readonly offset?: number;
}

/** `send` of a run of records (the range form of {@link SendValue}). */
export interface SendRunValue {
  readonly run: SendRun;
  readonly producerId?: number;
  readonly producerEpoch?: number;
}

/** A fault the nemesis started or ended (`process: 'nemesis'`, `type: 'info'`). */
export interface NemesisValue {
  readonly fault: string;
  readonly phase: 'start' | 'end';
  readonly description: string;
}

interface OpBase {
  /** Position in the history, from 0. */
  readonly index: number;
  readonly timeUs: number;
  readonly type: OpType;
  /** The logical process: `client#n`; a process that ends in `info` is retired. */
  readonly process: string;
  /** The scenario's client name (`A`, `reader`), or `nemesis`. */
  readonly client: string;
  /** Kafka's error name when the op failed or is indeterminate, e.g. `PRODUCER_FENCED`. */
  readonly error?: string;
}

/** One history operation. */
export type HistoryOp =
  | (OpBase & { readonly f: 'init'; readonly value: InitValue })
  | (OpBase & { readonly f: 'txn'; readonly value: TxnValue })
  | (OpBase & { readonly f: 'send'; readonly value: SendValue | SendRunValue })
  | (OpBase & { readonly f: 'poll' | 'final-read'; readonly value: PollValue })
  | (OpBase & { readonly f: 'nemesis'; readonly value: NemesisValue });

/** The operation functions. */
export type OpFunction = HistoryOp['f'];

/** A whole history, in the order operations happened. */
export type History = readonly HistoryOp[];
