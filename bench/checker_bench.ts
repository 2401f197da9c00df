/**
 * Checker benchmark: history operations the offline checker gets through per wall-clock
 * second. It records one history (and its oracle) by running a reference scenario once, then
 * runs `checkHistory` on it again and again for a fixed wall-clock span, after a warm-up, and
 * divides the operations checked by the time taken.
 */
import { loadScenario } from '../scenarios';
import { runScenario } from '../sim/runner';
import { checkHistory } from '../sim/checker';

/** The figures of the checker benchmark. */
export interface CheckerBenchResult {
  readonly file: string;
  /** Operations in the recorded history. */
  readonly historyOpsCount: number;
  readonly repetitionsCount: number;
  readonly opsPerSecond: number;
}

/** Repetitions before timing starts. */
const WARM_UP_REPETITIONS = 20;

/** Checks the history of `file` seed 1 repeatedly for about `spanMs` milliseconds. */
export function runCheckerBench(file: string, spanMs: number): CheckerBenchResult {
  const { history, oracle } = runScenario(loadScenario(file), { seed: '1' });
  for (let index = 0; index < WARM_UP_REPETITIONS; index++) checkHistory(history, oracle);
  const startMs = performance.now();
  let repetitionsCount = 0;
  while (performance.now() - startMs < spanMs) {
    checkHistory(history, oracle);
    repetitionsCount += 1;
  }
  const elapsedMs = performance.now() - startMs;
  return {
    file,
    historyOpsCount: history.length,
    repetitionsCount,
    opsPerSecond: (history.length * repetitionsCount * 1000) / elapsedMs,
  };
}
