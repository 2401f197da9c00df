/**
 * Turns a finished run into its {@link RunReport}: outcome, anomalies, expectations, the final
 * state of each partition, operation counts, fenced clients and the reproduce command.
 */
import { isFencingError } from '../actors';
import type { Simulation } from '../kernel';
import type { CheckResult } from '../checker';
import type { History, Oracle } from '../history';
import { versionDifferences, type ScenarioConfig } from '../../scenarios';
import type {
  AnomalyExplanation,
  ExpectationResult,
  OperationCount,
  PartitionSummary,
  RunOutcome,
  RunPhase,
  RunReport,
  RunTimeline,
} from './report_types';
import type { RunMetrics } from './metrics_types';
import type { SwarmParameters } from './swarm';
import { EOS_SIM_VERSION, SEEDRANDOM_VERSION } from './version';
import { anomalyMeaning } from './anomaly_meanings';
import { judgeAnomalies, type KindVerdict } from './guarantee_verdicts';
import { bugCauses } from './bug_causes';
import { operatorOutcomes, type OperatorOutcome } from './operator_outcomes';
import {
  faultsThatHappened,
  kafkaPermissions,
  type GuaranteeInput,
  type Permission,
} from './kafka_guarantee';
import { anomalySequence } from './anomaly_messages';
import { reproduceCommand } from './reproduce';
import type { MessageLogEntry } from './message_log';
import { buildMetrics } from './metrics';
import { buildTimeline } from './timeline';
import { fencedExpectation } from './fenced_expectation';

function countOperations(history: History): OperationCount[] {
  const counts = new Map<string, { invoke: number; ok: number; fail: number; info: number }>();
  for (const op of history) {
    if (op.f === 'nemesis') continue;
    const count = counts.get(op.f) ?? { invoke: 0, ok: 0, fail: 0, info: 0 };
    count[op.type] += 1;
    counts.set(op.f, count);
  }
  return [...counts]
    .map(([f, count]) => ({ f, ...count }))
    .sort((a, b) => (a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
}

/** Clients that received a fencing error, in the order they first did. */
export function fencedClients(history: History): string[] {
  const fenced: string[] = [];
  for (const op of history) {
    if (isFencingError(op.error) && !fenced.includes(op.client)) fenced.push(op.client);
  }
  return fenced;
}

/** Everything a report is built from. */
export interface ReportInput {
  readonly scenario: ScenarioConfig;
  readonly seed: string;
  readonly sim: Simulation;
  readonly check: CheckResult;
  readonly history: History;
  readonly oracle: Oracle;
  readonly liveness: { converged: boolean; detail: string };
  /** The phases the run went through (`run.ts`). @default [] */
  readonly phases?: readonly RunPhase[];
  readonly budgetError?: string;
  /** The run's delivered messages (empty when none were logged) and how many were dropped. */
  readonly messages: { readonly entries: readonly MessageLogEntry[]; readonly dropped: number };
  /** What swarm mode drew, when it was on. */
  readonly swarm?: SwarmParameters;
  /** The bug switches the simulation consulted (`switch_reads.ts`). @default [] */
  readonly switchesReached?: readonly string[];
}

/** The report's Kafka release, the switches set otherwise and those the run consulted. */
function kafkaOf(scenario: ScenarioConfig, switchesReached: readonly string[]): RunReport['kafka'] {
  return {
    version: scenario.kafkaVersion,
    differences: versionDifferences(scenario),
    switchesReached,
  };
}

/** The first anomaly of each kind, with its meaning and the messages around it. */
function explain(input: ReportInput): AnomalyExplanation[] {
  const explanations: AnomalyExplanation[] = [];
  const seen = new Set<string>();
  input.check.anomalies.forEach((anomaly, anomalyIndex) => {
    if (seen.has(anomaly.kind)) return;
    seen.add(anomaly.kind);
    const sequence = anomalySequence({
      anomaly,
      messages: input.messages.entries,
      oracle: input.oracle,
      faults: input.oracle.faults,
      endUs: input.sim.nowUs,
    });
    explanations.push({
      anomalyIndex,
      kind: anomaly.kind,
      meaning: anomalyMeaning(anomaly.kind),
      sequence,
    });
  });
  return explanations;
}

function partitionSummaries(oracle: Oracle): PartitionSummary[] {
  return oracle.partitions.map((partition) => {
    const replicas = partition.replicas ?? [];
    return {
      topic: partition.topic,
      partition: partition.partition,
      leader: partition.leader,
      logStartOffset: partition.logStartOffset,
      logEndOffset: partition.logEndOffset,
      highWatermark: partition.highWatermark,
      lastStableOffset: partition.lastStableOffset,
      openTransactions: partition.openTransactions.length,
      replicas: replicas.map((replica) => replica.broker),
      isr: replicas.filter((replica) => replica.inSyncReplica).map((replica) => replica.broker),
    };
  });
}

/** Kinds the run may show: the scenario's expectations, then Kafka's permissions. */
function expectedKinds(scenario: ScenarioConfig, permissions: readonly Permission[]): string[] {
  const kinds = [...scenario.expect.anomalies, ...scenario.expect.allowed];
  for (const permission of permissions) {
    for (const kind of permission.kinds) if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}

/** `expect.stall`: the run must not converge after heal. */
function stallExpectation(input: ReportInput): ExpectationResult[] {
  if (!input.scenario.expect.stall) return [];
  const converged = input.liveness.converged;
  return [
    {
      name: 'the run stalls after heal (expect.stall)',
      met: !converged,
      detail: converged ? 'it converged' : 'it did not converge',
    },
  ];
}

/** What the run was expected to show, and whether it did. */
function expectationsOf(
  input: ReportInput,
  judged: { readonly verdicts: readonly KindVerdict[]; readonly fenced: readonly string[] },
  unexpected: readonly string[],
): ExpectationResult[] {
  const { scenario, check } = input;
  return [
    {
      name: 'no anomaly outside expect.anomalies',
      met: unexpected.length === 0 && check.valid !== 'unknown',
      detail: unexpected.length === 0 ? 'none found' : `found ${unexpected.join(', ')}`,
    },
    ...scenario.expect.fenced.map((client) => fencedExpectation(input, judged, client)),
    ...stallExpectation(input),
    ...scenario.expect.anomalies.map((kind) => ({
      name: `${kind} reproduced (expected for this configuration; judged over seeds)`,
      met: true,
      detail: check.anomalyTypes.includes(kind as never)
        ? 'found on this seed'
        : 'not found on this seed',
    })),
  ];
}

/** What the guarantee model reads of a run: its faults, history and the oracle's replication. */
function guaranteeInputOf({ scenario, history, oracle }: ReportInput): GuaranteeInput {
  return {
    scenario,
    faults: faultsThatHappened(history),
    history,
    // An oracle recorded outside the simulator has no replication facts: nothing is placed.
    ...(oracle.elections === undefined && oracle.truncations === undefined
      ? {}
      : {
          replication: { elections: oracle.elections ?? [], truncations: oracle.truncations ?? [] },
        }),
  };
}

/** The permissions of the run's configuration and faults, and each anomaly kind's verdict. */
function judgedOf(input: ReportInput): { permissions: Permission[]; verdicts: KindVerdict[] } {
  const guarantee = guaranteeInputOf(input);
  const permissions = kafkaPermissions(guarantee);
  const causes = bugCauses(input.scenario, guarantee.faults);
  return {
    permissions,
    verdicts: judgeAnomalies(input.check, permissions, input.scenario.expect, causes),
  };
}

/** Builds the report of one run. */
export function buildReport(input: ReportInput): RunReport {
  const { scenario, check, history, oracle } = input;
  const { permissions, verdicts } = judgedOf(input);
  const unexpected = verdicts
    .filter((verdict) => verdict.verdict === 'violates' && verdict.expectedBy === null)
    .map((verdict) => verdict.kind);
  const fenced = fencedClients(history);
  const lazy: {
    timeline?: RunTimeline;
    metrics?: RunMetrics;
    operations?: OperationCount[];
    operatorOutcomes?: OperatorOutcome[];
    explanations?: AnomalyExplanation[];
  } = {};
  const expectations = expectationsOf(input, { verdicts, fenced }, unexpected);
  let outcome: RunOutcome = expectations.every((expectation) => expectation.met) ? 'pass' : 'fail';
  if (outcome === 'pass' && !input.liveness.converged && scenario.expect.liveness) {
    outcome = 'liveness';
  }
  if (input.budgetError !== undefined) outcome = 'budget-exceeded';
  return {
    tool: { name: 'eos-sim', version: EOS_SIM_VERSION, seedrandom: SEEDRANDOM_VERSION },
    seed: input.seed,
    scenario: { name: scenario.name, file: scenario.file, hash: scenario.hash },
    kafka: kafkaOf(scenario, input.switchesReached ?? []),
    outcome,
    eventHash: input.sim.eventHash,
    eventsRun: input.sim.eventsRun,
    simulatedUs: input.sim.nowUs,
    phases: input.phases ?? [],
    check,
    expectedAnomalyTypes: expectedKinds(scenario, permissions),
    unexpectedAnomalyTypes: unexpected,
    guarantee: { permissions, verdicts },
    expectations,
    partitions: partitionSummaries(oracle),
    // Only reports read the operation counts, the explanations, the timeline and the metrics,
    // never a verdict: a sweep worker's passing seed never computes them.
    get operations(): OperationCount[] {
      return (lazy.operations ??= countOperations(history));
    },
    fencedClients: fenced,
    ...(oracle.fetchFailures === undefined ? {} : { fetchFailures: oracle.fetchFailures }),
    faults: oracle.faults,
    get operatorOutcomes(): OperatorOutcome[] {
      return (lazy.operatorOutcomes ??= operatorOutcomes(history));
    },
    get explanations(): AnomalyExplanation[] {
      return (lazy.explanations ??= explain(input));
    },
    get timeline(): RunTimeline {
      return (lazy.timeline ??= buildTimeline(history, oracle, input.phases ?? []));
    },
    get metrics(): RunMetrics {
      return (lazy.metrics ??= buildMetrics(history, oracle, input.phases ?? []));
    },
    messagesDropped: input.messages.dropped,
    liveness: input.liveness,
    reproduce: reproduceCommand(
      scenario.file,
      input.seed,
      input.swarm !== undefined,
      scenario.kafkaVersionFromCommandLine ? scenario.kafkaVersion : undefined,
    ),
    ...(input.swarm === undefined ? {} : { swarm: input.swarm }),
    ...(input.budgetError === undefined ? {} : { error: input.budgetError }),
  };
}
