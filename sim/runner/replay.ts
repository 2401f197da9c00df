/**
 * Replay to a moment (`eos-sim run FILE --seed N --until …`): the run of one seed, stopped at a
 * virtual time, after an event index, or at the first anomaly, with the cluster as it stands
 * then. The replay is the same run as {@link runScenario}'s up to that moment (same world, same
 * phases, same events): the kernel's halt stops it between two events and nothing else changes.
 */
import { BudgetExceededError, RunHaltedError, type HaltLimit } from '../kernel';
import { HistoryBoundExceededError } from '../history';
import type { Anomaly } from '../checker';
import type { ScenarioConfig } from '../../scenarios';
import { clusterState } from './cluster_state';
import type { ClusterState } from './cluster_state_types';
import { PhaseClock, buildWorld, runPhases, runScenario } from './run';
import type { SwarmParameters } from './swarm';

/** A replay stopped at a moment. */
export interface ReplayResult {
  readonly state: ClusterState;
  /** False when the run ended before the limit: the state is then the run's end. */
  readonly reached: boolean;
  /** Set when the run hit its event budget before the limit (the state is then there). */
  readonly budgetError?: string;
}

/** Replays `scenario` with `seed` and stops at `limit`; `stoppedBy` says why, for the printout. */
export function replayTo(
  scenario: ScenarioConfig,
  options: {
    readonly seed: string;
    readonly limit: HaltLimit;
    readonly stoppedBy: string;
    readonly swarm?: SwarmParameters;
  },
): ReplayResult {
  const world = buildWorld(scenario, { seed: options.seed });
  world.sim.haltAt(options.limit);
  const phases = new PhaseClock(world.sim);
  let reached = false;
  let budgetError: string | undefined;
  try {
    runPhases(world, scenario, phases);
  } catch (error) {
    // The run's own end by budget, as runScenario ends it: the cluster is printed as it stands.
    if (error instanceof BudgetExceededError || error instanceof HistoryBoundExceededError) {
      budgetError = error.message;
    } else if (error instanceof RunHaltedError) reached = true;
    else throw error;
  }
  const ended =
    budgetError === undefined
      ? `the run ended before ${options.stoppedBy}`
      : `its event budget (${budgetError}), before ${options.stoppedBy}`;
  const stoppedBy = reached ? options.stoppedBy : ended;
  const state = clusterState({
    world,
    scenario,
    seed: options.seed,
    phase: phases.currentName,
    stoppedBy,
  });
  return { state, reached, ...(budgetError === undefined ? {} : { budgetError }) };
}

/**
 * The moment of the earliest anomaly of a run: its event index when the checker knows it, else
 * its virtual time (the replay then stops after every event at that time, the event of the
 * history operation that exhibits it included). Null when the run found none with a time.
 */
export function firstAnomalyMoment(
  anomalies: readonly Anomaly[],
): { limit: HaltLimit; anomaly: Anomaly } | null {
  let first: Anomaly | null = null;
  for (const anomaly of anomalies) {
    if (anomaly.timeUs === undefined) continue;
    if (first === null || anomaly.timeUs < (first.timeUs ?? Infinity)) first = anomaly;
  }
  if (first?.timeUs === undefined) return null;
  return { limit: { timeUs: first.timeUs }, anomaly: first };
}

/**
 * Runs the seed in full to find its first anomaly, then replays to it. Null when the run found
 * no anomaly with a time.
 */
export function replayToFirstAnomaly(
  scenario: ScenarioConfig,
  options: { readonly seed: string; readonly swarm?: SwarmParameters },
): (ReplayResult & { anomaly: Anomaly }) | null {
  const run = runScenario(scenario, { ...options, messageLog: false });
  const moment = firstAnomalyMoment(run.report.check.anomalies);
  if (moment === null) return null;
  const { anomaly } = moment;
  const where =
    anomaly.topic === undefined ? '' : ` at ${anomaly.topic}-${anomaly.partition ?? '?'}`;
  const replay = replayTo(scenario, {
    ...options,
    limit: moment.limit,
    stoppedBy: `--until first-anomaly: ${anomaly.kind}${where} at ${anomaly.timeUs ?? 0} us`,
  });
  return { ...replay, anomaly };
}
