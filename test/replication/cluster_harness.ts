/**
 * A small replicated cluster for scripted replication cases, on the shared harness
 * (test/harness/cluster.ts): one controller, N brokers holding one single-partition topic
 * (replicas b1, b2, b3 in assignment order, b1 the first leader), and a test client that sends raw
 * Produce, Fetch and ListOffsets requests and records every answer with its arrival time. The
 * network delay is fixed, so times are exact, and the kernel's event log is kept so a test can
 * read when each request arrived.
 */
import {
  NO_PRODUCER_ID,
  type ElectionRecord,
  type IsolationLevel,
  type LogBatch,
  type PartitionReplica,
  type PartitionState,
} from '../../sim/actors';
import { nodeId } from '../../sim/kernel';
import { RawClient, TestCluster } from '../harness/cluster';

export type { Received } from '../harness/cluster';

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
  /** False: before KAFKA-13091's fix (2.7 to 3.0). @default true */
  readonly highWatermarkAfterAlterPartition?: boolean;
  /** False: before KIP-320 (KAFKA-7395, 0.11 to 2.0). @default true */
  readonly fetchFencedByLeaderEpoch?: boolean;
}

/**
 * The raw client with this suite's requests on {@link TOPIC}.
 * @example const id = client.produce('b1', { acks: -1, values: [7] }); client.answer(id);
 */
export class TestClient extends RawClient {
  /** Sends a Produce of one batch of `values` (no producer id) and returns its correlation id. */
  produce(
    target: string,
    request: { acks: 0 | 1 | -1; values: number[]; timeoutMs?: number },
  ): number {
    return this.send(target, {
      kind: 'Produce',
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
    return this.send(target, {
      kind: 'Fetch',
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
  }

  /** Sends ListOffsets(LATEST) for read_uncommitted: the HW, as a consumer sees the end. */
  listLatest(target: string): number {
    return this.send(target, {
      kind: 'ListOffsets',
      isolationLevel: 'read_uncommitted',
      partitions: [{ topic: TOPIC, partition: PARTITION, timestamp: -1 }],
    });
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
export class Cluster extends TestCluster {
  readonly client = new TestClient();
  readonly delayUs: number;

  constructor(options: ClusterOptions = {}) {
    const brokers = options.brokers ?? 3;
    const delayUs = options.delayUs ?? 1000;
    super({
      seed: options.seed ?? '1',
      brokers,
      topics: [{ name: TOPIC, partitions: 1, replicationFactor: Math.min(3, brokers) }],
      broker: {
        replication: {
          minInsyncReplicas: options.minInsyncReplicas ?? 2,
          replicaLagTimeMaxMs: options.replicaLagTimeMaxMs ?? 10_000,
          strictMinIsrHighWatermark: options.strictMinIsrHighWatermark ?? true,
          leaderEpochTruncation: options.leaderEpochTruncation ?? true,
          highWatermarkAfterAlterPartition: options.highWatermarkAfterAlterPartition ?? true,
          fetchFencedByLeaderEpoch: options.fetchFencedByLeaderEpoch ?? true,
        },
      },
      brokerSessionTimeoutMs: options.brokerSessionTimeoutMs ?? 6000,
      uncleanLeaderElectionEnable: options.uncleanLeaderElectionEnable ?? false,
      delayUs,
      recordEventLog: true,
    });
    this.delayUs = delayUs;
    this.addNode(CLIENT, this.client);
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
