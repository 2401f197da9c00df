/**
 * Runs one scenario with one seed through the four phases: workload with faults, heal (faults
 * end, applications stop starting operations, the cluster settles), final reads of every
 * partition at both isolation levels, and the check. Returns the run report with the history and
 * the oracle it was computed from.
 */
import { BudgetExceededError, Simulation, nodeId } from '../kernel';
import { BOUND_BASIS, Broker, ClusterMetadata, Controller, CONTROLLER_ID } from '../actors';
import { kafkaLaneMap, partitionKey, type TopicPartition } from '../actors';
import { HistoryBoundExceededError, HistoryRecorder, type History, type Oracle } from '../history';
import {
  ClientActor,
  FinalReaderActor,
  OPERATOR_NODE,
  OperatorActor,
  type ClientDeps,
} from '../workload';
import { checkHistory } from '../checker';
import { Nemesis } from '../../faults';
import { drawnFaults } from './drawn_faults';
import { compareVersions, type ScenarioConfig } from '../../scenarios';
import { clusterViewOf } from './cluster_view';
import { lostMarkers, runLivenessProbe } from './liveness';
import { buildOracle, coordinatorAtEnd } from './oracle';
import { ObservedCluster } from './observed_cluster';
import { LateTransactionTracker } from './late_transactions';
import { StateChecker } from './state_checker';
import { MessageLog, type MessageLogEntry } from './message_log';
import { buildReport } from './report';
import type { RunPhase, RunPhaseName, RunReport } from './report_types';
import type { SwarmParameters } from './swarm';
import { SwitchReads } from './switch_reads';
import { newBroker, withProducerBugs } from './actor_options';

/** Options of one run. */
export interface RunOptions {
  /** The root seed, a decimal string. */
  readonly seed: string;
  /** Keep one line per event (for `--check-determinism`). @default false */
  readonly recordEventLog?: boolean;
  /** Receives trace lines from actors. */
  readonly trace?: (line: string) => void;
  /** What swarm mode drew (see `drawSwarm`): stored in the report. */
  readonly swarm?: SwarmParameters;
  /**
   * Keep the bounded log of delivered messages that the report's sequence diagrams are drawn
   * from. A sweep turns it off for speed (about a fifth of a run's time) and replays a seed that
   * did not pass with it on to write its artifacts; nothing else in the run depends on it.
   * @default true
   */
  readonly messageLog?: boolean;
}

/** A finished run. */
export interface RunResult {
  readonly report: RunReport;
  readonly history: History;
  readonly oracle: Oracle;
  readonly executedEvents: readonly string[];
  /** The deliveries the report's sequence diagrams were selected from (bounded). */
  readonly messages: readonly MessageLogEntry[];
}

/** Bounds on the history of one run (style rule 32); the model's bounds derive from it. */
const HISTORY_OPS_MAX = BOUND_BASIS.historyOpsMax;
/** How long the final reads may take before the run counts as not converging. */
const FINAL_READ_US_MAX = 120_000_000;

/**
 * Everything one run is made of. Exported with {@link buildWorld} so a test can drive the
 * simulation itself (`world.sim.runUntil(t)`) and read the brokers' partition logs and the
 * clients' consumers at the virtual times it names, without the final reads and the check.
 */
export interface World {
  readonly sim: Simulation;
  readonly recorder: HistoryRecorder;
  readonly control: { stopping: boolean };
  readonly brokers: ReadonlyArray<{ id: string; broker: Broker }>;
  readonly controller: Controller;
  readonly metadata: ClusterMetadata;
  readonly clients: readonly ClientActor[];
  readonly readers: readonly FinalReaderActor[];
  readonly nemesis: Nemesis;
  /** The cluster as its observations describe it (the oracle's only source). */
  readonly observed: ObservedCluster;
  /** The invariants, checked on every observation. */
  readonly stateChecker: StateChecker;
  /** PartitionsWithLateTransactionsCount, followed on every observation. */
  readonly lateTransactions: LateTransactionTracker;
  /** The bug switches the model has consulted so far. */
  readonly switchReads: SwitchReads;
}

/** Runs `scenario` with `options.seed`. */
export function runScenario(scenario: ScenarioConfig, options: RunOptions): RunResult {
  const world = buildWorld(scenario, options);
  // Nothing has run yet, so the log sees every delivery.
  const messages = new MessageLog();
  if (options.messageLog !== false) world.sim.deliveryObserver = messages.observe;
  const { sim, recorder, nemesis } = world;
  let budgetError: string | undefined;
  let liveness = { converged: false, detail: '' };
  const phases = new PhaseClock(sim);
  try {
    liveness = runPhases(world, scenario, phases);
  } catch (error) {
    const budget =
      error instanceof BudgetExceededError || error instanceof HistoryBoundExceededError;
    if (!budget) throw error;
    budgetError = error.message;
  }
  phases.end();
  // The simulation is over: nothing after this point reads a switch that could change events.
  const switchesReached = world.switchReads.list();
  const numPartitions = scenario.broker.transactionStateLogNumPartitions;
  world.stateChecker.finish((transactionalId) =>
    coordinatorAtEnd(world.observed, transactionalId, numPartitions),
  );
  const oracle = buildOracle({
    cluster: world.observed,
    invariantViolations: world.stateChecker.found.map((violation) => ({
      ...violation,
      seed: options.seed,
    })),
    brokerIds: world.brokers.map(({ id }) => id),
    faults: nemesis.faultIntervals(),
    transactionalIds: scenario.clients.flatMap((spec) =>
      spec.role === 'producer' && spec.settings.transactionalId !== null
        ? [spec.settings.transactionalId]
        : [],
    ),
    transactionStateLogNumPartitions: numPartitions,
    transactionMaxTimeoutMs: scenario.broker.transactionMaxTimeoutMs,
    transactionAbortCleanupIntervalMs:
      scenario.broker.transactionAbortTimedOutTransactionCleanupIntervalMs,
    endUs: sim.nowUs,
    lateTransactions: world.lateTransactions.result(sim.nowUs),
  });
  const history = recorder.history;
  const check = checkHistory(history, oracle);
  const report = buildReport({
    scenario,
    seed: options.seed,
    sim,
    check,
    history,
    oracle,
    liveness,
    phases: phases.phases,
    switchesReached,
    ...(budgetError === undefined ? {} : { budgetError }),
    messages: { entries: messages.entries, dropped: messages.dropped },
    ...(options.swarm === undefined ? {} : { swarm: options.swarm }),
  });
  return {
    report,
    history,
    oracle,
    executedEvents: sim.executedEvents,
    messages: messages.entries,
  };
}

/**
 * Builds the simulation: brokers, clients, final readers and the scheduled faults, exactly as
 * {@link runScenario} does, at virtual time 0 with nothing run yet. `world.clients[i]` runs
 * `scenario.clients[i]`.
 *
 * @example
 * ```ts
 * const world = buildWorld(loadScenario('examples/lso-worked-example.yaml'), { seed: '1' });
 * world.sim.runUntil(714_000_000);
 * ```
 */
export function buildWorld(scenario: ScenarioConfig, options: RunOptions): World {
  const sim = new Simulation({
    seed: options.seed,
    network: scenario.network,
    eventsMax: scenario.eventsMax,
    eventsQueuedMax: 1_000_000,
    recordEventLog: options.recordEventLog ?? false,
    lanes: kafkaLaneMap,
  });
  sim.traceSink = options.trace;
  // Observations are folded in from the first event on: the checker first, so it sees the
  // cluster as it was before each observation.
  const observed = new ObservedCluster();
  const stateChecker = new StateChecker(observed, {
    transactionVersion: scenario.protocol.transactionVersion,
  });
  const lateTransactions = new LateTransactionTracker(
    scenario.broker.transactionMaxTimeoutMs,
    (batch) => observed.appendUs.get(batch) ?? batch.appendUs,
  );
  sim.stateObserver = (stamped) => {
    stateChecker.observe(stamped);
    observed.observe(stamped);
    lateTransactions.afterObservation(stamped, observed);
  };
  const metadata = clusterMetadataOf(scenario);
  const recorder = new HistoryRecorder(HISTORY_OPS_MAX);
  const control = { stopping: false };
  let nextValue = 0;
  const deps: ClientDeps = {
    metadata,
    recorder,
    control,
    clock: () => sim.nowUs,
    nextValue: () => nextValue++,
    transactionVersion: scenario.protocol.transactionVersion,
  };
  const switchReads = new SwitchReads();
  const brokers = metadata.brokers.map((id) => ({
    id: id as string,
    broker: newBroker(id, metadata, scenario, switchReads),
  }));
  const controller = newController(scenario, metadata);
  sim.addNode(nodeId(CONTROLLER_ID), controller);
  for (const { id, broker } of brokers) sim.addNode(nodeId(id), broker);
  const clients = scenario.clients.map(
    (spec) => new ClientActor(withProducerBugs(spec, scenario.bugs, switchReads), deps),
  );
  scenario.clients.forEach((spec, index) =>
    sim.addNode(nodeId(spec.name), clients[index] as ClientActor),
  );
  const readers = (['read_committed', 'read_uncommitted'] as const).map((level) => {
    const name = `final-${level.replace('_', '-')}`;
    const reader = new FinalReaderActor(name, level, deps);
    sim.addNode(nodeId(name), reader);
    return reader;
  });
  const nemesis = scheduleFaults({ sim, recorder, controller, metadata, scenario, deps, brokers });
  return {
    ...{ sim, recorder, control, brokers, controller, metadata, clients, readers, nemesis },
    ...{ observed, stateChecker, lateTransactions, switchReads },
  };
}

/** The KRaft controller of the scenario's cluster. */
function newController(scenario: ScenarioConfig, metadata: ClusterMetadata): Controller {
  return new Controller(metadata.brokers, metadata.initialStates(), {
    brokerSessionTimeoutMs: scenario.broker.brokerSessionTimeoutMs,
    uncleanLeaderElectionEnable: scenario.broker.uncleanLeaderElectionEnable,
    eligibleLeaderReplicasEnabled: scenario.protocol.eligibleLeaderReplicasVersion >= 1,
    // MetadataVersion.isElrSupported (4.0-IV1): a 4.0+ controller, ELR on or off.
    uncleanShutdownDetection: compareVersions(scenario.kafkaVersion, '4.0') >= 0,
    minInsyncReplicasOf: (topic) =>
      metadata.minInsyncReplicasOf(topic) ?? scenario.broker.minInsyncReplicas,
  });
}

/**
 * The nemesis with the scenario's faults and its random nemesis's drawn faults scheduled, and
 * the operator node when the scenario runs kafka-transactions commands.
 */
function scheduleFaults(input: {
  readonly sim: Simulation;
  readonly recorder: HistoryRecorder;
  readonly controller: Controller;
  readonly metadata: ClusterMetadata;
  readonly scenario: ScenarioConfig;
  readonly deps: ClientDeps;
  readonly brokers: ReadonlyArray<{ readonly id: string; readonly broker: Broker }>;
}): Nemesis {
  const { sim, scenario } = input;
  // The operator node exists only when the scenario runs kafka-transactions commands.
  const operator = scenario.faults.some((fault) => fault.kind === 'operator')
    ? new OperatorActor(input.deps)
    : null;
  if (operator !== null) sim.addNode(nodeId(OPERATOR_NODE), operator);
  const view = clusterViewOf({
    controller: input.controller,
    metadata: input.metadata,
    numPartitions: scenario.broker.transactionStateLogNumPartitions,
    offsetsNumPartitions: scenario.broker.offsetsTopicNumPartitions,
    clients: scenario.clients.map((client) => client.name),
    operator,
    brokers: input.brokers,
  });
  const nemesis = new Nemesis(sim, input.recorder, sim.rootRng.fork('faults'), view);
  const drawn = drawnFaults(scenario, sim.rootRng.fork('nemesis'));
  nemesis.schedule([...scenario.faults, ...drawn]);
  return nemesis;
}

/**
 * The cluster at creation; `__transaction_state` exists when a client is transactional and
 * `__consumer_offsets` when a client is in a consumer group (Kafka creates each at the first
 * FindCoordinator for it).
 */
function clusterMetadataOf(scenario: ScenarioConfig): ClusterMetadata {
  const transactional = scenario.clients.some(
    (client) =>
      (client.role === 'producer' && client.settings.transactionalId !== null) ||
      client.role === 'pipeline',
  );
  const grouped = scenario.clients.some((client) => client.role === 'pipeline');
  const broker = scenario.broker;
  const transactionStateLog = {
    numPartitions: broker.transactionStateLogNumPartitions,
    replicationFactor: broker.transactionStateLogReplicationFactor,
    minInsyncReplicas: broker.transactionStateLogMinIsr,
  };
  const consumerOffsetsLog = {
    numPartitions: broker.offsetsTopicNumPartitions,
    replicationFactor: broker.offsetsTopicReplicationFactor,
  };
  return new ClusterMetadata(
    scenario.brokers,
    scenario.topics,
    transactional ? transactionStateLog : null,
    grouped ? consumerOffsetsLog : null,
  );
}

/** The phases of a run as they begin; the one in progress ends when the next begins. */
export class PhaseClock {
  readonly phases: RunPhase[] = [];
  private current: { name: RunPhaseName; fromUs: number } | null = null;

  constructor(private readonly sim: Simulation) {}

  /** The phase in progress, or the last one when none is. */
  get currentName(): RunPhaseName {
    return this.current?.name ?? this.phases.at(-1)?.name ?? 'workload';
  }

  /** Ends the phase in progress now and starts `name`. */
  begin(name: RunPhaseName): void {
    this.end();
    this.current = { name, fromUs: this.sim.nowUs };
  }

  /** Ends the phase in progress, if any, now. */
  end(): void {
    if (this.current !== null) this.phases.push({ ...this.current, toUs: this.sim.nowUs });
    this.current = null;
  }
}

/**
 * Workload with faults until `run.duration.ms`; heal (faults end, no new operations) until the
 * cluster settles or `run.heal.ms` passes; the liveness probe (`liveness.ts`) for at most
 * `run.liveness.ms`; settling again; then the final reads. Returns whether it converged and, if
 * not, what did not.
 */
export function runPhases(
  world: World,
  scenario: ScenarioConfig,
  phases: PhaseClock,
): { converged: boolean; detail: string } {
  const { sim, control, nemesis, clients, observed, readers } = world;
  phases.begin('workload');
  sim.runUntil(scenario.durationMs * 1000);
  phases.begin('heal');
  sim.schedule(sim.nowUs, 'heal', () => {
    control.stopping = true;
    nemesis.healAll();
  });
  const busyClients = (): number => clients.filter((client) => client.busy).length;
  const settled = (): boolean => busyClients() === 0 && unstableLeaders(observed, false) === 0;
  // Messages a delay fault held back are still on their way after the fault ends, and deadlines
  // stamped by a clock that ran ahead lie later (Nemesis.longestAftermathUs).
  const healUs = scenario.healMs * 1000 + nemesis.longestAftermathUs;
  sim.runUntil(sim.nowUs + healUs, () => control.stopping && settled());
  const problems: string[] = [];
  phases.begin('liveness');
  if (!settled()) {
    const busy = scenario.clients.filter((_, index) => clients[index]?.busy === true);
    const names = busy.map((client) => client.name).join(', ');
    problems.push(
      `after heal: ${busyClients()} clients busy (${names}), ` +
        `${unstableLeaders(observed, false)} partitions not stable (LSO below LEO)` +
        unstableLeaders(observed, true)
          .map((where) => `: ${where}`)
          .join(''),
    );
  }
  const probe = runLivenessProbe(
    { ...world, specs: scenario.clients, history: world.recorder.history },
    scenario.livenessMs * 1000,
  );
  problems.push(...probe.problems);
  phases.begin('settle');
  sim.runUntil(sim.nowUs + scenario.healMs * 1000, settled);
  awaitCompletions(world, scenario);
  const settledUs = sim.nowUs;
  phases.begin('final-reads');
  // Every data partition the controller has, those created during the run included.
  const partitionsNow = (): TopicPartition[] =>
    world.controller
      .partitionStates()
      .filter((state) => !state.topic.startsWith('__'))
      .map(({ topic, partition }) => ({ topic, partition }));
  sim.schedule(sim.nowUs, 'final reads', () =>
    readers.forEach((reader) => reader.begin(partitionsNow())),
  );
  sim.runUntil(sim.nowUs + FINAL_READ_US_MAX, () => readers.every((reader) => reader.done));
  if (!readers.every((reader) => reader.done)) problems.push('final reads did not complete');
  const notes = probe.notes.length === 0 ? '' : `; ${probe.notes.join('; ')}`;
  if (problems.length === 0) {
    return { converged: true, detail: `settled at ${settledUs} us, probes passed${notes}` };
  }
  return { converged: false, detail: problems.join('; ') + notes };
}

/**
 * How long a settled run waits for coordinators to complete transactions whose markers are all
 * written: a WriteTxnMarkers response that was lost is resent only when the inter-broker request
 * times out, and the CompleteCommit/CompleteAbort append that follows can time out once more
 * (both bounded by the broker's `request.timeout.ms`, 30 s by default;
 * TransactionMarkerChannelManager, TransactionStateManager.appendTransactionToLog).
 */
export const COMPLETION_GRACE_US = 2 * 30_000_000 + 1_000_000;

/**
 * Runs on, at most {@link COMPLETION_GRACE_US}, while a coordinator holds a transaction in
 * PrepareCommit/PrepareAbort after every marker was written, so the invariant
 * `coordinator-completes-after-markers` judges only a completion Kafka would have written by now.
 */
function awaitCompletions(world: World, scenario: ScenarioConfig): void {
  const numPartitions = scenario.broker.transactionStateLogNumPartitions;
  const coordinatorOf = (transactionalId: string): string | null =>
    coordinatorAtEnd(world.observed, transactionalId, numPartitions);
  const completed = (): boolean =>
    world.stateChecker.awaitingCompletion(coordinatorOf).length === 0;
  if (completed()) return;
  world.sim.runUntil(world.sim.nowUs + COMPLETION_GRACE_US, completed);
}

/**
 * Leaders (by their own belief, as observed) whose log is not yet fully stable: an open
 * transaction, or a marker or record not yet below the high watermark (last stable offset short
 * of the log end offset), each named with a lost marker that explains it.
 */
function unstableLeaders(observed: ObservedCluster, describe: false): number;
function unstableLeaders(observed: ObservedCluster, describe: true): string[];
function unstableLeaders(observed: ObservedCluster, describe: boolean): number | string[] {
  const unstable: string[] = [];
  let count = 0;
  for (const replica of observed.replicas.values()) {
    if (replica.leaderEpoch === null) continue;
    if (replica.openTransactions.size > 0 || replica.lastStableOffset < replica.logEndOffset) {
      count += 1;
      if (!describe) continue;
      const key = partitionKey(replica);
      const lost = lostMarkers(observed, key).join('; ');
      const offsets = `LSO ${replica.lastStableOffset}, LEO ${replica.logEndOffset}`;
      unstable.push(`${key} on ${replica.broker} (${offsets}${lost === '' ? '' : `; ${lost}`})`);
    }
  }
  return describe ? unstable : count;
}
