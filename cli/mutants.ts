/**
 * The mutation score of the checkers: every bug switch turned on alone in a generic scenario
 * (not its hand-written reproducer) under swarm mode, seed after seed, until a run fails. A
 * failing seed counts as a catch only if the same seed and draw without the switch passes and
 * executes different events ({@link judgeCatch}), so a catch is the switch's doing and not the
 * base's, nor only the guarantee model's (a switch on takes away the permissions of its anomaly
 * kinds). A stall (outcome `liveness`) counts under the same rule as a safety anomaly.
 *
 * The bases are derived from one generic file with the newest release's switches
 * ({@link genericBases}): the file as written (transactional, the newest release under
 * transaction version 2), the same under transaction version 0 without partition verification
 * (the protocol before KIP-890, where the pre-KIP-890 bugs can show), and an idempotent base in
 * which each transactional producer is an idempotent one (`enable.idempotence=true`, no
 * `transactional.id`) writing the same records, where the bugs of the idempotent producer and
 * of the broker's sequence checks can show. Swarm mode draws power loss, clock skew and forced
 * unclean elections on every base, and the file's replication (acks=all, min.insync.replicas 2,
 * three replicas) and consumers (read_committed and read_uncommitted) are kept, so the
 * replication and visibility switches are tried on all three. A client bug is tried with that
 * client's producers ({@link basesOf}): a librdkafka bug on the transaction version 0 and the
 * idempotent bases with librdkafka producers (librdkafka has no KIP-890 part 2).
 */
import {
  BUG_ROWS,
  NEWEST_KAFKA_VERSION,
  bugsOf,
  clientBugOf,
  withClientFlavour,
  type BugId,
  type ClientConfig,
  type ProducerClient,
  type ProducerSettings,
  type ScenarioConfig,
} from '../scenarios';
import type { SweepResultLine } from '../reports';
import type { BaseCheck } from './mutant_search';

/** One base the switches are tried on. */
export interface MutantBase {
  /** A short name for the table: `tv2`, `tv0`, `idempotent`, `tv0-librdkafka`. */
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
  /**
   * Seeds where the switch made a run fail but the control did not make it a catch, by reason
   * (`control-failed`, `same-events`, `not-judged`); absent when none.
   */
  readonly rejected?: Readonly<Record<string, number>>;
  /**
   * How many of the runs judged (seeds × bases, up to the first catch) had a control that
   * consulted the switch: 0 means the generic search never reached the code the switch
   * changes. Absent when the switch was not tried.
   */
  readonly reached?: number;
  /** Why the switch was not tried, e.g. it is on in every base already; absent when it was. */
  readonly note?: string;
}

/** What one run (a mutant or a control) came to, from its sweep result line. */
export interface MutantRun {
  readonly outcome: SweepResultLine['outcome'];
  readonly eventHash: string;
  /** The first unexpected anomaly kind, else the outcome. */
  readonly kind: string;
  /** Every anomaly kind the checkers found, permitted ones included. @default [] */
  readonly found?: readonly string[];
  /** Why the run stopped early (budget, wall clock, internal error). */
  readonly error?: string;
  /**
   * The switches the run consulted (sim/runner/switch_reads.ts); absent when unknown (a run
   * recorded before they were, or one that did not finish), which counts as every switch.
   */
  readonly reached?: readonly string[];
}

/** The run of a sweep result line. */
export function mutantRunOf(line: SweepResultLine): MutantRun {
  return {
    outcome: line.outcome,
    eventHash: line.eventHash,
    kind: line.unexpected[0] ?? line.outcome,
    found: Object.keys(line.anomalies),
    ...(line.error === undefined ? {} : { error: line.error }),
    ...(line.switchesReached === undefined ? {} : { reached: line.switchesReached }),
  };
}

/**
 * The switches of the newest release: every fixed bug off, and the bugs no release has fixed
 * (KAFKA-14034) on, as in Kafka. With those off the base would run a fix Kafka never shipped,
 * and the guarantee model withdraws the permission that fix implies (an idempotent producer's
 * epoch-bump duplicate), so the base would not be clean.
 */
function newestSwitches(): Record<BugId, boolean> {
  return bugsOf(NEWEST_KAFKA_VERSION);
}

/** Whether switch `id` is already on in `base` (a bug every release has): it cannot be tried. */
export function onInBase(id: BugId, base: MutantBase): boolean {
  if (clientBugOf(id) !== undefined) return false;
  return base.scenario.bugs[id];
}

/**
 * A transactional producer as the idempotent producer that writes the same records: no
 * `transactional.id`, `enable.idempotence=true`, one send per record at the same pace. Other
 * clients are kept; a pipeline (transactional by nature) is left out.
 */
function idempotentClient(client: ClientConfig): ClientConfig[] {
  if (client.role === 'pipeline') return [];
  if (client.role !== 'producer' || client.workload.type !== 'transactions') return [client];
  const { workload } = client;
  const settings: ProducerSettings = {
    ...client.settings,
    transactionalId: null,
    enableIdempotence: true,
  };
  const sends: ProducerClient['workload'] = {
    type: 'sends',
    startMs: workload.startMs,
    sends: workload.transactions * workload.recordsPerTransaction,
    sendIntervalMs: workload.sendIntervalMs,
    recordsPerSend: workload.recordsPerSend,
    topics: workload.topics,
    ...(workload.partitioner === undefined ? {} : { partitioner: workload.partitioner }),
    ...(workload.keys === undefined ? {} : { keys: workload.keys }),
  };
  return [{ ...client, settings, workload: sends }];
}

/**
 * The generic bases of `scenario`, with the newest release's switches (every fixed bug off):
 * as written
 * (`tv2` for the newest release), with transaction version 0 and partition verification off
 * (`tv0`, the protocol before KIP-890), and with every transactional producer idempotent
 * (`idempotent`).
 */
export function genericBases(scenario: ScenarioConfig): MutantBase[] {
  const clean: ScenarioConfig = { ...scenario, bugs: newestSwitches() };
  const tv0: ScenarioConfig = {
    ...clean,
    protocol: { ...clean.protocol, transactionVersion: 0 },
    broker: { ...clean.broker, transactionPartitionVerificationEnable: false },
  };
  const idempotent: ScenarioConfig = { ...clean, clients: clean.clients.flatMap(idempotentClient) };
  return [
    { label: `tv${clean.protocol.transactionVersion}`, scenario: clean },
    { label: 'tv0', scenario: tv0 },
    { label: 'idempotent', scenario: idempotent },
  ];
}

/** Whether `scenario` has a transactional producer (a pipeline's included). */
function isTransactional(scenario: ScenarioConfig): boolean {
  return scenario.clients.some(
    (client) =>
      client.role === 'pipeline' ||
      (client.role === 'producer' && client.settings.transactionalId !== null),
  );
}

/**
 * The bases switch `id` is tried on, in order. A Kafka bug: the generic bases that do not have
 * it on already (none for a bug every release has). A client bug: those its client can run,
 * with that client's producers, labelled `<base>-<flavour>`: librdkafka has no transactional
 * producer under transaction version 2 (it does not speak it), sarama none at all in the lines
 * modelled; franz-go runs every base.
 */
export function basesOf(id: BugId, bases: readonly MutantBase[]): MutantBase[] {
  const flavour = clientBugOf(id)?.flavour;
  if (flavour === undefined || flavour === 'java')
    return bases.filter((base) => !onInBase(id, base));
  const runs = (scenario: ScenarioConfig): boolean => {
    if (flavour === 'franz-go' || !isTransactional(scenario)) return true;
    return flavour === 'librdkafka' && scenario.protocol.transactionVersion < 2;
  };
  return bases
    .filter((base) => runs(base.scenario))
    .map((base) => ({
      label: `${base.label}-${flavour}`,
      scenario: withClientFlavour(base.scenario, flavour, {}),
    }));
}

/** Every base some switch of `ids` is tried on, each once, in first-use order. */
export function controlBases(ids: readonly BugId[], bases: readonly MutantBase[]): MutantBase[] {
  const all = new Map<string, MutantBase>();
  for (const id of ids) {
    for (const base of basesOf(id, bases)) if (!all.has(base.label)) all.set(base.label, base);
  }
  return [...all.values()];
}

/** `base` with switch `id` on alone (`null`: the base itself, the control). */
export function mutantScenario(base: MutantBase, id: BugId | null): ScenarioConfig {
  if (id === null) return base.scenario;
  const flavour = clientBugOf(id)?.flavour;
  if (flavour !== undefined && flavour !== 'java') {
    return withClientFlavour(base.scenario, flavour, { [id]: true });
  }
  return { ...base.scenario, bugs: { ...base.scenario.bugs, [id]: true } };
}

/**
 * The base labelled `label` among the bases of `scenario` (what a sweep worker rebuilds from the
 * file it is given).
 */
export function baseByLabel(scenario: ScenarioConfig, label: string): MutantBase {
  const bases = genericBases(scenario);
  const ids = BUG_ROWS.map((row) => row.id);
  const base = controlBases(ids, bases).find((candidate) => candidate.label === label);
  if (base === undefined) throw new Error(`no mutant base labelled ${label}`);
  return base;
}

/** The verdict on one failing seed of a switch. */
export type CatchVerdict =
  | { readonly caught: true; readonly kind: string }
  | { readonly caught: false; readonly reason: RejectReason | 'passed' };

/** Why a failing run of a switch is not a catch (the table's notes count them). */
export type RejectReason = 'not-judged' | 'control-failed' | 'same-events' | 'control-has-kind';

/**
 * Whether a mutant run is a catch, given the control (the same seed and draw without the
 * switch): the mutant must end in a verdict of the checkers (`fail`, `liveness`, or the
 * simulated budget run out), the control must pass, and the two runs must execute different
 * events, and the control must not have found the catching kind at all, even permitted. A
 * control that fails means the base itself is not clean at that seed, so the failure cannot be
 * put on the switch; the same events mean the switch changed only what the guarantee model
 * permits, not what Kafka did. A control that found the kind, permitted, means the switch may
 * only have withdrawn the permission (a switch on takes its kinds out of the configuration's
 * permissions) from an anomaly Kafka makes anyway, moved by some other change of the events. A
 * run stopped by the wall clock or an internal error is no verdict of the checkers and never a
 * catch.
 */
export function judgeCatch(mutant: MutantRun, control: MutantRun): CatchVerdict {
  if (mutant.outcome === 'pass') return { caught: false, reason: 'passed' };
  if (mutant.outcome === 'internal-error' || mutant.eventHash === '') {
    return { caught: false, reason: 'not-judged' };
  }
  if (control.outcome !== 'pass') return { caught: false, reason: 'control-failed' };
  if (control.eventHash === mutant.eventHash) return { caught: false, reason: 'same-events' };
  if ((control.found ?? []).includes(mutant.kind)) {
    return { caught: false, reason: 'control-has-kind' };
  }
  return { caught: true, kind: mutant.kind };
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
    result.reached === undefined ? '-' : String(result.reached),
    [
      ...Object.entries(result.rejected ?? {}).map(([reason, count]) => `${reason} ${count}`),
      ...(result.note === undefined ? [] : [result.note]),
    ].join(', ') || '-',
  ]);
  const header = [
    'switch',
    'caught',
    'seeds to first catch',
    'kind',
    'base',
    'seed',
    'runs reaching it',
    'notes',
  ];
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

/** The lines on each base's own runs: clean, or the seeds it failed at without any switch. */
export function renderBaseChecks(checks: readonly BaseCheck[], seeds: readonly string[]): string {
  return checks
    .map((check) => {
      const range =
        check.seedsRun === 0 ? 'no seeds' : `seeds ${seeds[0]}..${seeds[check.seedsRun - 1]}`;
      if (check.failures.length === 0) return `base ${check.label}: clean over ${range}\n`;
      const failed = check.failures.map((failure) => `${failure.seed} (${failure.kind})`);
      const at = failed.join(', ');
      return `base ${check.label}: FAILED without any switch over ${range} at seeds ${at}\n`;
    })
    .join('');
}
