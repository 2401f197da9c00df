/**
 * The liveness check after heal (style rule 21; DESIGN.md, `liveness`). Once the faults have
 * healed and the cluster settled, every application gets a probe: each producer must commit one
 * more transaction (or have one more send acknowledged), and each consumer polls until its
 * position reaches the last stable offset (read_committed) or the high watermark
 * (read_uncommitted) of every partition it reads, and every partition leader's last stable
 * offset must reach its high watermark, all within `run.liveness.ms` of simulated time. A
 * producer fenced for good (`on.fenced: stop`), closed after its last transaction
 * (`close.when.done`) or stopped by a fatal error is not expected to make progress and is only
 * noted, with the reason. What did not converge is named: producers without progress with
 * their count of fencing errors, partitions whose last stable offset stays below the high
 * watermark, consumers behind. A read-process-write pipeline keeps processing during the probe;
 * its group's committed offsets must reach the last stable offset of every input partition.
 */
import {
  CONSUMER_OFFSETS_TOPIC,
  TRANSACTION_STATE_TOPIC,
  isFencingError,
  partitionKey,
} from '../actors';
import type { LogBatch } from '../actors';
import type { Simulation } from '../kernel';
import type { History } from '../history';
import type { ClientActor } from '../workload';
import type { ClientConfig } from '../../scenarios';
import type { ObservedCluster } from './observed_cluster';
import { refusedMarkers } from './refused_markers';
import { loadedTransactionsOf } from './loaded_transactions';

/** The parts of a run the probe looks at. */
export interface LivenessWorld {
  readonly sim: Simulation;
  readonly clients: readonly ClientActor[];
  readonly specs: readonly ClientConfig[];
  /** The cluster as observed: partition leaders, their offsets, the groups' committed offsets. */
  readonly observed: ObservedCluster;
  readonly history: History;
}

/** The result of the probe: what did not converge (empty when everything did), and notes. */
export interface LivenessProbe {
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/** The current leader's offsets of a partition. */
interface LeaderOffsets {
  readonly highWatermark: number;
  readonly lastStableOffset: number;
}

/**
 * Offsets of every partition's current leader (by the controller's last published state), keyed
 * `topic-partition`, as the observations report them.
 */
export function leaderOffsets(world: Pick<LivenessWorld, 'observed'>) {
  const offsets = new Map<string, LeaderOffsets>();
  for (const [key, partition] of world.observed.partitions) {
    const leader = partition.state?.leader;
    if (leader === null || leader === undefined) continue;
    const replica = world.observed.replica(partition.topic, partition.partition, leader);
    const { highWatermark, lastStableOffset } = replica;
    offsets.set(key, { highWatermark, lastStableOffset });
  }
  return offsets;
}

/** Partitions whose leader's last stable offset is below its high watermark. */
function unstablePartitions(world: LivenessWorld): string[] {
  const unstable: string[] = [];
  for (const [key, log] of leaderOffsets(world)) {
    if (log.lastStableOffset < log.highWatermark) {
      const lost = lostMarkers(world.observed, key).join('; ');
      const why = lost === '' ? '' : `; ${lost}`;
      unstable.push(`${key} (LSO ${log.lastStableOffset} < HW ${log.highWatermark}${why})`);
    }
  }
  return unstable;
}

/**
 * The open transactions pinning a partition's last stable offset whose COMMIT or ABORT marker a
 * truncation removed, each said with the truncation: a hanging transaction Kafka itself leaves
 * open, since a coordinator writes a transaction's markers once (TransactionMarkerChannelManager)
 * and only a later marker of the same producerId or an operator's `kafka-transactions.sh abort`
 * (KIP-664) closes it. The same holds when a truncation of `__transaction_state` removed the
 * coordinator's record of the transaction: the coordinator that loads the log never learns of it.
 */
export function lostMarkers(observed: ObservedCluster, key: string): string[] {
  const partition = observed.partitions.get(key);
  const leader = partition?.state?.leader;
  if (partition === undefined || leader === null || leader === undefined) return [];
  const replica = observed.replica(partition.topic, partition.partition, leader);
  const found: string[] = [];
  for (const [producerId, firstOffset] of replica.openTransactions) {
    const hanging = `a hanging transaction of producerId ${producerId} from offset ${firstOffset}`;
    const truncation = observed.truncations.find(
      (candidate) =>
        candidate.topic === partition.topic &&
        candidate.partition === partition.partition &&
        candidate.removed.some(
          (batch) =>
            batch.control !== undefined &&
            batch.producerId === producerId &&
            batch.baseOffset > firstOffset,
        ),
    );
    if (truncation === undefined) {
      const fence = erasedFence(observed, partition, replica.batches, { producerId, firstOffset });
      if (fence !== null) {
        found.push(`${hanging}: ${fence}`);
        continue;
      }
      const forgotten = forgottenByCoordinator(observed, producerId);
      if (forgotten !== null) {
        found.push(`${hanging}: ${forgotten}`);
      }
      continue;
    }
    found.push(
      `${hanging}: its marker was truncated away on ${truncation.broker} at ` +
        `${truncation.timeUs / 1e6} s (${truncation.reason}), and Kafka writes a marker once ` +
        '(TransactionMarkerChannelManager; KIP-664)',
    );
  }
  return found;
}

/**
 * Why an open transaction began after the marker that ended its producer epoch: a truncation
 * removed a COMMIT or ABORT marker of a newer epoch of the same producerId before the batch at
 * `firstOffset` was appended, so the partition no longer knew that epoch and took the late batch
 * (a produce or retry of the older epoch) as a new transaction, which no coordinator will end.
 * Null when no such truncation came first.
 */
function erasedFence(
  observed: ObservedCluster,
  at: { readonly topic: string; readonly partition: number },
  batches: readonly LogBatch[],
  { producerId, firstOffset }: { producerId: number; firstOffset: number },
): string | null {
  const opening = batches.find((batch) => batch.baseOffset === firstOffset);
  if (opening === undefined) return null;
  for (const truncation of observed.truncations) {
    if (truncation.topic !== at.topic || truncation.partition !== at.partition) continue;
    if (truncation.timeUs > opening.appendUs) continue;
    const marker = truncation.removed.find(
      (batch) =>
        batch.control !== undefined &&
        batch.producerId === producerId &&
        batch.producerEpoch > opening.producerEpoch,
    );
    if (marker === undefined) continue;
    return (
      `the ${marker.control} marker of epoch ${marker.producerEpoch} was truncated away on ` +
      `${truncation.broker} at ${truncation.timeUs / 1e6} s (${truncation.reason}), before the ` +
      `epoch-${opening.producerEpoch} batch that opens it was appended at ` +
      `${opening.appendUs / 1e6} s; Kafka writes a marker once (TransactionMarkerChannelManager; ` +
      'KIP-664)'
    );
  }
  return null;
}

/** Consumers whose position is behind the offset their isolation level may read up to. */
function consumersBehind(world: LivenessWorld): string[] {
  const offsets = leaderOffsets(world);
  const behind: string[] = [];
  world.specs.forEach((spec, index) => {
    if (spec.role !== 'consumer') return;
    const client = world.clients[index] as ClientActor;
    const committed = spec.settings.isolationLevel === 'read_committed';
    for (const [key, log] of offsets) {
      const dash = key.lastIndexOf('-');
      const tp = { topic: key.slice(0, dash), partition: Number(key.slice(dash + 1)) };
      if (!spec.workload.topics.includes(tp.topic)) continue;
      const target = committed ? log.lastStableOffset : log.highWatermark;
      const position = client.consumerPosition(tp) ?? 0;
      if (position < target) {
        behind.push(
          `${spec.name} at ${key} (position ${position} < ${committed ? 'LSO' : 'HW'} ${target})`,
        );
      }
    }
  });
  return behind;
}

/**
 * Groups of pipelines whose committed offset on an input partition is below that partition's
 * last stable offset, read at the broker leading the group's `__consumer_offsets` partition.
 */
function pipelinesBehind(world: LivenessWorld): string[] {
  const offsets = leaderOffsets(world);
  const inputs = new Map<string, Set<string>>();
  for (const spec of world.specs) {
    if (spec.role !== 'pipeline') continue;
    const groupId = spec.settings.consumer.groupId ?? '';
    const topics = inputs.get(groupId) ?? new Set<string>();
    spec.workload.topics.forEach((topic) => topics.add(topic));
    inputs.set(groupId, topics);
  }
  const behind: string[] = [];
  for (const [groupId, topics] of inputs) {
    const committed = committedOffsetsOf(world, groupId);
    for (const [key, log] of offsets) {
      const topic = key.slice(0, key.lastIndexOf('-'));
      if (!topics.has(topic)) continue;
      const offset = committed.get(key) ?? 0;
      if (offset < log.lastStableOffset) {
        behind.push(
          `group ${groupId} at ${key} (committed ${offset} < LSO ${log.lastStableOffset})`,
        );
      }
    }
  }
  return behind;
}

/** A group's committed offsets keyed `topic-partition`, at its coordinator now (observed). */
function committedOffsetsOf(world: LivenessWorld, groupId: string): Map<string, number> {
  const offsets = new Map<string, number>();
  for (const [coordinator, groups] of world.observed.groups) {
    for (const group of groups) {
      if (group.groupId !== groupId) continue;
      const key = partitionKey({ topic: CONSUMER_OFFSETS_TOPIC, partition: group.partition });
      if (world.observed.partitions.get(key)?.state?.leader !== coordinator) continue;
      for (const { topic, partition, offset } of group.committedOffsets) {
        offsets.set(partitionKey({ topic, partition }), offset);
      }
    }
  }
  return offsets;
}

/** Fencing errors per client in the history. */
function fencingErrorCounts(history: History): ReadonlyMap<string, number> {
  return fencingErrorCounter(history)();
}

/**
 * Whether `name`'s last completed operation failed with a fencing error: a producer that went on
 * after one (an INVALID_PRODUCER_EPOCH its application aborted on, KIP-588) was not fenced for
 * good, and one whose last operation failed otherwise stopped for that other error.
 */
function endedFenced(history: History, name: string): boolean {
  for (let index = history.length - 1; index >= 0; index--) {
    const op = history[index] as History[number];
    if (op.client !== name || op.type === 'invoke') continue;
    return isFencingError(op.error);
  }
  return false;
}

/**
 * Fencing errors per client, read incrementally: each call folds in only the operations
 * appended since the last one, so a predicate checked after every event (the probe's `done`)
 * costs what the new operations cost, not the whole history again.
 */
function fencingErrorCounter(history: History): () => ReadonlyMap<string, number> {
  const counts = new Map<string, number>();
  let read = 0;
  return () => {
    for (; read < history.length; read++) {
      const op = history[read] as History[number];
      if (isFencingError(op.error)) counts.set(op.client, (counts.get(op.client) ?? 0) + 1);
    }
    return counts;
  };
}

/**
 * The fatal errors pipelines' polls failed with, per client: why a group stopped moving.
 * @example failedPolls(history) // ['P1 INVALID_SESSION_TIMEOUT (3 times)']
 */
function failedPolls(history: History): string[] {
  const counts = new Map<string, number>();
  for (const op of history) {
    if (op.f !== 'poll' || op.type !== 'fail' || op.error === undefined) continue;
    const key = `${op.client} ${op.error}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => (count === 1 ? key : `${key} (${count} times)`));
}

/**
 * The problem line naming producers without progress, with their fencing errors, and why a
 * transactional one is stuck where the observations say (see refused_markers.ts).
 */
function noProgress(world: LivenessWorld, withoutProgress: readonly string[]): string {
  const fencing = fencingErrorCounts(world.history);
  const total = withoutProgress.reduce((sum, name) => sum + (fencing.get(name) ?? 0), 0);
  const each = withoutProgress.map((name) => `${name} ${fencing.get(name) ?? 0}`).join(', ');
  const names = withoutProgress.join(', ');
  const why = withoutProgress.flatMap((name) => {
    const spec = world.specs.find((candidate) => candidate.name === name);
    const transactionalId = spec?.role === 'producer' ? spec.settings.transactionalId : null;
    if (transactionalId === null || transactionalId === undefined) return [];
    const reason = refusedMarkers(world.observed, transactionalId);
    return reason === null ? [] : [`${name}: ${reason}`];
  });
  const because = why.length === 0 ? '' : `; ${why.join('; ')}`;
  return `producers without progress: ${names} (${total} fencing errors: ${each})${because}`;
}

/**
 * Producers fenced during the probe that do not restart: not asked for progress, since a newer
 * instance of their transactional.id took over, which is what fencing is for.
 */
function fencedInProbe(
  fencing: ReadonlyMap<string, number>,
  producers: ReadonlyArray<{ name: string; client: ClientActor }>,
): string[] {
  return producers
    .filter(({ name, client }) => client.stoppedForGood && (fencing.get(name) ?? 0) > 0)
    .map(({ name }) => name);
}

/**
 * Producers that stopped for good during the probe because their transactional.id expired at
 * the coordinator: the coordinator removed the id (TransactionalIdExpired in the oracle) and
 * answered the producer's next request INVALID_PRODUCER_ID_MAPPING, which is fatal since Kafka
 * 4.0 (KAFKA-18019), so the application must create a new producer. Kafka's own outcome under
 * `transactional.id.expiration.ms`; whether the error was Kafka's to give is the
 * fatal-txn-error checker's judgement, not liveness's.
 */
function expiredInProbe(
  world: LivenessWorld,
  producers: ReadonlyArray<{ name: string; client: ClientActor }>,
): string[] {
  return producers
    .filter(({ client }) => {
      const producer = client.kafkaProducer;
      if (!client.stoppedForGood || producer === null) return false;
      if (producer.lastError !== 'INVALID_PRODUCER_ID_MAPPING') return false;
      return world.observed.transactionalIdExpirations.some(
        (expiry) => expiry.producerId === producer.producerId,
      );
    })
    .map(({ name }) => name);
}

/**
 * The fatal errors the fatal-txn-error checker judges on every producer, whichever way it rules:
 * INVALID_TXN_STATE (a commit racing the coordinator's own abort, KAFKA-20785),
 * INVALID_PRODUCER_ID_MAPPING (a producerId the coordinator does not know) and, for an
 * idempotent producer, OUT_OF_ORDER_SEQUENCE_NUMBER (librdkafka's fatal "sequence
 * desynchronization", Kafka's own after a truncation lost acknowledged records).
 */
const JUDGED_FATAL_ERRORS: ReadonlySet<string> = new Set([
  'INVALID_TXN_STATE',
  'INVALID_PRODUCER_ID_MAPPING',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
]);

/**
 * Producers that stopped for good during the probe on a fatal error the fatal-txn-error checker
 * judges: the application must close the producer (KafkaProducer's contract for a
 * KafkaException outside the abortable and fencing classes; librdkafka's ERR__FATAL), so it has
 * no more transactions to show. Whether Kafka could give that error is that checker's verdict,
 * not liveness's; counted as stuck, such a producer would keep the probe waiting while the
 * others commit back to back, and the last stable offset could never be seen to reach the high
 * watermark.
 */
function fatalInProbe(
  producers: ReadonlyArray<{ name: string; client: ClientActor }>,
): Array<{ name: string; error: string }> {
  return producers.flatMap(({ name, client }) => {
    const error = client.kafkaProducer?.lastError;
    const stopped = client.stoppedForGood || client.sendsEndedByFatalError;
    if (!stopped || error === undefined || error === null) return [];
    return JUDGED_FATAL_ERRORS.has(error) ? [{ name, error }] : [];
  });
}

/** The notes on producers that stopped for good during the probe, with Kafka's reason. */
function stoppedInProbeNotes(
  world: LivenessWorld,
  fencing: ReadonlyMap<string, number>,
  producers: ReadonlyArray<{ name: string; client: ClientActor }>,
): string[] {
  return [
    ...fencedInProbe(fencing, producers).map(
      (name) => `${name} fenced for good during the probe (on.fenced: stop): not asked for more`,
    ),
    ...expiredInProbe(world, producers).map(
      (name) =>
        `${name} stopped during the probe: its transactional.id expired at the coordinator ` +
        '(transactional.id.expiration.ms) and INVALID_PRODUCER_ID_MAPPING is fatal since ' +
        'Kafka 4.0 (KAFKA-18019): not asked for more',
    ),
    ...fatalInProbe(producers).map(
      ({ name, error }) =>
        `${name} stopped during the probe after the fatal ${error} (judged by the ` +
        'fatal-txn-error checker): not asked for more',
    ),
  ];
}

/**
 * Why a producer's application declined the probe: fenced with `on.fenced: stop`, closed after
 * its last transaction (`close.when.done`), down, or failed with a fatal error.
 */
function notProbedReason(spec: ClientConfig, client: ClientActor, history: History): string {
  if (endedFenced(history, spec.name)) return 'fenced for good (on.fenced: stop)';
  if (spec.role === 'producer' && 'closeWhenDone' in spec.workload && spec.workload.closeWhenDone) {
    return 'closed its producer after its last transaction (close.when.done)';
  }
  if (client.kafkaProducer === null) return 'has no producer instance (its node is down)';
  return `stopped after a fatal error (${client.kafkaProducer.lastError})`;
}

/**
 * Runs the probe for at most `boundUs` of simulated time and ends it; the caller lets the
 * cluster settle afterwards.
 */
export function runLivenessProbe(world: LivenessWorld, boundUs: number): LivenessProbe {
  const { sim, clients, specs } = world;
  const notes: string[] = [];
  const producers: Array<{ name: string; client: ClientActor }> = [];
  let started = false;
  sim.schedule(sim.nowUs, 'liveness probe', () => {
    started = true;
    specs.forEach((spec, index) => {
      const client = clients[index] as ClientActor;
      const probing = client.probe();
      if (spec.role !== 'producer') return;
      if (probing) producers.push({ name: spec.name, client });
      else notes.push(`${spec.name} ${notProbedReason(spec, client, world.history)}: not probed`);
    });
  });
  const fencingErrors = fencingErrorCounter(world.history);
  const stuck = (): string[] => {
    const fenced = new Set(fencedInProbe(fencingErrors(), producers));
    const expired = new Set(expiredInProbe(world, producers));
    const fatal = new Set(fatalInProbe(producers).map(({ name }) => name));
    const stopped = (name: string): boolean =>
      fenced.has(name) || expired.has(name) || fatal.has(name);
    return producers
      .filter(({ name, client }) => !client.probeDone && !stopped(name))
      .map(({ name }) => name);
  };
  // Once every producer has committed (or sent) its probe, none starts another transaction:
  // producers committing back to back would otherwise leave a transaction open at almost every
  // instant, and the last stable offset could never be seen to reach the high watermark.
  let producersEnded = false;
  const endProducers = (): void => {
    producersEnded = true;
    sim.schedule(sim.nowUs, 'liveness probe: producers done', () =>
      producers.forEach(({ client }) => client.endProbe()),
    );
  };
  const done = (): boolean => {
    if (!started || stuck().length > 0) return false;
    if (!producersEnded) endProducers();
    return (
      unstablePartitions(world).length === 0 &&
      consumersBehind(world).length === 0 &&
      pipelinesBehind(world).length === 0
    );
  };
  sim.runUntil(sim.nowUs + boundUs, done);
  const problems: string[] = [];
  notes.push(...stoppedInProbeNotes(world, fencingErrors(), producers));
  const withoutProgress = stuck();
  if (withoutProgress.length > 0) problems.push(noProgress(world, withoutProgress));
  const unstable = unstablePartitions(world);
  if (unstable.length > 0)
    problems.push(`last stable offset below high watermark: ${unstable.join(', ')}`);
  const behind = consumersBehind(world);
  if (behind.length > 0) problems.push(`consumers not caught up: ${behind.join(', ')}`);
  const pipelines = pipelinesBehind(world);
  if (pipelines.length > 0) {
    const failed = failedPolls(world.history);
    const why = failed.length === 0 ? '' : ` (poll failed: ${failed.join(', ')})`;
    problems.push(`pipelines not caught up: ${pipelines.join(', ')}${why}`);
  }
  sim.schedule(sim.nowUs, 'liveness probe end', () =>
    clients.forEach((client) => client.endProbe()),
  );
  return { problems, notes };
}

/** The `__transaction_state` truncation that removed the coordinator's record of `producerId`. */
function forgottenByCoordinator(observed: ObservedCluster, producerId: number): string | null {
  const truncation = observed.truncations.find(
    (candidate) =>
      candidate.topic === TRANSACTION_STATE_TOPIC &&
      candidate.removed.some((batch) => batch.transactionLog?.value?.producerId === producerId),
  );
  if (truncation === undefined) return null;
  // A coordinator that loaded the record answered from it before it was truncated.
  const loaded = loadedTransactionsOf(observed, truncation).find(
    (candidate) => candidate.producerId === producerId,
  );
  const answered =
    loaded === undefined
      ? ''
      : ` after coordinator ${loaded.loadedBy} had loaded it at ` +
        `${loaded.loadedUs / 1e6} s and answered from it`;
  return (
    `the coordinator's record of it was truncated away from ` +
    `${truncation.topic}-${truncation.partition} on ${truncation.broker} at ` +
    `${truncation.timeUs / 1e6} s (${truncation.reason})${answered}, so no coordinator will ` +
    `write its marker`
  );
}
