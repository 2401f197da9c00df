/**
 * A Kafka consumer with manually assigned partitions (no group yet). `poll` fetches every
 * assigned partition once from its leader and delivers what R4.5 lets through; the position
 * moves past markers and aborted batches. A partition without a position is reset by
 * `auto.offset.reset` through ListOffsets; `endOffsets` asks ListOffsets(LATEST), which answers
 * the last stable offset under read_committed and the high watermark otherwise (R4.7).
 */
import type { ActorContext, NodeId } from '../../kernel';
import type {
  FetchResponse,
  IsolationLevel,
  KafkaMessage,
  KafkaResponse,
  ListOffsetsResponse,
  TopicPartition,
} from '../protocol';
import { EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, partitionKey } from '../protocol';
import { filterFetchedBatches, type ConsumerRecord } from './fetch_filter';

type Ctx = ActorContext<KafkaMessage>;

/** Consumer settings from Kafka's consumer config keys. */
export interface ConsumerConfig {
  /** `isolation.level`. @default 'read_uncommitted' */
  readonly isolationLevel: IsolationLevel;
  /** `auto.offset.reset`: where a consumer without a position starts. @default 'latest' */
  readonly autoOffsetReset: 'earliest' | 'latest';
  /** `request.timeout.ms`. @default 30000 */
  readonly requestTimeoutMs: number;
}

/** Timer for a request that got no answer within `request.timeout.ms`. */
export interface ConsumerTimer {
  readonly owner: 'consumer';
  readonly correlationId: number;
}

type Pending =
  | { type: 'fetch'; timerId: number; broker: NodeId }
  | {
      type: 'offsets';
      timerId: number;
      broker: NodeId;
      onDone: (offsets: Map<string, number>) => void;
      timestamp: -1 | -2;
    };

/** One consumer instance on a client node. */
export class KafkaConsumer {
  private readonly assigned = new Map<string, TopicPartition>();
  private readonly positions = new Map<string, number>();
  private readonly highWatermarks = new Map<string, number>();
  private readonly pending = new Map<number, Pending>();
  private pollInProgress: {
    records: ConsumerRecord[];
    callback: (records: ConsumerRecord[]) => void;
  } | null = null;
  private correlationIds = 1;

  constructor(
    readonly config: ConsumerConfig,
    private readonly metadata: {
      leaderOf(tp: TopicPartition): NodeId | null;
      leaderEpochOf(tp: TopicPartition): number;
      requestRefresh(): void;
    },
    private readonly ctx: Ctx,
  ) {}

  /** `assign()`: the partitions this consumer reads. */
  assign(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.assigned.set(partitionKey(tp), tp);
  }

  /** The high watermark the leader reported in the last fetch of `tp`, or undefined. */
  lastHighWatermark(tp: TopicPartition): number | undefined {
    return this.highWatermarks.get(partitionKey(tp));
  }

  /** `position()`: the offset of the next record to fetch, or undefined before the first reset. */
  position(tp: TopicPartition): number | undefined {
    return this.positions.get(partitionKey(tp));
  }

  /** Assigned partitions, in assignment order. */
  assignment(): TopicPartition[] {
    return [...this.assigned.values()];
  }

  /** True while a poll waits for responses. */
  get polling(): boolean {
    return this.pollInProgress !== null;
  }

  /** `seek()`. */
  seek(tp: TopicPartition, offset: number): void {
    this.positions.set(partitionKey(tp), offset);
  }

  /** One poll: resets missing positions, fetches every partition once, then calls back. */
  poll(callback: (records: ConsumerRecord[]) => void): void {
    if (this.pollInProgress !== null) return callback([]);
    this.pollInProgress = { records: [], callback };
    const unpositioned = this.assignment().filter((tp) => !this.positions.has(partitionKey(tp)));
    if (unpositioned.length === 0) return this.sendFetches();
    const timestamp =
      this.config.autoOffsetReset === 'earliest' ? EARLIEST_TIMESTAMP : LATEST_TIMESTAMP;
    this.listOffsets(unpositioned, timestamp, (offsets) => {
      for (const [key, offset] of offsets)
        if (!this.positions.has(key)) this.positions.set(key, offset);
      this.sendFetches();
    });
  }

  /** `endOffsets()`: LSO under read_committed, HW under read_uncommitted. */
  endOffsets(
    partitions: readonly TopicPartition[],
    callback: (offsets: Map<string, number>) => void,
  ): void {
    this.listOffsets(partitions, LATEST_TIMESTAMP, callback);
  }

  onResponse(response: KafkaResponse): void {
    const pending = this.pending.get(response.correlationId);
    if (pending === undefined) return;
    this.pending.delete(response.correlationId);
    this.ctx.cancelTimer(pending.timerId);
    if (response.kind === 'FetchResponse' && pending.type === 'fetch')
      this.onFetchResponse(response);
    else if (response.kind === 'ListOffsetsResponse' && pending.type === 'offsets')
      this.onListOffsets(response, pending.onDone);
    this.maybeFinishPoll();
  }

  onTimer(timer: ConsumerTimer): void {
    this.failRequest(timer.correlationId);
    this.maybeFinishPoll();
  }

  /** The connection to `peer` was reset: its requests end empty-handed, metadata refreshes. */
  onConnectionReset(peer: NodeId): void {
    for (const [correlationId, pending] of [...this.pending]) {
      if (pending.broker !== peer) continue;
      this.ctx.cancelTimer(pending.timerId);
      this.failRequest(correlationId);
      this.metadata.requestRefresh();
    }
    this.maybeFinishPoll();
  }

  private failRequest(correlationId: number): void {
    const pending = this.pending.get(correlationId);
    if (pending === undefined) return;
    this.pending.delete(correlationId);
    if (pending.type === 'offsets') pending.onDone(new Map());
  }

  private listOffsets(
    partitions: readonly TopicPartition[],
    timestamp: -1 | -2,
    onDone: (offsets: Map<string, number>) => void,
  ): void {
    const byLeader = this.groupByLeader(partitions);
    const collected = new Map<string, number>();
    let outstanding = byLeader.size;
    if (outstanding === 0) return onDone(collected);
    for (const [leader, tps] of byLeader) {
      const correlationId = this.correlationIds++;
      const timerId = this.ctx.setTimer(this.config.requestTimeoutMs * 1000, {
        owner: 'consumer',
        correlationId,
      } satisfies ConsumerTimer);
      this.pending.set(correlationId, {
        broker: leader,
        type: 'offsets',
        timerId,
        timestamp,
        onDone: (offsets) => {
          for (const [key, offset] of offsets) collected.set(key, offset);
          outstanding -= 1;
          if (outstanding === 0) onDone(collected);
        },
      });
      this.ctx.send(leader, {
        kind: 'ListOffsets',
        correlationId,
        isolationLevel: this.config.isolationLevel,
        partitions: tps.map((tp) => ({ ...tp, timestamp })),
      });
    }
  }

  private onListOffsets(
    response: ListOffsetsResponse,
    onDone: (offsets: Map<string, number>) => void,
  ): void {
    const offsets = new Map<string, number>();
    for (const result of response.partitions) {
      if (result.error === 'NONE') offsets.set(partitionKey(result), result.offset);
      else this.metadata.requestRefresh();
    }
    onDone(offsets);
  }

  private sendFetches(): void {
    const positioned = this.assignment().filter((tp) => this.positions.has(partitionKey(tp)));
    for (const [leader, tps] of this.groupByLeader(positioned)) {
      const correlationId = this.correlationIds++;
      const timerId = this.ctx.setTimer(this.config.requestTimeoutMs * 1000, {
        owner: 'consumer',
        correlationId,
      } satisfies ConsumerTimer);
      this.pending.set(correlationId, { type: 'fetch', timerId, broker: leader });
      this.ctx.send(leader, {
        kind: 'Fetch',
        correlationId,
        replicaId: null,
        isolationLevel: this.config.isolationLevel,
        partitions: tps.map((tp) => ({
          ...tp,
          fetchOffset: this.positions.get(partitionKey(tp)) as number,
          currentLeaderEpoch: this.metadata.leaderEpochOf(tp),
          lastFetchedEpoch: -1,
        })),
      });
    }
    this.maybeFinishPoll();
  }

  private onFetchResponse(response: FetchResponse): void {
    const poll = this.pollInProgress;
    for (const partition of response.partitions) {
      const key = partitionKey(partition);
      const position = this.positions.get(key);
      if (position === undefined) continue;
      if (partition.error === 'OFFSET_OUT_OF_RANGE') {
        this.positions.delete(key); // reset by auto.offset.reset at the next poll
        continue;
      }
      if (partition.error !== 'NONE') {
        this.metadata.requestRefresh();
        continue;
      }
      this.highWatermarks.set(key, partition.highWatermark);
      const filtered = filterFetchedBatches(partition, position, this.config.isolationLevel);
      this.positions.set(key, filtered.nextFetchOffset);
      poll?.records.push(...filtered.records);
    }
  }

  private maybeFinishPoll(): void {
    const poll = this.pollInProgress;
    if (poll === null || this.pending.size > 0) return;
    this.pollInProgress = null;
    poll.callback(poll.records);
  }

  private groupByLeader(partitions: readonly TopicPartition[]): Map<NodeId, TopicPartition[]> {
    const byLeader = new Map<NodeId, TopicPartition[]>();
    for (const tp of partitions) {
      const leader = this.metadata.leaderOf(tp);
      if (leader === null) {
        this.metadata.requestRefresh();
        continue;
      }
      const list = byLeader.get(leader) ?? [];
      list.push(tp);
      byLeader.set(leader, list);
    }
    return byLeader;
  }
}
