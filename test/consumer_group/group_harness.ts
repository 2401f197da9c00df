/**
 * Runs group clients against {@link FakeGroupBroker} in the kernel: one fake broker `b1` and
 * client nodes that each hold a KafkaConsumer, a KafkaProducer or both (a read-process-write
 * instance). The network delay is fixed at 1 ms, so every time is exact. A client's application
 * is a poll loop: `poll(100 ms)` then, once it returns, the next poll after `pollGapUs`; it
 * records every poll's return time and record count, and the rebalance listener's calls.
 */
import {
  ClientMetadata,
  KafkaConsumer,
  KafkaProducer,
  type ClusterMetadata,
  type ConsumerConfig,
  type MetadataTimer,
  type KafkaMessage,
  type KafkaResponse,
  type ProducerConfig,
  type TopicPartition,
} from '../../sim/actors';
import {
  nodeId,
  type Actor,
  type ActorContext,
  type ConnectionReset,
  type Envelope,
  type NodeId,
} from '../../sim/kernel';
import { ScriptedWorld, testSimulation } from '../harness/cluster';
import { FakeGroupBroker } from './fake_group_broker';

export const BROKER = nodeId('b1');
/** Partitions per topic that the clients' metadata knows. */
export const TOPICS = new Map([
  ['in', 3],
  ['other', 2],
]);

/** A consumer config with a group: the defaults of Kafka except where a test overrides. */
export function groupConfig(overrides: Partial<ConsumerConfig> = {}): ConsumerConfig {
  return {
    isolationLevel: 'read_committed',
    autoOffsetReset: 'earliest',
    requestTimeoutMs: 30_000,
    groupId: 'g',
    enableAutoCommit: false,
    ...overrides,
  };
}

/** A transactional producer config. */
export function txnProducerConfig(transactionalId: string): ProducerConfig {
  return {
    transactionalId,
    enableIdempotence: true,
    acks: -1,
    maxInFlightRequestsPerConnection: 5,
    retries: 2_147_483_647,
    requestTimeoutMs: 30_000,
    deliveryTimeoutMs: 120_000,
    retryBackoffMs: 100,
    transactionTimeoutMs: 60_000,
  };
}

/** The fixed metadata of a client of the fake broker: `b1` leads everything. */
interface FakeMetadata {
  readonly brokers: readonly NodeId[];
  leaderOf(): NodeId;
  leaderEpochOf(): number;
  requestRefresh(): void;
  partitionsOf(topic: string): TopicPartition[];
  readonly transactionVersion: number;
}

/** What a client node runs. */
export interface ClientOptions {
  readonly consumer?: ConsumerConfig;
  readonly producer?: ProducerConfig;
  /** The cluster's `transaction.version` as the producer sees it. @default 0 */
  readonly transactionVersion?: number;
  /**
   * A real cluster: the clients use a ClientMetadata cache seeded with its initial leaders
   * instead of the fake broker's fixed metadata. @default the fake broker `b1`
   */
  readonly cluster?: ClusterMetadata;
}

/** A client node: consumer and/or producer, a poll loop, and what they saw. */
export class GroupClient implements Actor<KafkaMessage> {
  consumer: KafkaConsumer | null = null;
  producer: KafkaProducer | null = null;
  /** Each finished poll: when it returned and how many records it had. */
  readonly polls: Array<{ timeUs: number; records: number }> = [];
  /** The rebalance listener's calls, e.g. `revoked@12000:in-0,in-1`. */
  readonly listenerCalls: string[] = [];
  pollGapUs = 10_000;
  polling = false;
  ctx: ActorContext<KafkaMessage> | null = null;
  private clientMetadata: ClientMetadata | null = null;

  constructor(private readonly options: ClientOptions) {}

  onStart(ctx: ActorContext<KafkaMessage>): void {
    this.ctx = ctx;
    const metadata: FakeMetadata = {
      brokers: [BROKER],
      leaderOf: (): NodeId => BROKER,
      leaderEpochOf: () => 0,
      requestRefresh: () => undefined,
      partitionsOf: (topic: string): TopicPartition[] =>
        Array.from({ length: TOPICS.get(topic) ?? 0 }, (_, partition) => ({ topic, partition })),
      transactionVersion: this.options.transactionVersion ?? 0,
    };
    const cluster = this.options.cluster;
    if (cluster !== undefined) {
      const timing = { requestTimeoutMs: 30_000, retryBackoffMs: 100 };
      const version = this.options.transactionVersion ?? 0;
      this.clientMetadata = new ClientMetadata(
        cluster.brokers,
        cluster.initialStates(),
        ctx,
        timing,
        version,
      );
    }
    this.build(ctx, this.clientMetadata ?? metadata);
  }

  private build(ctx: ActorContext<KafkaMessage>, metadata: ClientMetadata | FakeMetadata): void {
    if (this.options.consumer !== undefined)
      this.consumer = new KafkaConsumer(this.options.consumer, metadata, ctx, {
        correlationIdBase: 1_000_000,
      });
    if (this.options.producer !== undefined)
      this.producer = new KafkaProducer(this.options.producer, metadata, ctx);
  }

  /** `subscribe` with a listener that records its calls and releases revocation at once. */
  subscribe(topics: readonly string[]): void {
    const at = (): number => this.ctx?.nowUs() ?? -1;
    const names = (tps: readonly TopicPartition[]): string =>
      tps.map((tp) => `${tp.topic}-${tp.partition}`).join(',');
    this.consumer?.subscribe(topics, {
      onPartitionsRevoked: (tps, done) => {
        this.listenerCalls.push(`revoked@${at()}:${names(tps)}`);
        done();
      },
      onPartitionsAssigned: (tps) => this.listenerCalls.push(`assigned@${at()}:${names(tps)}`),
      onPartitionsLost: (tps, done) => {
        this.listenerCalls.push(`lost@${at()}:${names(tps)}`);
        done();
      },
    });
  }

  /** Starts the poll loop. */
  startPolling(): void {
    this.polling = true;
    this.pollOnce();
  }

  onMessage(envelope: Envelope<KafkaMessage>): void {
    const message = envelope.payload as KafkaResponse | ConnectionReset;
    if (message.kind === 'ConnectionReset') {
      this.consumer?.onConnectionReset(message.peer);
      this.producer?.onConnectionReset(message.peer);
      this.clientMetadata?.onConnectionReset(message.peer);
      return;
    }
    if (message.kind === 'MetadataResponse') return this.clientMetadata?.onResponse(message);
    if (this.consumer?.onResponse(message) === true) return;
    this.producer?.onResponse(message);
  }

  onTimer(payload: unknown): void {
    const owner = (payload as { owner: string }).owner;
    if (owner === 'app') return this.pollOnce();
    if (owner === 'metadata') return this.clientMetadata?.onTimer(payload as MetadataTimer);
    if (owner === 'consumer')
      return this.consumer?.onTimer(payload as Parameters<KafkaConsumer['onTimer']>[0]);
    this.producer?.onTimer(payload as Parameters<KafkaProducer['onTimer']>[0]);
  }

  onCrash(): void {}

  private pollOnce(): void {
    const consumer = this.consumer;
    if (!this.polling || consumer === null) return;
    consumer.poll((records) => {
      this.polls.push({ timeUs: this.ctx?.nowUs() ?? -1, records: records.length });
      this.ctx?.setTimer(this.pollGapUs, { owner: 'app' });
    });
  }
}

/** The fake broker, client nodes, and the kernel that runs them. */
export class GroupWorld extends ScriptedWorld {
  readonly broker = new FakeGroupBroker();
  readonly clients = new Map<string, GroupClient>();

  constructor() {
    super(testSimulation({ seed: 'consumer-group', eventsMax: 2_000_000 }));
    this.sim.addNode(BROKER, this.broker);
  }

  /** Adds a client node `name` (it starts at the current virtual time). */
  client(name: string, options: ClientOptions): GroupClient {
    const client = this.addNode(name, new GroupClient(options));
    this.clients.set(name, client);
    return client;
  }
}
