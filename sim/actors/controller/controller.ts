/**
 * A single KRaft-like controller. It owns every partition's leader, leader epoch, partition epoch
 * and ISR; fences brokers that stop heartbeating within `broker.session.timeout.ms`; removes fenced
 * brokers from ISRs without ever emptying one (PartitionChangeBuilder.build); elects leaders
 * cleanly from the ISR in assignment order (PartitionChangeBuilder.electAnyLeader) or, with
 * `unclean.leader.election.enable`, from any live replica (KIP-106;
 * PartitionChangeBuilder.tryElection); validates AlterPartition requests (KIP-497); and publishes
 * every change to all brokers. It is deterministic and, in this model, never fails itself.
 */
import { assert, type Actor, type ActorContext, type Envelope, type NodeId } from '../../kernel';
import type {
  AlterPartitionRequest,
  BrokerHeartbeatRequest,
  KafkaMessage,
  PartitionState,
} from '../protocol';
import { partitionKey } from '../protocol';

/** The controller's node id. */
export const CONTROLLER_ID = 'controller';

/** Controller settings, from Kafka's config keys. */
export interface ControllerSettings {
  /** `broker.session.timeout.ms`. @default 9000 */
  readonly brokerSessionTimeoutMs: number;
  /** `unclean.leader.election.enable`. @default false */
  readonly uncleanLeaderElectionEnable: boolean;
}

/** A leader election, for the oracle. */
export interface ElectionRecord {
  readonly timeUs: number;
  readonly topic: string;
  readonly partition: number;
  /** null when the partition went offline. */
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly kind: 'clean' | 'unclean' | 'offline';
}

type Ctx = ActorContext<KafkaMessage>;

const SESSION_CHECK_INTERVAL_US = 500_000;

/** The controller node. */
export class Controller implements Actor<KafkaMessage> {
  private readonly partitions = new Map<string, PartitionState>();
  private readonly lastHeartbeatUs = new Map<string, number>();
  private readonly fenced = new Set<string>();
  /** Oracle: every election. */
  readonly elections: ElectionRecord[] = [];
  private correlationIds = 1;
  /**
   * How many metadata changes were published: the end offset of the model's metadata log. A
   * broker whose heartbeat reports less missed a change and gets the full state (KRaft brokers
   * replicate the metadata log by fetching it, so a lost change is fetched again).
   */
  private metadataOffset = 0;
  /** The controller's context, kept for admin operations (the controller never crashes). */
  private ctx: Ctx | null = null;

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
    this.ctx = ctx;
    ctx.setTimer(SESSION_CHECK_INTERVAL_US, 'session-check');
  }

  onCrash(): void {
    assert(false, 'the controller does not crash in this model');
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
  }

  private onHeartbeat(request: BrokerHeartbeatRequest, ctx: Ctx): void {
    const broker = request.brokerId;
    this.lastHeartbeatUs.set(broker, ctx.nowUs());
    if (request.starting && !this.fenced.has(broker)) {
      // A restarted broker registers anew: its old leaderships and ISR places end first.
      this.fence(broker, ctx);
    }
    if (this.fenced.has(broker)) this.unfence(broker, ctx);
    if (request.starting || request.metadataOffset < this.metadataOffset) {
      ctx.send(broker as NodeId, {
        kind: 'PartitionChange',
        correlationId: this.correlationIds++,
        partitions: this.partitionStates(),
        fencedBrokers: [...this.fenced],
        metadataOffset: this.metadataOffset,
        snapshot: true,
      });
    }
    ctx.send(broker as NodeId, {
      kind: 'BrokerHeartbeatResponse',
      correlationId: request.correlationId,
      isFenced: false,
    });
  }

  /**
   * A fenced broker leaves every ISR (never emptying one) and loses its leaderships
   * (PartitionChangeBuilder.build).
   */
  private fence(broker: string, ctx: Ctx): void {
    this.fenced.add(broker);
    ctx.trace(`fenced broker ${broker}`);
    const changed: PartitionState[] = [];
    for (const state of this.partitions.values()) {
      if (!state.replicas.includes(broker)) continue;
      const isr =
        state.isr.length > 1 ? state.isr.filter((replica) => replica !== broker) : state.isr;
      let next: PartitionState = { ...state, isr };
      if (state.leader === broker) next = this.elect(next, ctx);
      if (next.isr.length !== state.isr.length || next.leader !== state.leader) {
        changed.push(this.store({ ...next, partitionEpoch: state.partitionEpoch + 1 }));
      }
    }
    this.publish(changed, ctx);
  }

  /** An unfenced broker may bring an offline partition back (clean, or unclean if allowed). */
  private unfence(broker: string, ctx: Ctx): void {
    this.fenced.delete(broker);
    const changed: PartitionState[] = [];
    for (const state of this.partitions.values()) {
      if (state.leader !== null || !state.replicas.includes(broker)) continue;
      const next = this.elect(state, ctx);
      if (next.leader !== null)
        changed.push(this.store({ ...next, partitionEpoch: state.partitionEpoch + 1 }));
    }
    this.publish(changed, ctx);
  }

  /**
   * The first live ISR member in assignment order; else unclean; else offline (KIP-106;
   * PartitionChangeBuilder.electAnyLeader, tryElection).
   */
  private elect(state: PartitionState, ctx: Ctx): PartitionState {
    const live = (replica: string): boolean => !this.fenced.has(replica);
    const clean = state.replicas.find((replica) => state.isr.includes(replica) && live(replica));
    let next: PartitionState;
    let kind: ElectionRecord['kind'];
    if (clean !== undefined) {
      next = { ...state, leader: clean, leaderEpoch: state.leaderEpoch + 1 };
      kind = 'clean';
    } else {
      const unclean = this.settings.uncleanLeaderElectionEnable
        ? state.replicas.find(live)
        : undefined;
      if (unclean !== undefined) {
        next = { ...state, leader: unclean, leaderEpoch: state.leaderEpoch + 1, isr: [unclean] };
        kind = 'unclean';
      } else {
        if (state.leader === null) return state;
        next = { ...state, leader: null, leaderEpoch: state.leaderEpoch + 1 };
        kind = 'offline';
      }
    }
    this.elections.push({
      timeUs: ctx.nowUs(),
      topic: state.topic,
      partition: state.partition,
      leader: next.leader,
      leaderEpoch: next.leaderEpoch,
      kind,
    });
    return next;
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
    const next = { ...state, leader: chosen, leaderEpoch: state.leaderEpoch + 1, isr: [chosen] };
    this.elections.push({
      timeUs: ctx.nowUs(),
      topic,
      partition,
      leader: chosen,
      leaderEpoch: next.leaderEpoch,
      kind: 'unclean',
    });
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
    const next = this.store({
      ...state,
      isr: [...request.newIsr],
      partitionEpoch: state.partitionEpoch + 1,
    });
    respond('NONE', next);
    this.publish([next], ctx);
  }

  private store(state: PartitionState): PartitionState {
    const previous = this.partitions.get(partitionKey(state));
    assert(
      previous === undefined || state.leaderEpoch >= previous.leaderEpoch,
      `leader epoch of ${partitionKey(state)} must not go backwards`,
    );
    this.partitions.set(partitionKey(state), state);
    return state;
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
