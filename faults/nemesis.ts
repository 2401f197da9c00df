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
import { describeTrigger, matchesTrigger, type FaultTrigger } from './trigger';

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
  /** Set at the heal phase: triggers no longer fire (a triggered fault never outlives heal). */
  private healing = false;
  /**
   * The longest aftermath of a started fault, µs: the extra delay a `delay` or `slow-node` gave
   * messages, or how far a `clock-skew` ahead steps its node's clock back when it ends.
   */
  private longestAftermathUsValue = 0;

  constructor(
    private readonly sim: Simulation,
    private readonly recorder: HistoryRecorder,
    private readonly rng: Rng,
    private readonly view: ClusterView,
  ) {}

  /**
   * Schedules every fault's start and end: at its clock time, or, with a trigger (`on:`),
   * `at.ms` after the delivery that fires it (a trigger that never fires starts nothing).
   */
  schedule(faults: readonly ScriptedFault[]): void {
    faults.forEach((fault, index) => {
      const id = this.nextId++;
      const timed = (originUs: number): void => {
        this.sim.schedule(originUs + fault.atMs * 1000, `nemesis start ${fault.kind}`, () =>
          this.start(id, fault, this.rng.fork(`fault/${index}`)),
        );
        const endMs = faultEndMs(fault);
        if (endMs !== null) {
          const endUs = originUs + endMs * 1000;
          this.sim.schedule(endUs, `nemesis end ${fault.kind}`, () => this.end(id));
        }
      };
      if (fault.on === undefined) timed(0);
      else this.watch(fault.on, timed);
    });
  }

  /** Calls `fire(now)` once, at the `count`-th delivery matching `trigger`. */
  private watch(trigger: FaultTrigger, fire: (originUs: number) => void): void {
    let seen = 0;
    this.sim.watchDeliveries((delivery) => {
      if (this.healing || seen >= trigger.count) return;
      if (!matchesTrigger(trigger, delivery, this.view)) return;
      seen += 1;
      if (seen === trigger.count) fire(delivery.timeUs);
    });
  }

  /** Ends every active fault now (the heal phase). */
  healAll(): void {
    this.healing = true;
    for (const id of [...this.active.keys()]) this.end(id);
  }

  /**
   * The longest aftermath of any started fault, µs: messages delayed just before the heal phase
   * are still on their way that long after it, and deadlines a node stamped while its clock ran
   * ahead lie that much later once the clock steps back.
   */
  get longestAftermathUs(): number {
    return this.longestAftermathUsValue;
  }

  /** Fault intervals so far, for the oracle. */
  faultIntervals(): FaultInterval[] {
    return this.intervals.map((interval) => ({ ...interval }));
  }

  private start(id: number, fault: ScriptedFault, rng: Rng): void {
    // A triggered fault whose start falls after the heal began does not start.
    if (this.healing && fault.on !== undefined) return;
    const kind = kindOf(fault);
    const started = kind.start(fault, { sim: this.sim, view: this.view, rng });
    const aftermathUs = (kind.aftermathMs?.(fault) ?? 0) * 1000;
    this.longestAftermathUsValue = Math.max(this.longestAftermathUsValue, aftermathUs);
    const description =
      started.description + (fault.on === undefined ? '' : describeTrigger(fault.on));
    const interval: ActiveFault['interval'] = {
      description,
      startUs: this.sim.nowUs,
    };
    this.intervals.push(interval);
    this.record(fault.kind, 'start', description);
    if (started.end === null) {
      interval.endUs = this.sim.nowUs;
      // An operator action's outcome is recorded by the operator node when it completes.
      if (started.endRecordedLater !== true) this.record(fault.kind, 'end', description);
      return;
    }
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
