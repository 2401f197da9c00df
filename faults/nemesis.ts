/**
 * The nemesis runs scripted faults at their times using kernel primitives only (pause/resume,
 * crash/restart, link rules), records each start and end in the history as a `nemesis` info
 * operation, and heals everything still active when the run's heal phase begins.
 */
import { nodeId, ratio, type LinkRuleId, type Rng, type Simulation } from '../sim/kernel';
import type { FaultInterval, HistoryRecorder } from '../sim/history';
import { describeFault, type ScriptedFault } from './fault_types';

interface ActiveFault {
  readonly description: string;
  readonly fault: string;
  readonly end: () => void;
}

/** Runs faults against one simulation. */
export class Nemesis {
  private readonly active = new Map<number, ActiveFault>();
  private readonly intervals: Array<{ description: string; startUs: number; endUs?: number }> = [];
  private nextId = 1;

  constructor(
    private readonly sim: Simulation,
    private readonly recorder: HistoryRecorder,
    private readonly rng: Rng,
  ) {}

  /** Schedules every fault's start and end. */
  schedule(faults: readonly ScriptedFault[]): void {
    faults.forEach((fault, index) => {
      const id = this.nextId++;
      const atUs = fault.atMs * 1000;
      this.sim.schedule(atUs, `nemesis start ${fault.kind}`, () =>
        this.start(id, fault, this.rng.fork(`fault/${index}`)),
      );
      if (fault.forMs !== null) {
        this.sim.schedule(atUs + fault.forMs * 1000, `nemesis end ${fault.kind}`, () =>
          this.end(id),
        );
      }
    });
  }

  /** Ends every active fault now (the heal phase). */
  healAll(): void {
    for (const id of [...this.active.keys()]) this.end(id);
  }

  /** Fault intervals so far, for the oracle. */
  faultIntervals(): FaultInterval[] {
    return this.intervals.map((interval) => ({ ...interval }));
  }

  private start(id: number, fault: ScriptedFault, rng: Rng): void {
    const description = describeFault(fault);
    const end = this.apply(fault, rng);
    this.active.set(id, { description, fault: fault.kind, end });
    this.intervals.push({ description, startUs: this.sim.nowUs });
    this.record(fault.kind, 'start', description);
  }

  private end(id: number): void {
    const active = this.active.get(id);
    if (active === undefined) return;
    this.active.delete(id);
    active.end();
    const interval = this.intervals.find(
      (candidate) => candidate.description === active.description && candidate.endUs === undefined,
    );
    if (interval !== undefined) interval.endUs = this.sim.nowUs;
    this.record(active.fault, 'end', active.description);
  }

  /** Starts a fault with kernel primitives and returns how to end it. */
  private apply(fault: ScriptedFault, rng: Rng): () => void {
    const sim = this.sim;
    switch (fault.kind) {
      case 'pause':
        sim.pause(nodeId(fault.target));
        return () => sim.resume(nodeId(fault.target));
      case 'crash':
        sim.crash(nodeId(fault.target), fault.mode);
        return () => sim.restart(nodeId(fault.target));
      case 'partition': {
        const rules: LinkRuleId[] = [];
        for (const a of fault.nodes) {
          for (const b of fault.between) {
            for (const [source, target] of [
              [a, b],
              [b, a],
            ] as const) {
              rules.push(
                sim.addLinkRule({
                  source: nodeId(source),
                  target: nodeId(target),
                  effect: { type: 'drop', chance: ratio(1, 1) },
                  rng,
                }),
              );
            }
          }
        }
        return () => rules.forEach((rule) => sim.removeLinkRule(rule));
      }
      default: {
        const effect =
          fault.kind === 'delay'
            ? { type: 'delay' as const, delayUs: fault.delayMs * 1000 }
            : { type: fault.kind, chance: fault.probability };
        const rule = sim.addLinkRule({
          ...(fault.from === null ? {} : { source: nodeId(fault.from) }),
          ...(fault.to === null ? {} : { target: nodeId(fault.to) }),
          ...(fault.messages.length === 0 ? {} : { kinds: fault.messages }),
          effect,
          rng,
        });
        return () => sim.removeLinkRule(rule);
      }
    }
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
