/**
 * The mutation score of the checkers: every bug switch turned on alone in a generic scenario
 * (not its hand-written reproducer) under swarm mode, seed after seed, until a run fails. A
 * failing seed counts as a catch only if the same seed and draw without the switch passes and
 * executes different events, so a catch is the switch's doing and not the base's, nor only the
 * guarantee model's (a switch on takes away the permissions of its anomaly kinds). The bases
 * are the newest release (every bug off) under transaction version 2, and the same scenario
 * under transaction version 0 without partition verification, where the pre-KIP-890 bugs can
 * show.
 */
import {
  BUG_ROWS,
  clientBugOf,
  withLibrdkafkaClients,
  type BugId,
  type ScenarioConfig,
} from '../scenarios';
import { drawSwarm, runScenario, type RunReport } from '../sim/runner';

/** One base the switches are tried on. */
export interface MutantBase {
  /** A short name for the table: `tv2`, `tv0`. */
  readonly label: string;
  readonly scenario: ScenarioConfig;
}

/** What the search found for one switch. */
export interface MutantResult {
  readonly id: BugId;
  readonly caught: boolean;
  /** How many seeds were run (per base) up to and including the first catch. */
  readonly seedsRun: number;
  /** The seed of the first catch; null when not caught. */
  readonly seed: string | null;
  /** The anomaly kind (or `liveness`) of the first catch. */
  readonly kind: string | null;
  /** The base of the first catch. */
  readonly base: string | null;
}

/**
 * The two generic bases of `scenario`: as written, and with transaction version 0 and partition
 * verification off (the protocol before KIP-890). Both with every bug switch off.
 */
export function genericBases(scenario: ScenarioConfig): MutantBase[] {
  const off = Object.fromEntries(BUG_ROWS.map((row) => [row.id, false])) as Record<BugId, boolean>;
  const clean: ScenarioConfig = { ...scenario, bugs: off };
  const tv0: ScenarioConfig = {
    ...clean,
    protocol: { ...clean.protocol, transactionVersion: 0 },
    broker: { ...clean.broker, transactionPartitionVerificationEnable: false },
  };
  return [
    { label: `tv${clean.protocol.transactionVersion}`, scenario: clean },
    { label: 'tv0', scenario: tv0 },
  ];
}

/** One swarm run of `scenario` at `seed`. */
function swarmRun(scenario: ScenarioConfig, seed: string): RunReport {
  const { scenario: drawn, parameters } = drawSwarm(scenario, seed);
  return runScenario(drawn, { seed, swarm: parameters, messageLog: false }).report;
}

/** The kind a failed run is counted under: its first unexpected anomaly, else its outcome. */
function kindOf(report: RunReport): string {
  return report.unexpectedAnomalyTypes[0] ?? report.outcome;
}

/**
 * Searches `seeds` for the first catch of switch `id` on any of `bases` (each seed tries every
 * base in order before the next seed).
 */
export function searchMutant(
  id: BugId,
  bases: readonly MutantBase[],
  seeds: readonly string[],
): MutantResult {
  let seedsRun = 0;
  // A client bug (librdkafka's) is tried with librdkafka producers, on the bases below
  // transaction version 2 (librdkafka has no KIP-890 part 2).
  const client = clientBugOf(id) !== undefined;
  const tried = client
    ? bases
        .filter((base) => base.scenario.protocol.transactionVersion < 2)
        .map((base) => ({
          label: `${base.label}-librdkafka`,
          scenario: withLibrdkafkaClients(base.scenario, {}),
        }))
    : bases;
  for (const seed of seeds) {
    seedsRun += 1;
    for (const base of tried) {
      const mutant = client
        ? withLibrdkafkaClients(base.scenario, { [id]: true })
        : { ...base.scenario, bugs: { ...base.scenario.bugs, [id]: true } };
      const report = swarmRun(mutant, seed);
      if (report.outcome === 'pass') continue;
      // The control: the same seed and draw without the switch must pass, and run differently
      // (the same events mean the switch changed only the verdict's permissions, not Kafka).
      const control = swarmRun(base.scenario, seed);
      if (control.outcome !== 'pass' || control.eventHash === report.eventHash) continue;
      return { id, caught: true, seedsRun, seed, kind: kindOf(report), base: base.label };
    }
  }
  return { id, caught: false, seedsRun, seed: null, kind: null, base: null };
}

/** The table `eos-sim mutants` prints, one row per switch. */
export function renderMutantTable(results: readonly MutantResult[]): string {
  const rows = results.map((result) => [
    result.id,
    result.caught ? 'yes' : 'no',
    result.caught ? String(result.seedsRun) : `none in ${result.seedsRun}`,
    result.kind ?? '-',
    result.base ?? '-',
    result.seed ?? '-',
  ]);
  const header = ['switch', 'caught', 'seeds to first catch', 'kind', 'base', 'seed'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join(' | ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
