/**
 * The random nemesis's faults of one run, drawn once for both the run and its exported scenario,
 * so `--export-scenario` replays the run it came from event for event.
 */
import type { Rng } from '../kernel';
import { drawRandomFaults, type ScriptedFault } from '../../faults';
import type { ScenarioConfig } from '../../scenarios';

/**
 * The nemesis's faults for `rng` (the run's `nemesis` stream), each ending at the latest at
 * `run.duration.ms`: the heal phase ends every fault there, so a drawn duration past it would
 * change nothing in the run, and a scenario file may not state one (the loader refuses it).
 * @example drawnFaults(scenario, new Rng('7').fork('nemesis')).length // 0 without a nemesis
 */
export function drawnFaults(scenario: ScenarioConfig, rng: Rng): ScriptedFault[] {
  if (scenario.nemesis === null) return [];
  return drawRandomFaults(scenario.nemesis, rng).map((fault) =>
    'forMs' in fault &&
    typeof fault.forMs === 'number' &&
    fault.atMs + fault.forMs > scenario.durationMs
      ? { ...fault, forMs: scenario.durationMs - fault.atMs }
      : fault,
  );
}
