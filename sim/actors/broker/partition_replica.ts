/**
 * One broker's replica of one partition and its part in replication: as leader it tracks each
 * follower's log end offset and caught-up time, advances the high watermark over the ISR (gated by
 * min.insync.replicas, Partition.maybeIncrementLeaderHW) and decides ISR expansion and shrinking
 * (Replica.updateFetchStateOrThrow; Partition.maybeExpandIsr, maybeShrinkIsr); as follower it
 * applies fetched batches, takes the leader's high watermark capped by its own log end offset
 * (ReplicaFetcherThread.processPartitionData) and truncates where its log diverged
 * (AbstractFetcherThread.getOffsetTruncationState, KIP-101), or, in legacy mode, to its own high
 * watermark when it becomes a follower.
 */
import type {
  FetchPartitionResponse,
  LogBatch,
  ObservationSink,
  PartitionState,
} from '../protocol';
import { BoundedMap, pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import { assertLeaderEpochForward } from './log_invariants';
import { IGNORE_OBSERVATIONS } from '../protocol';
import type { PartitionLog, UnexpectedAppendOffset } from './partition_log';

/** Replication settings from Kafka's broker and topic config keys, plus protocol switches. */
export interface ReplicationSettings {
  /** `min.insync.replicas`. @default 1 */
  readonly minInsyncReplicas: number;
  /** `replica.lag.time.max.ms`. @default 30000 */
  readonly replicaLagTimeMaxMs: number;
  /** Kafka 3.7+ (KAFKA-15583): the HW does not advance while ISR < min ISR. @default true */
  readonly strictMinIsrHighWatermark: boolean;
  /** KIP-101 truncation by leader epoch; false is the legacy truncate-to-HW. @default true */
  readonly leaderEpochTruncation: boolean;
  /**
   * Kafka 2.1+ (KAFKA-7128): a follower joins the ISR only once it also reached the offset this
   * leader started its epoch at; false is the older rule, the high watermark alone. @default true
   */
  readonly isrExpansionNeedsLeaderEpochStart?: boolean;
  /**
   * Kafka 2.0+ (KIP-279, KAFKA-6361): the epoch cache answers for an epoch it lacks with its
   * largest lower epoch; false is the older answer (the requested epoch), under which a follower
   * truncates to the leader's offset alone. @default true
   */
  readonly epochEndOffsetWithLeaderEpoch?: boolean;
  /**
   * Kafka 3.1+ (KAFKA-13091): the leader tries to advance the high watermark once the controller
   * accepted its own ISR change (Partition.handleAlterIsrResponse). False is 2.7 to 3.0, the
   * AlterIsr path in ZooKeeper mode: nothing moves the HW when the shrink comes back, nor when
   * the controller's metadata repeats that change, until the next append or follower fetch of
   * the partition. @default true
   */
  readonly highWatermarkAfterAlterPartition?: boolean;
  /**
   * Kafka 2.1+ (KIP-320, KAFKA-7395): a Fetch carries the follower's current leader epoch, the
   * leader fences another one, and every leader epoch change takes the follower through
   * truncation. False is 0.11 to 2.0: the leader serves any fetch while it leads, a follower
   * whose leader stays the same under a new epoch goes on fetching as before
   * (Partition.makeFollower returns false, "the new leader is the same as the old leader"), and
   * truncation by epoch happens only when a partition is added to a fetcher (a new leader or a
   * restart). @default true
   */
  readonly fetchFencedByLeaderEpoch?: boolean;
  /**
   * Kafka 2.3+ (KIP-461, KAFKA-8346): a partition whose fetched data cannot be applied moves to
   * the fetcher's failed partitions and the others go on; false is the older behaviour, the
   * exception ends the fetcher thread for that leader. @default true
   */
  readonly fetcherFailsPartitionOnly?: boolean;
  /** `replica.fetch.wait.max.ms`: how long a leader may park a follower's fetch. @default 500 */
  readonly replicaFetchWaitMaxMs?: number;
  /** `replica.fetch.min.bytes`: the bytes a follower's fetch waits for. @default 1 */
  readonly replicaFetchMinBytes?: number;
  /** `producer.id.expiration.ms` (KIP-854). @default 86400000 */
  readonly producerIdExpirationMs?: number;
  /** `producer.id.expiration.check.interval.ms`. @default 600000 */
  readonly producerIdExpirationCheckIntervalMs?: number;
  /** `log.flush.interval.messages`; null is Kafka's Long.MAX_VALUE (no flush by count). */
  readonly logFlushIntervalMessages?: number | null;
}

/** What the leader knows of one follower (Kafka's Replica). */
interface FollowerState {
  logEndOffset: number;
  lastFetchUs: number;
  lastFetchLeaderLogEndOffset: number;
  lastCaughtUpUs: number;
}

/** A truncation of this replica's log, for the oracle. */
export interface TruncationRecord {
  readonly timeUs: number;
  readonly toOffset: number;
  readonly reason: 'diverging-epoch' | 'high-watermark' | 'power-loss' | 'leader-behind';
  readonly removed: readonly LogBatch[];
}

/** This broker's replica of one partition. */
export class PartitionReplica {
  role: 'leader' | 'follower' | 'none' = 'none';
  state: PartitionState;
  /** The committed ISR as this leader knows it. */
  isr: string[] = [];
  /** The ISR proposed in an AlterPartition still in flight, or null (KIP-497). */
  pendingIsr: string[] | null = null;
  leaderEpochStartOffset = 0;
  /**
   * A follower still in its truncation phase: it began following this leader and no fetch has yet
   * come back without a diverging epoch (AbstractFetcherThread's partitions in Truncating state).
   */
  truncationPending = true;
  private followers = new BoundedMap<string, FollowerState>(COLLECTION_BOUNDS.followers);
  /** Oracle: truncations of this replica. */
  readonly truncations: TruncationRecord[] = [];
  /** Oracle: when this replica acted as leader, as it believed (a deposed leader may not know). */
  readonly leaderTerms: Array<{ startUs: number; endUs: number | null; leaderEpoch: number }> = [];
  /** Brokers the controller fences: not eligible to join or hold back the ISR (KIP-841). */
  ineligibleBrokers: ReadonlySet<string> = new Set();
  private observe: ObservationSink = IGNORE_OBSERVATIONS;

  constructor(
    readonly brokerId: string,
    readonly log: PartitionLog,
    initialState: PartitionState,
    private readonly settings: ReplicationSettings,
  ) {
    log.replicated = true;
    log.epochCache.answersLargestEpochAtOrBelow = () =>
      settings.epochEndOffsetWithLeaderEpoch !== false;
    this.state = initialState;
  }

  /** Reports this replica's observations, and its log's, to `observe`. */
  reportTo(observe: ObservationSink): void {
    this.observe = observe;
    this.log.reportTo(this.brokerId, observe);
  }

  /**
   * The min ISR that acks=all writes and the high watermark are held to. Kafka 3.7+ caps
   * `min.insync.replicas` at the replication factor (`Partition.effectiveMinIsr`, KAFKA-15583);
   * before that, `appendRecordsToLeader` compared the ISR with `min.insync.replicas` itself, so
   * a value above the replication factor made every acks=all produce fail NOT_ENOUGH_REPLICAS.
   * Both come with KAFKA-15583, so `strictMinIsrHighWatermark` selects the era.
   */
  effectiveMinIsr(): number {
    const { minInsyncReplicas } = this.settings;
    // The two eras differ only for a min.insync.replicas above the replication factor.
    if (minInsyncReplicas <= this.state.replicas.length) return minInsyncReplicas;
    if (!this.settings.strictMinIsrHighWatermark) return minInsyncReplicas;
    return this.state.replicas.length;
  }

  /** The committed ISR plus a replica being added (KIP-497). */
  maximalIsr(): string[] {
    if (this.pendingIsr === null) return this.isr;
    return [...new Set([...this.isr, ...this.pendingIsr])];
  }

  /**
   * Applies the controller's view of the partition. Returns what this replica became; a leader
   * epoch change always re-runs the transition.
   */
  applyState(state: PartitionState, nowUs: number): 'leader' | 'follower' | 'none' | 'unchanged' {
    const previous = this.state;
    const newerEpoch = state.leaderEpoch > previous.leaderEpoch;
    if (!newerEpoch && state.partitionEpoch <= previous.partitionEpoch && this.role !== 'none') {
      return 'unchanged';
    }
    if (state.leaderEpoch < previous.leaderEpoch) return 'unchanged';
    this.state = state;
    if (state.leader === this.brokerId) {
      if (this.role === 'leader' && !newerEpoch) {
        this.isr = [...state.isr];
        this.pendingIsr = null;
        return 'unchanged';
      }
      this.becomeLeader(nowUs);
      return 'leader';
    }
    if (state.leader === null || !state.replicas.includes(this.brokerId)) {
      this.endLeaderTerm(nowUs);
      this.role = 'none';
      return 'none';
    }
    if (this.role === 'follower' && !newerEpoch) return 'unchanged';
    if (
      this.role === 'follower' &&
      previous.leader === state.leader &&
      this.settings.fetchFencedByLeaderEpoch === false
    ) {
      // Before KIP-320: makeFollower takes the new epoch but skips the become-follower change,
      // so the fetcher is neither reset nor sent through truncation.
      assertLeaderEpochForward(this.log, state.leaderEpoch);
      this.log.leaderEpoch = state.leaderEpoch;
      return 'unchanged';
    }
    this.becomeFollower(nowUs);
    return 'follower';
  }

  /**
   * A new leader keeps its HW and log, stamps the new epoch, resets follower tracking
   * (Partition.makeFollower).
   */
  private becomeLeader(nowUs: number): void {
    this.endLeaderTerm(nowUs);
    const term = { startUs: nowUs, endUs: null, leaderEpoch: this.state.leaderEpoch };
    pushWithin(COLLECTION_BOUNDS.leaderTerms, this.leaderTerms, term);
    this.observe({
      kind: 'LeaderEpochStarted',
      ...this.ref(),
      leaderEpoch: this.state.leaderEpoch,
    });
    this.role = 'leader';
    this.isr = [...this.state.isr];
    this.pendingIsr = null;
    assertLeaderEpochForward(this.log, this.state.leaderEpoch);
    this.log.leaderEpoch = this.state.leaderEpoch;
    this.leaderEpochStartOffset = this.log.logEndOffset;
    this.log.epochCache.assign(this.state.leaderEpoch, this.log.logEndOffset);
    this.followers = new BoundedMap(COLLECTION_BOUNDS.followers);
    for (const replica of this.state.replicas) {
      if (replica === this.brokerId) continue;
      // Kafka starts the clocks of a follower outside the ISR at 0 ms since 1970, long ago;
      // virtual time starts at 0, so "never" must be the smallest time instead.
      this.followers.set(replica, {
        logEndOffset: -1,
        lastFetchUs: Number.MIN_SAFE_INTEGER,
        lastFetchLeaderLogEndOffset: 0,
        lastCaughtUpUs: this.isr.includes(replica) ? nowUs : Number.MIN_SAFE_INTEGER,
      });
    }
    this.maybeAdvanceHighWatermark(nowUs);
  }

  /**
   * A follower fetches from its LEO; legacy mode first truncates to its own HW
   * (Partition.makeFollower).
   */
  private becomeFollower(nowUs: number): void {
    this.endLeaderTerm(nowUs);
    this.role = 'follower';
    this.truncationPending = true;
    this.isr = [];
    this.pendingIsr = null;
    this.followers = new BoundedMap(COLLECTION_BOUNDS.followers);
    assertLeaderEpochForward(this.log, this.state.leaderEpoch);
    this.log.leaderEpoch = this.state.leaderEpoch;
    if (!this.settings.leaderEpochTruncation) {
      this.truncate(this.log.highWatermark, 'high-watermark', nowUs);
    }
  }

  /** Stops acting as leader (new role, or a crash at `nowUs`). */
  endLeaderTerm(nowUs: number): void {
    const term = this.leaderTerms[this.leaderTerms.length - 1];
    if (term !== undefined && term.endUs === null) {
      term.endUs = nowUs;
      this.observe({ kind: 'LeaderEpochEnded', ...this.ref(), leaderEpoch: term.leaderEpoch });
    }
  }

  private ref(): { broker: string; topic: string; partition: number } {
    return { broker: this.brokerId, topic: this.log.topic, partition: this.log.partition };
  }

  /** Truncates the log and records it for the oracle. */
  truncate(offset: number, reason: TruncationRecord['reason'], nowUs: number): void {
    const removed = this.log.truncateTo(offset, nowUs, reason);
    const truncation = { timeUs: nowUs, toOffset: offset, reason, removed };
    if (removed.length > 0) pushWithin(COLLECTION_BOUNDS.truncations, this.truncations, truncation);
  }

  /**
   * Replica.updateFetchStateOrThrow: records a follower fetch at `fetchOffset` (its log end offset)
   * after the read. `leaderLogEndOffset` is the leader's LEO sampled when the fetch arrived.
   */
  onFollowerFetch(
    follower: string,
    fetchOffset: number,
    leaderLogEndOffset: number,
    nowUs: number,
  ): void {
    const state = this.followers.get(follower);
    if (state === undefined) return;
    if (fetchOffset >= leaderLogEndOffset) {
      state.lastCaughtUpUs = Math.max(state.lastCaughtUpUs, nowUs);
    } else if (fetchOffset >= state.lastFetchLeaderLogEndOffset) {
      state.lastCaughtUpUs = Math.max(state.lastCaughtUpUs, state.lastFetchUs);
    }
    state.lastFetchLeaderLogEndOffset = Math.max(
      state.lastFetchLeaderLogEndOffset,
      leaderLogEndOffset,
    );
    state.lastFetchUs = nowUs;
    state.logEndOffset = fetchOffset;
  }

  /**
   * Caught up when at the leader's LEO or caught up within replica.lag.time.max.ms
   * (Replica.updateFetchStateOrThrow).
   */
  isCaughtUp(follower: string, nowUs: number): boolean {
    const state = this.followers.get(follower);
    if (state === undefined) return false;
    if (state.logEndOffset === this.log.logEndOffset) return true;
    return nowUs - state.lastCaughtUpUs <= this.settings.replicaLagTimeMaxMs * 1000;
  }

  /**
   * The follower to add to the ISR, if one qualifies now (Partition.maybeExpandIsr): its fetch
   * offset reached the high watermark and, from 2.1 (KAFKA-7128, `leaderEpochStartOffsetOpt`),
   * the log end offset this leader had when its epoch began. A new leader's high watermark can
   * lag records the previous leader had already committed; the second condition keeps a
   * follower without them out of the ISR, so it cannot be elected and lose them.
   */
  expansionCandidate(follower: string): boolean {
    const state = this.followers.get(follower);
    if (this.role !== 'leader' || this.pendingIsr !== null || state === undefined) return false;
    if (this.isr.includes(follower) || this.ineligibleBrokers.has(follower)) return false;
    if (state.logEndOffset < this.log.highWatermark) return false;
    if (state.logEndOffset >= this.leaderEpochStartOffset) return true;
    return this.settings.isrExpansionNeedsLeaderEpochStart === false;
  }

  /**
   * ISR members (other than the leader) that are no longer caught up (Partition.maybeShrinkIsr).
   */
  outOfSyncReplicas(nowUs: number): string[] {
    if (this.role !== 'leader' || this.pendingIsr !== null) return [];
    return this.isr.filter(
      (replica) => replica !== this.brokerId && !this.isCaughtUp(replica, nowUs),
    );
  }

  /**
   * Partition.maybeIncrementLeaderHW: HW = the lowest LEO over the maximal ISR (and caught-up
   * followers about to join), never backwards, and (3.7+) only while the committed ISR has at least
   * min ISR members. Returns true when the HW moved.
   */
  maybeAdvanceHighWatermark(nowUs: number): boolean {
    if (this.role !== 'leader') return false;
    if (this.isr.length < this.effectiveMinIsr() && this.settings.strictMinIsrHighWatermark)
      return false;
    // The candidate is at most the log end offset: nothing to do when the HW is already there.
    if (this.log.logEndOffset <= this.log.highWatermark) return false;
    const maximal = this.maximalIsr();
    let candidate = this.log.logEndOffset;
    for (const [replica, state] of this.followers) {
      const eligible = !this.ineligibleBrokers.has(replica);
      const holdsBack = maximal.includes(replica) || (eligible && this.isCaughtUp(replica, nowUs));
      if (holdsBack && state.logEndOffset < candidate) candidate = Math.max(state.logEndOffset, 0);
    }
    if (candidate <= this.log.highWatermark) return false;
    this.log.setHighWatermark(candidate, nowUs);
    return true;
  }

  /**
   * A follower applies one partition of a fetch response: truncate where the leader says the log
   * diverged (KIP-101; AbstractFetcherThread.getOffsetTruncationState, one round), else append and
   * take min(leader HW, own LEO) (ReplicaFetcherThread.processPartitionData). Returns the append
   * Kafka refuses (UnexpectedAppendOffsetException) when the fetched records start below this
   * log's end offset, which a log that diverged inside one of the leader's batches has; the
   * caller's fetcher then stops fetching the partition (AbstractFetcherThread.processFetchRequest).
   */
  onFetchedPartition(
    response: FetchPartitionResponse,
    nowUs: number,
  ): UnexpectedAppendOffset | null {
    if (response.divergingEpoch !== null) {
      const leaderEnd = response.divergingEpoch;
      const logEndOffset = this.log.logEndOffset;
      const own = this.log.epochCache.endOffsetFor(leaderEnd.epoch, logEndOffset);
      // Before KIP-279 (ReplicaFetcherThread.maybeTruncate) the leader's offset alone decided.
      const leaderOnly = Math.min(leaderEnd.endOffset, logEndOffset);
      let target: number;
      if (own === undefined) target = leaderOnly;
      else if (own.epoch !== leaderEnd.epoch) target = Math.min(own.startOffset, logEndOffset);
      else target = Math.min(own.startOffset, leaderEnd.endOffset, logEndOffset);
      if (target !== leaderOnly && !this.log.epochCache.answersLargestEpochAtOrBelow()) {
        target = leaderOnly;
      }
      // Step 3 of AbstractFetcherThread.getOffsetTruncationState repeats with the new
      // latest epoch: the next fetch does that.
      this.truncate(target, 'diverging-epoch', nowUs);
      return null;
    }
    const refused = this.log.appendAsFollower(response.batches, nowUs);
    if (refused !== null) return refused;
    this.truncationPending = false;
    this.log.setHighWatermark(Math.min(response.highWatermark, this.log.logEndOffset), nowUs);
    return null;
  }

  /** Reports that this follower's fetcher stopped fetching it (see ReplicaFetchFailed). */
  reportFetchFailed(refused: UnexpectedAppendOffset, scope: 'partition' | 'fetcher'): void {
    this.observe({
      kind: 'ReplicaFetchFailed',
      ...this.ref(),
      leader: this.state.leader ?? '',
      leaderEpoch: this.state.leaderEpoch,
      error: 'UnexpectedAppendOffsetException',
      ...refused,
      scope,
    });
  }
}
