/**
 * A transaction coordinator behind a fake broker: a manual clock whose timers fire only when a
 * test advances virtual time, and an in-memory `__transaction_state` partition whose appends take
 * exactly {@link LOG_WRITE_US} and survive crashes (pending appends do not). The coordinator owns
 * the partition of {@link TXN_ID} at coordinator epoch 0 and has loaded it at time 0.
 */
import {
  Rng,
  nodeId,
  type ActorContext,
  type Connection,
  type NodeId,
  type Observation,
} from '../../sim/kernel';
import {
  TRANSACTION_LOG_LOAD_US,
  TransactionCoordinator,
  transactionStatePartitionFor,
  type CoordinatorSettings,
  type CoordinatorTimer,
  type EndTxnRequest,
  type KafkaErrorCode,
  type KafkaMessage,
  type KafkaObservation,
  type TopicPartition,
  type TransactionLogRecord,
} from '../../sim/actors';
import { coordinatorSettings } from '../harness/cluster';

export const BROKER = nodeId('b1');
export const TXN_ID = 'tx';
export const LOG_WRITE_US = 1000;
export const CLEANUP_INTERVAL_MS = 1000;
export const NUM_PARTITIONS = 50;
export const T0: TopicPartition = { topic: 't', partition: 0 };
export const T1: TopicPartition = { topic: 't', partition: 1 };
export const TXN_PARTITION = transactionStatePartitionFor(TXN_ID, NUM_PARTITIONS);

type Due =
  | { readonly id: number; readonly dueUs: number; readonly timer: CoordinatorTimer }
  | { readonly id: number; readonly dueUs: number; readonly append: () => void };

/** What a respond callback received; empty until it was called. */
export interface Answer {
  error?: KafkaErrorCode;
  producerId?: number;
  producerEpoch?: number;
}

/** The fake broker around one coordinator. */
export class CoordinatorHarness implements ActorContext<KafkaMessage> {
  readonly nodeId: NodeId = BROKER;
  readonly rng = new Rng('coordinator-test');
  readonly sent: Array<{ target: NodeId; payload: KafkaMessage }> = [];
  /** The durable `__transaction_state` partition. */
  readonly log: TransactionLogRecord[] = [];
  /** When set, the next appends fail with this produce error instead of being written. */
  appendError: KafkaErrorCode | null = null;
  coordinatorEpoch = 0;
  readonly coordinator: TransactionCoordinator;
  private queue: Due[] = [];
  private timeUs = -TRANSACTION_LOG_LOAD_US;
  private nextId = 1;
  private producerIds = 0;

  /** `options`: the transaction version and any other coordinator setting (bug switches). */
  constructor(options: Partial<CoordinatorSettings> = {}) {
    this.coordinator = new TransactionCoordinator(
      coordinatorSettings({
        abortTimedOutTransactionCleanupIntervalMs: CLEANUP_INTERVAL_MS,
        transactionStateLogNumPartitions: NUM_PARTITIONS,
        transactionalIdExpirationMs: 604_800_000,
        removeExpiredTransactionalIdsIntervalMs: 3_600_000,
        transactionVersion: 0,
        ...options,
      }),
      {
        leaderOf: () => BROKER,
        allocateProducerId: () => this.producerIds++,
        appendTransactionLog: (partition, record, _ctx, done) => {
          if (partition !== TXN_PARTITION) return done('NOT_LEADER_OR_FOLLOWER', -1);
          const error = this.appendError;
          this.schedule(LOG_WRITE_US, {
            append: () => {
              if (error === null) this.log.push(record);
              done(error ?? 'NONE', error === null ? this.log.length - 1 : -1);
            },
          });
        },
        readTransactionLog: (partition) => (partition === TXN_PARTITION ? this.log : []),
      },
    );
    this.coordinator.onElected(TXN_PARTITION, this.coordinatorEpoch, this);
    this.advanceTo(0);
    this.coordinator.onStart(this);
  }

  /** Added to the time the coordinator reads (a step of its clock); timers keep true time. */
  clockSkewUs = 0;

  nowUs(): number {
    return this.timeUs + this.clockSkewUs;
  }
  send(target: NodeId, payload: KafkaMessage): void {
    this.sent.push({ target, payload });
  }
  /** Connections the coordinator closed, in order. */
  readonly closed: Array<{ peer: NodeId; connection: Connection }> = [];
  closeConnection(peer: NodeId, connection: Connection): void {
    this.closed.push({ peer, connection });
  }
  setTimer(delayUs: number, payload: unknown): number {
    return this.schedule(delayUs, { timer: payload as CoordinatorTimer });
  }
  cancelTimer(timerId: number): void {
    this.queue = this.queue.filter((due) => due.id !== timerId);
  }
  trace(): void {}

  /** What the coordinator reported, in order, with the harness time of each report. */
  readonly observations: Array<{ timeUs: number; observation: Observation }> = [];

  observe(observation: Observation): void {
    this.observations.push({ timeUs: this.timeUs, observation });
  }

  /** The epoch grants the coordinator reported (`ProducerEpochGranted`), in order. */
  grants(): Array<{
    timeUs: number;
    transactionalId: string;
    producerId: number;
    producerEpoch: number;
    reason: string;
  }> {
    return this.observations.flatMap(({ timeUs, observation }) => {
      const reported = observation as KafkaObservation;
      if (reported.kind !== 'ProducerEpochGranted') return [];
      const { transactionalId, producerId, producerEpoch, reason } = reported;
      return [{ timeUs, transactionalId, producerId, producerEpoch, reason }];
    });
  }

  /** Fires everything due up to `untilUs` in (due time, id) order, then sets the clock. */
  advanceTo(untilUs: number): void {
    for (;;) {
      const due = this.queue
        .filter((entry) => entry.dueUs <= untilUs)
        .sort((a, b) => a.dueUs - b.dueUs || a.id - b.id)[0];
      if (due === undefined) break;
      this.queue = this.queue.filter((entry) => entry.id !== due.id);
      this.timeUs = due.dueUs;
      if ('append' in due) due.append();
      else this.coordinator.onTimer(due.timer, this);
    }
    this.timeUs = untilUs;
  }

  advanceBy(deltaUs: number): void {
    this.advanceTo(this.timeUs + deltaUs);
  }

  /**
   * A crash and restart: timers and pending appends are gone, the coordinator's memory too; the
   * broker leads the partition again at the next coordinator epoch and reloads it.
   */
  crashAndRestart(): void {
    this.queue = [];
    this.coordinator.onCrash();
    this.coordinatorEpoch += 1;
    this.coordinator.onElected(TXN_PARTITION, this.coordinatorEpoch, this);
    this.advanceBy(TRANSACTION_LOG_LOAD_US);
    this.coordinator.onStart(this);
  }

  /** The WriteTxnMarkers requests sent so far. */
  markers(): Array<Extract<KafkaMessage, { kind: 'WriteTxnMarkers' }>> {
    return this.sent.flatMap(({ payload }) =>
      payload.kind === 'WriteTxnMarkers' ? [payload] : [],
    );
  }

  /** Answers the latest WriteTxnMarkers request with `error` for every partition. */
  answerMarkers(error: KafkaErrorCode): void {
    const request = this.markers().at(-1);
    if (request === undefined) throw new Error('No WriteTxnMarkers was sent');
    this.coordinator.onWriteTxnMarkersResponse(
      {
        kind: 'WriteTxnMarkersResponse',
        correlationId: request.correlationId,
        producerId: request.producerId,
        results: request.partitions.map((tp) => ({ ...tp, error })),
      },
      this,
    );
  }

  initProducerId(
    options: { timeoutMs?: number; producerId?: number; producerEpoch?: number; id?: string } = {},
  ): Answer {
    const answer: Answer = {};
    this.coordinator.handleInitProducerId(
      {
        kind: 'InitProducerId',
        correlationId: 1,
        transactionalId: options.id ?? TXN_ID,
        transactionTimeoutMs: options.timeoutMs ?? 60_000,
        producerId: options.producerId ?? -1,
        producerEpoch: options.producerEpoch ?? -1,
      },
      this,
      (error, producerId, producerEpoch) =>
        Object.assign(answer, { error, producerId, producerEpoch }),
    );
    return answer;
  }

  /** AddPartitionsToTxn; the answer holds the first partition's error. */
  addPartitions(
    producerEpoch: number,
    partitions = [T0],
    options: { producerId?: number; verifyOnly?: boolean } = {},
  ): Answer & { results?: ReadonlyArray<TopicPartition & { error: KafkaErrorCode }> } {
    const answer: Answer & { results?: ReadonlyArray<TopicPartition & { error: KafkaErrorCode }> } =
      {};
    this.coordinator.handleAddPartitionsToTxn(
      {
        kind: 'AddPartitionsToTxn',
        correlationId: 2,
        transactionalId: TXN_ID,
        producerId: options.producerId ?? 0,
        producerEpoch,
        partitions,
        verifyOnly: options.verifyOnly ?? false,
      },
      this,
      (results) => {
        const first = results[0];
        if (first !== undefined) answer.error = first.error;
        if (options.verifyOnly === true) answer.results = results;
      },
    );
    return answer;
  }

  /** EndTxn; under `transactionVersion` 2 the answer also holds the identity returned. */
  endTxn(
    producerEpoch: number,
    committed: boolean,
    options: { producerId?: number; transactionVersion?: number } = {},
  ): Answer {
    const answer: Answer = {};
    const version = options.transactionVersion ?? 0;
    const request: EndTxnRequest = {
      kind: 'EndTxn',
      correlationId: 3,
      transactionalId: TXN_ID,
      producerId: options.producerId ?? 0,
      producerEpoch,
      committed,
      transactionVersion: version,
    };
    this.coordinator.handleEndTxn(request, this, (error, producerId, epoch) =>
      Object.assign(answer, version >= 2 ? { error, producerId, producerEpoch: epoch } : { error }),
    );
    return answer;
  }

  /** The applied state, pending state and epoch of {@link TXN_ID}. */
  state(): { state: string; pendingState: string | null; producerEpoch: number } {
    const metadata = this.coordinator.metadataOf(TXN_ID);
    if (metadata === undefined) throw new Error(`No metadata for ${TXN_ID}`);
    return {
      state: metadata.state,
      pendingState: metadata.pendingState,
      producerEpoch: metadata.producerEpoch,
    };
  }

  private schedule(
    delayUs: number,
    what: { timer: CoordinatorTimer } | { append: () => void },
  ): number {
    const id = this.nextId++;
    this.queue.push({ id, dueUs: this.timeUs + delayUs, ...what });
    return id;
  }
}

/**
 * A TV2 coordinator whose transaction on T0 is Ongoing at `epoch` under producerId 0 (the epoch
 * set directly, so a test reaches 32766 without 32,766 commits).
 */
export function ongoingAt(
  epoch: number,
  settings: Partial<CoordinatorSettings> = {},
): CoordinatorHarness {
  const h = new CoordinatorHarness({ transactionVersion: 2, ...settings });
  h.initProducerId();
  h.advanceBy(LOG_WRITE_US);
  const metadata = h.coordinator.metadataOf(TXN_ID);
  if (metadata === undefined) throw new Error('no metadata');
  (metadata as { producerEpoch: number }).producerEpoch = epoch;
  h.addPartitions(epoch, [T0]);
  h.advanceBy(LOG_WRITE_US);
  return h;
}
