/**
 * The search behind `eos-sim mutants`: for every switch, seed after seed and base after base,
 * the run with the switch on, and for every seed and base the control run without any switch,
 * on any number of runners at once. Runs are handed out seed by seed, so every switch reaches
 * seed N at about the same time; a switch stops being handed out once its first catch is
 * settled. The results are the same whatever the number of runners and whatever order the runs
 * finish in: a switch's first catch is settled only when every earlier seed and base of it is
 * judged, and a run that finishes after its switch is settled is ignored.
 *
 * The controls double as the check that each base is clean: a base that fails without any
 * switch at some seed is reported with the seed, since a catch on an unclean base could be the
 * base's own failure moved around by the switch.
 *
 * A switch's run waits for its control, and is not run at all when the control never consulted
 * the switch (sim/runner/switch_reads.ts): the two runs would execute the same events, which is
 * never a catch ({@link judgeCatch}, `same-events`). Most switches act only on a rare path, so
 * this skips most runs; the table counts, per switch, the runs that reached it. With
 * `runUnreached` the skipped runs are run anyway and the search fails if one of them executed
 * other events than its control: the proof that the skip drops no catch.
 */
import { isDeepStrictEqual } from 'node:util';
import { BUG_IDS, type BugId } from '../scenarios';
import { drawSwarm, runScenario } from '../sim/runner';
import {
  basesOf,
  controlBases,
  judgeCatch,
  mutantScenario,
  onInBase,
  type MutantBase,
  type MutantResult,
  type MutantRun,
} from './mutants';

/** One run: switch `bug` on alone in base `base` at `seed` (`bug` null: the control). */
export interface MutantTask {
  readonly base: string;
  readonly bug: BugId | null;
  readonly seed: string;
}

/** A base's own runs: seeds run without any switch, and those that did not pass. */
export interface BaseCheck {
  readonly label: string;
  readonly seedsRun: number;
  readonly failures: ReadonlyArray<{ readonly seed: string; readonly kind: string }>;
}

/** What the search reports as it goes. */
export type SearchEvent =
  | { readonly type: 'settled'; readonly result: MutantResult }
  | {
      readonly type: 'seed';
      /** Every run of this seed and the ones before it is done. */
      readonly seed: string;
      readonly seedsDone: number;
      readonly searching: number;
      readonly runs: number;
    };

/** The input of {@link searchMutants}. */
export interface MutantSearchInput {
  readonly ids: readonly BugId[];
  readonly bases: readonly MutantBase[];
  readonly seeds: readonly string[];
  /**
   * Runs one task. A failure of the run is a run with outcome `internal-error`; a rejection
   * stops the search (see {@link searchMutants}).
   */
  readonly run: (task: MutantTask) => Promise<MutantRun>;
  /** How many runs may be under way at once. */
  readonly concurrency: number;
  readonly onEvent?: (event: SearchEvent) => void;
  /**
   * Run also the switches' runs their controls never consulted the switch in, and fail when
   * one executed other events than its control. @default false
   */
  readonly runUnreached?: boolean;
}

/** The output of {@link searchMutants}. */
export interface MutantSearchOutput {
  /** One per switch, in the order of `ids`. */
  readonly results: readonly MutantResult[];
  /** One per base some switch was tried on. */
  readonly controls: readonly BaseCheck[];
  /** Runs done, controls included (speculative runs of settled switches too). */
  readonly runs: number;
  /** Switch runs not run because their control never consulted the switch. */
  readonly skipped: number;
}

/** The search state of one switch. */
interface SwitchState {
  readonly id: BugId;
  readonly labels: readonly string[];
  /** The next position (seed index × labels + label index) to judge. */
  frontier: number;
  readonly rejected: Record<string, number>;
  /** Judged positions whose control consulted the switch. */
  reached: number;
  result: MutantResult | undefined;
}

function keyOf(seedIndex: number, label: string, bug: BugId | null): string {
  return `${seedIndex}/${label}/${bug ?? ''}`;
}

/**
 * Throws unless switch `id` on `base` draws the same swarm parameters at `seed` as the base
 * alone: the control must be the same draw, or a catch would compare two different universes.
 */
function assertSameDraw(base: MutantBase, id: BugId, seed: string): void {
  const mutant = drawSwarm(mutantScenario(base, id), seed).parameters;
  const control = drawSwarm(base.scenario, seed).parameters;
  if (!isDeepStrictEqual(mutant, control)) {
    throw new Error(`${id} on ${base.label} draws another swarm at seed ${seed} than its control`);
  }
}

/** Judges `state` as far as the finished runs allow; returns true when it became settled. */
function advance(
  state: SwitchState,
  input: MutantSearchInput,
  done: ReadonlyMap<string, MutantRun>,
): boolean {
  if (state.result !== undefined) return false;
  const { seeds } = input;
  while (state.frontier < seeds.length * state.labels.length) {
    const seedIndex = Math.floor(state.frontier / state.labels.length);
    const label = state.labels[state.frontier % state.labels.length] as string;
    const seed = seeds[seedIndex] as string;
    const control = done.get(keyOf(seedIndex, label, null));
    if (control === undefined) return false;
    const reached = consulted(control, state.id);
    // Not consulted: not run, the same events (with runUnreached it is run, to check that).
    if (!reached && input.runUnreached !== true) {
      state.frontier += 1;
      continue;
    }
    const mutant = done.get(keyOf(seedIndex, label, state.id));
    if (mutant === undefined) return false;
    if (reached) state.reached += 1;
    const verdict = judgeCatch(mutant, control);
    if (verdict.caught) {
      const base = input.bases.find((candidate) => candidate.label === label);
      const tried = basesOf(state.id, input.bases).find((candidate) => candidate.label === label);
      assertSameDraw(tried ?? (base as MutantBase), state.id, seed);
      state.result = {
        id: state.id,
        caught: true,
        seedsRun: seedIndex + 1,
        seed,
        kind: verdict.kind,
        base: label,
        reached: state.reached,
        ...rejectedOf(state),
      };
      return true;
    }
    if (verdict.reason !== 'passed') {
      state.rejected[verdict.reason] = (state.rejected[verdict.reason] ?? 0) + 1;
    }
    state.frontier += 1;
  }
  state.result = { ...uncaught(state), seedsRun: seeds.length, reached: state.reached };
  return true;
}

/**
 * Whether `control` consulted switch `id`: a switch it never read could not have changed its
 * events. A control that does not say (recorded before it was, or stopped early) counts as
 * having consulted every switch.
 */
function consulted(control: MutantRun, id: BugId): boolean {
  return control.reached === undefined || control.reached.includes(id);
}

function uncaught(state: SwitchState): MutantResult {
  return {
    id: state.id,
    caught: false,
    seedsRun: 0,
    seed: null,
    kind: null,
    base: null,
    ...rejectedOf(state),
  };
}

function rejectedOf(state: SwitchState): { rejected?: Readonly<Record<string, number>> } {
  return Object.keys(state.rejected).length === 0 ? {} : { rejected: { ...state.rejected } };
}

/** The controls of seed `seedIndex` of the bases some unsettled switch is tried on. */
function controlsOfSeed(
  seedIndex: number,
  input: MutantSearchInput,
  states: readonly SwitchState[],
  labels: readonly string[],
): QueuedTask[] {
  const seed = input.seeds[seedIndex] as string;
  return labels
    .filter((label) =>
      states.some((state) => state.result === undefined && state.labels.includes(label)),
    )
    .map((label) => ({
      base: label,
      bug: null,
      seed,
      seedIndex,
      key: keyOf(seedIndex, label, null),
    }));
}

/**
 * The switch runs a finished control calls for: each unsettled switch tried on its base that
 * the control consulted (every one with `runUnreached`).
 */
function runsAfterControl(
  control: QueuedTask,
  run: MutantRun,
  states: readonly SwitchState[],
  runUnreached: boolean,
): { readonly tasks: QueuedTask[]; readonly skipped: number } {
  const tasks: QueuedTask[] = [];
  let skipped = 0;
  for (const state of states) {
    if (state.result !== undefined || !state.labels.includes(control.base)) continue;
    if (!runUnreached && !consulted(run, state.id)) {
      skipped += 1;
      continue;
    }
    const key = keyOf(control.seedIndex, control.base, state.id);
    tasks.push({ ...control, bug: state.id, key });
  }
  return { tasks, skipped };
}

/** The control runs of each base over the seeds some switch on it needed. */
function baseChecks(
  input: MutantSearchInput,
  states: readonly SwitchState[],
  labels: readonly string[],
  done: ReadonlyMap<string, MutantRun>,
): BaseCheck[] {
  return labels.map((label) => {
    const needed = Math.max(
      0,
      ...states
        .filter((state) => state.labels.includes(label))
        .map((state) => state.result?.seedsRun ?? 0),
    );
    const failures: Array<{ seed: string; kind: string }> = [];
    for (let seedIndex = 0; seedIndex < needed; seedIndex += 1) {
      const control = done.get(keyOf(seedIndex, label, null));
      if (control !== undefined && control.outcome !== 'pass') {
        failures.push({ seed: input.seeds[seedIndex] as string, kind: control.kind });
      }
    }
    return { label, seedsRun: needed, failures };
  });
}

/** A task as queued: the run, its key among the finished runs and its seed's index. */
type QueuedTask = MutantTask & { readonly key: string; readonly seedIndex: number };

/** The state of one search: what is queued, under way and finished. */
class Search {
  readonly states: SwitchState[];
  readonly labels: string[];
  readonly done = new Map<string, MutantRun>();
  private readonly pendingBySeed = new Map<number, number>();
  private queue: QueuedTask[] = [];
  private nextSeed = 0;
  private seedsReported = 0;
  inFlight = 0;
  runs = 0;
  skipped = 0;

  constructor(private readonly input: MutantSearchInput) {
    this.states = input.ids.map((id) => ({
      id,
      labels: basesOf(id, input.bases).map((base) => base.label),
      frontier: 0,
      rejected: {},
      reached: 0,
      result: undefined,
    }));
    this.labels = controlBases(input.ids, input.bases).map((base) => base.label);
    for (const state of this.states) {
      // A switch no base can take (on in every base already, or a librdkafka bug with no base
      // librdkafka can join) is not tried.
      if (state.labels.length > 0) continue;
      const on = input.bases.length > 0 && input.bases.every((base) => onInBase(state.id, base));
      const note = on ? 'on in the newest release (no fix released): not tried' : 'no base';
      state.result = { ...uncaught(state), seedsRun: 0, note };
      input.onEvent?.({ type: 'settled', result: state.result });
    }
  }

  private searching(): number {
    return this.states.filter((state) => state.result === undefined).length;
  }

  /**
   * A queued run of a switch settled meanwhile (or a control no unsettled switch needs) is
   * dropped: its result could not change any row.
   */
  private stale(task: QueuedTask): boolean {
    return !this.states.some(
      (state) =>
        state.result === undefined &&
        (task.bug === null ? state.labels.includes(task.base) : state.id === task.bug),
    );
  }

  /** The next run to start, seed by seed; undefined when none is left. */
  next(): QueuedTask | undefined {
    for (;;) {
      while (
        this.queue.length === 0 &&
        this.nextSeed < this.input.seeds.length &&
        this.searching() > 0
      ) {
        this.queue = controlsOfSeed(this.nextSeed, this.input, this.states, this.labels);
        this.pendingBySeed.set(this.nextSeed, this.queue.length);
        this.nextSeed += 1;
      }
      const task = this.queue.shift();
      if (task === undefined || !this.stale(task)) return task;
      this.settleTask(task);
    }
  }

  /**
   * With `runUnreached`: throws when a switch run whose control never consulted the switch
   * executed other events than the control, which would make the skip unsound.
   */
  private checkUnreached(task: QueuedTask, run: MutantRun): void {
    const control = this.done.get(keyOf(task.seedIndex, task.base, null));
    if (control === undefined || consulted(control, task.bug as BugId)) return;
    if (run.eventHash === '' || control.eventHash === '') return;
    if (run.eventHash !== control.eventHash) {
      throw new Error(
        `${task.bug} on ${task.base} at seed ${task.seed} executed other events than its ` +
          'control, which never consulted it: the model reads the switch somewhere ' +
          'sim/runner/switch_reads.ts does not see',
      );
    }
  }

  private settleTask(task: QueuedTask): void {
    this.pendingBySeed.set(task.seedIndex, (this.pendingBySeed.get(task.seedIndex) ?? 1) - 1);
  }

  /**
   * Records a finished run, queues the switch runs a control calls for (ahead of later seeds'
   * controls), settles the switches it decides and reports finished seeds.
   */
  finish(task: QueuedTask, run: MutantRun): void {
    this.inFlight -= 1;
    this.runs += 1;
    this.done.set(task.key, run);
    if (task.bug === null) {
      const after = runsAfterControl(task, run, this.states, this.input.runUnreached === true);
      this.skipped += after.skipped;
      this.pendingBySeed.set(
        task.seedIndex,
        (this.pendingBySeed.get(task.seedIndex) ?? 0) + after.tasks.length,
      );
      this.queue.unshift(...after.tasks);
    } else {
      this.checkUnreached(task, run);
    }
    this.settleTask(task);
    for (const state of this.states) {
      if (advance(state, this.input, this.done)) {
        this.input.onEvent?.({ type: 'settled', result: state.result as MutantResult });
      }
    }
    while (
      this.seedsReported < this.nextSeed &&
      (this.pendingBySeed.get(this.seedsReported) ?? 0) === 0
    ) {
      const seed = this.input.seeds[this.seedsReported] as string;
      this.seedsReported += 1;
      const { seedsReported: seedsDone, runs } = this;
      this.input.onEvent?.({ type: 'seed', seed, seedsDone, searching: this.searching(), runs });
    }
  }
}

/**
 * Searches every switch of `input.ids` and returns the first catch of each, the bases' own
 * checks and the number of runs. When a run rejects (a runner stopped on purpose) or the
 * search throws, no further run is started, and the search rejects with that error once the
 * runs under way have ended, so a caller recording finished runs has them all.
 * @example await searchMutants({ ids: ['KAFKA-6119'], bases, seeds, run, concurrency: 2 })
 */
export async function searchMutants(input: MutantSearchInput): Promise<MutantSearchOutput> {
  const search = new Search(input);
  await new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    const fail = (error: unknown): void => {
      failure ??= error instanceof Error ? error : new Error(String(error));
    };
    const pump = (): void => {
      try {
        for (let task = failure ? undefined : search.next(); task !== undefined;) {
          const started = task;
          search.inFlight += 1;
          // A runner that throws instead of rejecting stops the search the same way.
          void Promise.resolve(started)
            .then(input.run)
            .then(
              (run) => {
                try {
                  if (failure === undefined) search.finish(started, run);
                  else search.inFlight -= 1;
                } catch (error) {
                  fail(error);
                }
                pump();
              },
              (error: unknown) => {
                search.inFlight -= 1;
                fail(error);
                pump();
              },
            );
          if (search.inFlight >= input.concurrency) return;
          task = failure ? undefined : search.next();
        }
      } catch (error) {
        fail(error);
      }
      if (search.inFlight === 0) {
        if (failure === undefined) resolve();
        else reject(failure);
      }
    };
    pump();
  });
  return {
    results: search.states.map((state) => state.result as MutantResult),
    controls: baseChecks(input, search.states, search.labels, search.done),
    runs: search.runs,
    skipped: search.skipped,
  };
}

/**
 * A runner that runs each task in this thread, one at a time (tests and the benchmark; the
 * command uses the sweep worker pool). Same runs as the pool's: swarm-drawn from the seed,
 * without the message log.
 */
export function inProcessRunner(
  bases: readonly MutantBase[],
): (task: MutantTask) => Promise<MutantRun> {
  const all = controlBases(BUG_IDS, bases);
  return (task) => {
    const base = all.find((candidate) => candidate.label === task.base);
    if (base === undefined) throw new Error(`no mutant base labelled ${task.base}`);
    try {
      const { scenario, parameters } = drawSwarm(mutantScenario(base, task.bug), task.seed);
      const { report } = runScenario(scenario, {
        seed: task.seed,
        swarm: parameters,
        messageLog: false,
      });
      return Promise.resolve({
        outcome: report.outcome,
        eventHash: report.eventHash,
        kind: report.unexpectedAnomalyTypes[0] ?? report.outcome,
        found: report.check.anomalyCounts.map((count) => count.kind),
        reached: report.kafka.switchesReached,
        ...(report.error === undefined ? {} : { error: report.error }),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return Promise.resolve({
        outcome: 'internal-error',
        eventHash: '',
        kind: 'internal-error',
        error: message,
      });
    }
  };
}
