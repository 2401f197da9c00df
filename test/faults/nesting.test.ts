/**
 * Goal: overlapping faults on one node nest, on whole runs: the node is paused (crashed) for
 * exactly the union of the pause (crash) windows the report lists, so the report's fault list,
 * "faults active then" and the exported scenario describe what ran. Method: (1) the issue's
 * reproduction, a short pause inside zombie-fencing's 25 s pause of A: A stays paused to 26.5 s,
 * sends nothing meanwhile, and the run passes; (2) the random nemesis of
 * `replicated-random-faults.yaml` over seeds 1..20: the kernel's lifecycle observer records each
 * broker's status changes, compared with the union of the drawn windows (a crash wins over a
 * pause), and the seeds with overlapping windows are counted so the test cannot pass vacuously.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario, parseScenario, type ScenarioConfig } from '../../scenarios';
import { buildWorld, runScenario } from '../../sim/runner';
import { Rng, type NodeStatus } from '../../sim/kernel';
import { drawRandomFaults, type ScriptedFault } from '../../faults';

type Interval = readonly [number, number];

/** Merges intervals that overlap or touch; drops empty ones. */
function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const [a, b] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** `intervals` minus `cut`. */
function minus(intervals: readonly Interval[], cut: readonly Interval[]): Interval[] {
  let pieces: Interval[] = [...intervals];
  for (const [c0, c1] of cut) {
    pieces = pieces.flatMap(([a, b]): Interval[] => {
      if (c1 <= a || c0 >= b) return [[a, b]];
      const before: Interval = [a, Math.min(b, c0)];
      const after: Interval = [Math.max(a, c1), b];
      return [before, after].filter(([x, y]) => y > x);
    });
  }
  return union(pieces);
}

/** Runs the workload phase of `scenario` and records every node's status changes. */
function statusIntervals(
  scenario: ScenarioConfig,
  seed: string,
): Map<string, Record<NodeStatus, Interval[]>> {
  const world = buildWorld(scenario, { seed });
  const since = new Map<string, { status: NodeStatus; fromUs: number }>();
  const result = new Map<string, Record<NodeStatus, Interval[]>>();
  const close = (node: string, nowUs: number): void => {
    const open = since.get(node);
    if (open === undefined) return;
    const byStatus = result.get(node) ?? { running: [], paused: [], crashed: [] };
    byStatus[open.status].push([open.fromUs, nowUs]);
    result.set(node, byStatus);
  };
  world.sim.lifecycleObserver = ({ timeUs, node, status }) => {
    close(node, timeUs);
    since.set(node, { status, fromUs: timeUs });
  };
  const endUs = scenario.durationMs * 1000;
  world.sim.runUntil(endUs);
  world.nemesis.healAll();
  for (const node of [...since.keys()]) close(node, endUs);
  return result;
}

/** The windows of the pause and crash faults on `node`, cut at `endUs` (the heal). */
function windowsOn(faults: readonly ScriptedFault[], node: string, endUs: number) {
  const window = (fault: { atMs: number; forMs: number | null }): Interval => [
    fault.atMs * 1000,
    Math.min(endUs, fault.forMs === null ? endUs : (fault.atMs + fault.forMs) * 1000),
  ];
  const pauses: Interval[] = [];
  const crashes: Interval[] = [];
  for (const fault of faults) {
    if (fault.kind === 'pause' && fault.target === node) pauses.push(window(fault));
    if (fault.kind === 'crash' && fault.target === node) crashes.push(window(fault));
  }
  return { pauses, crashes };
}

function overlaps(intervals: readonly Interval[]): boolean {
  const sorted = [...intervals].sort((x, y) => x[0] - y[0]);
  return sorted.some((interval, i) => i > 0 && interval[0] < (sorted[i - 1] as Interval)[1]);
}

describe('a pause inside a pause (zombie-fencing)', () => {
  const text = readFileSync('scenarios/zombie-fencing.yaml', 'utf8').replace(
    'faults:\n',
    'faults:\n  - kind: pause\n    target: A\n    at.ms: 1600\n    for.ms: 1000\n',
  );
  const scenario = parseScenario(text, 'zombie-fencing-nested.yaml');

  it('keeps A paused from 1.5 s to 26.5 s, as the report lists it', () => {
    const intervals = statusIntervals(scenario, '1').get('A');
    expect(intervals?.paused).toEqual([[1_500_000, 26_500_000]]);
    expect(intervals?.crashed).toEqual([]);
  });

  it('completes none of A’s operations while it is paused, and the run passes', () => {
    const result = runScenario(scenario, { seed: '1' });
    const duringPause = result.history.filter(
      (op) =>
        op.process !== 'nemesis' &&
        op.client === 'A' &&
        op.type !== 'invoke' &&
        op.timeUs > 1_500_000 &&
        op.timeUs < 26_500_000,
    );
    expect(duringPause).toEqual([]);
    expect(result.report.outcome).toBe('pass');
    expect(result.report.faults.map((fault) => fault.description)).toEqual([
      'GC pause of A for 25000 ms',
      'GC pause of A for 1000 ms',
    ]);
  });
});

describe('the random nemesis of replicated-random-faults: overlaps on one node nest', () => {
  const scenario = loadScenario('scenarios/replicated-random-faults.yaml');
  const nemesis = scenario.nemesis;
  if (nemesis === null) throw new Error('replicated-random-faults has a nemesis');
  const endUs = scenario.durationMs * 1000;
  const seeds = Array.from({ length: 20 }, (_, index) => String(index + 1));
  const overlapping = seeds.filter((seed) => {
    const faults = drawRandomFaults(nemesis, new Rng(seed).fork('nemesis'));
    return nemesis.targets.some((node) => {
      const { pauses, crashes } = windowsOn(faults, node, endUs);
      return overlaps([...pauses, ...crashes]);
    });
  });

  it('draws overlapping pause/crash windows on one node in most seeds', () => {
    expect(overlapping.length).toBeGreaterThanOrEqual(12);
  });

  it.each(overlapping)(
    'seed %s: each broker is crashed and paused exactly for the union of its windows',
    (seed) => {
      const faults = drawRandomFaults(nemesis, new Rng(seed).fork('nemesis'));
      const actual = statusIntervals(scenario, seed);
      for (const node of nemesis.targets) {
        const { pauses, crashes } = windowsOn(faults, node, endUs);
        const crashed = union(crashes);
        const observed = actual.get(node) ?? { running: [], paused: [], crashed: [] };
        expect({ node, crashed: union(observed.crashed) }).toEqual({ node, crashed });
        const paused = minus(union(pauses), crashed);
        expect({ node, paused: union(observed.paused) }).toEqual({ node, paused });
      }
    },
  );
});
