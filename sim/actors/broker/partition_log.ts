/**
 * One partition as its leader holds it: the log of record batches, the producer state with its
 * dedup window, the open transactions, the aborted-transaction index, and the three offsets
 * (log end offset, high watermark, last stable offset). With one replica per partition the high
 * watermark follows the log end offset at once; replication replaces that rule later.
 *
 * Rules: append validation ProducerAppendInfo.checkSequence, markers
 * TransactionMarkerChannelManager.addTxnMarkersToSend, LSO ProducerStateManager.ongoingTxns;
 * UnifiedLog.lastStableOffset, aborted index TransactionIndex, fetch
 * LocalLog.collectAbortedTransactions. Offsets are exclusive upper bounds, as in Kafka.
 */
import { assert, BoundedMap, pushWithin } from '../../kernel';
import { assertOffsetsOrdered } from './log_invariants';
import type { AbortedTransaction, IsolationLevel, KafkaErrorCode, LogBatch } from '../protocol';
import {
  COLLECTION_BOUNDS,
  NO_PRODUCER_ID,
  batchSizeInBytes,
  firstBatchEndingAtOrAfter,
  lastSequenceOf,
  type ProducedBatch,
} from '../protocol';
import { IGNORE_OBSERVATIONS, type LogTruncated, type ObservationSink } from '../protocol';
import { LeaderEpochCache } from './leader_epoch_cache';
import { OffsetsReporter } from './offsets_reporter';
import { RecoveryPoint } from './log_flush';
import { TransactionIndex } from './transaction_index';
import { replayBatch } from './producer_state_reload';
import {
  emptyEntry,
  findDuplicateBatch,
  recordDataBatch,
  recordMarker,
  removeExpiredProducers,
  touchEntry,
  validateDataBatch,
  validateMarker,
  type ProducerStateEntry,
  NUM_BATCHES_TO_RETAIN,
} from './producer_state';
import type { PartitionBugs } from './partition_bugs';
import {
  isV2NextTransactionStarted,
  missingVerification,
  overtakesVerification,
  refusesFirstSequence,
  type VerificationCheck,
  type VerificationEntry,
} from './append_checks';
export type { PartitionBugs, VerificationCheck };

/**
 * A follower append Kafka refuses with UnexpectedAppendOffsetException: the first fetched batch
 * starts at `firstOffset`, below this log's end offset.
 */
export interface UnexpectedAppendOffset {
  readonly firstOffset: number;
  /** The last offset of the fetched records. */
  readonly lastOffset: number;
  readonly logEndOffset: number;
}

/** The outcome of a produce append. */
export interface AppendResult {
  readonly error: KafkaErrorCode;
  /** Offset of the batch's first record; -1 on error. */
  readonly baseOffset: number;
  /** True when the batch was a retry answered from the dedup window (nothing written). */
  readonly duplicate: boolean;
}

/** What a fetch returns for one partition. */
export interface PartitionRead {
  readonly error: KafkaErrorCode;
  readonly batches: readonly LogBatch[];
  readonly abortedTransactions: readonly AbortedTransaction[] | null;
  /** The bytes of `batches` (record_sizes.ts). */
  readonly bytes: number;
}

/** A read's byte limit (ReplicaManager.readFromLog): the first batch may exceed it if allowed. */
export interface ReadLimit {
  readonly maxBytes: number;
  readonly minOneMessage: boolean;
}

const NO_LIMIT: ReadLimit = { maxBytes: Number.MAX_SAFE_INTEGER, minOneMessage: true };

/** A change of an offset at a virtual time (oracle instrumentation, not Kafka state). */
export interface OffsetChange {
  readonly timeUs: number;
  readonly offset: number;
}

/** A partition replica acting as leader. */
export class PartitionLog {
  private batches: LogBatch[] = [];
  private producers = new BoundedMap<number, ProducerStateEntry>(COLLECTION_BOUNDS.producerStates);
  private readonly transactions = new TransactionIndex();
  /**
   * Volatile: verifications in progress, by producerId (KIP-890;
   * ReplicaManager.maybeStartTransactionVerificationForPartitions).
   */
  private verifications = new BoundedMap<number, VerificationEntry>(
    COLLECTION_BOUNDS.verifications,
  );
  private nextGuard = 1;
  logStartOffset = 0;
  logEndOffset = 0;
  highWatermark = 0;
  lastStableOffset = 0;
  /** Oracle: every high watermark change. */
  readonly highWatermarkChanges: OffsetChange[] = [{ timeUs: 0, offset: 0 }];
  /** Oracle: every last stable offset change. */
  readonly lastStableOffsetChanges: OffsetChange[] = [{ timeUs: 0, offset: 0 }];
  /** Where this replica's observations go, and the broker it names in them. */
  private observe: ObservationSink = IGNORE_OBSERVATIONS;
  private broker = '';
  private readonly offsetsReporter = new OffsetsReporter();
  /** The leader epoch stamped on batches this replica appends as leader. */
  leaderEpoch = 0;
  readonly epochCache = new LeaderEpochCache();
  /**
   * False for a sole replica, whose high watermark follows its log end offset at once; true
   * when replication sets the high watermark through {@link setHighWatermark}.
   */
  replicated = false;

  private readonly recoveryPoint: RecoveryPoint;

  /** @param flushIntervalMessages `log.flush.interval.messages`; null is Kafka's default. */
  constructor(
    readonly topic: string,
    readonly partition: number,
    private readonly bugs: PartitionBugs,
    flushIntervalMessages: number | null = null,
  ) {
    this.recoveryPoint = new RecoveryPoint(flushIntervalMessages);
  }

  /** Reports this replica's observations to `observe`, naming `broker` as its holder. */
  reportTo(broker: string, observe: ObservationSink): void {
    this.broker = broker;
    this.observe = observe;
  }

  /** KAFKA-9144's switch, asked only where the two rules give a producer different times. */
  readonly markerTimestampIgnored = (): boolean => this.bugs.markerTimestampIgnored === true;
  /** The dedup window, asked only where one batch would miss a duplicate (redpanda#3039). */
  private readonly dedupWindow = (): number =>
    this.bugs.singleBatchDedupWindow ? 1 : NUM_BATCHES_TO_RETAIN;

  /** The log, oldest batch first (read-only view for fetches and the oracle). */
  get log(): readonly LogBatch[] {
    return this.batches;
  }

  /** Drops expired producer state (removeExpiredProducers); returns the producer ids. */
  expireProducers(nowUs: number, expirationUs: number): number[] {
    const ignored = this.markerTimestampIgnored;
    const producerIds = removeExpiredProducers(this.producers, nowUs, expirationUs, ignored);
    if (producerIds.length > 0) {
      this.observe({ kind: 'ProducerStateExpired', ...this.replicaRef(), producerIds });
    }
    return producerIds;
  }

  /** Open transactions on this partition: producerId → first offset. */
  get openTransactions(): ReadonlyMap<number, number> {
    return this.transactions.ongoing;
  }

  /** True when `producerId` has an open transaction here at `producerEpoch` (4.x check). */
  hasOngoingTransaction(producerId: number, producerEpoch: number): boolean {
    const entry = this.producers.get(producerId);
    return (
      entry !== undefined &&
      entry.currentTxnFirstOffset !== -1 &&
      entry.producerEpoch === producerEpoch
    );
  }

  /** True when `producerEpoch` is older than the one this partition holds for the producer. */
  isStaleEpoch(producerId: number, producerEpoch: number): boolean {
    const entry = this.producers.get(producerId);
    return entry !== undefined && producerEpoch < entry.producerEpoch;
  }

  /** Every producer this partition keeps state for (DescribeProducers, KIP-664). */
  producerEntries(): Iterable<Readonly<ProducerStateEntry>> {
    return this.producers.values();
  }

  /** The producer state entry of a producerId, if this partition knows it. */
  producerState(producerId: number): Readonly<ProducerStateEntry> | undefined {
    return this.producers.get(producerId);
  }

  /**
   * KIP-890; ReplicaManager.maybeStartTransactionVerificationForPartitions: the guard of a
   * verification for `producerId`, created or reused (a lower sequence of the same epoch, or a
   * newer epoch, updates the entry but keeps its guard). `supportsEpochBump`: the client runs
   * transaction version 2.
   */
  startVerification(
    producerId: number,
    producerEpoch: number,
    sequence: number,
    supportsEpochBump: boolean,
  ): number {
    const entry = this.verifications.get(producerId);
    if (entry === undefined) {
      const guard = this.nextGuard++;
      this.verifications.set(producerId, {
        guard,
        epoch: producerEpoch,
        lowestSequence: sequence,
        supportsEpochBump,
      });
      return guard;
    }
    entry.supportsEpochBump = supportsEpochBump;
    if (producerEpoch > entry.epoch) {
      entry.epoch = producerEpoch;
      entry.lowestSequence = sequence;
    } else if (producerEpoch === entry.epoch && sequence < entry.lowestSequence) {
      entry.lowestSequence = sequence;
    }
    return entry.guard;
  }

  /**
   * Appends a client's batch after the checks of ProducerAppendInfo.checkSequence (and the KIP-890
   * verification guard when not null).
   */
  appendAsLeader(
    batch: ProducedBatch,
    nowUs: number,
    verification: VerificationCheck | null = null,
  ): AppendResult {
    assert(batch.values.length > 0, 'a produced batch holds at least one record');
    if (batch.producerId === NO_PRODUCER_ID) {
      return {
        error: 'NONE',
        baseOffset: this.appendBatch(batch, nowUs).baseOffset,
        duplicate: false,
      };
    }
    const entry = this.producers.get(batch.producerId) ?? emptyEntry(batch.producerId);
    const firstSequence = batch.baseSequence;
    const lastSequence = lastSequenceOf(batch);
    const duplicate = findDuplicateBatch(
      entry,
      { producerEpoch: batch.producerEpoch, firstSequence, lastSequence },
      this.dedupWindow,
    );
    if (duplicate !== undefined)
      return { error: 'NONE', baseOffset: duplicate.firstOffset, duplicate: true };
    const current = this.verifications.get(batch.producerId);
    const { bugs } = this;
    const unverified = missingVerification({ batch, entry, verification, current, bugs });
    if (unverified !== 'NONE') return { error: unverified, baseOffset: -1, duplicate: false };
    if (overtakesVerification(batch, verification, current)) {
      return { error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', baseOffset: -1, duplicate: false };
    }
    if (refusesFirstSequence(entry, firstSequence, this.logEndOffset, this.bugs)) {
      return { error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', baseOffset: -1, duplicate: false };
    }
    const staleEpochAccepted =
      batch.producerEpoch < entry.producerEpoch && this.bugs.skipProducerEpochCheck;
    if (!staleEpochAccepted) {
      const error = validateDataBatch(entry, { producerEpoch: batch.producerEpoch, firstSequence });
      if (error !== 'NONE') return { error, baseOffset: -1, duplicate: false };
    }
    if (!batch.isTransactional && entry.currentTxnFirstOffset !== -1) {
      return { error: 'INVALID_TXN_STATE', baseOffset: -1, duplicate: false };
    }
    const appended = this.appendBatch(batch, nowUs);
    if (staleEpochAccepted) {
      // The bug: the stale batch is written, but the producer state is not rolled back.
      touchEntry(entry, nowUs);
    } else {
      recordDataBatch(entry, {
        producerEpoch: batch.producerEpoch,
        metadata: {
          firstSequence,
          lastSequence,
          firstOffset: appended.baseOffset,
          lastOffset: appended.lastOffset,
        },
        appendUs: nowUs,
      });
    }
    if (batch.isTransactional && entry.currentTxnFirstOffset === -1) {
      entry.currentTxnFirstOffset = appended.baseOffset;
      this.transactions.open(batch.producerId, appended.baseOffset);
    }
    if (batch.isTransactional) this.verifications.delete(batch.producerId);
    this.producers.set(batch.producerId, entry);
    this.afterAppend(nowUs);
    return { error: 'NONE', baseOffset: appended.baseOffset, duplicate: false };
  }

  /**
   * Appends a COMMIT or ABORT marker from the transaction coordinator
   * (TransactionMarkerChannelManager.addTxnMarkersToSend).
   */
  appendMarker(
    marker: {
      producerId: number;
      producerEpoch: number;
      coordinatorEpoch: number;
      committed: boolean;
      /** WriteTxnMarkers v2's transaction version; absent (a v0/v1 request) is 0. */
      transactionVersion?: number;
    },
    nowUs: number,
  ): KafkaErrorCode {
    const entry = this.producers.get(marker.producerId) ?? emptyEntry(marker.producerId);
    const error = validateMarker(
      entry,
      { ...marker, transactionVersion: marker.transactionVersion ?? 0 },
      this.bugs,
    );
    const staleEpochAccepted =
      error === 'INVALID_PRODUCER_EPOCH' && this.bugs.skipProducerEpochCheck;
    if (error !== 'NONE' && !staleEpochAccepted) return error;
    const controlBatch: LogBatch = {
      baseOffset: this.logEndOffset,
      lastOffset: this.logEndOffset,
      producerId: marker.producerId,
      producerEpoch: marker.producerEpoch,
      baseSequence: -1,
      isTransactional: true,
      control: marker.committed ? 'COMMIT' : 'ABORT',
      coordinatorEpoch: marker.coordinatorEpoch,
      values: [],
      appendUs: nowUs,
      leaderEpoch: this.leaderEpoch,
    };
    this.pushBatch(controlBatch, 'leader');
    // A marker invalidates any verification in progress (ABA protection, KIP-890), except that
    // of a transaction version 2 client's next transaction (append_checks.ts).
    const verifying = this.verifications.get(marker.producerId);
    if (!isV2NextTransactionStarted(verifying, marker.producerEpoch))
      this.verifications.delete(marker.producerId);
    const firstOffset = entry.currentTxnFirstOffset;
    if (staleEpochAccepted) entry.currentTxnFirstOffset = -1;
    else recordMarker(entry, { ...marker, appendUs: nowUs });
    if (firstOffset !== -1) {
      this.transactions.complete({
        producerId: marker.producerId,
        firstOffset,
        markerOffset: controlBatch.baseOffset,
        committed: marker.committed,
      });
    }
    this.producers.set(marker.producerId, entry);
    this.afterAppend(nowUs);
    return 'NONE';
  }

  /**
   * The end offset a ListOffsets(LATEST) returns: LSO for read_committed, HW otherwise
   * (SubscriptionState.partitionEndOffset).
   */
  endOffset(isolationLevel: IsolationLevel): number {
    return isolationLevel === 'read_committed' ? this.lastStableOffset : this.highWatermark;
  }

  /** A follower's read: whole batches from `fetchOffset` up to the log end offset. */
  readForFollower(fetchOffset: number, batchesMax: number): LogBatch[] {
    const batches: LogBatch[] = [];
    const first = this.firstBatchEndingAtOrAfter(fetchOffset);
    for (let index = first; index < this.batches.length && batches.length < batchesMax; index++) {
      batches.push(this.batches[index] as LogBatch);
    }
    return batches;
  }

  /**
   * Reads from `fetchOffset` up to the LSO (read_committed) or the HW
   * (LocalLog.collectAbortedTransactions).
   */
  read(
    fetchOffset: number,
    isolationLevel: IsolationLevel,
    batchesMax: number,
    limit: ReadLimit = NO_LIMIT,
  ): PartitionRead {
    if (fetchOffset < this.logStartOffset || fetchOffset > this.logEndOffset) {
      return { error: 'OFFSET_OUT_OF_RANGE', batches: [], abortedTransactions: null, bytes: 0 };
    }
    const upperBound = this.endOffset(isolationLevel);
    const batches: LogBatch[] = [];
    let bytes = 0;
    for (let index = this.firstBatchEndingAtOrAfter(fetchOffset); index < this.batches.length;) {
      const batch = this.batches[index++] as LogBatch;
      if (batch.baseOffset >= upperBound || batches.length >= batchesMax) break;
      const size = batchSizeInBytes(batch);
      const firstAllowed = batches.length === 0 && limit.minOneMessage;
      if (bytes + size > limit.maxBytes && !firstAllowed) break;
      batches.push(batch);
      bytes += size;
    }
    if (isolationLevel === 'read_uncommitted')
      return { error: 'NONE', batches, abortedTransactions: null, bytes };
    const last = batches[batches.length - 1];
    const dataEnd = last === undefined ? upperBound : last.lastOffset + 1;
    return {
      error: 'NONE',
      batches,
      abortedTransactions: this.transactions.abortedOverlapping(fetchOffset, dataEnd),
      bytes,
    };
  }

  /**
   * A crash of the broker. A process crash keeps the log (page cache survives); power loss also
   * drops batches appended within the OS's write-back window after the last flush
   * (log_flush.ts). Producer and transaction state are volatile and rebuilt from the log
   * (ProducerStateManager.truncateAndReload).
   */
  recoverAfterCrash(mode: 'process' | 'power-loss', nowUs: number): LogBatch[] {
    const firstLost =
      mode === 'power-loss'
        ? this.recoveryPoint.firstLostOnPowerLoss(this.batches, nowUs)
        : undefined;
    const lost =
      firstLost === undefined ? [] : this.truncateTo(firstLost.baseOffset, nowUs, 'power-loss');
    this.recoveryPoint.recovered(this.logEndOffset);
    this.rebuildProducerState();
    this.afterAppend(nowUs);
    return lost;
  }

  /**
   * A follower appends the leader's batches with the leader's offsets and epochs. Producer state
   * follows without sequence checks (ProducerAppendInfo); markers complete transactions as on the
   * leader. Batches wholly below the log end offset (a response to an older fetch) are skipped.
   *
   * Appending with the leader's offsets (`assignOffsets = false`), Kafka refuses records whose
   * first offset is below the log end offset (UnifiedLog.analyzeAndValidateRecords, and
   * `Log.append` since 2.0, KAFKA-6975: UnexpectedAppendOffsetException; `IllegalArgumentException`
   * "Out of order offsets found" before): a follower whose log end offset falls inside one of
   * the leader's batches, which only a log that diverged from the leader's can have. Nothing is
   * appended then, and the refusal is returned. (Partition.appendRecordsToFollowerOrFutureReplica
   * recovers one case, an empty log whose start offset is inside the batch after DeleteRecords;
   * the model's log start offset never moves inside a batch, so that case does not arise.)
   */
  appendAsFollower(batches: readonly LogBatch[], nowUs: number): UnexpectedAppendOffset | null {
    const first = batches.find((batch) => batch.lastOffset >= this.logEndOffset);
    if (first !== undefined && first.baseOffset < this.logEndOffset) {
      const last = batches[batches.length - 1] as LogBatch;
      const { logEndOffset } = this;
      return { firstOffset: first.baseOffset, lastOffset: last.lastOffset, logEndOffset };
    }
    let appended = false;
    for (const batch of batches) {
      if (batch.lastOffset < this.logEndOffset) continue;
      assert(batch.baseOffset === this.logEndOffset, 'a follower appends at its log end offset');
      this.pushBatch(batch, 'follower');
      replayBatch(batch, this.producers, this.transactions);
      appended = true;
    }
    // Nothing appended, nothing to recompute: an idle partition of a fetch costs no more.
    if (appended) this.afterAppend(nowUs);
    return null;
  }

  /**
   * Removes every batch at or after `offset` (the whole batch holding it), trims the epoch cache,
   * rebuilds producer and transaction state, and caps the high watermark at the new log end offset.
   * Returns the removed batches. Truncating below the high watermark is allowed: that is how an
   * unclean election erases committed data (KIP-101;
   * AbstractFetcherThread.getOffsetTruncationState).
   */
  truncateTo(offset: number, nowUs: number, reason: LogTruncated['reason']): LogBatch[] {
    const keep = this.firstBatchEndingAtOrAfter(offset);
    const removed = this.batches.slice(keep);
    // The epoch cache is trimmed even when no record goes: an epoch that starts at the log end
    // without data would otherwise keep the follower diverging forever (LeaderEpochFileCache).
    this.epochCache.truncateFromEnd(Math.min(offset, this.logEndOffset));
    if (removed.length === 0) return removed;
    this.batches = this.batches.slice(0, keep);
    const last = this.batches[this.batches.length - 1];
    this.logEndOffset = last === undefined ? this.logStartOffset : last.lastOffset + 1;
    this.recoveryPoint.truncated(this.logEndOffset);
    this.epochCache.truncateFromEnd(this.logEndOffset);
    this.rebuildProducerState();
    if (this.highWatermark > this.logEndOffset) this.recordHighWatermark(this.logEndOffset, nowUs);
    // Observed before the offsets that follow from it, which report all four consistently.
    this.observe({
      kind: 'LogTruncated',
      ...this.replicaRef(),
      toOffset: offset,
      logEndOffset: this.logEndOffset,
      reason,
      removed,
    });
    this.afterAppend(nowUs);
    return removed;
  }

  /**
   * Replication sets the high watermark (capped by the log end offset,
   * ReplicaFetcherThread.processPartitionData).
   */
  setHighWatermark(highWatermark: number, nowUs: number): void {
    const capped = Math.max(this.logStartOffset, Math.min(highWatermark, this.logEndOffset));
    if (capped === this.highWatermark) return;
    this.recordHighWatermark(capped, nowUs);
    this.afterAppend(nowUs);
  }

  private recordHighWatermark(highWatermark: number, nowUs: number): void {
    this.highWatermark = highWatermark;
    this.highWatermarkChanges.push({ timeUs: nowUs, offset: highWatermark });
  }

  private rebuildProducerState(): void {
    this.producers = new BoundedMap(COLLECTION_BOUNDS.producerStates);
    this.verifications = new BoundedMap(COLLECTION_BOUNDS.verifications);
    this.transactions.clear();
    for (const batch of this.batches) {
      replayBatch(batch, this.producers, this.transactions);
    }
  }

  private appendBatch(batch: ProducedBatch, nowUs: number): LogBatch {
    const appended: LogBatch = {
      baseOffset: this.logEndOffset,
      lastOffset: this.logEndOffset + batch.values.length - 1,
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
      baseSequence: batch.baseSequence,
      isTransactional: batch.isTransactional,
      values: batch.values,
      appendUs: nowUs,
      leaderEpoch: this.leaderEpoch,
      ...(batch.transactionLog === undefined ? {} : { transactionLog: batch.transactionLog }),
      ...(batch.groupLog === undefined ? {} : { groupLog: batch.groupLog }),
    };
    this.pushBatch(appended, 'leader');
    if (batch.producerId === NO_PRODUCER_ID) this.afterAppend(nowUs);
    return appended;
  }

  private pushBatch(batch: LogBatch, origin: 'leader' | 'follower'): void {
    assert(batch.baseOffset === this.logEndOffset, 'a batch is appended at the log end offset');
    pushWithin(COLLECTION_BOUNDS.logBatches, this.batches, batch);
    this.logEndOffset = batch.lastOffset + 1;
    this.recoveryPoint.appended(batch);
    this.epochCache.assign(batch.leaderEpoch, batch.baseOffset);
    const { broker, topic, partition } = this;
    if (origin === 'leader' && batch.control !== undefined) {
      this.observe({ kind: 'MarkerWritten', broker, topic, partition, batch });
    } else {
      this.observe({ kind: 'BatchAppended', broker, topic, partition, origin, batch });
    }
  }

  private replicaRef(): { broker: string; topic: string; partition: number } {
    return { broker: this.broker, topic: this.topic, partition: this.partition };
  }

  /**
   * After any change: a sole replica's high watermark follows its log end offset; then the
   * transactions whose markers are below the high watermark leave the unstable set, and the last
   * stable offset is recomputed.
   */
  private afterAppend(nowUs: number): void {
    this.recoveryPoint.afterAppend(this.logEndOffset);
    if (!this.replicated && this.highWatermark !== this.logEndOffset) {
      this.recordHighWatermark(this.logEndOffset, nowUs);
    }
    this.transactions.onHighWatermark(this.highWatermark);
    const lastStableOffset = this.transactions.lastStableOffset(
      this.highWatermark,
      this.logStartOffset,
    );
    if (lastStableOffset !== this.lastStableOffset) {
      this.lastStableOffset = lastStableOffset;
      this.lastStableOffsetChanges.push({ timeUs: nowUs, offset: lastStableOffset });
    }
    assertOffsetsOrdered(this);
    this.offsetsReporter.report(this.broker, this, this.observe);
  }

  private firstBatchEndingAtOrAfter(offset: number): number {
    return firstBatchEndingAtOrAfter(this.batches, offset);
  }
}
