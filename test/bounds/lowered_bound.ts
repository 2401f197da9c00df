/**
 * Test-only mutation of a named bound: runs `run` with `bound.max` lowered, then restores it.
 * The bounds are plain objects shared by every collection that uses them, so a lowered bound
 * applies to the collections a run builds while it is lowered.
 */
import type { CollectionBound } from '../../sim/kernel';

/** Runs `run` with `bound.max` set to `max`, restoring it afterwards. */
export function withLoweredBound<T>(bound: CollectionBound, max: number, run: () => T): T {
  const mutable = bound as { max: number };
  const saved = mutable.max;
  mutable.max = max;
  try {
    return run();
  } finally {
    mutable.max = saved;
  }
}
