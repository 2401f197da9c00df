/**
 * When each fault was active, so every anomaly can name the faults around it. Intervals come
 * from the history's nemesis operations (`f: 'nemesis'`: an `end` closes the earliest still-open
 * `start` with the same `fault` and `description`; a `start` never ended stays active to the end
 * of the run) and then from the oracle's own fault intervals. An interval is closed at both ends:
 * an anomaly at the instant a fault healed still lists it.
 */
import type { History, Oracle } from '../history';

/** One fault's active interval in virtual time. */
export interface ActiveInterval {
  readonly description: string;
  readonly startUs: number;
  /** Null when the fault never ended. */
  readonly endUs: number | null;
}

interface OpenInterval {
  readonly description: string;
  readonly startUs: number;
  endUs: number | null;
}

/**
 * Every fault interval of the run: the history's first, in the order their starts were
 * recorded, then the oracle's in its order.
 * @example buildFaultIntervals(history, oracle)[0] // { description: 'partition b1|b2', ... }
 */
export function buildFaultIntervals(history: History, oracle: Oracle): ActiveInterval[] {
  const intervals: OpenInterval[] = [];
  // Starts still waiting for their end, per (fault, description), oldest first.
  const pending = new Map<string, OpenInterval[]>();
  for (const op of history) {
    if (op.f !== 'nemesis') continue;
    const key = JSON.stringify([op.value.fault, op.value.description]);
    const waiting = pending.get(key) ?? [];
    if (op.value.phase === 'start') {
      const interval: OpenInterval = {
        description: op.value.description,
        startUs: op.timeUs,
        endUs: null,
      };
      intervals.push(interval);
      waiting.push(interval);
      pending.set(key, waiting);
    } else {
      // An end without a matching start names no interval; it is ignored.
      const started = waiting.shift();
      if (started !== undefined) started.endUs = op.timeUs;
    }
  }
  const fromOracle = oracle.faults.map((fault) => ({
    description: fault.description,
    startUs: fault.startUs,
    endUs: fault.endUs ?? null,
  }));
  return [...intervals, ...fromOracle];
}

/**
 * The descriptions of the faults active at `timeUs`, without repeats, in interval order.
 * @example activeFaultsAt(intervals, 2_000) // ['partition b1|b2', 'pause b3']
 */
export function activeFaultsAt(intervals: readonly ActiveInterval[], timeUs: number): string[] {
  const descriptions = new Set<string>();
  for (const interval of intervals) {
    if (interval.startUs > timeUs) continue;
    if (interval.endUs !== null && interval.endUs < timeUs) continue;
    descriptions.add(interval.description);
  }
  return [...descriptions];
}
