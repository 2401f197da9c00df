/**
 * Goal: every named bound of the kernel and the Kafka model is enforced where its collection
 * grows, and a run that passes it ends with the bound's own name. Method: for each bound, lower
 * it to 0 (a test-only mutation) and run seed 1 of a bundled scenario that fills the collection;
 * the runner reports `budget-exceeded` with the bound named, or, for a collection filled while
 * the world is built, the CollectionBoundExceededError comes out of the build (the CLI maps it to
 * exit 4 too).
 */
import { describe, expect, it } from 'vitest';
import { COLLECTION_BOUNDS } from '../../sim/actors';
import {
  CollectionBoundExceededError,
  KERNEL_BOUNDS,
  type CollectionBound,
} from '../../sim/kernel';
import { runScenario } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import { withLoweredBound } from './lowered_bound';

const PIPELINE = 'scenarios/eos-pipeline.yaml';
const HOLD = 'scenarios/hanging-transaction-operator-abort.yaml';
const TRIGGERED = 'scenarios/zombie-fencing-triggered.yaml';
const LEADER_CRASH = 'scenarios/acks-all-leader-crash.yaml';

/** A bundled scenario whose run at seed 1 adds to each bound's collection. */
const FILLED_BY: Record<string, string> = {
  heldMessagesPerRule: HOLD,
  linkRules: HOLD,
  deferredPerNode: TRIGGERED,
  deliveryWatchers: TRIGGERED,
  abortedTransactions: TRIGGERED,
  truncations: 'scenarios/unclean-election.yaml',
  alterPartitionRequests: LEADER_CRASH,
  fencedBrokers: LEADER_CRASH,
  elections: LEADER_CRASH,
};

/** The name of the bound a run at 0 stopped on: from the report, or from the build. */
function boundReached(bound: CollectionBound, file: string): string {
  return withLoweredBound(bound, 0, () => {
    try {
      const { report } = runScenario(loadScenario(file), { seed: '1', messageLog: false });
      expect(report.outcome).toBe('budget-exceeded');
      return /\(([A-Z_]+)\)$/.exec(report.error ?? '')?.[1] ?? `no bound: ${report.error}`;
    } catch (error) {
      if (error instanceof CollectionBoundExceededError) return error.bound.name;
      throw error;
    }
  });
}

describe('every bound fires with its name', () => {
  const all = { ...KERNEL_BOUNDS, ...COLLECTION_BOUNDS };
  for (const [key, bound] of Object.entries(all)) {
    it(`${bound.name} (${bound.collection})`, () => {
      expect(boundReached(bound, FILLED_BY[key] ?? PIPELINE)).toBe(bound.name);
    });
  }
});
