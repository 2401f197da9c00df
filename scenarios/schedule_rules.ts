/**
 * The rules that keep a scenario inside its run and inside its limits: nothing is scheduled at
 * or after `run.duration.ms` (where the heal phase ends every fault and the workload stops, so a
 * later fault or client would silently never run), no fault outlasts the run, the nemesis'
 * window is not empty, and the values a fault's shape leaves open (`for.ms`, `delay.ms`,
 * `skew.ms`, `count`) stay within {@link LIMITS}. The fault entries are read as plain mappings
 * by key, so the rules hold for every fault kind alike.
 */
import { LIMITS } from '../sim/config';
import type { Problem, ScenarioFile } from './schema';

/** Fault keys in milliseconds that must fit a Java int. */
const FAULT_MS_KEYS = ['for.ms', 'delay.ms', 'max.transaction.timeout.ms'] as const;
/** Nemesis keys in milliseconds that must fit a Java int. */
const NEMESIS_MS_KEYS = ['interval.ms', 'duration.ms.min', 'duration.ms.max'] as const;

/**
 * Every broken schedule or limit rule of a scenario that has the schema's shape.
 *
 * @example
 * ```ts
 * checkScheduleRules(file);
 * // [{ path: ['faults', 0, 'at.ms'], detail: 'starts at 50000 ms, at or after ...' }]
 * ```
 */
export function checkScheduleRules(scenario: ScenarioFile): Problem[] {
  const problems: Problem[] = [];
  const durationMs = scenario.run['duration.ms'];
  checkPartitionTotal(scenario, problems);
  scenario.faults.forEach((fault, index) => {
    checkFaultTiming({
      fault: fault as unknown as Readonly<Record<string, unknown>>,
      index,
      durationMs,
      problems,
    });
  });
  checkNemesisWindow(scenario, problems);
  scenario.clients.forEach((client, index) => {
    const startMs = client.workload['start.ms'];
    if (startMs === undefined || startMs < durationMs) return;
    const detail =
      `starts at ${startMs} ms, at or after run.duration.ms ${durationMs}: the workload ` +
      'stops there, so the client would never run; start it earlier or run longer';
    problems.push({ path: ['clients', index, 'workload', 'start.ms'], detail });
  });
  return problems;
}

/** All partitions, the two internal topics' included, stay within the total limit. */
function checkPartitionTotal(scenario: ScenarioFile, problems: Problem[]): void {
  const { broker } = scenario;
  const internal =
    broker['transaction.state.log.num.partitions'] + broker['offsets.topic.num.partitions'];
  const total = scenario.cluster.topics.reduce((sum, topic) => sum + topic.partitions, internal);
  if (total <= LIMITS.partitionsTotal) return;
  const detail =
    `the topics have ${total} partitions with __transaction_state and __consumer_offsets: ` +
    `at most ${LIMITS.partitionsTotal}`;
  problems.push({ path: ['cluster', 'topics'], detail });
}

/** One fault starts and ends within the run, and its open values stay within the limits. */
function checkFaultTiming(options: {
  readonly fault: Readonly<Record<string, unknown>>;
  readonly index: number;
  readonly durationMs: number;
  readonly problems: Problem[];
}): void {
  const { fault, index, durationMs, problems } = options;
  const path = (key: string): Problem['path'] => ['faults', index, key];
  for (const key of FAULT_MS_KEYS) {
    const value = fault[key];
    if (typeof value === 'number' && value > LIMITS.ms) {
      problems.push({ path: path(key), detail: `must be at most ${LIMITS.ms} ms (a Java int)` });
    }
  }
  const skew = fault['skew.ms'];
  if (typeof skew === 'number' && Math.abs(skew) > LIMITS.clockSkewMs) {
    const detail = `must be from -${LIMITS.clockSkewMs} to ${LIMITS.clockSkewMs} ms`;
    problems.push({ path: path('skew.ms'), detail });
  }
  const count = fault['count'];
  if (typeof count === 'number' && count > LIMITS.listOrCount) {
    problems.push({ path: path('count'), detail: `must be at most ${LIMITS.listOrCount}` });
  }
  const atMs = fault['at.ms'];
  if (typeof atMs !== 'number') return;
  if (atMs >= durationMs) {
    const detail =
      `starts at ${atMs} ms, at or after run.duration.ms ${durationMs}: the heal phase ` +
      'begins there, so the fault would never run; move it earlier or run longer';
    problems.push({ path: path('at.ms'), detail });
    return;
  }
  const forMs = fault['for.ms'];
  if (typeof forMs === 'number' && atMs + forMs > durationMs) {
    const detail =
      `ends at ${atMs + forMs} ms, after run.duration.ms ${durationMs}, where the heal ` +
      `phase ends every fault: at most ${durationMs - atMs} here` +
      (fault['kind'] === 'pause' ? '' : ', or leave for.ms out to last until the heal phase');
    problems.push({ path: path('for.ms'), detail });
  }
}

/** The nemesis' window lies inside the run and is not empty; its durations fit a Java int. */
function checkNemesisWindow(scenario: ScenarioFile, problems: Problem[]): void {
  const nemesis = scenario.nemesis;
  if (nemesis === undefined) return;
  const durationMs = scenario.run['duration.ms'];
  for (const key of NEMESIS_MS_KEYS) {
    if (nemesis[key] > LIMITS.ms) {
      const detail = `must be at most ${LIMITS.ms} ms (a Java int)`;
      problems.push({ path: ['nemesis', key], detail });
    }
  }
  const startMs = nemesis['start.ms'];
  const stopMs = nemesis['stop.ms'];
  if (startMs >= durationMs) {
    const detail =
      `starts at ${startMs} ms, at or after run.duration.ms ${durationMs}: ` +
      'the nemesis would inject nothing';
    problems.push({ path: ['nemesis', 'start.ms'], detail });
  } else if (stopMs !== undefined && stopMs <= startMs) {
    const detail = `must be above start.ms ${startMs}: the nemesis would inject nothing`;
    problems.push({ path: ['nemesis', 'stop.ms'], detail });
  } else if (stopMs !== undefined && stopMs > durationMs) {
    const detail =
      `must be at most run.duration.ms ${durationMs}: the heal phase begins there ` +
      'and injects no faults; leave stop.ms out to stop at the end of the run';
    problems.push({ path: ['nemesis', 'stop.ms'], detail });
  }
}
