/**
 * `log-dir-failure`: the disk under a broker's log directory fails (KIP-112's
 * LogDirFailureChannel). The next write to any of its logs (a Produce, a WriteTxnMarkers, a
 * coordinator's own `__transaction_state` or `__consumer_offsets` write, a follower's append) is
 * answered KAFKA_STORAGE_ERROR and marks the directory offline; `halt.ms` later the
 * LogDirFailureHandler halts the broker, since its one log directory is gone (LogManager
 * .handleLogDirFailure, Exit.halt(1)): a process death, the page cache kept. Writes between the
 * two fail the same way. At the fault's end (`for.ms`, else the heal phase) the disk is replaced
 * or remounted and the broker restarts with its log (sim/actors/broker/log_dir_failure.ts).
 */
import { z } from 'zod';
import { nodeId } from '../../sim/kernel';
import { integer, section, text } from '../../sim/config';
import { resolveNode } from '../cluster_view';
import { defineFaultKind, endOf, lasting, resolvedNote, skipped } from './fault_kind';
import { checkNode } from './node_rules';
import { openTiming } from './timing';

/** The log directory of `target` fails; the broker halts `haltMs` after the first failed write. */
export interface LogDirFailureFault {
  readonly kind: 'log-dir-failure';
  readonly target: string;
  readonly atMs: number;
  /** Null: the disk is repaired and the broker restarted at the heal phase. */
  readonly forMs: number | null;
  /** From the first failed write to the halt: the LogDirFailureHandler thread's turn. */
  readonly haltMs: number;
}

const entry = section({
  kind: z.literal('log-dir-failure'),
  target: text(),
  ...openTiming,
  'halt.ms': integer({ min: 0 }).default(0),
});
type Entry = z.infer<typeof entry>;

function describeLogDirFailure(fault: LogDirFailureFault): string {
  const halt = fault.haltMs === 0 ? '' : `, halting ${fault.haltMs} ms after the first`;
  return `log directory failure of ${fault.target} (writes fail${halt})${lasting(fault.forMs)}`;
}

export const logDirFailureKind = defineFaultKind<LogDirFailureFault>({
  entries: { 'log-dir-failure': entry },
  kinds: ['log-dir-failure'],
  check: (fault: Entry, context) => checkNode(fault.target, context, 'target'),
  resolve: (fault: Entry) => ({
    kind: 'log-dir-failure',
    target: fault.target,
    atMs: fault['at.ms'],
    forMs: fault['for.ms'] ?? null,
    haltMs: fault['halt.ms'],
  }),
  entryOf: (fault) => ({
    kind: 'log-dir-failure',
    target: fault.target,
    'at.ms': fault.atMs,
    'for.ms': fault.forMs ?? undefined,
    'halt.ms': fault.haltMs,
  }),
  describe: describeLogDirFailure,
  endMs: endOf,
  start(fault, { sim, view }) {
    const description = describeLogDirFailure(fault);
    const broker = resolveNode(fault.target, view);
    if (broker === null) return skipped(description, `${fault.target} names no broker now`);
    if (!view.brokers.includes(broker)) return skipped(description, `${broker} is not a broker`);
    const node = nodeId(broker);
    let state: 'failed' | 'halting' | 'halted' | 'ended' = 'failed';
    const halt = (): void => {
      if (state !== 'halting') return;
      state = 'halted';
      sim.crash(node, 'process');
    };
    const repair = view.failLogDir(broker, () => {
      state = 'halting';
      sim.schedule(sim.nowUs + fault.haltMs * 1000, `log dir of ${broker} offline: halt`, halt);
    });
    const end = (): void => {
      const wasHalted = state === 'halted';
      state = 'ended';
      repair();
      if (wasHalted) sim.restart(node, 'process');
    };
    return { description: description + resolvedNote(fault.target, broker), end };
  },
  docs: [
    {
      kind: 'log-dir-failure',
      keys: '`target`, `at.ms`, `for.ms` (optional), `halt.ms` (default 0)',
      effect:
        "the broker's disk fails: its next log write (Produce, WriteTxnMarkers, a coordinator's " +
        "own write, a follower's append) is answered KAFKA_STORAGE_ERROR and takes the log " +
        'directory offline, and `halt.ms` later the broker halts as Kafka does with no live log ' +
        'directory (writes in between fail too; reads do not). At the end (`for.ms`, else heal) ' +
        'the disk is repaired and the broker restarts with its log',
      eos: 'yes',
    },
  ],
});
