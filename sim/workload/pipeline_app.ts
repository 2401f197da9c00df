/**
 * A read-process-write pipeline instance, Kafka's canonical exactly-once loop
 * (ExactlyOnceMessageProcessor, the `ExactlyOnceMessageProcessor` example): a read_committed
 * consumer in a group polls its input; each non-empty poll becomes one transaction that sends one
 * output record per input record (the output carries its input as `source`), sends the consumer's
 * positions with `sendOffsetsToTransaction(offsets, consumer.groupMetadata())` and commits. Errors
 * follow the client classification (§7): an abortable error aborts and rewinds every assigned
 * partition to its committed offset (ExactlyOnceMessageProcessor.maybeRetry); a fatal one (fenced,
 * FENCED_INSTANCE_ID) closes the instance, and with `on.fatal: restart` a new instance starts after
 * `restart.delay.ms`. The switches of {@link PipelineSpec} turn the known misuse on. Each
 * transaction is one `txn` operation whose `consumed` field records the input offsets, how they
 * were committed, and the group metadata.
 */
import type { ActorContext } from '../kernel';
import type {
  ConsumerGroupMetadata,
  ConsumerRecord,
  KafkaConsumer,
  KafkaErrorCode,
  KafkaMessage,
  KafkaProducer,
  OffsetToCommit,
  SendError,
  TopicPartition,
} from '../actors';
import { partitionKey } from '../actors';
import type { SendMicroOp, TxnValue } from '../history';
import type { HistoryWriter, OpenOp } from './history_writer';
import { pollValue } from './polls_app';
import type { AppTimer } from './transactions_app';
import type { PipelineSpec, WorkloadControl } from './workload_types';

type Ctx = ActorContext<KafkaMessage>;

/** One instance's Kafka clients. */
export interface PipelineClients {
  readonly producer: KafkaProducer;
  readonly consumer: KafkaConsumer;
}

/** The transaction in progress. */
interface CurrentTxn {
  readonly op: OpenOp<'txn'>;
  /** The instance that began it and its producer: a later instance has another producer. */
  readonly instance: number;
  readonly producer: PipelineClients['producer'];
  readonly value: TxnValue;
  readonly commit: boolean;
  readonly offsets: number[];
  firstError: SendError | null;
}

/** A read-process-write application on one client node. */
export class PipelineApp {
  private clients: PipelineClients;
  private transactionalId: string;
  private current: CurrentTxn | null = null;
  private transactionsStarted = 0;
  /** True between a fatal error and the next instance, or for good with `on.fatal: stop`. */
  private dead = false;
  /** Set by the liveness check after heal: keep processing although the workload stopped. */
  private probing = false;
  /** Bumped per instance so timers of a closed instance are ignored. */
  private instance = 0;
  /** True when the loop stopped at heal and waits for the liveness probe. */
  private parked = false;
  /** Partitions sought or (re)assigned since the last recorded poll, keyed `topic-partition`. */
  private repositioned = new Map<string, TopicPartition>();

  constructor(
    private readonly spec: PipelineSpec & { readonly transactionalId: string },
    private readonly deps: {
      /** Fresh clients for an instance, with the transactional.id it should use. */
      readonly newClients: (transactionalId: string) => PipelineClients;
      readonly writer: HistoryWriter;
      readonly control: WorkloadControl;
      readonly nextValue: () => number;
      /** How many partitions the output topic has. */
      readonly outputPartitions: number;
      readonly ctx: Ctx;
    },
  ) {
    this.transactionalId = this.idForInstance();
    this.clients = deps.newClients(this.transactionalId);
  }

  /** True while a transaction is open. */
  get busy(): boolean {
    return this.current !== null;
  }

  /**
   * The liveness probe: keep processing (restarting a dead instance) until the runner ends it;
   * false when the instance stopped for good (`on.fatal: stop`).
   */
  probe(): boolean {
    if (this.dead && this.spec.onFatal === 'stop') return false;
    this.probing = true;
    if (this.dead) this.restart();
    else if (this.parked) this.loop();
    return true;
  }

  /** Ends the probe. */
  endProbe(): void {
    this.probing = false;
  }

  /** A pipeline commits no probe transaction of its own: the runner checks its offsets. */
  get probeDone(): boolean {
    return false;
  }

  /** The transactional.id of the current instance. */
  get currentTransactionalId(): string {
    return this.transactionalId;
  }

  start(): void {
    const transactionalId = this.transactionalId;
    const op = this.deps.writer.invoke('init', { transactionalId });
    const { producer, consumer } = this.clients;
    producer.initTransactions((error) => {
      if (error !== 'NONE') {
        const type = producer.state === 'FATAL_ERROR' ? 'fail' : 'info';
        this.deps.writer.complete(op, type, { transactionalId }, error);
        return this.onFatal();
      }
      const identity = { producerId: producer.producerId, producerEpoch: producer.producerEpoch };
      this.deps.writer.complete(op, 'ok', { transactionalId, ...identity });
      const instance = this.instance;
      // ExactlyOnceMessageProcessor is the consumer's ConsumerRebalanceListener: an assigned
      // partition starts from the committed offset, so its poll order restarts.
      consumer.subscribe(this.spec.topics, {
        onPartitionsRevoked: (_partitions, done) => done(),
        onPartitionsAssigned: (partitions) => {
          if (instance === this.instance) this.noteRepositioned(partitions);
        },
      });
      this.loop();
    });
  }

  /** The loop's timers; `start` timers (also a restart's) go to {@link start} directly. */
  onTimer(timer: AppTimer & { readonly instance?: number }): void {
    if (timer.instance === this.instance && timer.type === 'poll') this.loop();
  }

  /**
   * One turn of the loop: poll, and process what came back. Each poll is a `poll` operation, as a
   * plain consumer's, so the read checkers judge what the pipeline read; a fatal group error
   * poll() throws (ExactlyOnceMessageProcessor: fatal, the application closes) fails it, so the
   * history and the report say why the pipeline stopped.
   */
  private loop(): void {
    if (this.dead || this.current !== null) return;
    this.parked = this.deps.control.stopping && !this.probing;
    if (this.parked) return;
    const instance = this.instance;
    const consumer = this.clients.consumer;
    const op = this.deps.writer.invoke('poll', pollValue(consumer, []));
    consumer.poll((records) => {
      const groupError = consumer.groupError;
      if (groupError !== null) {
        this.deps.writer.complete(op, 'fail', pollValue(consumer, []), groupError);
      } else {
        const repositioned = [...this.repositioned.values()];
        this.repositioned = new Map();
        this.deps.writer.complete(op, 'ok', pollValue(consumer, records, repositioned));
      }
      if (instance !== this.instance || this.dead) return;
      if (groupError !== null) return this.onFatal();
      if (records.length === 0) return this.later('poll', this.spec.pollIntervalMs);
      this.process(records);
    });
  }

  /** Partitions whose position the application or the group set: the next poll says so. */
  private noteRepositioned(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.repositioned.set(partitionKey(tp), tp);
  }

  private later(type: 'poll' | 'start', delayMs: number): void {
    this.deps.ctx.setTimer(delayMs * 1000, { owner: 'app', type, instance: this.instance });
  }

  /** Begins a transaction that turns `records` into outputs, then commits it. */
  private process(records: readonly ConsumerRecord[]): void {
    const { producer, consumer } = this.clients;
    const error = producer.beginTransaction();
    if (error !== 'NONE') return this.onFatal();
    this.transactionsStarted += 1;
    // A liveness probe keeps the chosen aborts: the probe checks offsets, not one commit.
    const commit =
      this.spec.abortEvery === 0 || this.transactionsStarted % this.spec.abortEvery !== 0;
    const sends: SendMicroOp[] = records.map((record) => ({
      topic: this.spec.outputTopic,
      partition: record.partition % this.deps.outputPartitions,
      value: this.deps.nextValue(),
      source: {
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        value: record.value,
      },
    }));
    const value: TxnValue = {
      transactionalId: this.transactionalId,
      // Known from the invoke on, so a transaction a crash leaves open still names its writer.
      producerId: producer.producerId,
      producerEpoch: producer.producerEpoch,
      commit,
      sends,
      consumed: {
        offsets: this.positions(),
        commit: this.spec.offsetsCommit,
        group: this.offsetsGroupMetadata(consumer.groupMetadata()),
      },
    };
    const op = this.deps.writer.invoke('txn', value);
    const instance = this.instance;
    const txn: CurrentTxn = {
      op,
      instance,
      producer,
      value,
      commit,
      offsets: [],
      firstError: null,
    };
    this.current = txn;
    sends.forEach((send, index) => {
      txn.offsets[index] = -1;
      producer.send(send, send.value, (result) => {
        if (result.error === 'NONE') txn.offsets[index] = result.offset;
        else txn.firstError ??= result.error;
      });
    });
    if (this.spec.offsetsCommit !== 'transaction') return this.end(txn);
    const offsets = (value.consumed?.offsets ?? []).map((o) => ({ ...o }));
    producer.sendOffsetsToTransaction(offsets, value.consumed?.group as ConsumerGroupMetadata, () =>
      this.end(txn),
    );
  }

  /** The consumer's position on every assigned partition: the offsets to commit. */
  private positions(): OffsetToCommit[] {
    const consumer = this.clients.consumer;
    return consumer
      .assignment()
      .map((tp) => ({ ...tp, offset: consumer.position(tp) ?? -1 }))
      .filter((offset) => offset.offset >= 0)
      .sort((a, b) => comparePartitions(a, b));
  }

  /** consumer.groupMetadata(), or the groupId-only form of the deprecated overload. */
  private offsetsGroupMetadata(metadata: ConsumerGroupMetadata): ConsumerGroupMetadata {
    if (this.spec.sendOffsetsGroupMetadata) return metadata;
    return { groupId: metadata.groupId, generationId: -1, memberId: '', groupInstanceId: null };
  }

  /** commitTransaction() (or the chosen abortTransaction()), then the outcome. */
  private end(txn: CurrentTxn): void {
    const producer = this.clients.producer;
    if (!txn.commit) {
      // The chosen abort is the operation's intended outcome: `ok` when it was acknowledged.
      producer.abortTransaction((error) =>
        this.afterAbort(txn, error === 'NONE' ? 'ok' : 'info', error),
      );
      return;
    }
    producer.commitTransaction((error) => {
      if (error === 'NONE') return this.afterCommit(txn);
      if (producer.state === 'ABORTABLE_ERROR') {
        // Abort, then rewind to the committed offsets before carrying on
        // (ExactlyOnceMessageProcessor).
        producer.abortTransaction((abortError) =>
          this.afterAbort(
            txn,
            producer.commitRequested ? 'info' : 'fail',
            abortError === 'NONE' ? error : abortError,
          ),
        );
        return;
      }
      this.complete(txn, producer.commitRequested ? 'info' : 'fail', error);
      this.onFatal();
    });
  }

  private afterCommit(txn: CurrentTxn): void {
    if (this.spec.offsetsCommit !== 'commit-sync') {
      this.complete(txn, 'ok', 'NONE');
      return this.later('poll', 0);
    }
    // Misuse: the offsets are committed after, and apart from, the transaction.
    const offsets = txn.value.consumed?.offsets ?? [];
    this.clients.consumer.commitSync(offsets, () => {
      this.complete(txn, 'ok', 'NONE');
      // The instance may have died while the commit was in flight: its loop is over.
      if (txn.instance === this.instance) this.later('poll', 0);
    });
  }

  /**
   * After an abort: the outcome, then the rewind of ExactlyOnceMessageProcessor.maybeRetry unless
   * the misuse skips it.
   */
  private afterAbort(txn: CurrentTxn, type: 'ok' | 'fail' | 'info', error: KafkaErrorCode): void {
    this.complete(txn, type, error);
    if (this.clients.producer.state === 'FATAL_ERROR') return this.onFatal();
    if (!this.spec.rewindAfterAbort) return this.later('poll', 0);
    this.rewind(() => this.later('poll', 0));
  }

  /** Seeks every assigned partition to its committed offset, or to the beginning. */
  private rewind(done: () => void): void {
    const consumer = this.clients.consumer;
    const assigned = consumer.assignment();
    const instance = this.instance;
    consumer.committed(assigned, (error, committed) => {
      if (instance !== this.instance) return;
      if (error !== 'NONE') return this.onFatal();
      for (const tp of assigned) consumer.seek(tp, committed.get(partitionKey(tp)) ?? 0);
      this.noteRepositioned(assigned);
      done();
    });
  }

  private complete(txn: CurrentTxn, type: 'ok' | 'fail' | 'info', error: KafkaErrorCode): void {
    if (this.current === txn) this.current = null;
    // The identity the records were written under, even when a later instance runs by now.
    const producer = txn.producer;
    const sends = txn.value.sends.map((send, index) => {
      const offset = txn.offsets[index] ?? -1;
      return type === 'ok' && offset >= 0 ? { ...send, offset } : send;
    });
    const value: TxnValue = {
      ...txn.value,
      sends,
      producerId: producer.producerId,
      producerEpoch: producer.producerEpoch,
    };
    this.deps.writer.complete(txn.op, type, value, error === 'NONE' ? undefined : error);
  }

  /** A fatal error: close both clients; a new instance follows with `on.fatal: restart`. */
  private onFatal(): void {
    this.dead = true;
    this.instance += 1;
    this.clients.consumer.close();
    if (this.spec.onFatal === 'stop') return;
    // After heal no instance starts until the liveness probe asks for one.
    if (this.deps.control.stopping && !this.probing) return;
    this.restart();
  }

  /** The next instance, with its own clients, starting after `restart.delay.ms`. */
  private restart(): void {
    this.instance += 1;
    this.transactionalId = this.idForInstance();
    this.clients = this.deps.newClients(this.transactionalId);
    this.dead = false;
    this.later('start', this.spec.restartDelayMs);
  }

  /** The configured transactional.id, or a fresh random one per instance (BUG-18). */
  private idForInstance(): string {
    if (this.spec.transactionalIdOnRestart === 'same') return this.spec.transactionalId;
    const suffix = this.deps.ctx.rng.intInclusive(0, 0xffffffff).toString(16).padStart(8, '0');
    return `${this.spec.transactionalId}-${suffix}`;
  }
}

function comparePartitions(a: TopicPartition, b: TopicPartition): number {
  if (a.topic !== b.topic) return a.topic < b.topic ? -1 : 1;
  return a.partition - b.partition;
}
