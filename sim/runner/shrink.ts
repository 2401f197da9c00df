/**
 * `eos-sim shrink`: delta debugging over the realised fault schedule and workload of a failing
 * seed, keeping the same anomaly kind. Each step proposes a smaller scenario and keeps it when
 * the same seed still produces the kind: drop faults (ddmin over the list: halves, then quarters,
 * down to single faults), shorten each fault's duration, drop clients (with the faults and
 * expectations that name them), and lower each producer's transactions, sends and records per
 * transaction. Steps repeat until a whole pass shrinks nothing or the run budget is spent. A
 * candidate the loader would refuse is never proposed: the result is written as a file that
 * loads. Deterministic: the same scenario and seed shrink to the same file.
 */
import {
  ScenarioInvalidError,
  parseScenario,
  writeScenarioYaml,
  type ClientConfig,
  type FaultSpec,
  type ScenarioConfig,
} from '../../scenarios';
import { realiseScenario } from './export_scenario';
import type { RunReport } from './report_types';
import { runScenario } from './run';

/** How big a scenario is, in the units shrinking reduces. */
export interface ScenarioSize {
  readonly faults: number;
  /** Planned client operations: transactions plus single sends. */
  readonly operations: number;
  readonly records: number;
  readonly clients: number;
}

/**
 * The size of a scenario.
 * @example sizeOf(scenario) // { faults: 1, operations: 61, records: 192, clients: 3 }
 */
export function sizeOf(scenario: ScenarioConfig): ScenarioSize {
  let operations = 0;
  let records = 0;
  for (const client of scenario.clients) {
    if (client.role !== 'producer') continue;
    const workload = client.workload;
    if (workload.type === 'sends') {
      operations += workload.sends;
      records += workload.sends;
    } else {
      operations += workload.transactions;
      records += workload.transactions * workload.recordsPerTransaction;
    }
  }
  return { faults: scenario.faults.length, operations, records, clients: scenario.clients.length };
}

/**
 * The kinds a run found: its anomaly kinds, and `liveness` when its liveness check did not
 * converge (a liveness failure is shrunk like an anomaly kind). A run its event budget stopped
 * never reached its liveness check: that is not a liveness failure.
 * @example foundKinds(report) // ['zombie-write', 'liveness']
 */
export function foundKinds(report: RunReport): string[] {
  const kinds: string[] = [...report.check.anomalyTypes];
  if (!report.liveness.converged && report.outcome !== 'budget-exceeded') kinds.push('liveness');
  return kinds;
}

/** The result of shrinking. */
export interface ShrinkResult {
  readonly scenario: ScenarioConfig;
  readonly kind: string;
  readonly before: ScenarioSize;
  readonly after: ScenarioSize;
  /** Runs spent, the first (the original) included. */
  readonly runs: number;
}

/** Thrown when the seed does not fail with the kind to keep. */
export class ShrinkNotFailingError extends Error {
  readonly code = 'SIM_SHRINK_NOT_FAILING';
}

/** Options of {@link shrinkScenario}. */
export interface ShrinkOptions {
  readonly seed: string;
  /**
   * The anomaly kind to keep, or `liveness` for a run whose liveness check did not converge.
   * @default the first kind the original run found (liveness last)
   */
  readonly kind?: string;
  /** Most runs to spend. @default 300 */
  readonly runsMax?: number;
}

/**
 * Shrinks the realised scenario of `options.seed`.
 * @throws {@link ShrinkNotFailingError} when the seed finds no anomaly (or not `kind`).
 * @example shrinkScenario(loadScenario(file), { seed: '7' }).after.operations // 3
 */
export function shrinkScenario(base: ScenarioConfig, options: ShrinkOptions): ShrinkResult {
  const runsMax = options.runsMax ?? 300;
  let runs = 0;
  const original = realiseScenario(base, options.seed);
  const found = (candidate: ScenarioConfig): readonly string[] => {
    runs += 1;
    return foundKinds(runScenario(candidate, { seed: options.seed }).report);
  };
  const originalReport = runScenario(original, { seed: options.seed }).report;
  runs += 1;
  const first = foundKinds(originalReport);
  const kind = options.kind ?? first[0];
  if (kind === undefined || !first.includes(kind)) {
    const what = options.kind === undefined ? 'no anomaly' : `no ${options.kind}`;
    const budget =
      originalReport.outcome === 'budget-exceeded'
        ? ` before its event budget stopped it (${originalReport.error ?? 'budget exceeded'})`
        : '';
    throw new ShrinkNotFailingError(`Cannot shrink: seed ${options.seed} finds ${what}${budget}`);
  }
  const fails = (candidate: ScenarioConfig): boolean =>
    runs < runsMax && loads(candidate) && found(candidate).includes(kind);
  let current = original;
  for (let progress = true; progress && runs < runsMax;) {
    const before = JSON.stringify(sizeOf(current)) + JSON.stringify(current.faults);
    current = dropFaults(current, fails);
    current = shortenFaults(current, fails);
    current = dropClients(current, fails);
    current = lowerWorkloads(current, fails);
    progress = JSON.stringify(sizeOf(current)) + JSON.stringify(current.faults) !== before;
  }
  return { scenario: current, kind, before: sizeOf(original), after: sizeOf(current), runs };
}

type Fails = (candidate: ScenarioConfig) => boolean;

/** Whether the candidate, written as a file, loads (it names only nodes and ids it has). */
function loads(candidate: ScenarioConfig): boolean {
  try {
    parseScenario(writeScenarioYaml(candidate), candidate.file);
    return true;
  } catch (error) {
    if (error instanceof ScenarioInvalidError) return false;
    throw error;
  }
}

/** ddmin over the fault list: remove chunks of decreasing size while the kind stays. */
function dropFaults(scenario: ScenarioConfig, fails: Fails): ScenarioConfig {
  let current = scenario;
  for (let chunks = 2; current.faults.length > 0;) {
    const size = Math.ceil(current.faults.length / chunks);
    let removed = false;
    for (let start = 0; start < current.faults.length; start += size) {
      const faults = current.faults.filter((_, index) => index < start || index >= start + size);
      const candidate = { ...current, faults };
      if (fails(candidate)) {
        current = candidate;
        removed = true;
        break;
      }
    }
    if (removed) chunks = Math.max(2, chunks - 1);
    else if (size === 1) break;
    else chunks = Math.min(current.faults.length, chunks * 2);
  }
  return current;
}

/** The duration of a fault, or null for one without. */
function forMsOf(fault: FaultSpec): number | null {
  return fault.kind === 'unclean-election' || fault.kind === 'operator' ? null : fault.forMs;
}

/** Halves each fault's duration while the kind stays. */
function shortenFaults(scenario: ScenarioConfig, fails: Fails): ScenarioConfig {
  let current = scenario;
  for (let index = 0; index < current.faults.length; index++) {
    for (;;) {
      const fault = current.faults[index] as FaultSpec;
      const forMs = forMsOf(fault);
      if (forMs === null || forMs <= 1) break;
      const shorter = { ...fault, forMs: Math.floor(forMs / 2) } as FaultSpec;
      const faults = current.faults.map((item, position) => (position === index ? shorter : item));
      const candidate = { ...current, faults };
      if (!fails(candidate)) break;
      current = candidate;
    }
  }
  return current;
}

/** The faults left when `name` is gone: references to it removed, emptied faults dropped. */
function faultsWithout(faults: readonly FaultSpec[], name: string): FaultSpec[] {
  const kept: FaultSpec[] = [];
  for (const fault of faults) {
    if ('target' in fault && fault.target === name) continue;
    if ('from' in fault && (fault.from === name || fault.to === name)) continue;
    if (fault.kind === 'partition') {
      const nodes = fault.nodes.filter((node) => node !== name);
      const between = fault.between.filter((node) => node !== name);
      if (nodes.length === 0 || between.length === 0) continue;
      kept.push({ ...fault, nodes, between });
      continue;
    }
    kept.push(fault);
  }
  return kept;
}

/** Drops whole clients while the kind stays (at least one client is kept). */
function dropClients(scenario: ScenarioConfig, fails: Fails): ScenarioConfig {
  let current = scenario;
  for (let index = current.clients.length - 1; index >= 0 && current.clients.length > 1; index--) {
    const name = (current.clients[index] as ClientConfig).name;
    const candidate: ScenarioConfig = {
      ...current,
      clients: current.clients.filter((_, position) => position !== index),
      faults: faultsWithout(current.faults, name),
      expect: { ...current.expect, fenced: current.expect.fenced.filter((item) => item !== name) },
    };
    if (fails(candidate)) current = candidate;
  }
  return current;
}

/** A client with one workload count set to `value`. */
function withCount(
  client: ClientConfig,
  key: 'transactions' | 'sends' | 'recordsPerTransaction',
  value: number,
): ClientConfig {
  if (client.role !== 'producer') return client;
  return { ...client, workload: { ...client.workload, [key]: value } } as ClientConfig;
}

/** Lowers each producer's counts: straight to 1 if that keeps the kind, else by halves. */
function lowerWorkloads(scenario: ScenarioConfig, fails: Fails): ScenarioConfig {
  let current = scenario;
  current.clients.forEach((_, index) => {
    for (const key of ['transactions', 'sends', 'recordsPerTransaction'] as const) {
      const value = (): number | undefined => {
        const client = current.clients[index] as ClientConfig;
        const workload = client.workload as unknown as Record<string, unknown>;
        return typeof workload[key] === 'number' ? (workload[key] as number) : undefined;
      };
      const tryValue = (next: number): boolean => {
        const clients = current.clients.map((client, position) =>
          position === index ? withCount(client, key, next) : client,
        );
        const candidate = { ...current, clients };
        if (!fails(candidate)) return false;
        current = candidate;
        return true;
      };
      const start = value();
      if (start === undefined || start <= 1 || tryValue(1)) continue;
      for (let now = value() ?? 1; now > 1 && tryValue(Math.floor(now / 2)); now = value() ?? 1);
    }
  });
  return current;
}
