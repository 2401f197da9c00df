/**
 * A replicated cluster with consumer groups for scripted group cases: a controller, three
 * brokers (`__consumer_offsets` and `__transaction_state` with {@link INTERNAL_PARTITIONS}
 * partitions each, replication factor 3, min ISR 2), a data topic `in` with two partitions, and
 * test clients `c1..cN` that send raw group and transaction requests. The network delay is fixed
 * at 1000 µs, so times are exact. `call` sends a request at the current virtual time and runs
 * the simulation until its answer arrives; `advance` lets time pass (sessions, delays, markers).
 */
import {
  Broker,
  ClusterMetadata,
  Controller,
  CONTROLLER_ID,
  type GroupSummary,
  type KafkaMessage,
  type TopicPartition,
} from '../../sim/actors';
import {
  Simulation,
  nodeId,
  ratio,
  type Actor,
  type ActorContext,
  type Envelope,
  type LinkRuleId,
  type NodeId,
} from '../../sim/kernel';

/** Partitions of each internal topic (kept small so the scripted runs stay fast). */
export const INTERNAL_PARTITIONS = 3;
/** The data topic the groups consume. */
export const INPUT = 'in';
export const IN0: TopicPartition = { topic: INPUT, partition: 0 };
export const IN1: TopicPartition = { topic: INPUT, partition: 1 };
/** Fixed one-way network delay, µs. */
export const DELAY_US = 1000;

type Answer = Exclude<KafkaMessage, { kind: 'ConnectionReset' }>;
type AnswerOf<K extends Answer['kind']> = Extract<Answer, { kind: K }>;
/** A request without its correlation id (the client numbers them). */
export type Outgoing = KafkaMessage extends infer M
  ? M extends { correlationId: number }
    ? Omit<M, 'correlationId'>
    : never
  : never;

/** A client node that sends raw requests and keeps every answer. */
export class GroupTestClient implements Actor<KafkaMessage> {
  readonly received = new Map<number, Answer>();
  private ctx: ActorContext<KafkaMessage> | undefined;
  private correlationIds = 1;

  onStart(ctx: ActorContext<KafkaMessage>): void {
    this.ctx = ctx;
  }

  onMessage(envelope: Envelope<KafkaMessage>): void {
    const message = envelope.payload;
    if (message.kind !== 'ConnectionReset') this.received.set(message.correlationId, message);
  }

  onTimer(): void {}

  onCrash(): void {}

  /** Sends `request` to `target`; returns its correlation id. */
  send(target: string, request: Outgoing): number {
    if (this.ctx === undefined) throw new Error('The test client has not started');
    const correlationId = this.correlationIds++;
    this.ctx.send(target as NodeId, { ...request, correlationId } as KafkaMessage);
    return correlationId;
  }
}

/** Cluster settings; every field has a default. */
export interface GroupClusterOptions {
  /** @default 3 */
  readonly clients?: number;
  /** `group.initial.rebalance.delay.ms`. @default 3000 */
  readonly initialRebalanceDelayMs?: number;
  /** The cluster's `transaction.version` feature level. @default 0 */
  readonly transactionVersion?: number;
}

/** A running cluster with its group test clients. */
export class GroupCluster {
  readonly sim: Simulation;
  readonly controller: Controller;
  readonly metadata: ClusterMetadata;
  readonly brokers = new Map<string, Broker>();
  readonly clients = new Map<string, GroupTestClient>();

  constructor(options: GroupClusterOptions = {}) {
    this.sim = new Simulation({
      seed: '1',
      network: { delayUsMin: DELAY_US, delayUsMax: DELAY_US },
      eventsMax: 5_000_000,
      eventsQueuedMax: 100_000,
      recordEventLog: false,
    });
    this.metadata = new ClusterMetadata(
      3,
      [{ name: INPUT, partitions: 2, replicationFactor: 3 }],
      { numPartitions: INTERNAL_PARTITIONS, replicationFactor: 3, minInsyncReplicas: 2 },
      { numPartitions: INTERNAL_PARTITIONS, replicationFactor: 3 },
    );
    this.controller = new Controller(this.metadata.brokers, this.metadata.initialStates(), {
      brokerSessionTimeoutMs: 6000,
      uncleanLeaderElectionEnable: false,
    });
    this.sim.addNode(nodeId(CONTROLLER_ID), this.controller);
    for (const id of this.metadata.brokers) {
      const broker = newBroker(id, this.metadata, options);
      this.brokers.set(id, broker);
      this.sim.addNode(id, broker);
    }
    for (let index = 1; index <= (options.clients ?? 3); index++) {
      const client = new GroupTestClient();
      this.clients.set(`c${index}`, client);
      this.sim.addNode(nodeId(`c${index}`), client);
    }
    this.advance(10_000);
  }

  get nowUs(): number {
    return this.sim.nowUs;
  }

  /**
   * Runs until `done` holds (at most `waitUsMax`), then finishes the events of that instant, so
   * answers sent together arrive together.
   */
  runFor(waitUsMax: number, done: () => boolean): void {
    this.sim.runUntil(this.sim.nowUs + waitUsMax, done);
    this.sim.runUntil(this.sim.nowUs);
  }

  /** Lets `deltaUs` of virtual time pass. */
  advance(deltaUs: number): void {
    this.sim.runUntil(this.sim.nowUs + deltaUs);
  }

  /**
   * Sends `request` from `client` to `target` now and runs until the answer arrives (at most
   * `waitUsMax`); throws without one.
   */
  call<K extends Answer['kind']>(
    client: string,
    target: string,
    request: Outgoing,
    options: { answer: K; waitUsMax?: number },
  ): AnswerOf<K> & { readonly atUs: number } {
    const pending = this.send(client, target, request);
    this.runFor(options.waitUsMax ?? 1_000_000, () => pending() !== null);
    const answer = pending();
    if (answer === null) throw new Error(`No answer to ${request.kind} from ${target}`);
    if (answer.kind !== options.answer) throw new Error(`Unexpected ${answer.kind}`);
    return { ...(answer as AnswerOf<K>), atUs: this.sim.nowUs };
  }

  /** Sends now without waiting; the function reads the answer later (null until it came). */
  send(client: string, target: string, request: Outgoing): () => Answer | null {
    const actor = this.client(client);
    let correlationId = -1;
    this.sim.schedule(this.sim.nowUs, `send ${request.kind}`, () => {
      correlationId = actor.send(target, request);
    });
    this.sim.runUntil(this.sim.nowUs);
    return () => actor.received.get(correlationId) ?? null;
  }

  /** The broker leading the key's coordinator partition, as a client learns it. */
  findCoordinator(client: string, key: string, keyType: 'group' | 'transaction'): string {
    const broker = this.metadata.brokers.find((id) => this.sim.status(id) === 'running');
    if (broker === undefined) throw new Error('No broker is running');
    const answer = this.call(
      client,
      broker,
      { kind: 'FindCoordinator', key, keyType },
      { answer: 'FindCoordinatorResponse' },
    );
    if (answer.error !== 'NONE') throw new Error(`FindCoordinator: ${answer.error}`);
    return answer.nodeId;
  }

  /** The group as its coordinator (the current partition leader) holds it. */
  group(groupId: string): GroupSummary | undefined {
    for (const [id, broker] of this.brokers) {
      if (this.sim.status(id as NodeId) !== 'running') continue;
      const found = broker.groupCoordinator.groups().find((each) => each.groupId === groupId);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** Drops every message `from` → `to` until healed. */
  cut(from: string, to: string): LinkRuleId {
    return this.sim.addLinkRule({
      source: from as NodeId,
      target: to as NodeId,
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng: this.sim.rootRng.fork(`cut/${from}>${to}`),
    });
  }

  /** Holds every `kind` message `from` → `to` until healed (then they are delivered). */
  hold(link: { from: string; to: string; kind: string }): LinkRuleId {
    return this.sim.addLinkRule({
      source: link.from as NodeId,
      target: link.to as NodeId,
      kinds: [link.kind],
      effect: { type: 'hold' },
    });
  }

  heal(rule: LinkRuleId): void {
    this.sim.removeLinkRule(rule);
  }

  private client(name: string): GroupTestClient {
    const client = this.clients.get(name);
    if (client === undefined) throw new Error(`No client ${name}`);
    return client;
  }
}

/** A broker with Kafka's defaults, `INTERNAL_PARTITIONS` coordinator partitions, min ISR 2. */
export function newBroker(
  id: NodeId,
  metadata: ClusterMetadata,
  options: GroupClusterOptions = {},
): Broker {
  return new Broker({
    id,
    metadata,
    coordinator: {
      transactionMaxTimeoutMs: 900_000,
      abortTimedOutTransactionCleanupIntervalMs: 10_000,
      transactionStateLogNumPartitions: INTERNAL_PARTITIONS,
      transactionalIdExpirationMs: 604_800_000,
      removeExpiredTransactionalIdsIntervalMs: 3_600_000,
      transactionVersion: options.transactionVersion ?? 0,
    },
    replication: {
      minInsyncReplicas: 2,
      replicaLagTimeMaxMs: 30_000,
      strictMinIsrHighWatermark: true,
      leaderEpochTruncation: true,
    },
    bugs: {
      skipProducerEpochCheck: false,
      verificationGuardBeforeEpochCheck: false,
      acceptAnyFirstSequenceOnEmptyLog: false,
      singleBatchDedupWindow: false,
    },
    fetchBatchesMax: 64,
    transactionPartitionVerificationEnable: true,
    group: {
      groupInitialRebalanceDelayMs: options.initialRebalanceDelayMs ?? 3000,
      groupMinSessionTimeoutMs: 6000,
      groupMaxSessionTimeoutMs: 1_800_000,
    },
  });
}
