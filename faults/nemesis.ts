/**
 * The nemesis runs scripted faults at their times using kernel primitives only (each kind's
 * `start` in `kinds/`), records each start and end in the history as a `nemesis` info operation
 * (`process: 'nemesis'`, style rule 22) naming the nodes a reference resolved to, and heals
 * everything still active when the run's heal phase begins. A fault that ends by itself (an
 * unclean election) or could not start (its reference named no broker) records its start and
 * end at the same instant.
 */
import type { Rng, Simulation } from '../sim/kernel';
import type { FaultInterval, HistoryRecorder } from '../sim/history';
import type { ClusterView } from './cluster_view';
import { faultEndMs, kindOf, type ScriptedFault } from './kinds';

interface ActiveFault {
  readonly description: string;
  readonly fault: string;
  readonly end: () => void;
  readonly interval: { description: string; startUs: number; endUs?: number };
}

/** Runs faults against one simulation. */
export class Nemesis {
  private readonly active = new Map<number, ActiveFault>();
  private readonly intervals: Array<{ description: string; startUs: number; endUs?: number }> = [];
  private nextId = 1;
  /** The longest extra delay a started fault (`delay`, `slow-node`) gave messages, µs. */
  private longestDelayUsValue = 0;

  constructor(
    private readonly sim: Simulation,
    private readonly recorder: HistoryRecorder,
    private readonly rng: Rng,
    private readonly view: ClusterView,
  ) {}

  /** Schedules every fault's start and end. */
  schedule(faults: readonly ScriptedFault[]): void {
    faults.forEach((fault, index) => {
      const id = this.nextId++;
      const atUs = fault.atMs * 1000;
      this.sim.schedule(atUs, `nemesis start ${fault.kind}`, () =>
        this.start(id, fault, this.rng.fork(`fault/${index}`)),
      );
      const endMs = faultEndMs(fault);
      if (endMs !== null) {
        this.sim.schedule(endMs * 1000, `nemesis end ${fault.kind}`, () => this.end(id));
      }
    });
  }

  /** Ends every active fault now (the heal phase). */
  healAll(): void {
    for (const id of [...this.active.keys()]) this.end(id);
  }

  /**
   * The longest extra delay any started fault gave messages, µs: messages delayed just
   * before the heal phase are still on their way that long after it.
   */
  get longestDelayUs(): number {
    return this.longestDelayUsValue;
  }

  /** Fault intervals so far, for the oracle. */
  faultIntervals(): FaultInterval[] {
    return this.intervals.map((interval) => ({ ...interval }));
  }

  private start(id: number, fault: ScriptedFault, rng: Rng): void {
    const kind = kindOf(fault);
    const started = kind.start(fault, { sim: this.sim, view: this.view, rng });
    const delayUs = (kind.extraDelayMs?.(fault) ?? 0) * 1000;
    this.longestDelayUsValue = Math.max(this.longestDelayUsValue, delayUs);
    const interval: ActiveFault['interval'] = {
      description: started.description,
      startUs: this.sim.nowUs,
    };
    this.intervals.push(interval);
    this.record(fault.kind, 'start', started.description);
    if (started.end === null) {
      interval.endUs = this.sim.nowUs;
      // An operator action's outcome is recorded by the operator node when it completes.
      if (started.endRecordedLater !== true) this.record(fault.kind, 'end', started.description);
      return;
    }
    const { description } = started;
    this.active.set(id, { description, fault: fault.kind, end: started.end, interval });
  }

  private end(id: number): void {
    const active = this.active.get(id);
    if (active === undefined) return;
    this.active.delete(id);
    active.end();
    active.interval.endUs = this.sim.nowUs;
    this.record(active.fault, 'end', active.description);
  }

  private record(fault: string, phase: 'start' | 'end', description: string): void {
    this.recorder.append({
      timeUs: this.sim.nowUs,
      type: 'info',
      process: 'nemesis',
      client: 'nemesis',
      f: 'nemesis',
      value: { fault, phase, description },
    });
  }
}
