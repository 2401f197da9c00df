/**
 * A small replicated cluster for scripted replication cases: one controller, N brokers holding
 * one single-partition topic (replicas b1, b2, b3 in assignment order, b1 the first leader), and
 * a test client that sends raw Produce, Fetch and ListOffsets requests and records every answer
 * with its arrival time. The network delay is fixed (`delayUsMin = delayUsMax`), so times are
 * exact, and the kernel's event log is kept so a test can read when each request arrived.
 */
import {
  Broker,
  ClusterMetadata,
  Controller,
  CONTROLLER_ID,
  NO_PRODUCER_ID,
  type ElectionRecord,
  type IsolationLevel,
  type KafkaMessage,
  type LogBatch,
  type PartitionReplica,
  type PartitionState,
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

/** The one topic and its one partition. */
export const TOPIC = 'events';
export const PARTITION = 0;
/** The test client's node id. */
export const CLIENT = nodeId('client');

/** Cluster settings; every field has a default. */
export interface ClusterOptions {
  /** @default 3 */
  readonly brokers?: number;
  /** @default '1' */
  readonly seed?: string;
  /** Fixed one-way network delay, µs. @default 1000 */
  readonly delayUs?: number;
  /** @default 2 */
  readonly minInsyncReplicas?: number;
  /** @default 10000 */
  readonly replicaLagTimeMaxMs?: number;
  /** @default true */
  readonly strictMinIsrHighWatermark?: boolean;
  /** @default true */
  readonly leaderEpochTruncation?: boolean;
  /** @default false */
  readonly uncleanLeaderElectionEnable?: boolean;
  /** @default 6000 */
  readonly brokerSessionTimeoutMs?: number;
}

/** A response the test client received. */
export interface Received {
  readonly timeUs: number;
  readonly source: string;
  readonly message: Exclude<KafkaMessage, { kind: 'ConnectionReset' }>;
}

/**
 * A client that sends raw requests and records the answers with their arrival times (µs).
 * @example const id = client.produce('b1', { acks: -1, values: [7] }); client.answer(id);
 */
export class TestClient implements Actor<KafkaMessage> {
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

  /** Sends a Produce of one batch of `values` (no producer id) and returns its correlation id. */
  produce(
    target: string,
    request: { acks: 0 | 1 | -1; values: number[]; timeoutMs?: number },
  ): number {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'Produce',
      correlationId,
      acks: request.acks,
      timeoutMs: request.timeoutMs ?? 30_000,
      transactionVersion: 0,
      transactionalId: null,
      topic: TOPIC,
      partition: PARTITION,
      batch: {
        producerId: NO_PRODUCER_ID,
        producerEpoch: -1,
        baseSequence: -1,
        isTransactional: false,
        values: request.values,
      },
    });
    return correlationId;
  }

  /**
   * Sends a consumer Fetch from `fetchOffset`; `currentLeaderEpoch` -1 skips the epoch check. It
   * does not wait at the broker unless `maxWaitMs` says so (a long poll, with `minBytes`).
   */
  fetch(
    target: string,
    request: {
      fetchOffset: number;
      isolationLevel: IsolationLevel;
      currentLeaderEpoch: number;
      maxWaitMs?: number;
      minBytes?: number;
    },
  ): number {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'Fetch',
      correlationId,
      replicaId: null,
      isolationLevel: request.isolationLevel,
      maxWaitMs: request.maxWaitMs ?? 0,
      minBytes: request.minBytes ?? 1,
      maxBytes: 52_428_800,
      partitions: [
        {
          topic: TOPIC,
          partition: PARTITION,
          fetchOffset: request.fetchOffset,
          currentLeaderEpoch: request.currentLeaderEpoch,
          lastFetchedEpoch: -1,
        },
      ],
    });
    return correlationId;
  }

  /** Sends ListOffsets(LATEST) for read_uncommitted: the HW, as a consumer sees the end. */
  listLatest(target: string): number {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'ListOffsets',
      correlationId,
      isolationLevel: 'read_uncommitted',
      partitions: [{ topic: TOPIC, partition: PARTITION, timestamp: -1 }],
    });
    return correlationId;
  }

  /** The answer to request `correlationId`, if it arrived. */
  answer(correlationId: number): Received | undefined {
    return this.received.find((entry) => entry.message.correlationId === correlationId);
  }

  private send(target: string, message: KafkaMessage): void {
    if (this.ctx === undefined) throw new Error('the test client has not started');
    this.ctx.send(target as NodeId, message);
  }
}

/** A Produce answer reduced to what the tests compare. */
export interface ProduceAnswer {
  readonly timeUs: number;
  readonly error: string;
  readonly baseOffset: number;
}

/** What a replica looked like at one instant. */
export interface ReplicaSnapshot {
  readonly role: string;
  readonly logEndOffset: number;
  readonly highWatermark: number;
  readonly isr: readonly string[];
}

/**
 * `build` run once, on first use: a scripted run shared by the tests of one `describe`.
 * @example const run = lazy(() => script(true)); it('…', () => run().cluster);
 */
export function lazy<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}

/**
 * A running cluster and its test client; times are virtual microseconds.
 * @example
 * const cluster = new Cluster({ minInsyncReplicas: 2 });
 * const answer = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [7] });
 * cluster.runTo(3_000_000);
 * answer(); // { timeUs: 1_004_000, error: 'NONE', baseOffset: 0 }
 */
export class Cluster {
  readonly sim: Simulation;
  readonly controller: Controller;
  readonly brokers = new Map<string, Broker>();
  readonly client = new TestClient();
  readonly delayUs: number;

  constructor(options: ClusterOptions = {}) {
    this.delayUs = options.delayUs ?? 1000;
    this.sim = new Simulation({
      seed: options.seed ?? '1',
      network: { delayUsMin: this.delayUs, delayUsMax: this.delayUs },
      eventsMax: 5_000_000,
      eventsQueuedMax: 100_000,
      recordEventLog: true,
    });
    const metadata = new ClusterMetadata(
      options.brokers ?? 3,
      [{ name: TOPIC, partitions: 1, replicationFactor: Math.min(3, options.brokers ?? 3) }],
      null,
    );
    this.controller = new Controller(metadata.brokers, metadata.initialStates(), {
      brokerSessionTimeoutMs: options.brokerSessionTimeoutMs ?? 6000,
      uncleanLeaderElectionEnable: options.uncleanLeaderElectionEnable ?? false,
    });
    this.sim.addNode(nodeId(CONTROLLER_ID), this.controller);
    for (const id of metadata.brokers) {
      const broker = newBroker({ id, metadata, options });
      this.brokers.set(id, broker);
      this.sim.addNode(id, broker);
    }
    this.sim.addNode(CLIENT, this.client);
  }

  /** Schedules `action` at `atUs` as a kernel event (it runs when the simulation gets there). */
  at(atUs: number, action: () => void): void {
    this.sim.schedule(atUs, 'script step', action);
  }

  /** Runs until virtual time `stopUs`. */
  runTo(stopUs: number): void {
    this.sim.runUntil(stopUs);
  }

  /** Sends a produce at `atUs`; the returned function reads its answer after the run. */
  produceAt(
    atUs: number,
    request: { target: string; acks: 0 | 1 | -1; values: number[]; timeoutMs?: number },
  ): () => ProduceAnswer | undefined {
    let correlationId = -1;
    this.at(atUs, () => {
      correlationId = this.client.produce(request.target, request);
    });
    return () => {
      const received = this.client.answer(correlationId);
      if (received === undefined || received.message.kind !== 'ProduceResponse') return undefined;
      const { error, baseOffset } = received.message;
      return { timeUs: received.timeUs, error, baseOffset };
    };
  }

  /** Sends ListOffsets(LATEST) at `atUs`; the function reads `error:offset` after the run. */
  listLatestAt(atUs: number, target: string): () => string | undefined {
    let correlationId = -1;
    this.at(atUs, () => {
      correlationId = this.client.listLatest(target);
    });
    return () => {
      const received = this.client.answer(correlationId);
      if (received === undefined || received.message.kind !== 'ListOffsetsResponse') return;
      const partition = received.message.partitions[0];
      return partition === undefined ? undefined : `${partition.error}:${partition.offset}`;
    };
  }

  /**
   * Sends a read_uncommitted consumer Fetch at `atUs`; the function reads the answer after the
   * run as `error:highWatermark:offset=value,...`.
   */
  fetchAt(
    atUs: number,
    request: { target: string; fetchOffset: number; currentLeaderEpoch: number },
  ): () => string | undefined {
    let correlationId = -1;
    this.at(atUs, () => {
      const fetch = { ...request, isolationLevel: 'read_uncommitted' as const };
      correlationId = this.client.fetch(request.target, fetch);
    });
    return () => {
      const received = this.client.answer(correlationId);
      if (received === undefined || received.message.kind !== 'FetchResponse') return;
      const partition = received.message.partitions[0];
      if (partition === undefined) return;
      const records = recordsOf(partition.batches).join(',');
      return `${partition.error}:${partition.highWatermark}:${records}`;
    };
  }

  /** Records `id`'s role, LEO, HW and ISR view at `atUs`; the function reads the record. */
  snapshotAt(atUs: number, id: string): () => ReplicaSnapshot | undefined {
    let snapshot: ReplicaSnapshot | undefined;
    this.at(atUs, () => {
      const replica = this.replica(id);
      snapshot = {
        role: replica.role,
        logEndOffset: replica.log.logEndOffset,
        highWatermark: replica.log.highWatermark,
        isr: [...replica.isr],
      };
    });
    return () => snapshot;
  }

  /** Drops every message `from` → `to`, and back with `bothWays`, until healed. */
  cut(link: { from: string; to: string; bothWays?: boolean }): LinkRuleId[] {
    const rule = {
      source: link.from as NodeId,
      target: link.to as NodeId,
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng: this.sim.rootRng.fork(`cut/${link.from}>${link.to}`),
    } as const;
    const rules = [this.sim.addLinkRule(rule)];
    if (link.bothWays === true) rules.push(...this.cut({ from: link.to, to: link.from }));
    return rules;
  }

  /** Removes the rules `cut` installed. */
  heal(rules: readonly LinkRuleId[]): void {
    for (const rule of rules) this.sim.removeLinkRule(rule);
  }

  /** Broker `id`'s replica of the partition. */
  replica(id: string): PartitionReplica {
    const replica = this.brokers.get(id)?.partitions.get(`${TOPIC}-${PARTITION}`);
    if (replica === undefined) throw new Error(`no replica on ${id}`);
    return replica;
  }

  /** The controller's state of the partition. */
  partitionState(): PartitionState {
    const state = this.controller.partitionStates()[0];
    if (state === undefined) throw new Error('no partition');
    return state;
  }

  /** Every election the controller made. */
  elections(): readonly ElectionRecord[] {
    return this.controller.elections;
  }

  /** `offset=value` for every record of `id`'s log. */
  records(id: string): string[] {
    return recordsOf(this.replica(id).log.log);
  }

  /**
   * Times (µs) at which messages reached their target, from the event log; `link` reads like
   * the log: `'Fetch b2>b1'`.
   */
  arrivals(link: string): number[] {
    const times: number[] = [];
    for (const line of this.sim.executedEvents) {
      const match = /^#\d+ t=(\d+)us seq=\d+ (.+) hash=/.exec(line);
      if (match?.[2] === link) times.push(Number(match[1]));
    }
    return times;
  }
}

/** `offset=value` for every data record of `batches`. @example recordsOf(log) // ['0=7'] */
export function recordsOf(batches: readonly LogBatch[]): string[] {
  return batches.flatMap((batch) =>
    batch.values.map((value, index) => `${batch.baseOffset + index}=${value}`),
  );
}

function newBroker(setup: {
  id: NodeId;
  metadata: ClusterMetadata;
  options: ClusterOptions;
}): Broker {
  const { id, metadata, options } = setup;
  return new Broker({
    id,
    metadata,
    coordinator: {
      transactionMaxTimeoutMs: 900_000,
      abortTimedOutTransactionCleanupIntervalMs: 10_000,
      transactionStateLogNumPartitions: 1,
      transactionalIdExpirationMs: 604_800_000,
      removeExpiredTransactionalIdsIntervalMs: 3_600_000,
      transactionVersion: 2,
    },
    replication: {
      minInsyncReplicas: options.minInsyncReplicas ?? 2,
      replicaLagTimeMaxMs: options.replicaLagTimeMaxMs ?? 10_000,
      strictMinIsrHighWatermark: options.strictMinIsrHighWatermark ?? true,
      leaderEpochTruncation: options.leaderEpochTruncation ?? true,
    },
    bugs: {
      skipProducerEpochCheck: false,
      verificationGuardBeforeEpochCheck: false,
      acceptAnyFirstSequenceOnEmptyLog: false,
      singleBatchDedupWindow: false,
    },
    fetchBatchesMax: 64,
    transactionPartitionVerificationEnable: true,
  });
}
