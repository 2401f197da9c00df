/**
 * The scripted faults the nemesis can run, each with its fault model. Times are milliseconds
 * from the start of the run. Whether Kafka's exactly-once guarantee covers a fault: a GC pause,
 * a process crash, dropped, duplicated or delayed messages and network partitions are inside it
 * (given acks=all and idempotence); a power loss with no fsync is not, since Kafka relies on
 * replication, not on flushing, for durability.
 */
import type { Ratio } from '../sim/kernel';

/** A GC pause: nothing runs on `target` for `forMs`; its timers fire late, the rest goes on. */
export interface PauseFault {
  readonly kind: 'pause';
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number;
}

/** A crash of `target`, restarted after `forMs` (or at heal when null). */
export interface CrashFault {
  readonly kind: 'crash';
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number | null;
  readonly mode: 'process' | 'power-loss';
}

/** Drop, duplicate or delay the messages from `from` to `to` of the given Kafka kinds. */
export interface LinkFault {
  readonly kind: 'drop' | 'duplicate' | 'delay';
  readonly from: string | null;
  readonly to: string | null;
  readonly messages: readonly string[];
  readonly probability: Ratio;
  readonly delayMs: number;
  readonly atMs: number;
  readonly forMs: number;
}

/** A network partition: nothing passes between `nodes` and `between`, either way. */
export interface PartitionFault {
  readonly kind: 'partition';
  readonly nodes: readonly string[];
  readonly between: readonly string[];
  readonly atMs: number;
  readonly forMs: number;
}

/** Any scripted fault. */
export type ScriptedFault = PauseFault | CrashFault | LinkFault | PartitionFault;

/** Whether Kafka's exactly-once guarantee covers a fault kind (style rule 20). */
export function isInsideGuarantee(fault: ScriptedFault): boolean {
  return !(fault.kind === 'crash' && fault.mode === 'power-loss');
}

/** A one-line description of a fault, in the words reports use. */
export function describeFault(fault: ScriptedFault): string {
  switch (fault.kind) {
    case 'pause':
      return `GC pause of ${fault.target} for ${fault.forMs} ms`;
    case 'crash':
      return (
        `${fault.mode === 'power-loss' ? 'power loss' : 'crash'} of ${fault.target}` +
        (fault.forMs === null ? '' : ` for ${fault.forMs} ms`)
      );
    case 'partition':
      return (
        `network partition [${fault.nodes.join(', ')}] | [${fault.between.join(', ')}]` +
        ` for ${fault.forMs} ms`
      );
    default: {
      const what = fault.messages.length === 0 ? 'messages' : fault.messages.join('/');
      const link = `${fault.from ?? '*'} -> ${fault.to ?? '*'}`;
      const how =
        fault.kind === 'delay'
          ? `+${fault.delayMs} ms`
          : `p=${fault.probability.numerator}/${fault.probability.denominator}`;
      return `${fault.kind} ${what} ${link} (${how}) for ${fault.forMs} ms`;
    }
  }
}
