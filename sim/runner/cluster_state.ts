/**
 * Reads the cluster as it stands from a run's actors (`eos-sim run --until`): each partition's
 * controller view and replicas with their log end offset, high watermark, last stable offset,
 * open transactions, producer state and the log batches around those offsets (markers
 * included); every transaction coordinator's transactions; each client's producer or consumer
 * state and the messages it has on their way. A debugging printout, never a verdict: it reads
 * actor state directly and nothing is checked against it.
 */
import { nodeId, type MessageInFlight } from '../kernel';
import { firstBatchEndingAtOrAfter } from '../actors';
import type { LogBatch, PartitionLog, PartitionReplica } from '../actors';
import type { ScenarioConfig } from '../../scenarios';
import type {
  BatchLine,
  ClientState,
  ClusterState,
  CoordinatorState,
  MessageLine,
  OmittedBatches,
  PartitionState,
  ReplicaState,
} from './cluster_state_types';
import type { RunPhaseName } from './report_types';
import type { World } from './run';

/** Batches shown on each side of an offset that matters, and at the end of the log. */
export const BATCHES_AROUND = 2;
export const BATCHES_AT_END = 4;

/** A transaction log record in one line. */
function transactionLogText(batch: LogBatch): string | undefined {
  const record = batch.transactionLog;
  if (record === undefined) return undefined;
  const { value } = record;
  if (value === null) return `${record.transactionalId} tombstone`;
  const partitions = value.topicPartitions.map((tp) => `${tp.topic}-${tp.partition}`).join(',');
  return (
    `${record.transactionalId} ${value.state} producerId ${value.producerId} epoch ` +
    `${value.producerEpoch} [${partitions}]`
  );
}

function batchLine(batch: LogBatch): BatchLine {
  const transactionLog = transactionLogText(batch);
  return {
    baseOffset: batch.baseOffset,
    lastOffset: batch.lastOffset,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    isTransactional: batch.isTransactional,
    ...(batch.control === undefined ? {} : { control: batch.control }),
    ...(batch.coordinatorEpoch === undefined ? {} : { coordinatorEpoch: batch.coordinatorEpoch }),
    leaderEpoch: batch.leaderEpoch,
    appendUs: batch.appendUs,
    ...(transactionLog === undefined ? {} : { transactionLog }),
  };
}

/**
 * The batches around the last stable offset, the high watermark, every open transaction's
 * first offset and the log end offset, with the runs left out counted.
 */
export function logExcerpt(log: PartitionLog): Array<BatchLine | OmittedBatches> {
  const batches = log.log;
  const anchors = [
    log.lastStableOffset,
    log.highWatermark,
    ...[...log.openTransactions.values()],
  ].map((offset) => firstBatchEndingAtOrAfter(batches, offset));
  const shown = new Set<number>();
  for (const anchor of anchors) {
    for (let index = anchor - BATCHES_AROUND; index <= anchor + BATCHES_AROUND; index++) {
      if (index >= 0 && index < batches.length) shown.add(index);
    }
  }
  for (let index = Math.max(0, batches.length - BATCHES_AT_END); index < batches.length; index++) {
    shown.add(index);
  }
  const lines: Array<BatchLine | OmittedBatches> = [];
  let next = 0;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (index > next) {
      lines.push({
        omitted: index - next,
        fromOffset: (batches[next] as LogBatch).baseOffset,
        toOffset: (batches[index - 1] as LogBatch).lastOffset,
      });
    }
    lines.push(batchLine(batches[index] as LogBatch));
    next = index + 1;
  }
  return lines;
}

function replicaState(broker: string, replica: PartitionReplica): ReplicaState {
  const { log } = replica;
  const producers = [...log.producerEntries()]
    .map((entry) => {
      const last = entry.batchMetadata.at(-1);
      return {
        producerId: entry.producerId,
        producerEpoch: entry.producerEpoch,
        coordinatorEpoch: entry.coordinatorEpoch,
        ...(entry.currentTxnFirstOffset < 0
          ? {}
          : { currentTxnFirstOffset: entry.currentTxnFirstOffset }),
        ...(last === undefined ? {} : { lastBatch: { ...last } }),
      };
    })
    .sort((a, b) => a.producerId - b.producerId);
  return {
    broker,
    role: replica.role,
    logStartOffset: log.logStartOffset,
    logEndOffset: log.logEndOffset,
    highWatermark: log.highWatermark,
    lastStableOffset: log.lastStableOffset,
    openTransactions: [...log.openTransactions]
      .map(([producerId, firstOffset]) => ({ producerId, firstOffset }))
      .sort((a, b) => a.firstOffset - b.firstOffset),
    producers,
    batches: log.log.length,
    log: logExcerpt(log),
  };
}

/** Application partitions, then internal ones (`__…`) that hold records. */
function partitionStates(world: World): PartitionState[] {
  const states = world.controller
    .partitionStates()
    .map((state): PartitionState => {
      const key = `${state.topic}-${state.partition}`;
      const replicas = world.brokers.flatMap(({ id, broker }) => {
        const replica = broker.partitions.get(key);
        return replica === undefined ? [] : [replicaState(id, replica)];
      });
      return {
        topic: state.topic,
        partition: state.partition,
        leader: state.leader,
        leaderEpoch: state.leaderEpoch,
        isr: [...state.isr],
        replicas,
      };
    })
    .filter(
      (state) =>
        !state.topic.startsWith('__') || state.replicas.some((replica) => replica.batches > 0),
    );
  const internal = (state: PartitionState): number => (state.topic.startsWith('__') ? 1 : 0);
  return states.sort(
    (a, b) =>
      internal(a) - internal(b) ||
      (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition),
  );
}

function coordinatorStates(world: World): CoordinatorState[] {
  return world.brokers.map(({ id, broker }) => ({
    broker: id,
    partitions: broker.coordinator.state
      .ownedPartitions()
      .sort((a, b) => a.partition - b.partition),
    transactions: broker.coordinator
      .transactions()
      .map((metadata) => ({
        transactionalId: metadata.transactionalId,
        producerId: metadata.producerId,
        producerEpoch: metadata.producerEpoch,
        state: metadata.state,
        pendingState: metadata.pendingState,
        partitions: [...metadata.topicPartitions.keys()].sort(),
        txnStartUs: metadata.txnStartUs,
        txnTimeoutMs: metadata.txnTimeoutMs,
      }))
      .sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : 1)),
  }));
}

function messageLine(message: MessageInFlight): MessageLine {
  const payload = message.payload as { kind?: unknown; correlationId?: unknown };
  return {
    source: message.source,
    target: message.target,
    kind: typeof payload.kind === 'string' ? payload.kind : 'message',
    ...(typeof payload.correlationId === 'number' ? { correlationId: payload.correlationId } : {}),
    sentUs: message.sentUs,
    dueUs: message.dueUs,
    where: message.where,
  };
}

function clientStates(
  world: World,
  scenario: ScenarioConfig,
  messages: readonly MessageLine[],
): ClientState[] {
  return scenario.clients.map((spec, index) => {
    const client = world.clients[index];
    const producer = client?.kafkaProducer ?? null;
    const consumer = client?.kafkaConsumer ?? null;
    const transactionalId =
      spec.role === 'producer'
        ? spec.settings.transactionalId
        : spec.role === 'pipeline'
          ? spec.settings.producer.transactionalId
          : null;
    return {
      name: spec.name,
      role: spec.role,
      status: world.sim.status(nodeId(spec.name)),
      busy: client?.busy ?? false,
      ...(producer === null
        ? {}
        : {
            producer: {
              transactionalId,
              state: producer.state,
              producerId: producer.producerId,
              producerEpoch: producer.producerEpoch,
              lastError: producer.lastError,
            },
          }),
      ...(consumer === null
        ? {}
        : {
            consumer: {
              isolationLevel: consumer.config.isolationLevel,
              polling: consumer.polling,
              positions: consumer.assignment().map((tp) => ({
                topic: tp.topic,
                partition: tp.partition,
                position: consumer.position(tp) ?? null,
              })),
            },
          }),
      inFlight: messages.filter((m) => m.source === spec.name || m.target === spec.name),
    };
  });
}

/** The cluster of `world` now. */
export function clusterState(input: {
  readonly world: World;
  readonly scenario: ScenarioConfig;
  readonly seed: string;
  readonly phase: RunPhaseName;
  readonly stoppedBy: string;
}): ClusterState {
  const { world, scenario } = input;
  const messages = world.sim.messagesInFlight().map(messageLine);
  return {
    seed: input.seed,
    scenario: scenario.name,
    timeUs: world.sim.nowUs,
    eventsRun: world.sim.eventsRun,
    phase: input.phase,
    stoppedBy: input.stoppedBy,
    nodes: world.sim.nodeIds().map((id) => ({ id, status: world.sim.status(id) })),
    partitions: partitionStates(world),
    coordinators: coordinatorStates(world),
    clients: clientStates(world, scenario, messages),
    messagesInFlight: messages.length,
  };
}
