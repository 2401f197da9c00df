/**
 * A client's metadata cache (Kafka's Metadata): which broker leads each partition, at which
 * leader epoch. It starts from the cluster's initial assignment (as after the bootstrap metadata
 * request) and is refreshed with a Metadata request to a random broker whenever a client sees a
 * leadership error or a leaderless partition, and when a producer sends with metadata older than
 * `metadata.max.age.ms` (Metadata.timeToNextUpdate, which Kafka's NetworkClient checks on every
 * poll; checked here at each send, so a client that does nothing never refreshes by age); an
 * entry only moves to a newer leader epoch. A topic created
 * during the run becomes known with the first refresh after its partitions reached the broker
 * asked; a producer waits for it up to `max.block.ms` (KafkaProducer.waitOnMetadata).
 */
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaMessage, MetadataResponse, PartitionState, TopicPartition } from '../protocol';
import { METADATA_CONNECTION, partitionKey } from '../protocol';

type Ctx = ActorContext<KafkaMessage>;

/** Timer of a metadata request. */
export type MetadataTimer =
  | { readonly owner: 'metadata'; readonly type: 'timeout'; readonly correlationId: number }
  | { readonly owner: 'metadata'; readonly type: 'backoff' }
  | { readonly owner: 'metadata'; readonly type: 'max-block'; readonly waitId: number };

/** `metadata.max.age.ms`'s default. */
export const METADATA_MAX_AGE_MS_DEFAULT = 300_000;

/** A wait for topics to appear (KafkaProducer.waitOnMetadata). */
interface TopicWait {
  readonly topics: readonly string[];
  readonly timerId: number;
  readonly done: (present: boolean) => void;
}

/** Leaders known to one client. */
export class ClientMetadata {
  private readonly leaders = new Map<string, { leader: NodeId | null; leaderEpoch: number }>();
  /** Every partition known, by topic (for a group leader's assignment). */
  private readonly partitionsByTopic = new Map<string, Map<number, TopicPartition>>();
  /** `partitionsOf` per topic, until a partition of the topic is learnt again. */
  private readonly sortedPartitions = new Map<string, readonly TopicPartition[]>();
  private inFlight: number | null = null;
  private inFlightBroker: NodeId | null = null;
  private backingOff = false;
  private refreshWanted = false;
  private correlationIds = 1;
  /** When the last refresh was answered (the bootstrap: at creation). */
  private refreshedUs: number;
  private readonly waits = new Map<number, TopicWait>();
  private waitIds = 1;
  /** Called after every update, so clients can send what was waiting for a leader. */
  onUpdate: () => void = () => undefined;

  constructor(
    readonly brokers: readonly NodeId[],
    initial: readonly PartitionState[],
    private readonly ctx: Ctx,
    private readonly timing: {
      requestTimeoutMs: number;
      retryBackoffMs: number;
      /** `metadata.max.age.ms`. @default 300000 */
      metadataMaxAgeMs?: number;
    },
    /** The cluster's finalized `transaction.version` feature, as ApiVersions reports it. */
    readonly transactionVersion: number = 0,
  ) {
    for (const state of initial) {
      this.leaders.set(partitionKey(state), {
        leader: state.leader as NodeId | null,
        leaderEpoch: state.leaderEpoch,
      });
      this.remember(state);
    }
    this.refreshedUs = ctx.nowUs();
  }

  /**
   * Calls `done(true)` once every topic has a known partition (at once when they have), or
   * `done(false)` after `maxBlockMs` (KafkaProducer.waitOnMetadata's TimeoutException), asking
   * for a refresh meanwhile.
   */
  awaitTopics(topics: readonly string[], maxBlockMs: number, done: (present: boolean) => void) {
    const maxAgeUs = (this.timing.metadataMaxAgeMs ?? METADATA_MAX_AGE_MS_DEFAULT) * 1000;
    const idle = this.inFlight === null && !this.backingOff;
    if (idle && this.ctx.nowUs() - this.refreshedUs >= maxAgeUs) this.requestRefresh();
    if (this.knowsAll(topics)) return done(true);
    const waitId = this.waitIds++;
    const timer: MetadataTimer = { owner: 'metadata', type: 'max-block', waitId };
    const timerId = this.ctx.setTimer(maxBlockMs * 1000, timer);
    this.waits.set(waitId, { topics, timerId, done });
    this.requestRefresh();
  }

  private knowsAll(topics: readonly string[]): boolean {
    return topics.every((topic) => (this.partitionsByTopic.get(topic)?.size ?? 0) > 0);
  }

  /** The known partitions of `topic`, sorted by partition number; empty when unknown. */
  partitionsOf(topic: string): readonly TopicPartition[] {
    const known = this.sortedPartitions.get(topic);
    if (known !== undefined) return known;
    const partitions = [...(this.partitionsByTopic.get(topic)?.values() ?? [])];
    partitions.sort((a, b) => a.partition - b.partition);
    this.sortedPartitions.set(topic, partitions);
    return partitions;
  }

  private remember(tp: TopicPartition): void {
    const byNumber = this.partitionsByTopic.get(tp.topic) ?? new Map<number, TopicPartition>();
    byNumber.set(tp.partition, { topic: tp.topic, partition: tp.partition });
    this.sortedPartitions.delete(tp.topic);
    this.partitionsByTopic.set(tp.topic, byNumber);
  }

  /** The leader of `tp` as last known, or null when unknown or offline. */
  leaderOf(tp: TopicPartition): NodeId | null {
    return this.leaders.get(partitionKey(tp))?.leader ?? null;
  }

  /** The leader epoch of `tp` as last known, or -1. */
  leaderEpochOf(tp: TopicPartition): number {
    return this.leaders.get(partitionKey(tp))?.leaderEpoch ?? -1;
  }

  /** Asks for fresh metadata (at most one request in flight, `retry.backoff.ms` apart). */
  requestRefresh(): void {
    this.refreshWanted = true;
    if (this.inFlight !== null || this.backingOff) return;
    this.refreshWanted = false;
    const correlationId = this.correlationIds++;
    this.inFlight = correlationId;
    const broker = this.brokers[this.ctx.rng.intInclusive(0, this.brokers.length - 1)] as NodeId;
    this.inFlightBroker = broker;
    this.ctx.setTimer(this.timing.requestTimeoutMs * 1000, {
      owner: 'metadata',
      type: 'timeout',
      correlationId,
    } satisfies MetadataTimer);
    this.ctx.send(broker, { kind: 'Metadata', correlationId });
  }

  onResponse(response: MetadataResponse): void {
    if (response.correlationId !== this.inFlight) return;
    this.inFlight = null;
    for (const state of response.partitions) {
      const key = partitionKey(state);
      const known = this.leaders.get(key);
      this.remember(state);
      if (known === undefined || state.leaderEpoch >= known.leaderEpoch) {
        this.leaders.set(key, {
          leader: state.leader as NodeId | null,
          leaderEpoch: state.leaderEpoch,
        });
      }
    }
    this.startBackoff();
    this.refreshedUs = this.ctx.nowUs();
    for (const [waitId, wait] of [...this.waits]) {
      if (!this.knowsAll(wait.topics)) {
        this.refreshWanted = true;
        continue;
      }
      this.waits.delete(waitId);
      this.ctx.cancelTimer(wait.timerId);
      wait.done(true);
    }
    this.onUpdate();
  }

  /** The connection to `peer` was reset: a request to it ends as if timed out. */
  onConnectionReset(peer: NodeId): void {
    if (this.inFlight === null || this.inFlightBroker !== peer) return;
    this.inFlight = null;
    this.refreshWanted = true;
    this.startBackoff();
  }

  onTimer(timer: MetadataTimer): void {
    if (timer.type === 'max-block') {
      const wait = this.waits.get(timer.waitId);
      this.waits.delete(timer.waitId);
      return wait?.done(false);
    }
    if (timer.type === 'timeout') {
      // Only the request this timer was set for: an answered one's timer is stale.
      if (this.inFlight !== timer.correlationId) return;
      // NetworkClient disconnects on the timeout: what a partition holds of it is lost.
      if (this.inFlightBroker !== null) {
        this.ctx.closeConnection(this.inFlightBroker, METADATA_CONNECTION);
      }
      this.inFlight = null;
      this.refreshWanted = true;
      this.startBackoff();
      return;
    }
    this.backingOff = false;
    if (this.refreshWanted) this.requestRefresh();
  }

  private startBackoff(): void {
    this.backingOff = true;
    this.ctx.setTimer(this.timing.retryBackoffMs * 1000, {
      owner: 'metadata',
      type: 'backoff',
    } satisfies MetadataTimer);
  }
}
