/**
 * The scripted faults the nemesis can run, each with its fault model. Times are milliseconds
 * from the start of the run. A node is named directly (`b2`, `A`) or by a reference resolved
 * when the fault starts: `leader:orders-0` is the current leader of that topic-partition and
 * `coordinator:orders-tx` the broker coordinating that transactional.id.
 *
 * Whether Kafka's exactly-once guarantee covers a fault ({@link isInsideGuarantee}): GC pauses,
 * process crashes (also of a coordinator), dropped, duplicated, delayed or held messages, every
 * shape of network partition and clock skew are inside it, given acks=all, idempotence,
 * min.insync.replicas >= 2 and unclean elections off. A power loss is not (Kafka relies on
 * replication, not fsync, so an unflushed tail can be lost when the ISR shrinks to that broker),
 * and a forced unclean leader election is not (it elects a replica that may lack committed
 * records, KIP-106; PartitionChangeBuilder.tryElection).
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

/**
 * Drop, duplicate, delay or hold the messages from `from` to `to` of the given Kafka kinds.
 * `hold` keeps every matching message until the fault ends, then releases them in order.
 */
export interface LinkFault {
  readonly kind: 'drop' | 'duplicate' | 'delay' | 'hold';
  readonly from: string | null;
  readonly to: string | null;
  readonly messages: readonly string[];
  /** Only the first this many matching messages (`count`); null: every one. */
  readonly count: number | null;
  readonly probability: Ratio;
  readonly delayMs: number;
  readonly atMs: number;
  readonly forMs: number;
}

/**
 * A network partition between `nodes` and `between`. `both` cuts both ways; `one-way` drops
 * only the messages from `nodes` to `between` (the other direction passes).
 */
export interface PartitionFault {
  readonly kind: 'partition';
  readonly nodes: readonly string[];
  readonly between: readonly string[];
  readonly direction: 'both' | 'one-way';
  readonly atMs: number;
  readonly forMs: number;
}

/**
 * Brokers split into a minority and a majority that cannot reach each other; the controller
 * stays with the majority, so the minority is fenced as a KRaft quorum would fence it. Clients
 * still reach every broker.
 */
export interface SplitFault {
  readonly kind: 'split';
  readonly minority: readonly string[];
  readonly majority: readonly string[];
  readonly atMs: number;
  readonly forMs: number;
}

/**
 * A bridge (Jepsen's majorities ring on a line): `left` and `right` cannot reach each other, and
 * the `bridge` broker reaches both. The controller and clients reach everyone.
 */
export interface BridgeFault {
  readonly kind: 'bridge';
  readonly bridge: string;
  readonly left: readonly string[];
  readonly right: readonly string[];
  readonly atMs: number;
  readonly forMs: number;
}

/** `target`'s clock reads `skewMs` off (may be negative) until the fault ends. */
export interface ClockSkewFault {
  readonly kind: 'clock-skew';
  readonly target: string;
  readonly skewMs: number;
  readonly atMs: number;
  readonly forMs: number | null;
}

/**
 * A forced unclean leader election of one partition, through the controller's public admin
 * operation (style rule 17's one exception): a live replica outside the ISR if any, else another
 * live replica, becomes leader with an ISR of itself.
 */
export interface UncleanElectionFault {
  readonly kind: 'unclean-election';
  readonly topic: string;
  readonly partition: number;
  readonly atMs: number;
}

/**
 * A crash of whichever broker coordinates `key` when the fault starts: the transaction
 * coordinator of a transactional.id, or the group coordinator of a group.id.
 */
export interface CoordinatorFailoverFault {
  readonly kind: 'coordinator-failover';
  readonly keyType: 'transaction' | 'group';
  readonly key: string;
  readonly atMs: number;
  readonly forMs: number | null;
  readonly mode: 'process' | 'power-loss';
}

/**
 * An operator running `kafka-transactions.sh` (KIP-664): `describe-producers` of a partition,
 * `find-hanging` on a topic (or one partition), or `abort` of the open transaction starting at
 * `startOffset` (without one: of every transaction find-hanging reports there). The result is
 * recorded in the history when the admin calls complete.
 */
export interface OperatorFault {
  readonly kind: 'operator';
  readonly action: 'describe-producers' | 'find-hanging' | 'abort';
  readonly topic: string;
  readonly partition: number | null;
  readonly startOffset: number | null;
  readonly maxTransactionTimeoutMs: number;
  readonly atMs: number;
}

/** Any scripted fault, or an operator action. */
export type ScriptedFault =
  | PauseFault
  | CrashFault
  | LinkFault
  | PartitionFault
  | SplitFault
  | BridgeFault
  | ClockSkewFault
  | UncleanElectionFault
  | CoordinatorFailoverFault
  | OperatorFault;

/** Every fault kind of {@link ScriptedFault}. */
export type FaultKind = ScriptedFault['kind'];

/** Whether Kafka's exactly-once guarantee covers a fault (style rule 20). */
export function isInsideGuarantee(fault: ScriptedFault): boolean {
  if (fault.kind === 'unclean-election') return false;
  // An operator's abort writes a marker no coordinator decided: a repair outside the protocol.
  if (fault.kind === 'operator') return fault.action !== 'abort';
  if (fault.kind === 'crash' || fault.kind === 'coordinator-failover') {
    return fault.mode === 'process';
  }
  return true;
}

/** The end of a fault in ms, or null when it lasts until the heal phase (or is instantaneous). */
export function faultEndMs(fault: ScriptedFault): number | null {
  if (fault.kind === 'unclean-election' || fault.kind === 'operator') return null;
  return fault.forMs === null ? null : fault.atMs + fault.forMs;
}

/** ` for N ms`, or nothing. */
function lasting(forMs: number | null): string {
  return forMs === null ? '' : ` for ${forMs} ms`;
}

/** A one-line description of a fault, in the words reports use. */
export function describeFault(fault: ScriptedFault): string {
  switch (fault.kind) {
    case 'pause':
      return `GC pause of ${fault.target} for ${fault.forMs} ms`;
    case 'crash':
      return `${fault.mode === 'power-loss' ? 'power loss' : 'crash'} of ${fault.target}${lasting(
        fault.forMs,
      )}`;
    case 'partition': {
      const cut = fault.direction === 'both' ? '|' : '->';
      const what = fault.direction === 'both' ? 'network partition' : 'one-way partition';
      return `${what} [${fault.nodes.join(', ')}] ${cut} [${fault.between.join(', ')}]${lasting(
        fault.forMs,
      )}`;
    }
    case 'split':
      return (
        `split: minority [${fault.minority.join(', ')}] | majority ` +
        `[${fault.majority.join(', ')}]${lasting(fault.forMs)}`
      );
    case 'bridge':
      return (
        `bridge ${fault.bridge}: [${fault.left.join(', ')}] | [${fault.right.join(', ')}]` +
        lasting(fault.forMs)
      );
    case 'clock-skew':
      return `clock skew of ${fault.target} by ${fault.skewMs} ms${lasting(fault.forMs)}`;
    case 'unclean-election':
      return `forced unclean leader election of ${fault.topic}-${fault.partition}`;
    case 'coordinator-failover':
      return (
        `${fault.mode === 'power-loss' ? 'power loss' : 'crash'} of the ` +
        `${fault.keyType === 'group' ? 'group ' : ''}coordinator of ` +
        `${fault.key}${lasting(fault.forMs)}`
      );
    case 'operator': {
      const where = fault.partition === null ? fault.topic : `${fault.topic}-${fault.partition}`;
      const from = fault.startOffset === null ? '' : ` --start-offset ${fault.startOffset}`;
      return `operator: kafka-transactions ${fault.action} ${where}${from}`;
    }
    default:
      return describeLinkFault(fault);
  }
}

function describeLinkFault(fault: LinkFault): string {
  const what = fault.messages.length === 0 ? 'messages' : fault.messages.join('/');
  const link = `${fault.from ?? '*'} -> ${fault.to ?? '*'}`;
  const how =
    fault.kind === 'delay'
      ? ` (+${fault.delayMs} ms)`
      : fault.kind === 'hold'
        ? ''
        : ` (p=${fault.probability.numerator}/${fault.probability.denominator})`;
  const first = fault.count === null ? '' : ` (first ${fault.count})`;
  return `${fault.kind} ${what}${first} ${link}${how} for ${fault.forMs} ms`;
}
