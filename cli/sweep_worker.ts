/**
 * The sweep worker: one worker thread of the pool, started once and given many seeds. It loads
 * each scenario file once and caches it (checking the file's hash against the one the main
 * thread planned with), runs the seed, computes its result line and coverage, writes the
 * artifacts of a seed that did not pass (so the history never crosses threads), and returns the
 * line. An error the run throws becomes an `internal-error` line with its stack; hangs are the
 * main thread's business (it terminates this worker and the pool starts a fresh one).
 *
 * `sweep_worker.mjs` loads this module under tsx; it is the pool's entry point.
 *
 * Test-only hook: `EOS_SIM_TEST_FAULT`, read here and nowhere else (never in `sim/`), makes
 * chosen seeds misbehave so tests can exercise the pool's failure paths, since a scenario file
 * cannot express them. `EOS_SIM_TEST_FAULT="throw:5,hang:7,exit:9"` makes seed 5 throw, seed 7
 * spin forever and seed 9 end its worker thread, in every scenario. Not for users.
 */
import type { MessagePort } from 'node:worker_threads';
import { threadId } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { loadScenario, type ScenarioConfig } from '../scenarios';
import { drawSwarm, runScenario, type RunResult } from '../sim/runner';
import type { SweepResultLine } from '../reports';
import { writeArtifacts } from './artifacts';
import { failureOf, lineOfFailure, lineOfRun, type LineScenario } from './result_lines';
import { baseByLabel, mutantScenario } from './mutants';

/** One seed for a worker. */
export interface SeedTask {
  readonly scenario: LineScenario;
  readonly seed: string;
  /** `--out`, where artifacts go; undefined to write none. */
  readonly out: string | undefined;
  /** The worker posts `'started'` here when the seed begins, which starts its wall clock. */
  readonly started: MessagePort;
}

/** What a worker sends back for one seed. */
export interface SeedTaskResult {
  readonly line: SweepResultLine;
  readonly threadId: number;
  /** The worker's V8 heap (committed) after the seed, in bytes. */
  readonly heapBytes: number;
}

type TestFault = 'throw' | 'hang' | 'exit';

/** Parses `EOS_SIM_TEST_FAULT`: `kind:seed` pairs, comma-separated. Test-only. */
function parseTestFaults(text: string | undefined): ReadonlyMap<string, TestFault> {
  const faults = new Map<string, TestFault>();
  for (const item of (text ?? '').split(',')) {
    const match = /^\s*(throw|hang|exit):([0-9]+)\s*$/.exec(item);
    if (match !== null) faults.set(match[2] as string, match[1] as TestFault);
  }
  return faults;
}

const TEST_FAULTS = parseTestFaults(process.env['EOS_SIM_TEST_FAULT']);

function applyTestFault(seed: string): void {
  const fault = TEST_FAULTS.get(seed);
  if (fault === 'throw') throw new Error(`Test fault: seed ${seed} throws (EOS_SIM_TEST_FAULT)`);
  if (fault === 'exit') process.exit(1);
  while (fault === 'hang') {
    // Spins until the main thread terminates this worker.
  }
}

const scenarios = new Map<string, ScenarioConfig>();
const mutants = new Map<string, ScenarioConfig>();

/**
 * The scenario of `task`, loaded once per worker; it must still be the file that was planned.
 * A mutant task gets the file's generic base with its switch on (each built once).
 */
function scenarioOf(task: SeedTask): ScenarioConfig {
  let scenario = scenarios.get(task.scenario.file);
  if (scenario === undefined) {
    scenario = loadScenario(task.scenario.file, { kafkaVersion: task.scenario.kafkaVersion });
    scenarios.set(task.scenario.file, scenario);
  }
  if (scenario.hash !== task.scenario.hash) {
    throw new Error(`Scenario file changed during the sweep: ${task.scenario.file}`);
  }
  const { mutant } = task.scenario;
  if (mutant === undefined) return scenario;
  const key = `${task.scenario.file}\n${mutant.base}\n${mutant.bug ?? ''}`;
  let built = mutants.get(key);
  if (built === undefined) {
    built = mutantScenario(baseByLabel(scenario, mutant.base), mutant.bug);
    mutants.set(key, built);
  }
  return built;
}

/** Runs one seed of `scenario` (swarm-drawn when the task says so). */
function runSeed(
  task: SeedTask,
  scenario: ScenarioConfig,
  options: { readonly messageLog: boolean },
): RunResult {
  if (task.scenario.swarm === true) {
    const drawn = drawSwarm(scenario, task.seed);
    return runScenario(drawn.scenario, { ...options, seed: task.seed, swarm: drawn.parameters });
  }
  return runScenario(scenario, { ...options, seed: task.seed });
}

/**
 * Runs one seed and returns its line. Never throws for a failing run: an error becomes an
 * `internal-error` line. Artifacts of a seed that did not pass are written before returning.
 * The seed runs without the message log (it only feeds the report's sequence diagrams); a seed
 * that did not pass is run again with it for its artifacts, which the determinism contract
 * makes the same run (the replay's event hash is checked).
 * @example runSeedTask({ scenario, seed: '7', out: '.eos-sim/sweep', started: port })
 */
export default function runSeedTask(task: SeedTask): SeedTaskResult {
  task.started.postMessage('started');
  task.started.close();
  const startMs = performance.now();
  let line: SweepResultLine;
  let result: RunResult | undefined;
  try {
    const scenario = scenarioOf(task);
    applyTestFault(task.seed);
    result = runSeed(task, scenario, { messageLog: false });
    const wallMs = Math.round(performance.now() - startMs);
    line = lineOfRun({ scenario: task.scenario, seed: task.seed, result, wallMs });
    if (line.outcome !== 'pass' && task.out !== undefined) {
      result = runSeed(task, scenario, { messageLog: true });
      if (result.report.eventHash !== line.eventHash) {
        throw new Error(`Seed ${task.seed} replayed with another event hash (nondeterminism)`);
      }
    }
  } catch (error) {
    result = undefined;
    const wallMs = Math.round(performance.now() - startMs);
    line = lineOfFailure({
      scenario: task.scenario,
      seed: task.seed,
      failure: failureOf(error),
      wallMs,
    });
  }
  if (line.outcome !== 'pass' && task.out !== undefined) {
    writeArtifacts({ out: task.out, line, ...(result === undefined ? {} : { result }) });
  }
  return { line, threadId, heapBytes: getHeapStatistics().total_heap_size };
}
