/**
 * The transaction coordinator of one broker (Kafka's TransactionCoordinator and
 * TransactionMetadata; KIP-890 for verification and transaction version 2). It serves the
 * transactional.ids whose `__transaction_state` partition this broker leads (see
 * TransactionStateManager), answers InitProducerId, AddPartitionsToTxn (from clients, and from
 * partition leaders verifying or adding on a client's behalf, KIP-890) and EndTxn, writes
 * COMMIT/ABORT markers to every partition of a transaction, and aborts transactions that outlive
 * their transaction.timeout.ms.
 *
 * Every state change is a record appended to `__transaction_state` with acks=all; it applies only
 * once durable, and only if this broker still leads the partition at the same coordinator epoch.
 * Until then other requests for the id get CONCURRENT_TRANSACTIONS. Append errors map to
 * COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR (appendTransactionToLog). A new leader of the
 * partition rebuilds the cache from the log and finishes what it finds in Prepare*.
 */
import type { NodeId } from '../../kernel';
import type {
  AddPartitionsToTxnRequest,
  EndTxnRequest,
  InitProducerIdRequest,
  KafkaErrorCode,
  KafkaObservation,
  TopicPartition,
  WriteTxnMarkersResponse,
} from '../protocol';
import { partitionKey } from '../protocol';
import { decideEndTxn } from './end_txn_rules';
import { bumpAgainAfterFence } from './fence_double_bump';
import { grantObservation, transitionObservation, viewOf } from './coordinator_observations';
import type { StateLogPlace } from './coordinator_observations';
import { MarkerSender } from './marker_sender';
import { TransactionStateManager } from './transaction_state_manager';
import {
  EXHAUSTED_PRODUCER_EPOCH,
  MAX_PRODUCER_EPOCH,
  applyTransit,
  assertValidTransition,
  isIdle,
  isPrepare,
  persistedFieldsOf,
  persistedValue,
  startTimeWentBack,
  transitOf,
  type TransactionMetadata,
  type TxnTransit,
} from './transaction_metadata';
import { coordinatorErrorFor } from './coordinator_errors';
import type {
  CoordinatorHost,
  CoordinatorSettings,
  CoordinatorTimer,
  Ctx,
} from './coordinator_settings';
import { isValidProducerId, nextIdentity } from './init_producer_id_rules';
import {
  ExpirationSchedule,
  removeExpiredTransactionalIds,
  type ExpirationDeps,
} from './transactional_id_expiration';

/** How long reading a `__transaction_state` partition takes when a broker becomes its leader. */
export const TRANSACTION_LOG_LOAD_US = 2_000;
/** Backoff before retrying a Complete* write that failed (Kafka retries it). */
const COMPLETE_RETRY_BACKOFF_US = 100_000;

export type { CoordinatorHost, CoordinatorSettings, CoordinatorTimer };

/** Per-partition results of an AddPartitionsToTxn. */
export type AddPartitionsResults = ReadonlyArray<TopicPartition & { error: KafkaErrorCode }>;

/** The coordinator of one broker. */
export class TransactionCoordinator {
  readonly state: TransactionStateManager;
  private readonly markers: MarkerSender;
  private readonly expirationScan: ExpirationSchedule;

  constructor(
    private readonly settings: CoordinatorSettings,
    private readonly host: CoordinatorHost,
  ) {
    this.state = new TransactionStateManager(settings.transactionStateLogNumPartitions);
    this.expirationScan = new ExpirationSchedule(
      settings.removeExpiredTransactionalIdsIntervalMs * 1000,
      settings.abortTimedOutTransactionCleanupIntervalMs * 1000,
    );
    const complete = (transactionalId: string, ctx: Ctx): void =>
      this.onMarkersComplete(transactionalId, ctx);
    this.markers = new MarkerSender(host, complete, settings);
  }

  /**
   * Called when the broker starts or restarts: the periodic scans, each first one interval after
   * startup (TransactionCoordinator.startup: abortTimedOutTransactions;
   * TransactionStateManager.enableTransactionalIdExpiration).
   */
  onStart(ctx: Ctx): void {
    ctx.setTimer(this.settings.abortTimedOutTransactionCleanupIntervalMs * 1000, {
      owner: 'coordinator',
      type: 'timeout-scan',
    } satisfies CoordinatorTimer);
    this.expirationScan.start(ctx);
  }

  /** Called when the broker crashes: every cache and pending write is lost. */
  onCrash(): void {
    this.expirationScan.stop();
    this.state.clear();
    this.markers.clear();
  }

  /** This broker became leader of `__transaction_state-<partition>` (onElection): load it. */
  onElected(partition: number, coordinatorEpoch: number, ctx: Ctx): void {
    if (!this.state.beginLoading(partition, coordinatorEpoch)) return;
    ctx.trace(`coordinator loading __transaction_state-${partition} at epoch ${coordinatorEpoch}`);
    ctx.setTimer(TRANSACTION_LOG_LOAD_US, {
      owner: 'coordinator',
      type: 'load',
      partition,
      coordinatorEpoch,
    } satisfies CoordinatorTimer);
  }

  /** This broker stopped leading `__transaction_state-<partition>`: drop its cache. */
  onResigned(partition: number, ctx: Ctx): void {
    for (const transactionalId of this.state.unload(partition)) this.markers.drop(transactionalId);
    this.observe(ctx, {
      kind: 'TransactionLogUnloaded',
      coordinator: ctx.nodeId,
      stateLogPartition: partition,
    });
  }

  /** The applied state of a transactional.id this coordinator serves (oracle and tests). */
  metadataOf(transactionalId: string): Readonly<TransactionMetadata> | undefined {
    return this.state.get(transactionalId);
  }

  /** Every transaction this coordinator serves now (oracle, operator tools). */
  transactions(): Array<Readonly<TransactionMetadata>> {
    return [...this.state.loaded()];
  }

  onTimer(timer: CoordinatorTimer, ctx: Ctx): void {
    switch (timer.type) {
      case 'load':
        return this.finishLoading(timer.partition, timer.coordinatorEpoch, ctx);
      case 'timeout-scan':
        this.abortTimedOutTransactions(ctx);
        this.expirationScan.armIfDueBefore(
          this.settings.abortTimedOutTransactionCleanupIntervalMs * 1000,
          ctx,
        );
        ctx.setTimer(this.settings.abortTimedOutTransactionCleanupIntervalMs * 1000, timer);
        return;
      case 'expiration-scan':
        removeExpiredTransactionalIds(this.expirationDeps(), ctx);
        this.expirationScan.fired(ctx);
        return;
      case 'complete-retry':
        return this.onMarkersComplete(timer.transactionalId, ctx);
      case 'marker-retry':
      case 'marker-timeout':
        this.markers.onTimer(timer, ctx);
        return;
    }
  }

  /** The connection to `peer` was reset: markers in flight to it are sent again. */
  onConnectionReset(peer: NodeId, ctx: Ctx): void {
    this.markers.onConnectionReset(peer, ctx);
  }

  onWriteTxnMarkersResponse(response: WriteTxnMarkersResponse, ctx: Ctx): void {
    this.markers.onResponse(response, ctx);
  }

  /** InitProducerId for a transactional.id. Answers through `respond`. */
  handleInitProducerId(
    request: InitProducerIdRequest & { transactionalId: string },
    ctx: Ctx,
    respond: (error: KafkaErrorCode, producerId: number, producerEpoch: number) => void,
  ): void {
    const { transactionalId } = request;
    if (transactionalId === '') return respond('INVALID_REQUEST', -1, -1);
    const status = this.state.status(transactionalId);
    if (status !== 'NONE') return respond(status, -1, -1);
    if (
      request.transactionTimeoutMs <= 0 ||
      request.transactionTimeoutMs > this.settings.transactionMaxTimeoutMs
    ) {
      return respond('INVALID_TRANSACTION_TIMEOUT', -1, -1);
    }
    const expectsEpoch = request.producerId !== -1 || request.producerEpoch !== -1;
    if (expectsEpoch && (request.producerId === -1 || request.producerEpoch === -1)) {
      return respond('INVALID_REQUEST', -1, -1);
    }
    const metadata = this.metadataOrCreate(transactionalId, request.transactionTimeoutMs, ctx);
    if (metadata.pendingState !== null) return respond('CONCURRENT_TRANSACTIONS', -1, -1);
    if (expectsEpoch && !isValidProducerId(metadata, request))
      return respond('PRODUCER_FENCED', -1, -1);
    if (isPrepare(metadata.state)) return respond('CONCURRENT_TRANSACTIONS', -1, -1);
    if (metadata.state === 'Ongoing') {
      // Fence the ongoing transaction: abort it with a bumped epoch; the new instance retries.
      this.fenceAndAbort(metadata, 'fence', ctx, (error) =>
        respond(error === 'NONE' ? 'CONCURRENT_TRANSACTIONS' : error, -1, -1),
      );
      return;
    }
    const next = nextIdentity(metadata, expectsEpoch ? request.producerEpoch : null);
    if (next === 'PRODUCER_FENCED') return respond('PRODUCER_FENCED', -1, -1);
    if (next === 'unchanged') return respond('NONE', metadata.producerId, metadata.producerEpoch);
    const transit = transitOf(metadata, {
      state: 'Empty',
      producerId: next.rotate ? this.host.allocateProducerId() : metadata.producerId,
      producerEpoch: next.producerEpoch,
      lastProducerEpoch: next.lastProducerEpoch,
      txnTimeoutMs: request.transactionTimeoutMs,
      topicPartitions: [],
      txnStartUs: -1,
      txnLastUpdateUs: ctx.nowUs(),
    });
    this.write(metadata, transit, ctx, (error, place) => {
      if (error !== 'NONE') return respond(error, -1, -1);
      this.recordGrant(metadata, 'init', place, ctx);
      respond('NONE', metadata.producerId, metadata.producerEpoch);
    });
  }

  /**
   * AddPartitionsToTxn. From a client (TransactionCoordinator.handleAddPartitionsToTransaction,
   * with the 4.0 order: a pending transition first), or from a partition leader: `verifyOnly` asks
   * only whether the partitions are in the transaction (KIP-890;
   * ReplicaManager.maybeStartTransactionVerificationForPartitions); otherwise the leader adds them
   * for a TV2 client (KIP-890; TransactionCoordinator.endTransaction).
   */
  handleAddPartitionsToTxn(
    request: AddPartitionsToTxnRequest,
    ctx: Ctx,
    respond: (results: AddPartitionsResults) => void,
  ): void {
    const all = (error: KafkaErrorCode): void =>
      respond(request.partitions.map((tp) => ({ ...tp, error })));
    const status = this.state.status(request.transactionalId);
    if (status !== 'NONE') return all(status);
    const metadata = this.state.get(request.transactionalId);
    if (metadata === undefined) return all('INVALID_PRODUCER_ID_MAPPING');
    // A pending transition first (KAFKA-18660): while the markers go out Kafka holds the Complete*
    // transition pending, so a TV2 producer already answered with the rotated id is told to retry.
    const pending = metadata.pendingState !== null || isPrepare(metadata.state);
    if (!request.verifyOnly && pending) return all('CONCURRENT_TRANSACTIONS');
    if (metadata.producerId !== request.producerId) return all('INVALID_PRODUCER_ID_MAPPING');
    if (request.verifyOnly) {
      if (metadata.producerEpoch !== request.producerEpoch) return all('PRODUCER_FENCED');
      if (isPrepare(metadata.state)) return all('CONCURRENT_TRANSACTIONS');
      const open = metadata.state === 'Ongoing';
      return respond(
        request.partitions.map((tp) => ({
          ...tp,
          error:
            open && metadata.topicPartitions.has(partitionKey(tp))
              ? ('NONE' as const)
              : ('TRANSACTION_ABORTABLE' as const),
        })),
      );
    }
    if (metadata.producerEpoch !== request.producerEpoch) return all('PRODUCER_FENCED');
    const added = request.partitions.filter(
      (tp) => !metadata.topicPartitions.has(partitionKey(tp)),
    );
    if (metadata.state === 'Ongoing' && added.length === 0) return all('NONE');
    const startsTransaction = metadata.state !== 'Ongoing';
    const transit = transitOf(metadata, {
      state: 'Ongoing',
      topicPartitions: [...metadata.topicPartitions.values(), ...added],
      txnStartUs: startsTransaction ? ctx.nowUs() : metadata.txnStartUs,
      txnLastUpdateUs: ctx.nowUs(),
      clientTransactionVersion: this.settings.transactionVersion >= 2 ? 2 : 0,
    });
    this.write(metadata, transit, ctx, all);
  }

  /** EndTxn (endTransaction). NONE is answered once Prepare* is durable; markers follow. */
  handleEndTxn(
    request: EndTxnRequest,
    ctx: Ctx,
    respond: (error: KafkaErrorCode, producerId: number, producerEpoch: number) => void,
  ): void {
    const status = this.state.status(request.transactionalId);
    if (status !== 'NONE') return respond(status, -1, -1);
    const metadata = this.state.get(request.transactionalId);
    if (metadata === undefined) return respond('INVALID_PRODUCER_ID_MAPPING', -1, -1);
    const version2 = request.transactionVersion >= 2;
    // TV2 answers the identity to use next; at exhaustion the rotated one (KAFKA-18660).
    const answer = (error: KafkaErrorCode): void => {
      if (error !== 'NONE' || !version2) return respond(error, -1, -1);
      const rotated = metadata.nextProducerId !== -1;
      respond(
        'NONE',
        rotated ? metadata.nextProducerId : metadata.producerId,
        rotated ? 0 : metadata.producerEpoch,
      );
    };
    const decision = decideEndTxn(metadata, request);
    switch (decision.type) {
      case 'error':
        return answer(decision.error);
      case 'retry-done':
        return answer('NONE');
      case 'empty-abort':
        return this.prepareEnd(metadata, false, true, ctx, answer);
      case 'prepare':
        return this.prepareEnd(metadata, request.committed, decision.bump, ctx, answer);
    }
  }

  /** Writes PrepareCommit/PrepareAbort (bumping the epoch under TV2), answers, sends markers. */
  private prepareEnd(
    metadata: TransactionMetadata,
    committed: boolean,
    bump: boolean,
    ctx: Ctx,
    answer: (error: KafkaErrorCode) => void,
  ): void {
    // Kafka's prepareTransitionTo refuses a negative epoch: a bump past Short.MAX_VALUE throws
    // and the request fails (before KAFKA-20090's fix a client could be left at 32767).
    if (bump && metadata.producerEpoch >= MAX_PRODUCER_EPOCH) return answer('UNKNOWN_SERVER_ERROR');
    const exhausted = bump && metadata.producerEpoch >= EXHAUSTED_PRODUCER_EPOCH;
    // At exhaustion a TV2 transaction rotates to a new id when it completes (isEpochExhausted).
    const transit = transitOf(metadata, {
      state: committed ? 'PrepareCommit' : 'PrepareAbort',
      nextProducerId: exhausted ? this.host.allocateProducerId() : -1,
      producerEpoch: bump ? metadata.producerEpoch + 1 : metadata.producerEpoch,
      lastProducerEpoch: bump ? metadata.producerEpoch : metadata.lastProducerEpoch,
      txnLastUpdateUs: ctx.nowUs(),
      clientTransactionVersion: bump ? 2 : 0,
    });
    this.write(metadata, transit, ctx, (error, place) => {
      if (error !== 'NONE') return answer(error);
      if (bump) this.recordGrant(metadata, 'end', place, ctx);
      answer('NONE');
      this.sendMarkers(metadata, ctx);
    });
  }

  /** abortTimedOutTransactions: abort every Ongoing transaction older than its timeout. */
  private abortTimedOutTransactions(ctx: Ctx): void {
    const nowUs = ctx.nowUs();
    for (const metadata of this.state.loaded()) {
      if (metadata.state !== 'Ongoing' || metadata.pendingState !== null) continue;
      if (metadata.txnStartUs + metadata.txnTimeoutMs * 1000 >= nowUs) continue;
      if (this.settings.timeoutAbortKeepsEpoch === true) {
        // KAFKA-6119 (before 0.11.0.2): an EndTxn(abort) at the current epoch, no fence, so the
        // producer can open a new transaction under the same epoch without noticing.
        ctx.trace(`transaction ${metadata.transactionalId} timed out: aborting at its epoch`);
        const bump = metadata.clientTransactionVersion >= 2;
        this.prepareEnd(metadata, false, bump, ctx, () => undefined);
        continue;
      }
      ctx.trace(`transaction ${metadata.transactionalId} timed out: aborting with an epoch bump`);
      this.fenceAndAbort(metadata, 'timeout', ctx, () => undefined);
    }
  }

  /**
   * abortTimedOutTransactions and handleInitProducerId on an Ongoing transaction: PrepareEpochFence
   * bumps the epoch in memory at once (not again after a failed fence write), so requests with the
   * old epoch are fenced while PrepareAbort is written with the bumped epoch; then markers. The
   * cluster's transaction version rules the abort: TV2 bumps once (KAFKA-19367's fix).
   */
  private fenceAndAbort(
    metadata: TransactionMetadata,
    reason: 'fence' | 'timeout',
    ctx: Ctx,
    onDurable: (error: KafkaErrorCode) => void,
  ): void {
    assertValidTransition(metadata, 'PrepareEpochFence');
    // prepareFenceProducerEpoch throws at Short.MAX_VALUE: the transaction stays Ongoing. Only
    // reachable with KAFKA-20090 on (a client left at 32767; the fix rotates before it) or with
    // KAFKA-9666 on (failed fence writes bumped it there).
    // KAFKA-9666's fix (2.6): after a failed fence write the epoch is not bumped again.
    const bumped =
      !metadata.hasFailedEpochFence || this.settings.fenceBumpsAfterFailedFence === true;
    if (metadata.producerEpoch >= MAX_PRODUCER_EPOCH && bumped) {
      ctx.trace(`cannot fence ${metadata.transactionalId}: epoch ${metadata.producerEpoch}`);
      return onDurable('UNKNOWN_SERVER_ERROR');
    }
    if (bumped) {
      metadata.producerEpoch += 1;
      metadata.lastProducerEpoch = -1;
    }
    const coordinatorEpoch = this.state.coordinatorEpochOf(metadata.transactionalId);
    const fence = { from: metadata.state, to: 'PrepareEpochFence' as const };
    this.observeTransition({ ...fence, metadata, coordinatorEpoch }, ctx);
    metadata.pendingState = 'PrepareEpochFence';
    const version2 = this.settings.transactionVersion >= 2;
    const twice = version2 && this.settings.fenceAbortBumpsTwice === true; // KAFKA-19367
    if (twice && !bumpAgainAfterFence(metadata, ctx)) return onDurable('UNKNOWN_SERVER_ERROR');
    // KAFKA-20090's fix: a fence that leaves the epoch exhausted rotates the producerId at
    // completion too (endTransaction without the !isEpochFence guard).
    const rotate =
      version2 &&
      metadata.producerEpoch >= EXHAUSTED_PRODUCER_EPOCH &&
      this.settings.noRotationOnFenceAbort !== true;
    const transit = transitOf(metadata, {
      state: 'PrepareAbort',
      nextProducerId: rotate ? this.host.allocateProducerId() : -1,
      txnLastUpdateUs: ctx.nowUs(),
      clientTransactionVersion: version2 ? 2 : 0,
    });
    this.write(metadata, transit, ctx, (error, place) => {
      metadata.hasFailedEpochFence = error !== 'NONE';
      // The bumped epoch is granted once PrepareAbort is durable: a fence whose write failed lives
      // only in this coordinator's memory and is lost with it (Kafka reloads from the log).
      if (error === 'NONE') this.recordGrant(metadata, reason, place, ctx);
      onDurable(error);
      if (error === 'NONE') this.sendMarkers(metadata, ctx);
    });
  }

  private sendMarkers(metadata: TransactionMetadata, ctx: Ctx): void {
    if (!isPrepare(metadata.state)) return;
    this.markers.send(
      {
        transactionalId: metadata.transactionalId,
        producerId: metadata.producerId,
        producerEpoch: metadata.producerEpoch,
        coordinatorEpoch: this.state.coordinatorEpochOf(metadata.transactionalId),
        committed: metadata.state === 'PrepareCommit',
        partitions: [...metadata.topicPartitions.values()],
        transactionVersion: metadata.clientTransactionVersion,
      },
      ctx,
    );
  }

  /** All markers are in: write CompleteCommit/CompleteAbort with the partitions cleared. */
  private onMarkersComplete(transactionalId: string, ctx: Ctx): void {
    const metadata = this.state.get(transactionalId);
    if (metadata === undefined || !isPrepare(metadata.state) || metadata.pendingState !== null)
      return;
    const rotate = metadata.nextProducerId !== -1;
    const transit = transitOf(metadata, {
      state: metadata.state === 'PrepareCommit' ? 'CompleteCommit' : 'CompleteAbort',
      producerId: rotate ? metadata.nextProducerId : metadata.producerId,
      producerEpoch: rotate ? 0 : metadata.producerEpoch,
      // prepareComplete keeps the epoch the markers carried as lastProducerEpoch.
      lastProducerEpoch: metadata.producerEpoch,
      // prepareComplete keeps the transaction's start time (completeTransitionTo requires one).
      topicPartitions: [],
      txnLastUpdateUs: ctx.nowUs(),
    });
    this.write(metadata, transit, ctx, (error) => {
      if (error === 'NONE') return;
      // COORDINATOR_NOT_AVAILABLE on the Complete write is retried (Kafka's completion handler).
      if (error === 'COORDINATOR_NOT_AVAILABLE') {
        ctx.setTimer(COMPLETE_RETRY_BACKOFF_US, {
          owner: 'coordinator',
          type: 'complete-retry',
          transactionalId,
        } satisfies CoordinatorTimer);
      }
    });
  }

  /**
   * TransactionStateManager.appendTransactionToLog: sets the pending state, appends the transit to
   * `__transaction_state`, and once durable applies it if this broker still serves the id at the
   * same coordinator epoch. `done` gets NONE or the client-facing error, and where the record was
   * written (a grant is placed there, not at the moment the answer comes).
   */
  private write(
    metadata: TransactionMetadata,
    transit: TxnTransit,
    ctx: Ctx,
    done: (error: KafkaErrorCode, place: StateLogPlace) => void,
  ): void {
    assertValidTransition(metadata, transit.state);
    const coordinatorEpoch = this.state.coordinatorEpochOf(metadata.transactionalId);
    const from = metadata.state;
    metadata.pendingState = transit.state;
    this.state.put(metadata);
    const partition = this.state.partitionFor(metadata.transactionalId);
    const value = persistedValue(transit, persistedFieldsOf(this.settings));
    const record = { transactionalId: metadata.transactionalId, value };
    this.host.appendTransactionLog(partition, record, ctx, (appendError, stateLogOffset) => {
      const place = { coordinatorEpoch, stateLogOffset, stateLogPartition: partition };
      if (!this.state.isCurrent(metadata, coordinatorEpoch)) return done('NOT_COORDINATOR', place);
      const wentBack = appendError === 'NONE' && startTimeWentBack(metadata, transit);
      if (wentBack && this.settings.startTimestampMustNotGoBack === true) {
        // KAFKA-8803: the throw leaves the pending state set and sends no answer.
        return ctx.trace(`${metadata.transactionalId}: Ongoing refused, start time went back`);
      }
      metadata.pendingState = null;
      if (appendError !== 'NONE') return done(coordinatorErrorFor(appendError), place);
      assertValidTransition(metadata, transit.state);
      applyTransit(metadata, transit);
      this.observeTransition({ from, to: transit.state, metadata, coordinatorEpoch }, ctx);
      done('NONE', place);
    });
  }

  private finishLoading(partition: number, coordinatorEpoch: number, ctx: Ctx): void {
    const records = this.host.readTransactionLog(partition);
    const loaded = this.state.finishLoading(partition, coordinatorEpoch, records);
    if (loaded === null) return;
    this.observe(ctx, {
      kind: 'TransactionLogLoaded',
      coordinator: ctx.nodeId,
      stateLogPartition: partition,
      coordinatorEpoch,
      transactions: loaded.map(viewOf),
      tombstoned: this.state.tombstonedAtLoad(partition).map(viewOf),
    });
    const unfinished = loaded.filter((metadata) => isPrepare(metadata.state));
    ctx.trace(
      `coordinator loaded __transaction_state-${partition}: ${loaded.length} ids, ` +
        `${unfinished.length} in Prepare*`,
    );
    for (const metadata of unfinished) this.sendMarkers(metadata, ctx);
  }

  /** Observes a transition with the metadata after it (sweep coverage counts them). */
  private observeTransition(change: Parameters<typeof transitionObservation>[2], ctx: Ctx): void {
    const partition = this.state.partitionFor(change.metadata.transactionalId);
    this.observe(ctx, transitionObservation(ctx.nodeId, partition, change));
  }

  private observe(ctx: Ctx, observation: KafkaObservation): void {
    ctx.observe(observation);
  }

  private metadataOrCreate(
    transactionalId: string,
    txnTimeoutMs: number,
    ctx: Ctx,
  ): TransactionMetadata {
    let metadata = this.state.get(transactionalId);
    if (metadata === undefined) {
      metadata = {
        transactionalId,
        producerId: this.host.allocateProducerId(),
        producerEpoch: -1,
        lastProducerEpoch: -1,
        txnTimeoutMs,
        state: 'Empty',
        pendingState: null,
        topicPartitions: new Map(),
        txnStartUs: -1,
        txnLastUpdateUs: ctx.nowUs(),
        clientTransactionVersion: 0,
        hasFailedEpochFence: false,
        nextProducerId: -1,
        previousProducerId: -1,
      };
      this.state.put(metadata);
      this.observe(ctx, {
        kind: 'TransactionMetadataCreated',
        coordinator: ctx.nodeId,
        stateLogPartition: this.state.partitionFor(transactionalId),
        view: viewOf(metadata),
      });
    }
    return metadata;
  }

  /** What a transactional.id expiration run uses of this coordinator. */
  private expirationDeps(): ExpirationDeps {
    return {
      state: this.state,
      transactionalIdExpirationMs: this.settings.transactionalIdExpirationMs,
      failedTombstoneKeepsPendingDead: this.settings.failedTombstoneKeepsPendingDead === true,
      appendTransactionLog: (partition, record, ctx, done) =>
        this.host.appendTransactionLog(partition, record, ctx, done),
      observe: (observation, ctx) => this.observe(ctx, observation),
    };
  }

  private recordGrant(
    meta: TransactionMetadata,
    reason: GrantReason,
    place: StateLogPlace,
    ctx: Ctx,
  ): void {
    this.observe(ctx, grantObservation(ctx.nodeId, meta, reason, place));
  }
}

type GrantReason = Parameters<typeof grantObservation>[2];

/** Whether a coordinator state has no open transaction (re-exported for the oracle). */
export { isIdle };
