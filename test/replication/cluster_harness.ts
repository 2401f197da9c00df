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

/** A client that sends raw requests and records the answers. */
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
  produce(target: string, request: { acks: 0 | 1 | -1; values: number[]; timeoutMs?: number }) {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'Produce',
      correlationId,
      acks: request.acks,
      timeoutMs: request.timeoutMs ?? 30_000,
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

  /** Sends a consumer Fetch from `fetchOffset`. */
  fetch(target: string, fetchOffset: number, isolationLevel: IsolationLevel): number {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'Fetch',
      correlationId,
      replicaId: null,
      isolationLevel,
      partitions: [
        {
          topic: TOPIC,
          partition: PARTITION,
          fetchOffset,
          currentLeaderEpoch: -1,
          lastFetchedEpoch: -1,
        },
      ],
    });
    return correlationId;
  }

  /** Sends ListOffsets(LATEST), the offset a consumer sees as the end of the partition. */
  listLatest(target: string, isolationLevel: IsolationLevel = 'read_uncommitted'): number {
    const correlationId = this.correlationIds++;
    this.send(target, {
      kind: 'ListOffsets',
      correlationId,
      isolationLevel,
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

/** `build` run once, on first use: a scripted run shared by the tests of one `describe`. */
export function lazy<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}

/** A running cluster and its test client. */
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
      [{ name: TOPIC, partitions: 1, replicationFactor: 3 }],
      1,
    );
    this.controller = new Controller(metadata.brokers, metadata.initialStates(), {
      brokerSessionTimeoutMs: options.brokerSessionTimeoutMs ?? 6000,
      uncleanLeaderElectionEnable: options.uncleanLeaderElectionEnable ?? false,
    });
    this.sim.addNode(nodeId(CONTROLLER_ID), this.controller);
    for (const id of metadata.brokers) {
      const broker = newBroker(id, metadata, options);
      this.brokers.set(id, broker);
      this.sim.addNode(id, broker);
    }
    this.sim.addNode(CLIENT, this.client);
  }

  /** Schedules `action` at `atUs` as a kernel event (it runs when the simulation gets there). */
  at(atUs: number, label: string, action: () => void): void {
    this.sim.schedule(atUs, label, action);
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
    this.at(atUs, `produce ${request.values.join(',')}`, () => {
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
    this.at(atUs, `list offsets ${target}`, () => {
      correlationId = this.client.listLatest(target);
    });
    return () => {
      const received = this.client.answer(correlationId);
      if (received === undefined || received.message.kind !== 'ListOffsetsResponse') return;
      const partition = received.message.partitions[0];
      return partition === undefined ? undefined : `${partition.error}:${partition.offset}`;
    };
  }

  /** Records `id`'s role, LEO, HW and ISR view at `atUs`; the function reads the record. */
  snapshotAt(atUs: number, id: string): () => ReplicaSnapshot | undefined {
    let snapshot: ReplicaSnapshot | undefined;
    this.at(atUs, `snapshot ${id}`, () => {
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

  /** Drops every message from `source` to `target`, and back with `bothWays`, until healed. */
  cut(source: string, target: string, bothWays = false): LinkRuleId[] {
    const rule = {
      source: source as NodeId,
      target: target as NodeId,
      effect: { type: 'drop', chance: ratio(1, 1) },
      rng: this.sim.rootRng.fork(`cut/${source}>${target}`),
    } as const;
    const rules = [this.sim.addLinkRule(rule)];
    if (bothWays) rules.push(...this.cut(target, source));
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

  /** Times (µs) at which `kind` messages from `source` reached `target`, from the event log. */
  arrivals(kind: string, source: string, target: string): number[] {
    const pattern = new RegExp(`^#\\d+ t=(\\d+)us seq=\\d+ ${kind} ${source}>${target} `);
    const times: number[] = [];
    for (const line of this.sim.executedEvents) {
      const match = pattern.exec(line);
      if (match !== null) times.push(Number(match[1]));
    }
    return times;
  }
}

/** `offset=value` for every data record of `batches`. */
export function recordsOf(batches: readonly LogBatch[]): string[] {
  return batches.flatMap((batch) =>
    batch.values.map((value, index) => `${batch.baseOffset + index}=${value}`),
  );
}

function newBroker(id: NodeId, metadata: ClusterMetadata, options: ClusterOptions): Broker {
  return new Broker({
    id,
    metadata,
    coordinator: {
      transactionMaxTimeoutMs: 900_000,
      abortTimedOutTransactionCleanupIntervalMs: 10_000,
      logWriteUsMin: 1000,
      logWriteUsMax: 1000,
    },
    replication: {
      minInsyncReplicas: options.minInsyncReplicas ?? 2,
      replicaLagTimeMaxMs: options.replicaLagTimeMaxMs ?? 10_000,
      strictMinIsrHighWatermark: options.strictMinIsrHighWatermark ?? true,
      leaderEpochTruncation: options.leaderEpochTruncation ?? true,
    },
    bugs: { skipProducerEpochCheck: false },
    fetchBatchesMax: 64,
  });
}
