/**
 * Adds up result lines into a sweep summary: outcomes, anomaly kinds with their lowest seeds,
 * detection rates against `expect.detectPercentMin`, the first failing seeds, and protocol-state
 * coverage. Lines arrive in any order (workers finish when they finish, shards merge in any
 * order), so everything kept is ordered by seed, never by arrival: the summary of a sweep does
 * not depend on the number of workers or on the shards it was split into. Memory stays bounded:
 * only counts and the lowest few seeds are kept.
 */
import { coverageCategoryOf } from '../sim/runner';
import { SWEEP_OUTCOMES } from '../reports';
import type {
  CoverageCount,
  RequiredCoverage,
  ScenarioSweep,
  SweepOutcome,
  SweepResultLine,
  SweepRun,
} from '../reports';

/** The first failing runs a scenario's summary keeps. */
export const FAILURES_KEPT_MAX = 10;
/** The lowest seeds kept per anomaly kind. */
export const FIRST_SEEDS_MAX = 5;

/**
 * Orders decimal seeds numerically (they have no leading zeros, so a shorter one is smaller);
 * 40-hex seeds sort after decimal ones, by text.
 * @example ['10', '9', '100'].sort(compareSeeds) // ['9', '10', '100']
 */
export function compareSeeds(a: string, b: string): number {
  const aHex = a.length === 40;
  const bHex = b.length === 40;
  if (aHex !== bHex) return aHex ? 1 : -1;
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keeps the `max` lowest items by seed, whatever order they arrive in. */
class LowestSeeds<T> {
  private readonly items: T[] = [];

  constructor(
    private readonly max: number,
    private readonly seedOf: (item: T) => string,
  ) {}

  add(item: T): void {
    const seed = this.seedOf(item);
    let index = this.items.length;
    while (index > 0 && compareSeeds(seed, this.seedOf(this.items[index - 1] as T)) < 0) index--;
    if (index >= this.max) return;
    this.items.splice(index, 0, item);
    if (this.items.length > this.max) this.items.pop();
  }

  get values(): readonly T[] {
    return this.items;
  }
}

/**
 * The line as the console's per-seed view of it.
 * @example renderSweepRunLine(sweepRunOf(line), { colour: false })
 */
export function sweepRunOf(line: SweepResultLine): SweepRun {
  return {
    scenario: line.scenario,
    file: line.file,
    seed: line.seed,
    outcome: line.outcome,
    anomalyTypes: Object.keys(line.anomalies),
    unexpectedAnomalyTypes: line.unexpected,
    unmetExpectations: line.unmet,
    reproduce: line.reproduce,
    ...(line.error === undefined ? {} : { error: line.error }),
  };
}

/** The identity, for seeds that are their own sort key. */
const same = (seed: string): string => seed;

/** What a scenario's tally needs to know besides its lines. */
export interface TallyScenario {
  readonly scenario: string;
  readonly file: string;
  readonly seeds: { readonly first: string; readonly last: string };
  /** `expect.anomalies`. */
  readonly expected: readonly string[];
  /** `expect.allowed`: permitted without a detection rate. */
  readonly allowed?: readonly string[];
  readonly detectPercentMin: number;
}

interface KindTally {
  seeds: number;
  anomalies: number;
  /** Seeds per cover; `''` counts violations nothing covered. */
  readonly coveredBy: Map<string, number>;
  readonly firstSeeds: LowestSeeds<string>;
}

/**
 * What covered `kind` on this line; a line written before covers existed falls back to the
 * scenario's own lists.
 */
function coverOf(line: SweepResultLine, kind: string, plan: TallyScenario): string {
  const cover = line.covered?.[kind];
  if (cover !== undefined) return cover;
  if (plan.expected.includes(kind)) return 'expect.anomalies';
  if (plan.allowed?.includes(kind) === true) return 'expect.allowed';
  return line.unexpected.includes(kind) ? '' : 'kafka';
}

/** Counts one scenario's result lines as they come in. */
export class ScenarioTally {
  private readonly outcomes: Record<SweepOutcome, number> = {
    pass: 0,
    fail: 0,
    liveness: 0,
    'budget-exceeded': 0,
    'internal-error': 0,
  };
  private readonly kinds = new Map<string, KindTally>();
  private readonly failures = new LowestSeeds<SweepRun>(FAILURES_KEPT_MAX, (run) => run.seed);
  private readonly outcomeSeeds = new Map<SweepOutcome, LowestSeeds<string>>();
  private failureCount = 0;
  private seedsRun = 0;

  constructor(readonly plan: TallyScenario) {}

  /** Adds the result of one seed. */
  add(line: SweepResultLine): void {
    this.seedsRun += 1;
    this.outcomes[line.outcome] += 1;
    for (const [kind, count] of Object.entries(line.anomalies)) {
      const tally = this.kinds.get(kind) ?? {
        seeds: 0,
        anomalies: 0,
        firstSeeds: new LowestSeeds<string>(FIRST_SEEDS_MAX, same),
        coveredBy: new Map<string, number>(),
      };
      const cover = coverOf(line, kind, this.plan);
      tally.coveredBy.set(cover, (tally.coveredBy.get(cover) ?? 0) + 1);
      tally.seeds += 1;
      tally.anomalies += count;
      tally.firstSeeds.add(line.seed);
      this.kinds.set(kind, tally);
    }
    if (line.outcome !== 'pass') {
      this.failureCount += 1;
      this.failures.add(sweepRunOf(line));
      const seeds = this.outcomeSeeds.get(line.outcome) ?? new LowestSeeds(FIRST_SEEDS_MAX, same);
      seeds.add(line.seed);
      this.outcomeSeeds.set(line.outcome, seeds);
    }
  }

  /** The scenario's summary so far. */
  summary(): ScenarioSweep {
    const { plan } = this;
    const percentMin = plan.detectPercentMin;
    const detection = plan.expected.map((kind) => {
      const seedsDetected = this.kinds.get(kind)?.seeds ?? 0;
      const met = seedsDetected * 100 >= percentMin * this.seedsRun;
      return { kind, seedsDetected, seedsRun: this.seedsRun, percentMin, met };
    });
    const anomalyCounts = [...this.kinds]
      .map(([kind, tally]) => ({
        kind,
        seeds: tally.seeds,
        anomalies: tally.anomalies,
        expected: !tally.coveredBy.has(''),
        coveredBy: Object.fromEntries([...tally.coveredBy].sort(([a], [b]) => (a < b ? -1 : 1))),
        firstSeeds: [...tally.firstSeeds.values],
      }))
      .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    return {
      scenario: plan.scenario,
      file: plan.file,
      seeds: plan.seeds,
      seedsRun: this.seedsRun,
      outcomes: { ...this.outcomes },
      anomalyCounts,
      detection,
      failures: [...this.failures.values],
      failureCount: this.failureCount,
      outcomeFirstSeeds: Object.fromEntries(
        SWEEP_OUTCOMES.flatMap((outcome) => {
          const seeds = this.outcomeSeeds.get(outcome);
          return seeds === undefined ? [] : [[outcome, [...seeds.values]]];
        }),
      ),
      expectationMet: this.failureCount === 0 && detection.every((rate) => rate.met),
    };
  }
}

/** Adds up protocol-state coverage over every line of a sweep. */
export class CoverageTally {
  private readonly items = new Map<string, { seeds: number; occurrences: number }>();

  /** Adds the coverage of one seed. */
  add(line: SweepResultLine): void {
    for (const [item, count] of Object.entries(line.coverage)) {
      const tally = this.items.get(item) ?? { seeds: 0, occurrences: 0 };
      tally.seeds += 1;
      tally.occurrences += count;
      this.items.set(item, tally);
    }
  }

  /** Every item reached, sorted by name. */
  counts(): CoverageCount[] {
    return [...this.items]
      .map(([item, tally]) => ({ item, ...tally }))
      .sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0));
  }
}

/**
 * Whether each `--require-coverage` name was reached: `category:name` must match an item
 * exactly; a bare name matches an item of any category.
 * @example requiredCoverageOf(['fault:pause'], counts) // [{ name: 'fault:pause', reached: true }]
 */
export function requiredCoverageOf(
  names: readonly string[],
  counts: readonly CoverageCount[],
): RequiredCoverage[] {
  const reached = new Set(counts.map((count) => count.item));
  const bare = new Set(counts.map((count) => count.item.slice(count.item.indexOf(':') + 1)));
  return names.map((name) => ({
    name,
    reached: coverageCategoryOf(name) === undefined ? bare.has(name) : reached.has(name),
  }));
}
