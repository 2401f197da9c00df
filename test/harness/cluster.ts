/**
 * The one cluster test harness the model's scripted tests build on: a kernel with a fixed network
 * delay (so every time is exact), a controller, brokers `b1..bN` built from Kafka's defaults with
 * the test's overrides, the test's topics and, when asked, the internal `__transaction_state` and
 * `__consumer_offsets` topics, and a raw-request client that numbers its requests and keeps every
 * answer with its arrival time. Suites add their own request builders and readers on top
 * (test/replication, test/groups, test/consumer_group, test/transactions); a suite with a fake
 * broker (test/coordinator, test/consumer_group's fake group coordinator) takes only
 * {@link testSimulation} and {@link coordinatorSettings}.
 */
import {
  Broker,
  ClusterMetadata,
  Controller,
  CONTROLLER_ID,
  kafkaLaneMap,
  type BrokerOptions,
  type CoordinatorSettings,
  type GroupSummary,
  type KafkaMessage,
  type ReplicationSettings,
  type TopicSpec,
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

/** Fixed one-way network delay, µs, unless a test sets another. */
export const DELAY_US = 1000;

/**
 * The kernel of a scripted test: one fixed delay, a generous event budget, and the same
 * connections (FIFO lanes per Kafka connection) as a scenario run, so a held or delayed
 * connection behaves in a test as it does in `eos-sim run`.
 */
export function testSimulation(options: {
  readonly seed: string;
  readonly delayUs?: number;
  readonly eventsMax?: number;
  readonly recordEventLog?: boolean;
}): Simulation {
  const delayUs = options.delayUs ?? DELAY_US;
  return new Simulation({
    seed: options.seed,
    network: { delayUsMin: delayUs, delayUsMax: delayUs },
    eventsMax: options.eventsMax ?? 5_000_000,
    eventsQueuedMax: 100_000,
    recordEventLog: options.recordEventLog ?? false,
    lanes: kafkaLaneMap,
  });
}

/**
 * A transaction coordinator's settings: Kafka's `transaction.max.timeout.ms` (900000) and
 * cleanup interval (10000), transactional.id expiration at Kafka's defaults (7 days, checked
 * hourly), one `__transaction_state` partition and `transaction.version` 2 unless overridden.
 */
export function coordinatorSettings(
  overrides: Partial<CoordinatorSettings> = {},
): CoordinatorSettings {
  return {
    transactionMaxTimeoutMs: 900_000,
    abortTimedOutTransactionCleanupIntervalMs: 10_000,
    transactionalIdExpirationMs: 604_800_000,
    removeExpiredTransactionalIdsIntervalMs: 3_600_000,
    transactionStateLogNumPartitions: 1,
    transactionVersion: 2,
    ...overrides,
  };
}

/** What a test may change in every broker; the rest is Kafka's default. */
export interface BrokerOverrides {
  readonly coordinator?: Partial<CoordinatorSettings>;
  /** `min.insync.replicas` 2 and `replica.lag.time.max.ms` 30000 unless overridden. */
  readonly replication?: Partial<ReplicationSettings>;
  /** `group.initial.rebalance.delay.ms` and the session bounds (3000, 6000, 1800000). */
  readonly group?: Partial<NonNullable<BrokerOptions['group']>>;
}

/** A broker's options: Kafka's defaults, no bug switch on, then `overrides`. */
export function brokerOptions(setup: {
  readonly id: NodeId;
  readonly metadata: ClusterMetadata;
  readonly overrides?: BrokerOverrides;
}): BrokerOptions {
  const { id, metadata, overrides = {} } = setup;
  const numPartitions = metadata.transactionStateLog?.numPartitions ?? 1;
  return {
    id,
    metadata,
    coordinator: coordinatorSettings({
      transactionStateLogNumPartitions: numPartitions,
      ...overrides.coordinator,
    }),
    replication: {
      minInsyncReplicas: 2,
      replicaLagTimeMaxMs: 30_000,
      strictMinIsrHighWatermark: true,
      leaderEpochTruncation: true,
      ...overrides.replication,
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
      groupInitialRebalanceDelayMs: 3000,
      groupMinSessionTimeoutMs: 6000,
      groupMaxSessionTimeoutMs: 1_800_000,
      ...overrides.group,
    },
  };
}

/** The internal topics, both with the same partition count. */
export interface InternalTopics {
  readonly partitions: number;
  /** @default 3 */
  readonly replicationFactor?: number;
  /** `transaction.state.log.min.isr`. @default 2 */
  readonly minInsyncReplicas?: number;
}

/** The cluster of a test; every field has a default. */
export interface ClusterSetup {
  /** @default '1' */
  readonly seed?: string;
  /** @default 3 */
  readonly brokers?: number;
  readonly topics: readonly TopicSpec[];
  /** `__transaction_state` and `__consumer_offsets`; null creates neither. @default null */
  readonly internalTopics?: InternalTopics | null;
  readonly broker?: BrokerOverrides;
  /** `broker.session.timeout.ms`. @default 6000 */
  readonly brokerSessionTimeoutMs?: number;
  /** @default false */
  readonly uncleanLeaderElectionEnable?: boolean;
  /** @default {@link DELAY_US} */
  readonly delayUs?: number;
  /** Keep the kernel's event log (for arrival times). @default false */
  readonly recordEventLog?: boolean;
}

/** The metadata of `setup`: its brokers, topics and internal topics. */
function metadataOf(setup: ClusterSetup): ClusterMetadata {
  const internal = setup.internalTopics ?? null;
  if (internal === null) return new ClusterMetadata(setup.brokers ?? 3, setup.topics, null);
  const replicationFactor = internal.replicationFactor ?? 3;
  return new ClusterMetadata(
    setup.brokers ?? 3,
    setup.topics,
    {
      numPartitions: internal.partitions,
      replicationFactor,
      minInsyncReplicas: internal.minInsyncReplicas ?? 2,
    },
    { numPartitions: internal.partitions, replicationFactor },
  );
}

/** A kernel a test scripts: its nodes, steps at chosen times, and runs up to a time. */
export class ScriptedWorld {
  constructor(readonly sim: Simulation) {}

  get nowUs(): number {
    return this.sim.nowUs;
  }

  /** Adds a test node (it starts at the current virtual time). */
  addNode<A extends Actor<KafkaMessage>>(name: string, actor: A): A {
    this.sim.addNode(nodeId(name), actor);
    return actor;
  }

  /** Schedules `action` at `atUs` as a kernel event (it runs when the simulation gets there). */
  at(atUs: number, action: () => void): void {
    this.sim.schedule(atUs, 'test step', action);
  }

  /** Runs until virtual time `stopUs`. */
  runTo(stopUs: number): void {
    this.sim.runUntil(stopUs);
  }

  /** Lets `deltaUs` of virtual time pass. */
  advance(deltaUs: number): void {
    this.sim.runUntil(this.sim.nowUs + deltaUs);
  }
}

/**
 * A running cluster: controller, brokers and any test nodes, times in virtual microseconds.
 * @example
 * const topics = [{ name: 't', partitions: 1, replicationFactor: 3 }];
 * const cluster = new TestCluster({ topics });
 * cluster.at(1_000_000, () => cluster.sim.crash(nodeId('b1'), 'process'));
 * cluster.runTo(5_000_000);
 */
export class TestCluster extends ScriptedWorld {
  readonly metadata: ClusterMetadata;
  readonly controller: Controller;
  readonly brokers = new Map<string, Broker>();

  constructor(setup: ClusterSetup) {
    super(
      testSimulation({
        seed: setup.seed ?? '1',
        ...(setup.delayUs === undefined ? {} : { delayUs: setup.delayUs }),
        recordEventLog: setup.recordEventLog ?? false,
      }),
    );
    this.metadata = metadataOf(setup);
    this.controller = new Controller(this.metadata.brokers, this.metadata.initialStates(), {
      brokerSessionTimeoutMs: setup.brokerSessionTimeoutMs ?? 6000,
      uncleanLeaderElectionEnable: setup.uncleanLeaderElectionEnable ?? false,
    });
    this.sim.addNode(nodeId(CONTROLLER_ID), this.controller);
    for (const id of this.metadata.brokers) {
      const overrides = setup.broker ?? {};
      const broker = new Broker(brokerOptions({ id, metadata: this.metadata, overrides }));
      this.brokers.set(id, broker);
      this.sim.addNode(id, broker);
    }
  }

  /** Drops every message `from` → `to`, and back with `bothWays`, until healed. */
  cut(link: { from: string; to: string; bothWays?: boolean }): LinkRuleId[] {
    const rule = this.sim.addLinkRule({
      source: link.from as NodeId,
      target: link.to as NodeId,
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng: this.sim.rootRng.fork(`cut/${link.from}>${link.to}`),
    });
    if (link.bothWays !== true) return [rule];
    return [rule, ...this.cut({ from: link.to, to: link.from })];
  }

  /** Holds every `kind` message `from` → `to` until healed (then they are delivered). */
  hold(link: { from: string; to: string; kind: string }): LinkRuleId[] {
    const rule = this.sim.addLinkRule({
      source: link.from as NodeId,
      target: link.to as NodeId,
      kinds: [link.kind],
      effect: { type: 'hold' },
    });
    return [rule];
  }

  /** Removes the rules `cut` or `hold` installed. */
  heal(rules: readonly LinkRuleId[]): void {
    for (const rule of rules) this.sim.removeLinkRule(rule);
  }

  /** The group as its coordinator (a running broker leading its partition) holds it. */
  group(groupId: string): GroupSummary | undefined {
    for (const [id, broker] of this.brokers) {
      if (this.sim.status(id as NodeId) !== 'running') continue;
      const found = broker.groupCoordinator.groups().find((each) => each.groupId === groupId);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/** An answer a {@link RawClient} received. */
export interface Received {
  readonly timeUs: number;
  readonly source: string;
  readonly message: Exclude<KafkaMessage, { kind: 'ConnectionReset' }>;
}

/** A request without its correlation id (the client numbers them). */
export type Outgoing = KafkaMessage extends infer M
  ? M extends { correlationId: number }
    ? Omit<M, 'correlationId'>
    : never
  : never;

/**
 * A client node that sends raw requests, numbered from 1, and keeps every answer with its
 * arrival time (µs); a connection reset is ignored.
 * @example const id = client.send('b1', { kind: 'ListOffsets', … }); client.answer(id);
 */
export class RawClient implements Actor<KafkaMessage> {
  readonly received: Received[] = [];
  private ctx: ActorContext<KafkaMessage> | undefined;
  private correlationIds = 1;

  onStart(ctx: ActorContext<KafkaMessage>): void {
    this.ctx = ctx;
  }

  onMessage(envelope: Envelope<KafkaMessage>, ctx: ActorContext<KafkaMessage>): void {
    const message = envelope.payload;
    if (message.kind === 'ConnectionReset') return;
    this.received.push({ timeUs: ctx.nowUs(), source: envelope.source, message });
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

  /** The answer to request `correlationId`, if it arrived. */
  answer(correlationId: number): Received | undefined {
    return this.received.find((entry) => entry.message.correlationId === correlationId);
  }
}
