/**
 * Sweep benchmark: seeds per wall-clock second of a worker pool on zombie-fencing with 1 and
 * with 2 workers, the parallel efficiency `(seeds/s with 2) / (2 × seeds/s with 1)`, and the
 * peak memory of one worker. Each pool is warmed up first (its workers start, load the
 * simulator and run a few seeds so the JIT has compiled the hot paths), then times several
 * batches of seeds; each figure is the median over the batches, so it is the steady rate of a
 * long sweep, not its start-up, and one busy moment of a shared machine does not move it.
 *
 * Memory per worker is the largest V8 heap (`v8.getHeapStatistics().total_heap_size`, the
 * committed heap of the worker's isolate) any worker reported after a seed; the process's peak
 * resident set, which adds the main thread, code and every worker, is reported beside it.
 */
import { loadScenario } from '../scenarios';
import { SeedPool, lineScenarioOf } from '../cli/index';
import { median } from './median';

/** The figures of one pool size. */
export interface SweepBenchRun {
  readonly workers: number;
  /** Seeds timed, over every batch. */
  readonly seedsCount: number;
  /** Median over the batches. */
  readonly seedsPerSecond: number;
  /** Batches timed. */
  readonly batchesCount: number;
  /** Largest committed V8 heap of one worker, in bytes. */
  readonly workerHeapPeakBytes: number;
}

/** The figures of the sweep benchmark. */
export interface SweepBenchResult {
  readonly file: string;
  readonly runs: readonly SweepBenchRun[];
  /** seeds/s with 2 workers over twice seeds/s with 1. */
  readonly parallelEfficiency: number;
  /** The process's peak resident set so far, in bytes. */
  readonly processRssPeakBytes: number;
}

/** Seeds each worker runs before timing starts. */
const WARM_UP_SEEDS_PER_WORKER = 20;

async function timePool(input: {
  file: string;
  workers: number;
  seedsCount: number;
  batchesCount: number;
}): Promise<SweepBenchRun> {
  const scenario = lineScenarioOf(loadScenario(input.file));
  const pool = new SeedPool({ workers: input.workers, seedTimeoutMs: 600_000 });
  try {
    const drain = async (first: number, count: number): Promise<void> => {
      let next = first;
      const lane = async (): Promise<void> => {
        while (next < first + count) {
          const seed = String(next++);
          await pool.run({ scenario, seed, out: undefined });
        }
      };
      await Promise.all(Array.from({ length: input.workers }, lane));
    };
    await drain(1_000_000, WARM_UP_SEEDS_PER_WORKER * input.workers);
    const batchSeeds = Math.ceil(input.seedsCount / input.batchesCount);
    const rates: number[] = [];
    for (let batch = 0; batch < input.batchesCount; batch++) {
      const startMs = performance.now();
      await drain(1 + batch * batchSeeds, batchSeeds);
      rates.push((batchSeeds * 1000) / (performance.now() - startMs));
    }
    return {
      workers: input.workers,
      seedsCount: batchSeeds * input.batchesCount,
      seedsPerSecond: median(rates),
      batchesCount: input.batchesCount,
      workerHeapPeakBytes: pool.workerHeapPeakBytes,
    };
  } finally {
    await pool.destroy();
  }
}

/**
 * Times seeds 1..`seedsCount` of `file` in `batchesCount` batches with 1 and then 2 workers;
 * the same seeds for both, so the efficiency compares like with like.
 */
export async function runSweepBench(
  file: string,
  seeds: { readonly seedsCount: number; readonly batchesCount: number },
): Promise<SweepBenchResult> {
  const one = await timePool({ file, workers: 1, ...seeds });
  const two = await timePool({ file, workers: 2, ...seeds });
  return {
    file,
    runs: [one, two],
    parallelEfficiency: two.seedsPerSecond / (2 * one.seedsPerSecond),
    processRssPeakBytes: process.resourceUsage().maxRSS * 1024,
  };
}
