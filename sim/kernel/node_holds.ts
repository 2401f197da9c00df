/**
 * The holds on one node, counted, so that faults nest: every `pause` and every crash (process
 * crash or power loss) is a hold, and each end releases exactly one hold of its own kind. The
 * node's status follows from the counts alone:
 *
 * - `crashed` while any crash hold is in place (process or power loss);
 * - otherwise `paused` while any pause hold is in place;
 * - otherwise `running`.
 *
 * So the end of a shorter fault never frees a node that a longer one still holds. The process
 * restarts (its actor's `onStart` runs) when the node next becomes free after a crash: when the
 * last crash hold ends, or, if a pause still holds the node then, when the last pause ends (a
 * restarted process that is frozen before it runs anything). A crash of a node that is already
 * down changes nothing, except that the first power loss since the process last ran loses what
 * the page cache had not flushed (the machine lost power while the process was down).
 */
import type { CrashMode } from './actor';

/** The node's lifecycle state. */
export type NodeStatus = 'running' | 'paused' | 'crashed';

/** How many holds of each kind a node is under (for tests and the oracle). */
export interface HoldCounts {
  readonly pauses: number;
  readonly processCrashes: number;
  readonly powerLosses: number;
}

/** What the kernel must do after a crash hold is added. */
export type CrashEffect =
  /** The process was running or paused: it goes down now (`onCrash(mode)`). */
  | 'goes-down'
  /** Already down; now the machine loses power: `onCrash('power-loss')` drops the unflushed tail */
  | 'loses-power'
  /** Already down and nothing more is lost. */
  | 'none';

/** The counted holds of one node. */
export class NodeHolds {
  private pauses = 0;
  private processCrashes = 0;
  private powerLosses = 0;
  /** The process went down and has not run `onStart` since. */
  private down = false;
  /** The machine lost power since the process last ran. */
  private poweredOff = false;

  /** The status the counts give. */
  get status(): NodeStatus {
    if (this.processCrashes + this.powerLosses > 0) return 'crashed';
    return this.pauses > 0 ? 'paused' : 'running';
  }

  /** How a message to the crashed node is refused: `process` (the OS resets) or not at all. */
  get crashMode(): CrashMode {
    return this.powerLosses > 0 ? 'power-loss' : 'process';
  }

  get counts(): HoldCounts {
    const { pauses, processCrashes, powerLosses } = this;
    return { pauses, processCrashes, powerLosses };
  }

  /** Adds a pause hold. */
  pause(): void {
    this.pauses += 1;
  }

  /**
   * Releases a pause hold; false when there was none (nothing changes). When it returns true
   * and the node is now running, the kernel drains what fell due and, if {@link takeStart} says
   * so, restarts the process first.
   */
  resume(): boolean {
    if (this.pauses === 0) return false;
    this.pauses -= 1;
    return true;
  }

  /** Adds a crash hold of `mode`; says what the kernel must do to the actor. */
  crash(mode: CrashMode): CrashEffect {
    if (mode === 'process') this.processCrashes += 1;
    else this.powerLosses += 1;
    if (!this.down) {
      this.down = true;
      this.poweredOff = mode === 'power-loss';
      return 'goes-down';
    }
    if (mode === 'power-loss' && !this.poweredOff) {
      this.poweredOff = true;
      return 'loses-power';
    }
    return 'none';
  }

  /** Releases a crash hold of `mode`; false when there was none of that mode. */
  restart(mode: CrashMode): boolean {
    if (mode === 'process') {
      if (this.processCrashes === 0) return false;
      this.processCrashes -= 1;
    } else {
      if (this.powerLosses === 0) return false;
      this.powerLosses -= 1;
    }
    return true;
  }

  /**
   * True once when the node is running and its process is still down: the kernel runs
   * `onStart` now. Later calls return false until the next crash.
   */
  takeStart(): boolean {
    if (!this.down || this.status !== 'running') return false;
    this.down = false;
    this.poweredOff = false;
    return true;
  }
}
