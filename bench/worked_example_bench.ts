/**
 * Worked-example benchmark: `examples/lso-worked-example.yaml` moves 900,001 offsets, far more
 * than any other bundled scenario, so its wall time and memory are measured on their own. Each
 * repetition runs in a fresh child process (`--child`), so its peak resident set and heap belong
 * to that run alone: once the whole run as the CLI does it (workload, heal, final reads at both
 * isolation levels, oracle, check), and once the workload phase only, as the worked-example test
 * drives it (`buildWorld`, then the clock to `run.duration.ms`). The figures are medians.
 *
 * Memory: the peak resident set is `process.resourceUsage().maxRSS`; the peak heap is V8's
 * committed heap (`total_heap_size`) at the end of the run, which V8 rarely gives back during a
 * run, and the heap used (`used_heap_size`) at that moment.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { buildWorld, runScenario } from '../sim/runner';
import { loadScenario } from '../scenarios';
import { median } from './median';

/** The scenario this benchmark runs. */
export const WORKED_EXAMPLE = 'examples/lso-worked-example.yaml';

/** What the workload-only or the full run cost once. */
export interface WorkedExampleSample {
  readonly wallMs: number;
  readonly rssPeakBytes: number;
  readonly heapCommittedBytes: number;
  readonly heapUsedBytes: number;
  readonly eventsRun: number;
}

/** Medians of each phase over the repetitions. */
export interface WorkedExampleBenchResult {
  readonly repetitionsCount: number;
  readonly full: WorkedExampleSample;
  readonly workloadOnly: WorkedExampleSample;
}

/** One run in this process; `mode` picks the full run or the workload phase only. */
function runOnce(mode: 'full' | 'workload'): WorkedExampleSample {
  const scenario = loadScenario(WORKED_EXAMPLE);
  const startMs = performance.now();
  let eventsRun: number;
  if (mode === 'full') {
    eventsRun = runScenario(scenario, { seed: '1' }).report.eventsRun;
  } else {
    const world = buildWorld(scenario, { seed: '1' });
    world.sim.runUntil(scenario.durationMs * 1000);
    eventsRun = world.sim.eventsRun;
  }
  const wallMs = performance.now() - startMs;
  const heap = getHeapStatistics();
  return {
    wallMs,
    rssPeakBytes: process.resourceUsage().maxRSS * 1024,
    heapCommittedBytes: heap.total_heap_size,
    heapUsedBytes: heap.used_heap_size,
    eventsRun,
  };
}

/** Runs one repetition of `mode` in a child process and returns its sample. */
function inChild(mode: 'full' | 'workload'): WorkedExampleSample {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', mode], {
    encoding: 'utf8',
    maxBuffer: 1_048_576,
  });
  if (child.status !== 0) throw new Error(`Worked-example child failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as WorkedExampleSample;
}

function medianSample(samples: readonly WorkedExampleSample[]): WorkedExampleSample {
  return {
    wallMs: median(samples.map((sample) => sample.wallMs)),
    rssPeakBytes: median(samples.map((sample) => sample.rssPeakBytes)),
    heapCommittedBytes: median(samples.map((sample) => sample.heapCommittedBytes)),
    heapUsedBytes: median(samples.map((sample) => sample.heapUsedBytes)),
    eventsRun: median(samples.map((sample) => sample.eventsRun)),
  };
}

/** `repetitionsCount` child runs of each mode, seed 1. */
export function runWorkedExampleBench(repetitionsCount: number): WorkedExampleBenchResult {
  const workloadOnly = Array.from({ length: repetitionsCount }, () => inChild('workload'));
  const full = Array.from({ length: repetitionsCount }, () => inChild('full'));
  return {
    repetitionsCount,
    full: medianSample(full),
    workloadOnly: medianSample(workloadOnly),
  };
}

const childMode = process.argv[2] === '--child' ? process.argv[3] : undefined;
if (childMode === 'full' || childMode === 'workload') {
  process.stdout.write(JSON.stringify(runOnce(childMode)));
}
