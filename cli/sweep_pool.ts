/**
 * The worker pool of a sweep, on piscina: `workers` threads that start once (registering tsx and
 * loading the simulator one time each) and then run seed after seed. {@link SeedPool.run} never
 * rejects: every seed ends as a result line. A seed that runs longer than the wall-clock budget
 * is stopped by aborting its task, which makes piscina terminate that worker thread and start a
 * fresh one; it is recorded as `budget-exceeded` with a wall-clock-timeout note. A worker that
 * dies under a seed yields an `internal-error` line. The budget clock starts when the worker
 * reports that the seed began, so the start-up of a replacement worker is not charged to it.
 */
import { MessageChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { SweepResultLine } from '../reports';
import { writeArtifacts } from './artifacts';
import { errorMessage } from './errors';
import { lineOfFailure, type LineScenario } from './result_lines';
import type { SeedTask, SeedTaskResult } from './sweep_worker';

/** The worker entry point: registers tsx, then loads `sweep_worker.ts`. */
const WORKER_ENTRY = fileURLToPath(new URL('./sweep_worker.mjs', import.meta.url));

/** Options of a {@link SeedPool}. */
export interface SeedPoolOptions {
  /** Worker threads; each runs one seed at a time. */
  readonly workers: number;
  /** Wall-clock budget of one seed, from the moment it starts, in milliseconds. */
  readonly seedTimeoutMs: number;
}

/** One seed to run. */
export interface SeedRequest {
  readonly scenario: LineScenario;
  readonly seed: string;
  /** `--out`, where artifacts go; undefined to write none. */
  readonly out: string | undefined;
}

/** A pool of sweep workers. Call {@link SeedPool.destroy} when done, or the process stays up. */
export class SeedPool {
  private readonly pool: Piscina<SeedTask, SeedTaskResult>;
  private readonly heapPeaks = new Map<number, number>();

  constructor(readonly options: SeedPoolOptions) {
    this.pool = new Piscina<SeedTask, SeedTaskResult>({
      filename: WORKER_ENTRY,
      minThreads: options.workers,
      maxThreads: options.workers,
      concurrentTasksPerWorker: 1,
      idleTimeout: Number.MAX_SAFE_INTEGER,
    });
  }

  /**
   * Runs one seed and returns its result line; never rejects.
   * @example const line = await pool.run({ scenario, seed: '7', out: undefined })
   */
  async run(request: SeedRequest): Promise<SweepResultLine> {
    const channel = new MessageChannel();
    const controller = new AbortController();
    const dispatchedMs = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    channel.port1.once('message', () => {
      timer = setTimeout(() => controller.abort(), this.options.seedTimeoutMs);
    });
    const task: SeedTask = { ...request, started: channel.port2 };
    try {
      const result = await this.pool.run(task, {
        transferList: [channel.port2],
        signal: controller.signal,
      });
      const peak = this.heapPeaks.get(result.threadId) ?? 0;
      this.heapPeaks.set(result.threadId, Math.max(peak, result.heapBytes));
      return result.line;
    } catch (error) {
      const wallMs = Math.round(performance.now() - dispatchedMs);
      const failure = controller.signal.aborted
        ? {
            outcome: 'budget-exceeded' as const,
            error: `Budget exceeded: wall-clock timeout after ${this.options.seedTimeoutMs} ms`,
          }
        : {
            outcome: 'internal-error' as const,
            error: `Internal error: the worker running the seed failed: ${errorMessage(error)}`,
          };
      const line = lineOfFailure({ ...request, failure, wallMs });
      if (request.out !== undefined) writeArtifacts({ out: request.out, line });
      return line;
    } finally {
      clearTimeout(timer);
      channel.port1.close();
    }
  }

  /** The largest V8 heap any one worker reported after a seed, in bytes. */
  get workerHeapPeakBytes(): number {
    return Math.max(0, ...this.heapPeaks.values());
  }

  /** Stops every worker. */
  async destroy(): Promise<void> {
    await this.pool.destroy();
  }
}
