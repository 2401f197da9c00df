/**
 * The follower side of replication (Kafka's ReplicaFetcherThread, one per source broker): for every
 * leader this broker follows partitions of, one Fetch at a time with each partition's log end
 * offset, current leader epoch and last fetched epoch (AbstractFetcherThread). Responses are
 * appended or truncate the log (KIP-101; ReplicaFetcherThread.processPartitionData;
 * AbstractFetcherThread.getOffsetTruncationState); errors back off for `replica.fetch.backoff.ms`.
 *
 * Fetches run in an incremental fetch session per leader (KIP-227; Kafka's FetchSessionHandler):
 * the first fetch is full and opens the session, later ones list only the partitions whose fetch
 * parameters changed and the ones no longer fetched from that leader, and the leader answers only
 * the partitions that changed. A session error, a timeout, a reset connection or a new leader
 * epoch starts over with a full fetch; a session error does so at once, without backing off.
 *
 * Fetched data the follower's log refuses (UnexpectedAppendOffsetException) is not retried: from
 * Kafka 2.3 (KIP-461, AbstractFetcherThread.markPartitionFailed) the partition leaves the fetcher
 * for the failed partitions until it is added again under a new leader epoch
 * (AbstractFetcherThread.addPartitions); before 2.3 processFetchRequest rethrew it as a
 * KafkaException and the fetcher thread for that leader died (ShutdownableThread.run logs "Error
 * due to" and ends), stopping every partition fetched from it until the broker restarts or no
 * longer follows that leader (AbstractFetcherManager.shutdownIdleFetcherThreads).
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap, BoundedSet } from '../../kernel';
import { COLLECTION_BOUNDS, REPLICA_FETCH_CONNECTION } from '../protocol';
import type { FetchPartition, FetchResponse, KafkaMessage, TopicPartition } from '../protocol';
import { partitionKey } from '../protocol';
import type { UnexpectedAppendOffset } from './partition_log';
import type { PartitionReplica, ReplicationSettings } from './partition_replica';
import type { ReplicaManager } from './replica_manager';

type Ctx = ActorContext<KafkaMessage>;

/** `replica.socket.timeout.ms`: a fetch unanswered this long is given up. */
const REPLICA_FETCH_TIMEOUT_US = 30_000_000;
/** `replica.fetch.backoff.ms`: the pause after a failed fetch. */
const REPLICA_FETCH_BACKOFF_US = 1_000_000;
/** Kafka's defaults of `replica.fetch.wait.max.ms` and `replica.fetch.min.bytes`. */
const REPLICA_FETCH_WAIT_MAX_MS = 500;
const REPLICA_FETCH_MIN_BYTES = 1;
/**
 * `replica.fetch.response.max.bytes`, sent as the follower's MaxBytes; the model's per-partition
 * batch limit (64 batches, a few kilobytes) binds long before it.
 */
const REPLICA_FETCH_RESPONSE_MAX_BYTES = 10_485_760;

/** Timers of the fetcher. */
export type FetcherTimer =
  | { readonly owner: 'fetcher'; readonly type: 'timeout'; readonly correlationId: number }
  | { readonly owner: 'fetcher'; readonly type: 'backoff'; readonly leader: string };

/** The follower's side of its fetch session with one leader. */
interface SessionState {
  /** The session id the leader gave, 0 before the first answer (next fetch is full). */
  id: number;
  /** The epoch of the next incremental fetch. */
  epoch: number;
  /** The fetch parameters the leader holds for each partition of the session. */
  readonly sent: Map<PartitionReplica, FetchPartition>;
}

/** The fetch loops of one broker, one per leader it follows. */
export class ReplicaFetcher {
  private inFlight = new BoundedMap<string, { correlationId: number; timerId: number }>(
    COLLECTION_BOUNDS.fetcherLeaders,
  );
  private backingOff = new BoundedSet<string>(COLLECTION_BOUNDS.fetcherLeaders);
  private sessions = new BoundedMap<string, SessionState>(COLLECTION_BOUNDS.fetcherLeaders);
  private followed: {
    version: number;
    byLeader: ReadonlyMap<string, readonly PartitionReplica[]>;
  } = { version: -1, byLeader: new Map() };
  private correlationIds = 1;
  /** Kafka 2.3+ failed partitions: each with the leader epoch it failed under. */
  private failedPartitions = new BoundedMap<PartitionReplica, number>(COLLECTION_BOUNDS.replicas);
  /** Before 2.3: the leaders whose fetcher thread died. */
  private deadFetchers = new BoundedSet<string>(COLLECTION_BOUNDS.fetcherLeaders);

  constructor(
    private readonly brokerId: string,
    private readonly manager: ReplicaManager,
    private readonly settings: Pick<
      ReplicationSettings,
      | 'leaderEpochTruncation'
      | 'replicaFetchWaitMaxMs'
      | 'replicaFetchMinBytes'
      | 'fetcherFailsPartitionOnly'
      | 'fetchFencedByLeaderEpoch'
    >,
  ) {}

  private get leaderEpochTruncation(): boolean {
    return this.settings.leaderEpochTruncation;
  }

  /** Crash: every fetch loop stops. */
  onCrash(): void {
    this.inFlight = new BoundedMap(COLLECTION_BOUNDS.fetcherLeaders);
    this.backingOff = new BoundedSet(COLLECTION_BOUNDS.fetcherLeaders);
    this.sessions = new BoundedMap(COLLECTION_BOUNDS.fetcherLeaders);
    this.failedPartitions.clear();
    this.deadFetchers.clear();
  }

  /**
   * A partition now follows `leader` under a new epoch: like Kafka re-adding the partition to a
   * fresh fetcher, forget a fetch still in flight to it (its answer will be ignored).
   */
  resetLeader(leader: string): void {
    this.inFlight.delete(leader);
    this.backingOff.delete(leader);
    this.sessions.delete(leader);
  }

  /** The connection to `peer` was reset: its fetch fails and backs off. */
  onConnectionReset(peer: string, ctx: Ctx): void {
    const pending = this.inFlight.get(peer);
    if (pending === undefined) return;
    ctx.cancelTimer(pending.timerId);
    this.inFlight.delete(peer);
    this.sessions.delete(peer);
    this.backOff(peer, ctx);
  }

  /** Starts a fetch to every leader that has none in flight. */
  maybeFetch(ctx: Ctx): void {
    for (const [leader, replicas] of this.followedByLeader()) {
      if (this.inFlight.has(leader) || this.backingOff.has(leader)) continue;
      if (this.deadFetchers.has(leader)) continue;
      const fetched = this.failedPartitions.size === 0 ? replicas : this.stillFetched(replicas);
      if (fetched.length > 0) this.sendFetch(leader, fetched, ctx);
    }
  }

  /**
   * The replicas not in the failed partitions; one added again under a newer leader epoch
   * (makeFollowers, AbstractFetcherThread.addPartitions) leaves them.
   */
  private stillFetched(replicas: readonly PartitionReplica[]): PartitionReplica[] {
    return replicas.filter((replica) => {
      const failedEpoch = this.failedPartitions.get(replica);
      if (failedEpoch === undefined) return true;
      if (replica.state.leaderEpoch === failedEpoch) return false;
      this.failedPartitions.delete(replica);
      return true;
    });
  }

  /**
   * The partitions this broker follows, grouped by leader in replica order; rebuilt only after
   * the replica manager's roles may have changed.
   */
  private followedByLeader(): ReadonlyMap<string, readonly PartitionReplica[]> {
    if (this.followed.version === this.manager.rolesVersion) return this.followed.byLeader;
    const byLeader = new Map<string, PartitionReplica[]>();
    for (const replica of this.manager.replicas.values()) {
      const leader = replica.state.leader;
      if (replica.role !== 'follower' || leader === null || leader === this.brokerId) continue;
      const list = byLeader.get(leader);
      if (list === undefined) byLeader.set(leader, [replica]);
      else list.push(replica);
    }
    // A dead fetcher thread with no partition left is shut down; a later one is new.
    for (const leader of [...this.deadFetchers]) {
      if (!byLeader.has(leader)) this.deadFetchers.delete(leader);
    }
    this.followed = { version: this.manager.rolesVersion, byLeader };
    return byLeader;
  }

  /** One fetch to `leader`: full when no session is open, else only what changed. */
  private sendFetch(leader: string, replicas: readonly PartitionReplica[], ctx: Ctx): void {
    const correlationId = this.correlationIds++;
    let session = this.sessions.get(leader);
    if (session === undefined) {
      session = { id: 0, epoch: 0, sent: new BoundedMap(COLLECTION_BOUNDS.sessionPartitions) };
      this.sessions.set(leader, session);
    }
    const full = session.id === 0;
    if (full) session.sent.clear();
    const partitions: FetchPartition[] = [];
    for (const replica of replicas) {
      const sent = session.sent.get(replica);
      if (!full && sent !== undefined && this.unchanged(sent, replica)) continue;
      const params = this.fetchParams(replica);
      session.sent.set(replica, params);
      partitions.push(params);
    }
    const forgotten: TopicPartition[] = [];
    if (session.sent.size > replicas.length) {
      const fetched = new Set(replicas);
      for (const [replica, params] of session.sent) {
        if (fetched.has(replica)) continue;
        session.sent.delete(replica);
        forgotten.push({ topic: params.topic, partition: params.partition });
      }
    }
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
      sessionId: session.id,
      sessionEpoch: full ? 0 : session.epoch,
      maxWaitMs: this.settings.replicaFetchWaitMaxMs ?? REPLICA_FETCH_WAIT_MAX_MS,
      minBytes: this.settings.replicaFetchMinBytes ?? REPLICA_FETCH_MIN_BYTES,
      maxBytes: REPLICA_FETCH_RESPONSE_MAX_BYTES,
      ...(forgotten.length === 0 ? {} : { forgottenPartitions: forgotten }),
      partitions,
    });
  }

  /** Whether the leader already holds the partition's current fetch parameters. */
  private unchanged(sent: FetchPartition, replica: PartitionReplica): boolean {
    const log = replica.log;
    return (
      sent.fetchOffset === log.logEndOffset &&
      sent.currentLeaderEpoch === replica.state.leaderEpoch &&
      sent.lastFetchedEpoch === this.lastFetchedEpochOf(replica)
    );
  }

  /**
   * The last fetched epoch a fetch carries, -1 for none: none before KIP-101; before KIP-320
   * only in the truncation phase after the partition was added to the fetcher (the model's
   * Fetch answer stands in for the OffsetsForLeaderEpoch exchange of that phase).
   */
  private lastFetchedEpochOf(replica: PartitionReplica): number {
    if (!this.leaderEpochTruncation) return -1;
    const latest = replica.log.epochCache.latestEpoch();
    if (replica.truncationPending) return latest;
    return this.settings.fetchFencedByLeaderEpoch !== false ? latest : -1;
  }

  /**
   * Fetch from the log end offset, with the current and the last fetched epoch
   * (AbstractFetcherThread).
   */
  private fetchParams(replica: PartitionReplica): FetchPartition {
    const log = replica.log;
    return {
      topic: replica.state.topic,
      partition: replica.state.partition,
      fetchOffset: log.logEndOffset,
      currentLeaderEpoch: replica.state.leaderEpoch,
      // Before KIP-101 fetches carried no epoch, so the leader cannot detect divergence.
      lastFetchedEpoch: this.lastFetchedEpochOf(replica),
    };
  }

  onFetchResponse(response: FetchResponse, source: string, ctx: Ctx): void {
    const pending = this.inFlight.get(source);
    if (pending === undefined || pending.correlationId !== response.correlationId) return;
    this.inFlight.delete(source);
    ctx.cancelTimer(pending.timerId);
    const session = this.sessions.get(source);
    if (response.error !== undefined && response.error !== 'NONE') {
      // The leader lost the session or saw another epoch: start over with a full fetch now.
      this.sessions.delete(source);
      return this.maybeFetch(ctx);
    }
    if (session !== undefined) {
      if (session.id === 0) {
        session.id = response.sessionId ?? 0;
        session.epoch = 1;
      } else {
        session.epoch += 1;
      }
    }
    let failed = false;
    for (const partition of response.partitions) {
      const replica = this.manager.replicas.get(partitionKey(partition));
      if (replica === undefined || replica.role !== 'follower' || replica.state.leader !== source)
        continue;
      if (partition.error !== 'NONE') {
        failed = true;
        continue;
      }
      // A failed log directory: the append throws and the partition is left (AbstractFetcherThread
      // catches KafkaStorageException); the broker halts soon after (`log_dir_failure.ts`).
      if (partition.batches.length > 0 && this.manager.storageError() !== null) continue;
      const refused = replica.onFetchedPartition(partition, ctx.nowUs());
      if (refused !== null) this.failPartition(replica, source, refused);
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
        // replica.socket.timeout.ms: ReplicaFetcherBlockingSend.sendRequest closes the
        // connection on the failure, so what a partition still holds of it is lost.
        ctx.closeConnection(leader as NodeId, REPLICA_FETCH_CONNECTION);
        this.inFlight.delete(leader);
        this.sessions.delete(leader);
        this.backOff(leader, ctx);
        return;
      }
    }
    this.maybeFetch(ctx);
  }

  /** The partition's data was refused: KIP-461's failed partition, or the whole fetcher before. */
  private failPartition(
    replica: PartitionReplica,
    leader: string,
    refused: UnexpectedAppendOffset,
  ): void {
    if (this.settings.fetcherFailsPartitionOnly === false) {
      this.deadFetchers.add(leader);
      replica.reportFetchFailed(refused, 'fetcher');
    } else {
      this.failedPartitions.set(replica, replica.state.leaderEpoch);
      replica.reportFetchFailed(refused, 'partition');
    }
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
