/**
 * A single KRaft-like controller. It owns every partition's leader, leader epoch, partition epoch
 * and ISR; fences brokers that stop heartbeating within `broker.session.timeout.ms`; removes fenced
 * brokers from ISRs without ever emptying one (PartitionChangeBuilder.build); elects leaders
 * cleanly from the ISR in assignment order (PartitionChangeBuilder.electAnyLeader) or, with
 * `unclean.leader.election.enable`, from any live replica (KIP-106;
 * PartitionChangeBuilder.tryElection); validates AlterPartition requests (KIP-497); and publishes
 * every change to all brokers. It may itself be paused, crashed or cut off by a fault: its
 * partition states, fenced brokers and metadata offset are its metadata log, which survives a
 * crash (KRaft's `__cluster_metadata` is replicated and replayed); only broker sessions are
 * volatile.
 */
import { assert, type Actor, type ActorContext, type Envelope, type NodeId } from '../../kernel';
import { BoundedMap, BoundedSet, invariant, pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type {
  AlterPartitionRequest,
  BrokerHeartbeatRequest,
  CreatePartitionsRequest,
  CreateTopicsRequest,
  ElectionRule,
  KafkaMessage,
  KafkaObservation,
  PartitionState,
  TopicPartition,
} from '../protocol';
import { partitionKey } from '../protocol';
import {
  buildPartitionChange,
  type ElectionKind,
  type PartitionChangeRequest,
} from './partition_change';
import { createPartitions, createTopic, type CreationCluster } from './topic_creation';

/** The controller's node id. */
export const CONTROLLER_ID = 'controller';

/** Controller settings, from Kafka's config keys. */
export interface ControllerSettings {
  /** `broker.session.timeout.ms`. @default 9000 */
  readonly brokerSessionTimeoutMs: number;
  /** `unclean.leader.election.enable`. @default false */
  readonly uncleanLeaderElectionEnable: boolean;
  /**
   * The `eligible.leader.replicas.version` feature at 1 (KIP-966). Off here unless set; a
   * scenario's default comes from the runner.
   */
  readonly eligibleLeaderReplicasEnabled?: boolean;
  /**
   * Whether a broker registering after an unclean shutdown leaves every ISR and ELR
   * (ReplicationControlManager.handleBrokerUncleanShutdown, KAFKA-15586). Kafka gates it on the
   * metadata version (`MetadataVersion.isElrSupported`, 4.0-IV1), not on the ELR feature: a
   * 4.0+ cluster with `eligible.leader.replicas.version=0` removes the broker from an ISR too,
   * except its last member (without ELR the ISR is never emptied). @default the ELR setting
   */
  readonly uncleanShutdownDetection?: boolean;
  /** A topic's `min.insync.replicas` before capping at its replication factor. @default 1 */
  readonly minInsyncReplicasOf?: (topic: string) => number;
}

const ELECTION_KIND: Record<ElectionKind, ElectionRecord['kind']> = {
  clean: 'clean',
  elr: 'clean',
  unclean: 'unclean',
  'last-known-leader': 'unclean',
  offline: 'offline',
};

/** A leader election, for the oracle. */
export interface ElectionRecord {
  readonly timeUs: number;
  readonly topic: string;
  readonly partition: number;
  /** null when the partition went offline. */
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly kind: 'clean' | 'unclean' | 'offline';
  /** KIP-966's rule when the leader came from outside the ISR. */
  readonly rule?: ElectionRule;
}

type Ctx = ActorContext<KafkaMessage>;

const SESSION_CHECK_INTERVAL_US = 500_000;

/** The controller node. */
export class Controller implements Actor<KafkaMessage> {
  private readonly partitions = new BoundedMap<string, PartitionState>(
    COLLECTION_BOUNDS.controllerPartitions,
  );
  private readonly lastHeartbeatUs = new BoundedMap<string, number>(
    COLLECTION_BOUNDS.controllerBrokers,
  );
  private readonly fenced = new BoundedSet<string>(COLLECTION_BOUNDS.controllerBrokers);
  /** Oracle: every election. */
  readonly elections: ElectionRecord[] = [];
  private correlationIds = 1;
  /**
   * How many metadata changes were published: the end offset of the model's metadata log. A
   * broker whose heartbeat reports less missed a change and gets the full state (KRaft brokers
   * replicate the metadata log by fetching it, so a lost change is fetched again).
   */
  private metadataOffset = 0;
  /** The controller's context, kept for admin operations; null while it is down. */
  private ctx: Ctx | null = null;
  private started = false;

  constructor(
    private readonly brokers: readonly NodeId[],
    initial: readonly PartitionState[],
    private readonly settings: ControllerSettings,
  ) {
    for (const state of initial) this.partitions.set(partitionKey(state), state);
    for (const broker of brokers) this.lastHeartbeatUs.set(broker, 0);
  }

  /** The current state of every partition (oracle and tests). */
  partitionStates(): PartitionState[] {
    return [...this.partitions.values()];
  }

  onStart(ctx: Ctx): void {
    // The partitions as created, observed once (the controller never restarts in this model).
    if (this.ctx === null) {
      for (const state of this.partitions.values())
        this.observe(ctx, { kind: 'PartitionStateChanged', state });
    }
    this.ctx = ctx;
    if (this.started) {
      // A controller that becomes active registers every broker with a fresh heartbeat session
      // (ClusterControlManager.activate builds a new BrokerHeartbeatManager), so no broker is
      // fenced for the time the controller itself was down.
      for (const broker of this.brokers) this.lastHeartbeatUs.set(broker, ctx.nowUs());
    }
    this.started = true;
    ctx.setTimer(SESSION_CHECK_INTERVAL_US, 'session-check');
  }

  /** A crash loses the broker sessions and pending requests; the metadata log is kept. */
  onCrash(): void {
    this.ctx = null;
  }

  onTimer(_payload: unknown, ctx: Ctx): void {
    const nowUs = ctx.nowUs();
    for (const broker of this.brokers) {
      if (this.fenced.has(broker)) continue;
      const lastUs = this.lastHeartbeatUs.get(broker) ?? 0;
      if (nowUs - lastUs > this.settings.brokerSessionTimeoutMs * 1000) this.fence(broker, ctx);
    }
    ctx.setTimer(SESSION_CHECK_INTERVAL_US, 'session-check');
  }

  onMessage(envelope: Envelope<KafkaMessage>, ctx: Ctx): void {
    const message = envelope.payload;
    if (message.kind === 'BrokerHeartbeat') this.onHeartbeat(message, ctx);
    else if (message.kind === 'AlterPartition') this.onAlterPartition(message, ctx);
    else if (message.kind === 'CreateTopics' || message.kind === 'CreatePartitions') {
      this.onCreate(message, envelope.source, ctx);
    }
  }

  /**
   * CreateTopics and CreatePartitions (ControllerApis, ReplicationControlManager), answered to
   * the broker that forwarded them. Each topic is decided on the partitions as they are after the
   * topics before it in the request; the new partitions are published to every broker.
   */
  private onCreate(
    request: CreateTopicsRequest | CreatePartitionsRequest,
    source: NodeId,
    ctx: Ctx,
  ): void {
    const replicationFactorOf = (topic: string): number =>
      this.partitions.get(partitionKey({ topic, partition: 0 }))?.replicas.length ?? 0;
    const created: PartitionState[] = [];
    const topics = request.topics.map((topic) => {
      const creation =
        'count' in topic
          ? createPartitions(topic, this.creationCluster(), replicationFactorOf)
          : createTopic(topic, this.creationCluster());
      for (const state of creation.states) created.push(this.store(state));
      ctx.trace(`${request.kind} ${topic.name}: ${creation.result.error}`);
      return creation.result;
    });
    if (created.length > 0) this.publish(created, ctx);
    const { correlationId, forwardedFor } = request;
    const kind =
      request.kind === 'CreateTopics' ? 'CreateTopicsResponse' : 'CreatePartitionsResponse';
    ctx.send(source, { kind, correlationId, topics, ...(forwardedFor ? { forwardedFor } : {}) });
  }

  /** What topic creation reads: brokers, fencing and each topic's partition count. */
  private creationCluster(): CreationCluster {
    const partitionCounts = new Map<string, number>();
    for (const state of this.partitions.values()) {
      partitionCounts.set(state.topic, (partitionCounts.get(state.topic) ?? 0) + 1);
    }
    return {
      brokers: this.brokers,
      isFenced: (broker) => this.fenced.has(broker),
      partitionCounts,
    };
  }

  private onHeartbeat(request: BrokerHeartbeatRequest, ctx: Ctx): void {
    const broker = request.brokerId;
    this.lastHeartbeatUs.set(broker, ctx.nowUs());
    if (request.starting && !this.fenced.has(broker)) {
      // A restarted broker registers anew: its old leaderships and ISR places end first.
      this.fence(broker, ctx);
    }
    if (request.starting) this.uncleanShutdown(broker, ctx);
    if (this.fenced.has(broker)) this.unfence(broker, ctx);
    if (request.starting || request.metadataOffset < this.metadataOffset) {
      ctx.send(broker as NodeId, {
        kind: 'PartitionChange',
        correlationId: this.correlationIds++,
        partitions: this.partitionStates(),
        fencedBrokers: [...this.fenced],
        metadataOffset: this.metadataOffset,
        snapshot: true,
        ...(request.starting ? { registrationOf: request.correlationId } : {}),
      });
    }
    ctx.send(broker as NodeId, {
      kind: 'BrokerHeartbeatResponse',
      correlationId: request.correlationId,
      isFenced: false,
    });
  }

  /**
   * `handleBrokerFenced`: a fenced broker leaves every ISR and loses its leaderships. Without
   * ELR the last ISR member stays (the ISR is never emptied); with ELR it may leave, and members
   * leaving an ISR below min.insync.replicas join the ELR (`PartitionChangeBuilder`).
   */
  private fence(broker: string, ctx: Ctx): void {
    this.fenced.add(broker);
    ctx.trace(`fenced broker ${broker}`);
    this.changeEach(
      (state) => state.isr.includes(broker) || state.leader === broker,
      (state) => ({ targetIsr: state.isr.filter((replica) => replica !== broker) }),
      (replica) => replica !== broker,
      ctx,
    );
  }

  /**
   * `handleBrokerUncleanShutdown` (KIP-966, KAFKA-15586): a broker that registers without the
   * broker epoch of a clean shutdown leaves every ISR and ELR, as its log may have lost its
   * unflushed tail. The model has no controlled shutdown, so every restart is unclean. A no-op
   * before Kafka 4.0 (see {@link ControllerSettings.uncleanShutdownDetection}).
   */
  private uncleanShutdown(broker: string, ctx: Ctx): void {
    if (!(this.settings.uncleanShutdownDetection ?? this.elrEnabled())) return;
    this.changeEach(
      (state) => state.isr.includes(broker) || state.elr.includes(broker),
      (state) => ({
        targetIsr: state.isr.filter((replica) => replica !== broker),
        uncleanShutdownReplicas: [broker],
      }),
      (replica) => replica !== broker,
      ctx,
      // The fenced set is unchanged: with no partition changed there is no record to publish.
      { publishUnchanged: false },
    );
  }

  /** `handleBrokerUnfenced`: an unfenced broker may bring a leaderless partition back. */
  private unfence(broker: string, ctx: Ctx): void {
    this.fenced.delete(broker);
    this.changeEach(
      (state) => state.leader === null && state.replicas.includes(broker),
      (state) => ({ targetIsr: state.isr }),
      () => true,
      ctx,
    );
  }

  /**
   * `generateLeaderAndIsrUpdates`: builds the change of every partition `select` picks toward
   * `request`, a replica being acceptable as leader when unfenced and `acceptable`; publishes them.
   */
  private changeEach(
    select: (state: PartitionState) => boolean,
    request: (state: PartitionState) => PartitionChangeRequest,
    acceptable: (replica: string) => boolean,
    ctx: Ctx,
    { publishUnchanged } = { publishUnchanged: true },
  ): void {
    const changed: PartitionState[] = [];
    for (const state of this.partitions.values()) {
      if (!select(state)) continue;
      const next = this.change(state, request(state), acceptable, ctx);
      if (next !== null) changed.push(next);
    }
    if (changed.length > 0 || publishUnchanged) this.publish(changed, ctx);
  }

  /** Builds, records and stores one partition change; null for a no-op. */
  private change(
    state: PartitionState,
    request: PartitionChangeRequest,
    acceptable: (replica: string) => boolean,
    ctx: Ctx,
  ): PartitionState | null {
    const result = buildPartitionChange(state, request, {
      eligibleLeaderReplicasEnabled: this.elrEnabled(),
      minIsr: Math.min(
        this.settings.minInsyncReplicasOf?.(state.topic) ?? 1,
        state.replicas.length,
      ),
      uncleanLeaderElectionEnable: this.settings.uncleanLeaderElectionEnable,
      isAcceptableLeader: (replica) => !this.fenced.has(replica) && acceptable(replica),
    });
    if (result === null) return null;
    const next = result.state;
    if (result.election !== null) {
      if (result.election === 'elr' || result.election === 'last-known-leader') {
        ctx.trace(`${partitionKey(next)}: ${next.leader} elected (${result.election})`);
      }
      // An ELR election is clean (KAFKA-18940); the last known leader is elected uncleanly.
      const tp = { topic: next.topic, partition: next.partition };
      const rule =
        result.election === 'elr' || result.election === 'last-known-leader'
          ? result.election
          : undefined;
      this.recordElection(ctx, tp, next, ELECTION_KIND[result.election], rule);
    }
    return this.store(next);
  }

  private elrEnabled(): boolean {
    return this.settings.eligibleLeaderReplicasEnabled ?? false;
  }

  /**
   * Admin operation for the fault injector (style rule 17's one exception): forces an unclean
   * election of `topic`-`partition` whatever `unclean.leader.election.enable` says. A live replica
   * outside the ISR is preferred, else any live replica other than the leader; it leads with an ISR
   * of itself, as an unclean election leaves it (KIP-106; PartitionChangeBuilder.tryElection).
   * Returns the new leader, or null when no other live replica exists.
   */
  forceUncleanElection(topic: string, partition: number): string | null {
    const ctx = this.ctx;
    const state = this.partitions.get(partitionKey({ topic, partition }));
    if (ctx === null || state === undefined) return null;
    const live = state.replicas.filter((replica) => !this.fenced.has(replica));
    const outside = live.find((replica) => !state.isr.includes(replica));
    const chosen = outside ?? live.find((replica) => replica !== state.leader);
    if (chosen === undefined) return null;
    const next = {
      ...state,
      leader: chosen,
      leaderEpoch: state.leaderEpoch + 1,
      isr: [chosen],
      // An unclean election clears the ELR and last-known ELR (`maybeUpdateRecordElr`).
      elr: [],
      lastKnownElr: [],
    };
    this.recordElection(ctx, { topic, partition }, next, 'unclean');
    this.publish([this.store({ ...next, partitionEpoch: state.partitionEpoch + 1 })], ctx);
    return chosen;
  }

  /** KIP-497: the leader proposes a new ISR for its current epochs. */
  private onAlterPartition(request: AlterPartitionRequest, ctx: Ctx): void {
    const key = partitionKey(request);
    const state = this.partitions.get(key);
    const respond = (
      error:
        | 'NONE'
        | 'FENCED_LEADER_EPOCH'
        | 'INVALID_UPDATE_VERSION'
        | 'INELIGIBLE_REPLICA'
        | 'UNKNOWN_TOPIC_OR_PARTITION',
      result: PartitionState | null,
    ): void =>
      ctx.send(request.brokerId as NodeId, {
        kind: 'AlterPartitionResponse',
        correlationId: request.correlationId,
        error,
        state: result,
      });
    if (state === undefined) return respond('UNKNOWN_TOPIC_OR_PARTITION', null);
    if (state.leader !== request.brokerId || request.leaderEpoch !== state.leaderEpoch) {
      return respond('FENCED_LEADER_EPOCH', state);
    }
    if (request.partitionEpoch !== state.partitionEpoch)
      return respond('INVALID_UPDATE_VERSION', state);
    const added = request.newIsr.filter((replica) => !state.isr.includes(replica));
    if (added.some((replica) => this.fenced.has(replica) || !state.replicas.includes(replica))) {
      return respond('INELIGIBLE_REPLICA', state);
    }
    assert(request.newIsr.length > 0, 'AlterPartition never proposes an empty ISR');
    const next = this.change(state, { targetIsr: [...request.newIsr] }, () => true, ctx) ?? state;
    respond('NONE', next);
    if (next !== state) this.publish([next], ctx);
  }

  private store(state: PartitionState): PartitionState {
    const previous = this.partitions.get(partitionKey(state));
    assert(
      previous === undefined || state.leaderEpoch >= previous.leaderEpoch,
      `leader epoch of ${partitionKey(state)} must not go backwards`,
    );
    const where = (): string => `${partitionKey(state)}: ${JSON.stringify(state)}`;
    const { leader, replicas } = state;
    invariant(leader === null || replicas.includes(leader), 'leader is a replica', where);
    invariant(
      state.isr.every((id) => replicas.includes(id)),
      'ISR within replicas',
      where,
    );
    this.partitions.set(partitionKey(state), state);
    if (this.ctx !== null) this.observe(this.ctx, { kind: 'PartitionStateChanged', state });
    return state;
  }

  private recordElection(
    ctx: Ctx,
    tp: TopicPartition,
    next: PartitionState,
    kind: ElectionRecord['kind'],
    rule?: ElectionRule,
  ): void {
    const { leader, leaderEpoch } = next;
    const how = rule === undefined ? {} : { rule };
    const election = { timeUs: ctx.nowUs(), ...tp, leader, leaderEpoch, kind, ...how };
    pushWithin(COLLECTION_BOUNDS.elections, this.elections, election);
    this.observe(ctx, {
      kind: 'LeaderElected',
      ...tp,
      leader,
      leaderEpoch,
      election: kind,
      ...how,
    });
  }

  private observe(ctx: Ctx, observation: KafkaObservation): void {
    ctx.observe(observation);
  }

  /** Sends the changed partitions to every broker (paused or dead ones get it when they can). */
  private publish(changed: readonly PartitionState[], ctx: Ctx): void {
    const fencedBrokers = [...this.fenced].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.metadataOffset += 1;
    for (const broker of this.brokers) {
      ctx.send(broker, {
        kind: 'PartitionChange',
        correlationId: this.correlationIds++,
        partitions: changed,
        fencedBrokers,
        metadataOffset: this.metadataOffset,
        snapshot: false,
      });
    }
  }
}
