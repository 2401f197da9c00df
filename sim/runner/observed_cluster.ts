/**
 * The cluster as its observations describe it: what the Kafka model reported through
 * `ctx.observe`, stamped by the kernel with true virtual time and the event index, folded into
 * every replica's log and offsets, the partitions' leader-served offsets over time, the
 * controller's partition states and elections, the coordinators' grants, transitions and views,
 * and the group coordinators' groups. The oracle is built from this alone: no actor field and no
 * node's own (possibly skewed) clock.
 *
 * Bounded by construction: a replica's log holds the model's own batch objects (shared, not
 * copied), and every series grows by one entry per reported change, never per record.
 */
import type {
  ConsumerGroupsChanged,
  KafkaObservation,
  LogBatch,
  PartitionState,
  TransactionLogLoaded,
  TransactionView,
} from '../actors';
import { NO_PRODUCER_ID, partitionKey } from '../actors';
import type { StampedObservation } from '../kernel';
import type {
  EpochGrant,
  OffsetChange,
  OracleFetchFailure,
  OracleElection,
  ProducerStateExpiration,
  TransactionalIdExpiration,
} from '../history';

/** One broker's replica of one partition, as observed. */
export interface ObservedReplica {
  readonly broker: string;
  readonly topic: string;
  readonly partition: number;
  /** The replica's log, oldest batch first. */
  batches: LogBatch[];
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  lastStableOffset: number;
  /** The leader epoch it acts as leader under, or null when it does not lead. */
  leaderEpoch: number | null;
  /** Open transactions in its log: producerId → first offset. */
  openTransactions: Map<number, number>;
}

/** One partition: its controller state and the offsets its leaders served over time. */
export interface ObservedPartition {
  readonly topic: string;
  readonly partition: number;
  state: PartitionState | null;
  /** The high watermark as leaders served it: each leader's changes while it led. */
  readonly highWatermarkChanges: OffsetChange[];
  readonly lastStableOffsetChanges: OffsetChange[];
}

/** A truncation as observed, with the batches it removed. */
export interface ObservedTruncation {
  readonly timeUs: number;
  readonly eventIndex: number;
  readonly topic: string;
  readonly partition: number;
  readonly broker: string;
  readonly toOffset: number;
  readonly reason: 'diverging-epoch' | 'high-watermark' | 'power-loss' | 'leader-behind';
  readonly removed: readonly LogBatch[];
}

/**
 * A coordinator's finished load of a `__transaction_state` partition, keeping only the open
 * transactions (a partition set) it loaded: what a later truncation may take from under it.
 */
export interface ObservedTransactionLogLoad {
  readonly timeUs: number;
  readonly coordinator: string;
  readonly stateLogPartition: number;
  readonly open: readonly TransactionView[];
}

/** A coordinator's view of one transactional.id and the state log partition that holds it. */
interface HeldTransaction {
  readonly stateLogPartition: number;
  readonly view: TransactionView;
  /**
   * Since when, in true µs, this coordinator has held the id without a break: its load of the
   * state log partition, or the id's first transition there (its timeout scan looks from then).
   */
  readonly heldSinceUs: number;
}

/** The observed cluster; feed it every stamped observation in order with {@link observe}. */
export class ObservedCluster {
  readonly replicas = new Map<string, ObservedReplica>();
  readonly partitions = new Map<string, ObservedPartition>();
  readonly truncations: ObservedTruncation[] = [];
  /** One per finished load with an open transaction: a load per leader change at most. */
  readonly transactionLogLoads: ObservedTransactionLogLoad[] = [];
  readonly fetchFailures: OracleFetchFailure[] = [];
  readonly elections: OracleElection[] = [];
  readonly epochGrants: EpochGrant[] = [];
  readonly transactionalIdExpirations: TransactionalIdExpiration[] = [];
  readonly producerStateExpirations: ProducerStateExpiration[] = [];
  /** Coordinator state transitions, keyed `from->to`. */
  readonly transitionCounts = new Map<string, number>();
  /** What each coordinator holds now: broker → transactionalId → view. */
  readonly coordinators = new Map<string, Map<string, HeldTransaction>>();
  /** What each group coordinator reported last: broker → groups. */
  readonly groups = new Map<string, ConsumerGroupsChanged['groups']>();
  /** The true virtual time each batch was appended by a leader (LogAppendTime without skew). */
  readonly appendUs = new Map<LogBatch, number>();
  /** Time and index of the last observation. */
  last: { timeUs: number; eventIndex: number } = { timeUs: 0, eventIndex: 0 };

  /** `topic-partition@broker` of each replica seen: broker → partition key → replica key. */
  private readonly replicaKeys = new Map<string, Map<string, string>>();

  /**
   * `topic-partition@broker`, one string per replica: every observation looks its replica up,
   * and a string made once keeps its hash.
   */
  replicaKey(topic: string, partition: number, broker: string): string {
    const tpKey = partitionKey({ topic, partition });
    let byPartition = this.replicaKeys.get(broker);
    if (byPartition === undefined) {
      byPartition = new Map();
      this.replicaKeys.set(broker, byPartition);
    }
    let key = byPartition.get(tpKey);
    if (key === undefined) {
      key = `${tpKey}@${broker}`;
      byPartition.set(tpKey, key);
    }
    return key;
  }

  /** The observed replica of `topic-partition` on `broker`, created empty on first sight. */
  replica(topic: string, partition: number, broker: string): ObservedReplica {
    const key = this.replicaKey(topic, partition, broker);
    let replica = this.replicas.get(key);
    if (replica === undefined) {
      replica = {
        broker,
        topic,
        partition,
        batches: [],
        logStartOffset: 0,
        logEndOffset: 0,
        highWatermark: 0,
        lastStableOffset: 0,
        leaderEpoch: null,
        openTransactions: new Map(),
      };
      this.replicas.set(key, replica);
    }
    return replica;
  }

  /** The observed partition `topic-partition`, created on first sight. */
  partition(topic: string, partition: number): ObservedPartition {
    const key = partitionKey({ topic, partition });
    let observed = this.partitions.get(key);
    if (observed === undefined) {
      observed = {
        topic,
        partition,
        state: null,
        highWatermarkChanges: [],
        lastStableOffsetChanges: [],
      };
      this.partitions.set(key, observed);
    }
    return observed;
  }

  /** The replicas of one partition, in the order they were first seen. */
  holders(topic: string, partition: number): ObservedReplica[] {
    return [...this.replicas.values()].filter(
      (replica) => replica.topic === topic && replica.partition === partition,
    );
  }

  /** Folds one stamped observation in. */
  readonly observe = (stamped: StampedObservation): void => {
    const { timeUs, eventIndex } = stamped;
    this.last = { timeUs, eventIndex };
    const observation = stamped.observation as KafkaObservation;
    switch (observation.kind) {
      case 'HighWatermarkChanged':
      case 'LastStableOffsetChanged':
        return this.onOffsets(observation, timeUs);
      case 'BatchAppended':
      case 'MarkerWritten': {
        const replica = this.replica(observation.topic, observation.partition, observation.broker);
        const leaderAppend =
          observation.kind === 'MarkerWritten' || observation.origin === 'leader';
        if (leaderAppend) this.appendUs.set(observation.batch, timeUs);
        return appendTo(replica, observation.batch);
      }
      case 'LogTruncated': {
        const { topic, partition, broker } = observation;
        const replica = this.replica(topic, partition, broker);
        const keep = replica.batches.filter((batch) => batch.lastOffset < observation.toOffset);
        rebuild(replica, keep);
        replica.logEndOffset = observation.logEndOffset;
        const { toOffset, reason, removed } = observation;
        this.truncations.push({
          timeUs,
          eventIndex,
          topic,
          partition,
          broker,
          toOffset,
          reason,
          removed,
        });
        return;
      }
      case 'ReplicaFetchFailed': {
        const { broker, topic, partition, leader, leaderEpoch, error, scope } = observation;
        const { firstOffset, logEndOffset } = observation;
        const failure = { broker, topic, partition, leader, leaderEpoch, error, scope };
        this.fetchFailures.push({ timeUs, ...failure, firstOffset, logEndOffset });
        return;
      }
      case 'LeaderEpochStarted':
      case 'LeaderEpochEnded':
        return this.onLeaderEpoch(observation, timeUs);
      default:
        return this.observeControl(observation, timeUs);
    }
  };

  private onOffsets(
    observation: Extract<
      KafkaObservation,
      { kind: 'HighWatermarkChanged' | 'LastStableOffsetChanged' }
    >,
    timeUs: number,
  ): void {
    const replica = this.replica(observation.topic, observation.partition, observation.broker);
    replica.logStartOffset = observation.logStartOffset;
    replica.highWatermark = observation.highWatermark;
    replica.lastStableOffset = observation.lastStableOffset;
    if (replica.leaderEpoch === null) return;
    // A replica serves clients while it believes it leads (a deposed leader may not know yet).
    const partition = this.partition(observation.topic, observation.partition);
    if (observation.kind === 'HighWatermarkChanged') {
      partition.highWatermarkChanges.push({ timeUs, offset: observation.highWatermark });
    } else {
      partition.lastStableOffsetChanges.push({ timeUs, offset: observation.lastStableOffset });
    }
  }

  private onLeaderEpoch(
    observation: Extract<KafkaObservation, { kind: 'LeaderEpochStarted' | 'LeaderEpochEnded' }>,
    timeUs: number,
  ): void {
    const replica = this.replica(observation.topic, observation.partition, observation.broker);
    if (observation.kind === 'LeaderEpochEnded') {
      replica.leaderEpoch = null;
      return;
    }
    replica.leaderEpoch = observation.leaderEpoch;
    // The new leader serves its offsets as they stand from now on.
    const partition = this.partition(observation.topic, observation.partition);
    partition.highWatermarkChanges.push({ timeUs, offset: replica.highWatermark });
    partition.lastStableOffsetChanges.push({ timeUs, offset: replica.lastStableOffset });
  }

  /** Controller, transaction coordinator and group coordinator observations. */
  private observeControl(observation: KafkaObservation, timeUs: number): void {
    switch (observation.kind) {
      case 'PartitionStateChanged': {
        const { state } = observation;
        this.partition(state.topic, state.partition).state = state;
        for (const broker of state.replicas) this.replica(state.topic, state.partition, broker);
        return;
      }
      case 'LeaderElected': {
        const { topic, partition, leader, leaderEpoch, election, rule } = observation;
        const how = rule === undefined ? {} : { rule };
        this.elections.push({
          timeUs,
          topic,
          partition,
          leader,
          leaderEpoch,
          kind: election,
          ...how,
        });
        return;
      }
      case 'ProducerEpochGranted': {
        const { transactionalId, producerId, producerEpoch, reason } = observation;
        this.epochGrants.push({ timeUs, transactionalId, producerId, producerEpoch, reason });
        return;
      }
      case 'TransactionStateTransition': {
        const key = `${observation.from}->${observation.to}`;
        this.transitionCounts.set(key, (this.transitionCounts.get(key) ?? 0) + 1);
        return this.hold(observation, observation.view, timeUs);
      }
      case 'TransactionMetadataCreated':
        return this.hold(observation, observation.view, timeUs);
      case 'TransactionLogLoaded':
        return this.onTransactionLogLoaded(observation, timeUs);
      case 'TransactionLogUnloaded':
        return this.release(observation.coordinator, observation.stateLogPartition);
      case 'TransactionalIdExpired': {
        const { transactionalId, producerId } = observation.view;
        this.transactionalIdExpirations.push({ timeUs, transactionalId, producerId });
        this.coordinators.get(observation.coordinator)?.delete(transactionalId);
        return;
      }
      case 'ConsumerGroupsChanged':
        this.groups.set(observation.coordinator, observation.groups);
        return;
      case 'ProducerStateExpired': {
        const { topic, partition, broker, producerIds } = observation;
        this.producerStateExpirations.push({ timeUs, topic, partition, broker, producerIds });
        return;
      }
      default:
        return;
    }
  }

  private onTransactionLogLoaded(observation: TransactionLogLoaded, timeUs: number): void {
    const { coordinator, stateLogPartition } = observation;
    const open = observation.transactions.filter((view) => view.partitions.length > 0);
    if (open.length > 0) {
      this.transactionLogLoads.push({ timeUs, coordinator, stateLogPartition, open });
    }
    this.release(coordinator, stateLogPartition);
    // An expiration whose tombstone the loader found (its writer may have died first).
    for (const { transactionalId, producerId } of observation.tombstoned ?? []) {
      this.transactionalIdExpirations.push({ timeUs, transactionalId, producerId });
    }
    for (const view of observation.transactions) this.hold(observation, view, timeUs);
  }

  /** `where` (a coordinator and its state log partition) now holds `view`. */
  private hold(
    where: { readonly coordinator: string; readonly stateLogPartition: number },
    view: TransactionView,
    timeUs: number,
  ): void {
    const { coordinator, stateLogPartition } = where;
    const held = this.coordinators.get(coordinator) ?? new Map<string, HeldTransaction>();
    const before = held.get(view.transactionalId);
    const kept = before !== undefined && before.stateLogPartition === stateLogPartition;
    const heldSinceUs = kept ? before.heldSinceUs : timeUs;
    held.set(view.transactionalId, { stateLogPartition, view, heldSinceUs });
    this.coordinators.set(coordinator, held);
  }

  /** Drops what a coordinator holds of one state log partition (null: of all). */
  private release(coordinator: string, stateLogPartition: number | null): void {
    const held = this.coordinators.get(coordinator);
    if (held === undefined) return;
    for (const [transactionalId, entry] of held) {
      if (stateLogPartition === null || entry.stateLogPartition === stateLogPartition) {
        held.delete(transactionalId);
      }
    }
  }
}

/** Appends a batch to an observed replica's log and its open transactions. */
function appendTo(replica: ObservedReplica, batch: LogBatch): void {
  replica.batches.push(batch);
  replica.logEndOffset = batch.lastOffset + 1;
  trackTransaction(replica.openTransactions, batch);
}

/** Replaces the log of a replica, recomputing its open transactions. */
function rebuild(replica: ObservedReplica, batches: LogBatch[]): void {
  replica.batches = batches;
  replica.openTransactions = new Map();
  for (const batch of batches) trackTransaction(replica.openTransactions, batch);
  const last = batches[batches.length - 1];
  replica.logEndOffset = last === undefined ? replica.logStartOffset : last.lastOffset + 1;
}

/**
 * A transactional data batch opens its producer's transaction if none is open; a marker closes
 * it (Kafka's `ProducerStateManager` first offset of the ongoing transaction).
 */
function trackTransaction(open: Map<number, number>, batch: LogBatch): void {
  if (batch.producerId === NO_PRODUCER_ID || !batch.isTransactional) return;
  if (batch.control !== undefined) open.delete(batch.producerId);
  else if (!open.has(batch.producerId)) open.set(batch.producerId, batch.baseOffset);
}
