/**
 * The follower side of replication (Kafka's ReplicaFetcherThread, one per source broker): for
 * every leader this broker follows partitions of, one Fetch at a time with each partition's log
 * end offset, current leader epoch and last fetched epoch (R1.2). Responses are appended or
 * truncate the log (R1.4, R1.13); errors back off for `replica.fetch.backoff.ms`.
 */
import type { ActorContext, NodeId } from '../../kernel';
import type { FetchResponse, KafkaMessage } from '../protocol';
import { partitionKey } from '../protocol';
import type { ReplicaManager } from './replica_manager';

type Ctx = ActorContext<KafkaMessage>;

/** `replica.socket.timeout.ms`: a fetch unanswered this long is given up. */
const REPLICA_FETCH_TIMEOUT_US = 30_000_000;
/** `replica.fetch.backoff.ms`: the pause after a failed fetch. */
const REPLICA_FETCH_BACKOFF_US = 1_000_000;

/** Timers of the fetcher. */
export type FetcherTimer =
  | { readonly owner: 'fetcher'; readonly type: 'timeout'; readonly correlationId: number }
  | { readonly owner: 'fetcher'; readonly type: 'backoff'; readonly leader: string };

/** The fetch loops of one broker, one per leader it follows. */
export class ReplicaFetcher {
  private inFlight = new Map<string, { correlationId: number; timerId: number }>();
  private backingOff = new Set<string>();
  private correlationIds = 1;

  constructor(
    private readonly brokerId: string,
    private readonly manager: ReplicaManager,
    private readonly leaderEpochTruncation: boolean,
  ) {}

  /** Crash: every fetch loop stops. */
  onCrash(): void {
    this.inFlight = new Map();
    this.backingOff = new Set();
  }

  /**
   * A partition now follows `leader` under a new epoch: like Kafka re-adding the partition to a
   * fresh fetcher, forget a fetch still in flight to it (its answer will be ignored).
   */
  resetLeader(leader: string): void {
    this.inFlight.delete(leader);
    this.backingOff.delete(leader);
  }

  /** The connection to `peer` was reset: its fetch fails and backs off. */
  onConnectionReset(peer: string, ctx: Ctx): void {
    const pending = this.inFlight.get(peer);
    if (pending === undefined) return;
    ctx.cancelTimer(pending.timerId);
    this.inFlight.delete(peer);
    this.backOff(peer, ctx);
  }

  /** Starts a fetch to every leader that has none in flight. */
  maybeFetch(ctx: Ctx): void {
    const byLeader = new Map<string, Array<{ key: string }>>();
    for (const [key, replica] of this.manager.replicas) {
      const leader = replica.state.leader;
      if (replica.role !== 'follower' || leader === null || leader === this.brokerId) continue;
      const list = byLeader.get(leader) ?? [];
      list.push({ key });
      byLeader.set(leader, list);
    }
    for (const [leader, entries] of byLeader) {
      if (this.inFlight.has(leader) || this.backingOff.has(leader)) continue;
      this.sendFetch(
        leader,
        entries.map((entry) => entry.key),
        ctx,
      );
    }
  }

  private sendFetch(leader: string, keys: readonly string[], ctx: Ctx): void {
    const correlationId = this.correlationIds++;
    const partitions = keys.map((key) => {
      const replica = this.manager.replicas.get(key);
      const log = replica?.log;
      return {
        topic: replica?.state.topic ?? '',
        partition: replica?.state.partition ?? 0,
        fetchOffset: log?.logEndOffset ?? 0,
        currentLeaderEpoch: replica?.state.leaderEpoch ?? -1,
        // Before KIP-101 fetches carried no epoch, so the leader cannot detect divergence.
        lastFetchedEpoch: this.leaderEpochTruncation ? (log?.epochCache.latestEpoch() ?? -1) : -1,
      };
    });
    const timerId = ctx.setTimer(REPLICA_FETCH_TIMEOUT_US, {
      owner: 'fetcher',
      type: 'timeout',
      correlationId,
    } satisfies FetcherTimer);
    this.inFlight.set(leader, { correlationId, timerId });
    ctx.send(leader as NodeId, {
      kind: 'Fetch',
      correlationId,
      replicaId: this.brokerId,
      isolationLevel: 'read_uncommitted',
      partitions,
    });
  }

  onFetchResponse(response: FetchResponse, source: string, ctx: Ctx): void {
    const pending = this.inFlight.get(source);
    if (pending === undefined || pending.correlationId !== response.correlationId) return;
    this.inFlight.delete(source);
    ctx.cancelTimer(pending.timerId);
    let failed = false;
    for (const partition of response.partitions) {
      const replica = this.manager.replicas.get(partitionKey(partition));
      if (replica === undefined || replica.role !== 'follower' || replica.state.leader !== source)
        continue;
      if (partition.error !== 'NONE') {
        failed = true;
        continue;
      }
      replica.onFetchedPartition(partition, ctx.nowUs());
    }
    if (failed) this.backOff(source, ctx);
    else this.maybeFetch(ctx);
  }

  onTimer(timer: FetcherTimer, ctx: Ctx): void {
    if (timer.type === 'backoff') {
      this.backingOff.delete(timer.leader);
    } else {
      for (const [leader, pending] of this.inFlight) {
        if (pending.correlationId !== timer.correlationId) continue;
        this.inFlight.delete(leader);
        this.backOff(leader, ctx);
        return;
      }
    }
    this.maybeFetch(ctx);
  }

  private backOff(leader: string, ctx: Ctx): void {
    this.backingOff.add(leader);
    ctx.setTimer(REPLICA_FETCH_BACKOFF_US, {
      owner: 'fetcher',
      type: 'backoff',
      leader,
    } satisfies FetcherTimer);
  }
}
