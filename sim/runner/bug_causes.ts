/**
 * Which switched-on bug made an anomaly: a kind the bug's mechanism makes (`BUG_KINDS`) is
 * labelled as caused by that switch, with its id and source, and a scenario that turns the
 * switch on expects it (it is a known-bad configuration). The same kind with the switch off, or
 * a kind the bug does not make, is judged as any other.
 */
import type { AnomalyKind } from '../checker';
import { BUG_ROWS, type ScenarioConfig } from '../../scenarios';
import { BUG_KINDS, bugsThatCanAct, switchesOf, type HappenedFault } from './kafka_guarantee';

/** A switched-on bug and the kinds its mechanism makes. */
export interface BugCause {
  readonly id: string;
  readonly kinds: readonly AnomalyKind[];
  /** The bug's JIRA, pull request or tracker entry (`BUG_ROWS`, docs/versions.md). */
  readonly source: string;
}

/**
 * The switched-on bugs that make some kind and can have acted with the run's faults, in the
 * order the scenario lists them; a switch set by `kafka.version` counts as one set by `bugs:`.
 * @example bugCauses(scenario, faults)[0]?.id // 'redpanda-data/redpanda#3039'
 */
export function bugCauses(scenario: ScenarioConfig, faults: readonly HappenedFault[]): BugCause[] {
  return bugsThatCanAct(switchesOf(scenario).bugs, faults).flatMap((id) => {
    const kinds = BUG_KINDS[id];
    if (kinds === undefined) return [];
    const row = BUG_ROWS.find((candidate) => candidate.id === id);
    return [{ id, kinds, source: row?.source ?? id }];
  });
}
