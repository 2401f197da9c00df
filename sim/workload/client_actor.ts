/**
 * A client node: one application (transactional producer, plain producer, consumer, or a
 * read-process-write pipeline with both) with its Kafka clients. It routes responses and timers
 * to the clients and the application. A crash of the node kills the application: its open
 * operations end as `info`, and on restart a new instance starts from scratch (a transactional
 * one calls initTransactions again, a group member joins again).
 */
import type { Actor, ActorContext, ConnectionReset, CrashMode, Envelope } from '../kernel';
import type { ClusterMetadata, KafkaMessage, KafkaResponse, TopicPartition } from '../actors';
import { ClientMetadata, KafkaConsumer, KafkaProducer, type MetadataTimer } from '../actors';
import { MAX_BLOCK_MS_DEFAULT, withProperties } from '../actors';
import type { HistoryRecorder } from '../history';
import { HistoryWriter } from './history_writer';
import { PipelineApp, type PipelineClients } from './pipeline_app';
import { FinalReader, PollsApp } from './polls_app';
import { ProcessPool } from './process_pool';
import { SendsApp } from './sends_app';
import { TransactionsApp, type AppTimer } from './transactions_app';
import type { ClientSpec, WorkloadControl } from './workload_types';

type Ctx = ActorContext<KafkaMessage>;

/** What every client shares. */
export interface ClientDeps {
  readonly metadata: ClusterMetadata;
  readonly recorder: HistoryRecorder;
  readonly control: WorkloadControl;
  /** True virtual time for the history (node clocks may be skewed). */
  readonly clock: () => number;
  /** The next record value: unique across the run. */
  readonly nextValue: () => number;
  /** The cluster's finalized `transaction.version` feature (0, 1 or 2). */
  readonly transactionVersion: number;
}

type App = TransactionsApp | SendsApp | PollsApp | PipelineApp;

/** Correlation ids each producer instance may use before the next instance's range begins. */
const PRODUCER_CORRELATION_IDS_PER_INSTANCE = 100_000_000;

/** A client node running one application. */
export class ClientActor implements Actor<KafkaMessage> {
  private producer: KafkaProducer | null = null;
  private clientMetadata: ClientMetadata | null = null;
  private consumer: KafkaConsumer | null = null;
  private app: App | null = null;
  private readonly processes: ProcessPool;
  private readonly writer: HistoryWriter;
  /** Producer instances created so far (restarts after fencing start a new one). */
  private producerGenerations = 0;
  /** Pipeline instances created so far; timers of earlier ones are dropped. */
  private pipelineInstances = 0;

  constructor(
    private readonly spec: ClientSpec,
    private readonly deps: ClientDeps,
  ) {
    this.processes = new ProcessPool(spec.name);
    this.writer = new HistoryWriter(deps.recorder, deps.clock, spec.name, this.processes);
  }

  /** True while the application has an operation open. */
  get busy(): boolean {
    return this.app?.busy ?? false;
  }

  /**
   * Starts the liveness probe of the application: one more committed transaction or
   * acknowledged send, or polling until caught up. False when there is no application (the
   * node is down) or its producer was fenced for good.
   */
  probe(): boolean {
    return this.app?.probe() ?? false;
  }

  /** Whether a transactional producer's instance stopped for good (`on.fenced: stop`). */
  get stoppedForGood(): boolean {
    const app = this.app;
    return app instanceof TransactionsApp && app.stopped;
  }

  /** Whether a non-transactional producer's application stopped for good on a fatal error. */
  get sendsEndedByFatalError(): boolean {
    const app = this.app;
    return app instanceof SendsApp && app.stopped;
  }

  /** Whether the producer's probe succeeded (always false for a consumer). */
  get probeDone(): boolean {
    const app = this.app;
    return app !== null && !(app instanceof PollsApp) && app.probeDone;
  }

  /** Ends the probe. */
  endProbe(): void {
    this.app?.endProbe();
  }

  /** A consumer application's position on `tp`; undefined for producers or without one. */
  consumerPosition(tp: TopicPartition): number | undefined {
    return this.app instanceof PollsApp ? this.app.position(tp) : undefined;
  }

  /**
   * The Kafka consumer of a consumer client, null for a producer or while crashed. Read-only
   * access for tests that observe `position()` or call `endOffsets()` at a chosen virtual time
   * (from an event scheduled with `Simulation.schedule`, as the runner starts final reads).
   */
  get kafkaConsumer(): KafkaConsumer | null {
    return this.consumer;
  }

  /**
   * The Kafka producer of a producer or pipeline client, null for a consumer or while crashed.
   * Read-only access for the runner's cluster-state printout (`eos-sim run --until`).
   */
  get kafkaProducer(): KafkaProducer | null {
    return this.producer;
  }

  onStart(ctx: Ctx): void {
    const spec = this.spec;
    const producerSettings = spec.role === 'pipeline' ? spec.settings.producer : spec.settings;
    const metadata = newClientMetadata(this.deps, ctx, {
      requestTimeoutMs: producerSettings.requestTimeoutMs,
      retryBackoffMs: 'retryBackoffMs' in producerSettings ? producerSettings.retryBackoffMs : 100,
      ...('metadataMaxAgeMs' in producerSettings
        ? { metadataMaxAgeMs: producerSettings.metadataMaxAgeMs }
        : {}),
    });
    this.clientMetadata = metadata;
    // The workload's partitions as the client's metadata knows them at start.
    const partitions = spec.workload.topics.flatMap((topic) => metadata.partitionsOf(topic));
    if (spec.role === 'pipeline') {
      this.pipelineInstances = 0;
      this.app = this.newPipelineApp(spec, metadata, ctx);
    } else if (spec.role === 'producer') {
      const producer = new KafkaProducer(spec.settings, metadata, ctx);
      metadata.onUpdate = () => producer.onMetadataUpdate();
      const restart = (): KafkaProducer => this.restartProducer(metadata, ctx);
      const maxBlockMs = spec.settings.maxBlockMs ?? MAX_BLOCK_MS_DEFAULT;
      const waitForTopics = { metadata, maxBlockMs };
      const appDeps = {
        ...this.deps,
        writer: this.writer,
        partitions,
        ctx,
        restart,
        waitForTopics,
      };
      const workload = spec.workload;
      const transactionalId = spec.settings.transactionalId;
      this.producer = producer;
      this.app =
        workload.type === 'transactions'
          ? new TransactionsApp(
              { ...workload, transactionalId: transactionalId ?? '' },
              producer,
              appDeps,
            )
          : new SendsApp(workload, producer, appDeps);
    } else {
      const consumer = new KafkaConsumer(spec.settings, metadata, ctx);
      this.consumer = consumer;
      this.app = new PollsApp(spec.workload, consumer, {
        ...this.deps,
        writer: this.writer,
        partitions,
        ctx,
      });
    }
    const startUs = this.spec.workload.startMs * 1000;
    ctx.setTimer(Math.max(0, startUs - this.deps.clock()), {
      owner: 'app',
      type: 'start',
    } satisfies AppTimer);
  }

  /**
   * A new producer instance after fencing: its correlation ids start past every earlier
   * instance's, and timers of earlier instances are dropped (see {@link onTimer}).
   */
  private restartProducer(metadata: ClientMetadata, ctx: Ctx): KafkaProducer {
    if (this.spec.role !== 'producer') throw new Error('Only a producer restarts');
    this.producerGenerations += 1;
    const generation = this.producerGenerations;
    const tagged: Ctx = {
      ...ctx,
      setTimer: (delayUs, payload) =>
        ctx.setTimer(delayUs, { owner: 'producer-generation', generation, payload }),
    };
    const base = generation * PRODUCER_CORRELATION_IDS_PER_INSTANCE + 1;
    const producer = new KafkaProducer(this.spec.settings, metadata, tagged, base);
    metadata.onUpdate = () => producer.onMetadataUpdate();
    this.producer = producer;
    return producer;
  }

  /** A pipeline application and its first instance's clients. */
  private newPipelineApp(
    spec: Extract<ClientSpec, { role: 'pipeline' }>,
    metadata: ClientMetadata,
    ctx: Ctx,
  ): PipelineApp {
    const newClients = (transactionalId: string): PipelineClients =>
      this.newPipelineClients(spec, transactionalId, metadata, ctx);
    const outputPartitions = this.deps.metadata.partitionsOf(spec.workload.outputTopic).length;
    const transactionalId = spec.settings.producer.transactionalId ?? '';
    const appDeps = { ...this.deps, writer: this.writer, ctx, newClients, outputPartitions };
    return new PipelineApp({ ...spec.workload, transactionalId }, appDeps);
  }

  /**
   * The clients of pipeline instance n: correlation ids in ranges of their own (the producer's
   * from 2n·10^8, the consumer's from (2n+1)·10^8) and timers tagged with n, so nothing of an
   * earlier instance reaches them.
   */
  private newPipelineClients(
    spec: Extract<ClientSpec, { role: 'pipeline' }>,
    transactionalId: string,
    metadata: ClientMetadata,
    ctx: Ctx,
  ): PipelineClients {
    this.pipelineInstances += 1;
    const instance = this.pipelineInstances;
    const tagged: Ctx = {
      ...ctx,
      setTimer: (delayUs, payload) =>
        ctx.setTimer(delayUs, { owner: 'pipeline-instance', instance, payload }),
    };
    const base = 2 * (instance - 1) * PRODUCER_CORRELATION_IDS_PER_INSTANCE + 1;
    const settings = withProperties(spec.settings.producer, { transactionalId });
    const producer = new KafkaProducer(settings, metadata, tagged, base);
    const consumer = new KafkaConsumer(
      { ...spec.settings.consumer, requireStable: spec.workload.requireStable },
      metadata,
      tagged,
      { correlationIdBase: base + PRODUCER_CORRELATION_IDS_PER_INSTANCE },
    );
    metadata.onUpdate = () => producer.onMetadataUpdate();
    this.producer = producer;
    this.consumer = consumer;
    return { producer, consumer };
  }

  onCrash(_mode: CrashMode): void {
    this.producerGenerations = 0;
    this.pipelineInstances = 0;
    this.processes.retireAll();
    this.clientMetadata = null;
    this.producer = null;
    this.consumer = null;
    this.app = null;
  }

  onMessage(envelope: Envelope<KafkaMessage>): void {
    const message = envelope.payload as KafkaResponse | ConnectionReset;
    if (message.kind === 'ConnectionReset') {
      this.clientMetadata?.onConnectionReset(message.peer);
      this.producer?.onConnectionReset(message.peer);
      this.consumer?.onConnectionReset(message.peer);
    } else if (message.kind === 'MetadataResponse') this.clientMetadata?.onResponse(message);
    else if (this.consumer?.onResponse(message) !== true) this.producer?.onResponse(message);
  }

  onTimer(payload: unknown): void {
    const timer = payload as { owner: string };
    if (timer.owner === 'metadata') {
      this.clientMetadata?.onTimer(payload as MetadataTimer);
    } else if (timer.owner === 'app') {
      const appTimer = payload as AppTimer;
      if (appTimer.type === 'start') this.app?.start();
      else this.app?.onTimer(appTimer);
    } else if (timer.owner === 'pipeline-instance') {
      const tagged = payload as { instance: number; payload: { owner: string } };
      if (tagged.instance !== this.pipelineInstances) return;
      if (tagged.payload.owner === 'consumer') {
        this.consumer?.onTimer(tagged.payload as Parameters<KafkaConsumer['onTimer']>[0]);
      } else {
        this.producer?.onTimer(tagged.payload as Parameters<KafkaProducer['onTimer']>[0]);
      }
    } else if (timer.owner === 'producer-generation') {
      const tagged = payload as { generation: number; payload: unknown };
      if (tagged.generation !== this.producerGenerations) return;
      this.producer?.onTimer(tagged.payload as Parameters<KafkaProducer['onTimer']>[0]);
    } else if (this.producerGenerations > 0 && timer.owner === 'producer') {
      // A timer of the first producer instance, replaced after fencing: it is gone.
    } else if (timer.owner === 'consumer') {
      this.consumer?.onTimer(payload as Parameters<KafkaConsumer['onTimer']>[0]);
    } else {
      this.producer?.onTimer(payload as Parameters<KafkaProducer['onTimer']>[0]);
    }
  }
}

/** How long a final read waits before asking for end offsets again (`retry.backoff.ms`). */
const FINAL_READ_RETRY_US = 100_000;

/** A node that only performs the final read of every partition at one isolation level. */
export class FinalReaderActor implements Actor<KafkaMessage> {
  private reader: FinalReader | null = null;
  private consumer: KafkaConsumer | null = null;
  private clientMetadata: ClientMetadata | null = null;
  private ctx: Ctx | null = null;

  constructor(
    private readonly name: string,
    private readonly isolationLevel: 'read_committed' | 'read_uncommitted',
    private readonly deps: ClientDeps,
  ) {}

  /** True once the final read reached every partition's end offset. */
  get done(): boolean {
    return this.reader?.done ?? false;
  }

  /** Starts the final read of `partitions` (called by the runner in a kernel event). */
  begin(partitions: readonly TopicPartition[]): void {
    const ctx = this.ctx;
    if (ctx === null) return;
    const timing = { requestTimeoutMs: 30_000, retryBackoffMs: 100 };
    this.clientMetadata = newClientMetadata(this.deps, ctx, timing);
    this.consumer = new KafkaConsumer(
      { isolationLevel: this.isolationLevel, autoOffsetReset: 'earliest', ...timing },
      this.clientMetadata,
      ctx,
    );
    const writer = new HistoryWriter(
      this.deps.recorder,
      this.deps.clock,
      this.name,
      new ProcessPool(this.name),
    );
    this.reader = new FinalReader(this.consumer, writer, partitions, () =>
      ctx.setTimer(FINAL_READ_RETRY_US, { owner: 'final-read-retry' }),
    );
    this.reader.begin();
  }

  onStart(ctx: Ctx): void {
    this.ctx = ctx;
  }

  onCrash(): void {
    this.ctx = null;
  }

  onMessage(envelope: Envelope<KafkaMessage>): void {
    const message = envelope.payload as KafkaResponse | ConnectionReset;
    if (message.kind === 'ConnectionReset') {
      this.clientMetadata?.onConnectionReset(message.peer);
      this.consumer?.onConnectionReset(message.peer);
    } else if (message.kind === 'MetadataResponse') this.clientMetadata?.onResponse(message);
    else this.consumer?.onResponse(message);
  }

  onTimer(payload: unknown): void {
    if ((payload as { owner: string }).owner === 'final-read-retry') {
      this.reader?.begin();
    } else if ((payload as { owner: string }).owner === 'metadata') {
      this.clientMetadata?.onTimer(payload as MetadataTimer);
    } else {
      this.consumer?.onTimer(payload as Parameters<KafkaConsumer['onTimer']>[0]);
    }
  }
}

/** A client's metadata cache, seeded with the cluster's initial assignment. */
function newClientMetadata(
  deps: ClientDeps,
  ctx: Ctx,
  timing: { requestTimeoutMs: number; retryBackoffMs: number },
): ClientMetadata {
  const cluster = deps.metadata;
  return new ClientMetadata(
    cluster.brokers,
    cluster.initialStates(),
    ctx,
    timing,
    deps.transactionVersion,
  );
}
