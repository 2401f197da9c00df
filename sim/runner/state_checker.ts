/**
 * Invariants checked as the observations arrive, in the manner of TigerBeetle's state checker:
 * each observation is asserted against what was observed before it, and a broken invariant is
 * recorded with the true virtual time and the index of the event that broke it, so
 * `run --seed N` can stop right there. The list, with each rule's source, is in
 * docs/invariants.md. Feed {@link StateChecker.observe} every stamped observation before the
 * {@link ObservedCluster} folds it in (the checker reads the cluster as it was before it), and
 * call {@link StateChecker.finish} once the run has settled.
 */
import type { KafkaObservation, LogBatch, TransactionView } from '../actors';
import {
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  SEQUENCE_MAX,
  TRANSACTION_STATE_TOPIC,
  lastSequenceOf,
  partitionKey,
} from '../actors';
import type { StampedObservation } from '../kernel';
import type { OracleInvariantViolation } from '../history';
import type { ObservedCluster } from './observed_cluster';
import { GrantOrder } from './grant_order';

/** Java's Short.MAX_VALUE: the largest producerEpoch Kafka can write (the epoch is an int16). */
export const PRODUCER_EPOCH_MAX = 32_767;

/** At most this many violations are kept; the rest are counted in one closing entry. */
const VIOLATIONS_MAX = 200;

/** What one replica's log says of its producers, kept current on every append and truncation. */
interface ReplicaFacts {
  /** `producerId:producerEpoch` → last sequence of the last data batch with a sequence. */
  readonly sequences: Map<string, number>;
  /** producerId → coordinator epoch of its last marker. */
  readonly coordinatorEpochs: Map<number, number>;
  /** `producerId:producerEpoch` → the markers of that epoch: their type, how many ended a txn. */
  readonly markers: Map<string, { control: 'COMMIT' | 'ABORT'; completed: number }>;
  /** Producers with an open transaction. */
  readonly open: Set<number>;
}

/** What a leader served under its current leader epoch. */
interface Served {
  readonly leaderEpoch: number;
  highWatermark: number;
  lastStableOffset: number;
}

/** A transaction whose markers are all written but whose coordinator has not completed it. */
export interface Stuck {
  readonly coordinator: string;
  readonly view: TransactionView;
  readonly control: 'COMMIT' | 'ABORT';
  /** When (and at which event) the last of its markers was written. */
  readonly lastMarker: { readonly timeUs: number; readonly eventIndex: number };
}

/** Settings the checks depend on. */
export interface StateCheckerSettings {
  /** The cluster's `transaction.version`: markers are one per epoch from 2 on (KIP-890). */
  readonly transactionVersion: number;
}

/** The state checker of one run. */
export class StateChecker {
  private readonly violations: OracleInvariantViolation[] = [];
  private dropped = 0;
  private readonly facts = new Map<string, ReplicaFacts>();
  private readonly served = new Map<string, Served>();
  /** `topic-partition` → leaderEpoch → the broker that led it. */
  private readonly leaders = new Map<string, Map<number, string>>();
  /** Every grant per transactionalId, in the order of its `__transaction_state` records. */
  private readonly grants = new GrantOrder();
  /** `coordinator|transactionalId` → when it entered PrepareCommit/PrepareAbort. */
  private readonly prepared = new Map<string, number>();
  /** `topic-partition|producerId|producerEpoch|control` → when a leader last wrote that marker. */
  private readonly markersWritten = new Map<string, { timeUs: number; eventIndex: number }>();

  constructor(
    private readonly cluster: ObservedCluster,
    private readonly settings: StateCheckerSettings,
  ) {}

  /** Asserts the invariants one observation touches. */
  readonly observe = (stamped: StampedObservation): void => {
    const observation = stamped.observation as KafkaObservation;
    switch (observation.kind) {
      case 'HighWatermarkChanged':
      case 'LastStableOffsetChanged':
        return this.checkOffsets(observation, stamped);
      case 'BatchAppended':
      case 'MarkerWritten':
        return this.checkAppend(observation, stamped);
      case 'LogTruncated': {
        const { topic, partition, broker, toOffset } = observation;
        const log = this.cluster.replica(topic, partition, broker).batches;
        const kept = log.filter((batch) => batch.lastOffset < toOffset);
        this.facts.set(this.replicaKeyOf(observation), factsOf(kept));
        return;
      }
      case 'ProducerStateExpired':
        return this.forgetProducers(observation);
      case 'LeaderEpochStarted':
        return this.checkLeaderEpoch(observation, stamped);
      case 'LeaderEpochEnded':
        this.served.delete(this.replicaKeyOf(observation));
        return;
      case 'ProducerEpochGranted':
        return this.checkGrant(observation, stamped);
      case 'TransactionStateTransition':
      case 'TransactionLogLoaded':
        return this.notePrepared(observation, stamped.timeUs);
      default:
        return;
    }
  };

  /** Every violation found, in the order found. */
  get found(): readonly OracleInvariantViolation[] {
    if (this.dropped === 0) return this.violations;
    const last = this.violations[this.violations.length - 1];
    return [
      ...this.violations,
      {
        invariant: 'violations-bounded',
        timeUs: last?.timeUs ?? 0,
        eventIndex: last?.eventIndex ?? 0,
        description: `${this.dropped} more invariant violations were not recorded`,
      },
    ];
  }

  /**
   * Transactions a coordinator still holds in PrepareCommit/PrepareAbort although a leader of
   * every partition of the transaction wrote its marker since the coordinator prepared (Kafka's
   * `TransactionMarkerChannelManager` then writes CompleteCommit/CompleteAbort). The runner waits
   * for this list to empty before the final reads, since a completion may still be on its way.
   */
  awaitingCompletion(coordinatorOf: (transactionalId: string) => string | null): Stuck[] {
    const stuck: Stuck[] = [];
    for (const [coordinator, held] of this.cluster.coordinators) {
      for (const { view } of held.values()) {
        if (view.state !== 'PrepareCommit' && view.state !== 'PrepareAbort') continue;
        if (coordinatorOf(view.transactionalId) !== coordinator) continue;
        const sinceUs = this.prepared.get(`${coordinator}|${view.transactionalId}`) ?? 0;
        const control = view.state === 'PrepareCommit' ? 'COMMIT' : 'ABORT';
        const written = view.partitions.map((tp) =>
          this.markersWritten.get(
            `${partitionKey(tp)}|${view.producerId}|${view.producerEpoch}|${control}`,
          ),
        );
        if (written.some((marker) => marker === undefined || marker.timeUs < sinceUs)) continue;
        let lastMarker = { timeUs: sinceUs, eventIndex: 0 };
        for (const marker of written) {
          if (marker !== undefined && marker.timeUs >= lastMarker.timeUs) lastMarker = marker;
        }
        stuck.push({ coordinator, view, control, lastMarker });
      }
    }
    return stuck;
  }

  /**
   * The liveness-type check, once the run settled and the runner waited out the completions
   * still on their way: every transaction {@link awaitingCompletion} still lists is a violation.
   */
  finish(coordinatorOf: (transactionalId: string) => string | null): void {
    for (const { coordinator, view, control, lastMarker } of this.awaitingCompletion(
      coordinatorOf,
    )) {
      this.record({
        invariant: 'coordinator-completes-after-markers',
        ...lastMarker,
        transactionalId: view.transactionalId,
        broker: coordinator,
        description:
          `coordinator ${coordinator} still holds transactionalId ${view.transactionalId} ` +
          `(producerId ${view.producerId}, epoch ${view.producerEpoch}) in ${view.state} ` +
          'at the ' +
          `end of the run, though every ${control} marker was written by ${lastMarker.timeUs}us`,
      });
    }
  }

  /** logStartOffset ≤ LSO ≤ HW ≤ LEO per replica; a leader's HW and LSO never go back. */
  private checkOffsets(
    observation: Extract<
      KafkaObservation,
      { kind: 'HighWatermarkChanged' | 'LastStableOffsetChanged' }
    >,
    stamped: StampedObservation,
  ): void {
    const { logStartOffset, lastStableOffset, highWatermark, logEndOffset } = observation;
    // Runs on every offset move: the violation's text and place are built only when one is found.
    const ordered =
      logStartOffset <= lastStableOffset &&
      lastStableOffset <= highWatermark &&
      highWatermark <= logEndOffset;
    if (!ordered) {
      const offsets =
        `logStartOffset ${logStartOffset}, lastStableOffset ${lastStableOffset}, ` +
        `highWatermark ${highWatermark}, logEndOffset ${logEndOffset}`;
      this.record({
        invariant: 'offsets-ordered',
        ...placeOf(stamped, observation),
        description: `replica on ${observation.broker}: ${offsets}`,
      });
    }
    const observedEnd = this.cluster.replica(
      observation.topic,
      observation.partition,
      observation.broker,
    ).logEndOffset;
    if (observedEnd !== logEndOffset) {
      this.record({
        invariant: 'log-end-offset-matches-log',
        ...placeOf(stamped, observation),
        description:
          `replica on ${observation.broker} reports logEndOffset ${logEndOffset}, ` +
          `its log ends at ${observedEnd}`,
      });
    }
    const served = this.served.get(this.replicaKeyOf(observation));
    if (served === undefined) return;
    const backwards: string[] = [];
    if (highWatermark < served.highWatermark) {
      backwards.push(`highWatermark ${served.highWatermark} → ${highWatermark}`);
    }
    if (lastStableOffset < served.lastStableOffset) {
      backwards.push(`lastStableOffset ${served.lastStableOffset} → ${lastStableOffset}`);
    }
    if (backwards.length > 0) {
      this.record({
        invariant: 'leader-offsets-monotonic',
        ...placeOf(stamped, observation),
        description:
          `leader ${observation.broker} went back within leaderEpoch ${served.leaderEpoch}: ` +
          backwards.join(', '),
      });
    }
    served.highWatermark = Math.max(served.highWatermark, highWatermark);
    served.lastStableOffset = Math.max(served.lastStableOffset, lastStableOffset);
  }

  /** One leader per leader epoch; a new leader starts its monotonic offsets from its own. */
  private checkLeaderEpoch(
    observation: Extract<KafkaObservation, { kind: 'LeaderEpochStarted' }>,
    stamped: StampedObservation,
  ): void {
    const key = partitionKey(observation);
    const byEpoch = this.leaders.get(key) ?? new Map<number, string>();
    this.leaders.set(key, byEpoch);
    const other = byEpoch.get(observation.leaderEpoch);
    if (other !== undefined && other !== observation.broker) {
      this.record({
        invariant: 'one-leader-per-epoch',
        ...at(stamped),
        ...tpOf(observation),
        broker: observation.broker,
        description:
          `two leaders for leaderEpoch ${observation.leaderEpoch}: ` +
          `${other} and ${observation.broker}`,
      });
    }
    byEpoch.set(observation.leaderEpoch, observation.broker);
    // KIP-101: a new leader's high watermark may lag the old leader's until followers fetch;
    // only a step back under the same epoch is a violation.
    const replica = this.cluster.replica(
      observation.topic,
      observation.partition,
      observation.broker,
    );
    this.served.set(this.replicaKeyOf(observation), {
      leaderEpoch: observation.leaderEpoch,
      highWatermark: replica.highWatermark,
      lastStableOffset: replica.lastStableOffset,
    });
  }

  /** Sequences gap-free, coordinator epochs never down, one marker per epoch under TV2. */
  private checkAppend(
    observation: Extract<KafkaObservation, { kind: 'BatchAppended' | 'MarkerWritten' }>,
    stamped: StampedObservation,
  ): void {
    const key = this.replicaKeyOf(observation);
    const facts = this.facts.get(key) ?? factsOf([]);
    this.facts.set(key, facts);
    const batch = observation.batch;
    // Kafka checks sequences only on what a leader appends for a client
    // (ProducerAppendInfo.maybeValidateDataBatch, AppendOrigin.CLIENT); a follower copies the
    // leader's batches as they are, an expiry the leader made included.
    const fromClient = observation.kind === 'BatchAppended' && observation.origin === 'leader';
    const broken = brokenBy(facts, batch, this.settings.transactionVersion, fromClient);
    for (const { invariant, description } of broken) {
      this.record({
        invariant,
        ...placeOf(stamped, observation),
        producerId: batch.producerId,
        producerEpoch: batch.producerEpoch,
        description: `${description} at offset ${batch.baseOffset} on ${observation.broker}`,
      });
    }
    if (observation.kind === 'MarkerWritten' && batch.control !== undefined) {
      const identity = `${batch.producerId}|${batch.producerEpoch}|${batch.control}`;
      const markerKey = `${partitionKey(observation)}|${identity}`;
      this.markersWritten.set(markerKey, at(stamped));
    }
    applyBatch(facts, batch);
  }

  /**
   * The replica forgot these producers (producer.id.expiration.ms): Kafka accepts their next
   * batch at any sequence (ProducerAppendInfo.checkSequence on an entry without an epoch), so
   * their sequences start again there, and so does the coordinator epoch the replica records for
   * them (ProducerStateEntry.coordinatorEpoch). Their markers are kept: expiry skips a producer
   * with an open transaction, so no transaction loses its marker history.
   */
  private forgetProducers(
    observation: Extract<KafkaObservation, { kind: 'ProducerStateExpired' }>,
  ): void {
    const facts = this.facts.get(this.replicaKeyOf(observation));
    if (facts === undefined) return;
    const expired = new Set(observation.producerIds);
    for (const producerId of expired) facts.coordinatorEpochs.delete(producerId);
    for (const epochKey of [...facts.sequences.keys()]) {
      if (expired.has(Number(epochKey.slice(0, epochKey.indexOf(':'))))) {
        facts.sequences.delete(epochKey);
      }
    }
  }

  /**
   * Per transactional.id, in the order the grants' records sit in `__transaction_state` (not the
   * order the answers come, see grant_order.ts): the epoch grows or the producerId is new; the
   * epoch fits an int16.
   */
  private checkGrant(
    observation: Extract<KafkaObservation, { kind: 'ProducerEpochGranted' }>,
    stamped: StampedObservation,
  ): void {
    const { transactionalId, producerId, producerEpoch } = observation;
    const where = {
      ...at(stamped),
      transactionalId,
      producerId,
      producerEpoch,
      broker: observation.coordinator,
    };
    if (producerEpoch > PRODUCER_EPOCH_MAX || producerEpoch < 0) {
      this.record({
        invariant: 'producer-epoch-in-range',
        ...where,
        description:
          `coordinator ${observation.coordinator} granted producerEpoch ${producerEpoch} to ` +
          `${transactionalId} (producerId ${producerId}), outside 0..${PRODUCER_EPOCH_MAX}`,
      });
    }
    const { coordinatorEpoch, stateLogOffset } = observation;
    const placed = { producerId, producerEpoch, coordinatorEpoch, stateLogOffset };
    const misfit = this.grants.add(transactionalId, placed);
    if (misfit !== null) {
      this.record({
        invariant: 'producer-identity-grows',
        ...where,
        // Placed on the id's __transaction_state partition, so a data-loss permission reaches
        // it only where that partition lost records.
        topic: TRANSACTION_STATE_TOPIC,
        partition: observation.stateLogPartition,
        ...(misfit.earlierRecordTruncated || this.cutBelow(observation, misfit.precedingOffset)
          ? { classification: 'grant-record-truncated' }
          : {}),
        description:
          `coordinator ${observation.coordinator} granted producerId ${producerId} epoch ` +
          `${producerEpoch} to ${transactionalId} by the record at offset ${stateLogOffset} ` +
          `(coordinator epoch ${coordinatorEpoch}), ` +
          misfit.reason,
      });
    }
  }

  /**
   * Whether the granting coordinator's own replica of the id's `__transaction_state` partition
   * was truncated to at or below `offset` (the record the grant does not fit after) before this
   * grant: the coordinator's log then no longer held that record, and the coordinator loaded the
   * state without it (TransactionStateManager.loadTransactionsForTxnTopicPartition). The newer
   * coordinator may have written past that offset since, so the offsets alone do not show it.
   */
  private cutBelow(
    observation: Extract<KafkaObservation, { kind: 'ProducerEpochGranted' }>,
    offset: number | null,
  ): boolean {
    if (offset === null) return false;
    return this.cluster.truncations.some(
      (truncation) =>
        truncation.topic === TRANSACTION_STATE_TOPIC &&
        truncation.partition === observation.stateLogPartition &&
        truncation.broker === observation.coordinator &&
        truncation.toOffset <= offset &&
        truncation.removed.length > 0,
    );
  }

  private notePrepared(
    observation: Extract<
      KafkaObservation,
      { kind: 'TransactionStateTransition' | 'TransactionLogLoaded' }
    >,
    timeUs: number,
  ): void {
    const views =
      observation.kind === 'TransactionLogLoaded' ? observation.transactions : [observation.view];
    for (const view of views) {
      const key = `${observation.coordinator}|${view.transactionalId}`;
      if (view.state === 'PrepareCommit' || view.state === 'PrepareAbort') {
        // A reload restarts the markers; a transition into Prepare* starts them.
        const entered =
          observation.kind === 'TransactionLogLoaded' || observation.from !== view.state;
        if (entered) this.prepared.set(key, timeUs);
      } else {
        this.prepared.delete(key);
      }
    }
  }

  private replicaKeyOf(ref: { topic: string; partition: number; broker: string }): string {
    return this.cluster.replicaKey(ref.topic, ref.partition, ref.broker);
  }

  private record(violation: OracleInvariantViolation): void {
    if (this.violations.length >= VIOLATIONS_MAX) {
      this.dropped += 1;
      return;
    }
    this.violations.push(violation);
  }
}

const NOTHING_BROKEN: ReadonlyArray<{ invariant: string; description: string }> = Object.freeze([]);

/** The invariants a batch appended to a replica with `facts` breaks. */
export function brokenBy(
  facts: ReplicaFacts,
  batch: LogBatch,
  transactionVersion: number,
  fromClient: boolean,
): ReadonlyArray<{ invariant: string; description: string }> {
  if (batch.producerId === NO_PRODUCER_ID) return NOTHING_BROKEN;
  let broken: Array<{ invariant: string; description: string }> | undefined;
  const epochKey = `${batch.producerId}:${batch.producerEpoch}`;
  if (batch.control === undefined) {
    const last = facts.sequences.get(epochKey);
    if (
      fromClient &&
      batch.baseSequence !== NO_SEQUENCE &&
      last !== undefined &&
      !follows(last, batch.baseSequence)
    ) {
      (broken ??= []).push({
        invariant: 'sequences-gap-free',
        description:
          `${identityOf(batch)}: baseSequence ${batch.baseSequence} ` + `after sequence ${last}`,
      });
    }
    return broken ?? NOTHING_BROKEN;
  }
  const coordinatorEpoch = batch.coordinatorEpoch ?? 0;
  const lastCoordinatorEpoch = facts.coordinatorEpochs.get(batch.producerId);
  if (lastCoordinatorEpoch !== undefined && coordinatorEpoch < lastCoordinatorEpoch) {
    (broken ??= []).push({
      invariant: 'coordinator-epoch-monotonic',
      description:
        `${batch.control} marker of ${identityOf(batch)} ` +
        `with coordinatorEpoch ${coordinatorEpoch} after ${lastCoordinatorEpoch}`,
    });
  }
  const earlier = facts.markers.get(epochKey);
  if (transactionVersion >= 2 && earlier !== undefined) {
    const completes = facts.open.has(batch.producerId);
    const bothComplete = completes && earlier.completed > 0;
    if (earlier.control !== batch.control || bothComplete) {
      (broken ??= []).push({
        invariant: 'one-marker-per-epoch',
        description:
          `${batch.control} marker of ${identityOf(batch)} after a ${earlier.control} ` +
          `marker of the same epoch${bothComplete ? ', both ending a transaction' : ''}`,
      });
    }
  }
  return broken ?? NOTHING_BROKEN;
}

/** The facts of a log, from its batches in order. */
export function factsOf(batches: readonly LogBatch[]): ReplicaFacts {
  const facts: ReplicaFacts = {
    sequences: new Map(),
    coordinatorEpochs: new Map(),
    markers: new Map(),
    open: new Set(),
  };
  for (const batch of batches) applyBatch(facts, batch);
  return facts;
}

/** Folds one appended batch into a replica's facts. */
function applyBatch(facts: ReplicaFacts, batch: LogBatch): void {
  if (batch.producerId === NO_PRODUCER_ID) return;
  const epochKey = `${batch.producerId}:${batch.producerEpoch}`;
  if (batch.control === undefined) {
    if (batch.baseSequence !== NO_SEQUENCE) facts.sequences.set(epochKey, lastSequenceOf(batch));
    if (batch.isTransactional) facts.open.add(batch.producerId);
    return;
  }
  facts.coordinatorEpochs.set(
    batch.producerId,
    Math.max(facts.coordinatorEpochs.get(batch.producerId) ?? -1, batch.coordinatorEpoch ?? 0),
  );
  const earlier = facts.markers.get(epochKey);
  const completed = (earlier?.completed ?? 0) + (facts.open.has(batch.producerId) ? 1 : 0);
  facts.markers.set(epochKey, { control: earlier?.control ?? batch.control, completed });
  facts.open.delete(batch.producerId);
}

function identityOf(batch: LogBatch): string {
  return `producerId ${batch.producerId} epoch ${batch.producerEpoch}`;
}

/** True when `next` directly follows `last`, wrapping at int32 max as Kafka does. */
function follows(last: number, next: number): boolean {
  return next === last + 1 || (last === SEQUENCE_MAX && next === 0);
}

/** Where a replica's violation happened, as a violation records it. */
interface ViolationPlace {
  readonly timeUs: number;
  readonly eventIndex: number;
  readonly topic: string;
  readonly partition: number;
  readonly broker: string;
}

function placeOf(
  stamped: StampedObservation,
  ref: { topic: string; partition: number; broker: string },
): ViolationPlace {
  return { ...at(stamped), ...tpOf(ref), broker: ref.broker };
}

function tpOf(ref: { topic: string; partition: number }): { topic: string; partition: number } {
  return { topic: ref.topic, partition: ref.partition };
}

function at(stamped: StampedObservation): { timeUs: number; eventIndex: number } {
  return { timeUs: stamped.timeUs, eventIndex: stamped.eventIndex };
}
