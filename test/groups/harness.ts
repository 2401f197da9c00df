/**
 * A replicated cluster with consumer groups for scripted group cases, on the shared harness
 * (test/harness/cluster.ts): a controller, three brokers (`__consumer_offsets` and
 * `__transaction_state` with {@link INTERNAL_PARTITIONS} partitions each, replication factor 3,
 * min ISR 2), a data topic `in` with two partitions, and raw clients `c1..cN` that send group and
 * transaction requests. The network delay is fixed at 1000 µs, so times are exact. `call` sends a
 * request at the current virtual time and runs the simulation until its answer arrives; `advance`
 * lets time pass (sessions, delays, markers).
 */
import type { GroupCoordinatorSettings, KafkaMessage, TopicPartition } from '../../sim/actors';
import { DELAY_US, RawClient, TestCluster, type Outgoing } from '../harness/cluster';

export { DELAY_US, type Outgoing };

/** Partitions of each internal topic (kept small so the scripted runs stay fast). */
export const INTERNAL_PARTITIONS = 3;
/** The data topic the groups consume. */
export const INPUT = 'in';
export const IN0: TopicPartition = { topic: INPUT, partition: 0 };
export const IN1: TopicPartition = { topic: INPUT, partition: 1 };

type Answer = Exclude<KafkaMessage, { kind: 'ConnectionReset' }>;
type AnswerOf<K extends Answer['kind']> = Extract<Answer, { kind: K }>;

/** Cluster settings; every field has a default. */
export interface GroupClusterOptions {
  /** @default 3 */
  readonly clients?: number;
  /** `group.initial.rebalance.delay.ms`. @default 3000 */
  readonly initialRebalanceDelayMs?: number;
  /** The cluster's `transaction.version` feature level. @default 0 */
  readonly transactionVersion?: number;
  /** Further group coordinator settings (offset retention, record schema, KAFKA-8069). */
  readonly group?: Partial<Omit<GroupCoordinatorSettings, 'offsetsTopicNumPartitions'>>;
}

/** A running cluster with its raw group clients. */
export class GroupCluster extends TestCluster {
  readonly clients = new Map<string, RawClient>();

  constructor(options: GroupClusterOptions = {}) {
    super({
      topics: [{ name: INPUT, partitions: 2, replicationFactor: 3 }],
      internalTopics: { partitions: INTERNAL_PARTITIONS },
      broker: {
        coordinator: { transactionVersion: options.transactionVersion ?? 0 },
        group: {
          groupInitialRebalanceDelayMs: options.initialRebalanceDelayMs ?? 3000,
          ...options.group,
        },
      },
    });
    for (let index = 1; index <= (options.clients ?? 3); index++) {
      this.clients.set(`c${index}`, this.addNode(`c${index}`, new RawClient()));
    }
    this.advance(10_000);
  }

  /**
   * Runs until `done` holds (at most `waitUsMax`), then finishes the events of that instant, so
   * answers sent together arrive together.
   */
  runFor(waitUsMax: number, done: () => boolean): void {
    this.sim.runUntil(this.sim.nowUs + waitUsMax, done);
    this.sim.runUntil(this.sim.nowUs);
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
    return () => actor.answer(correlationId)?.message ?? null;
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

  private client(name: string): RawClient {
    const client = this.clients.get(name);
    if (client === undefined) throw new Error(`No client ${name}`);
    return client;
  }
}
