/**
 * Renders a run's history in the two file formats docs/history.md documents: eos-sim's own
 * history file (JSON Lines: a header, one line per operation, one line with the oracle), which
 * `eos-sim check` reads back, and the history in the shape of Jepsen's Kafka workload
 * (`jepsen.tests.kafka`), in EDN, for a second opinion from Jepsen's checker. Pure functions:
 * strings out, no I/O.
 */
import type { DeliveredRecord, History, HistoryOp, Oracle, SendMicroOp } from '../sim/history';
import { deliveredRecordsOf, sentRecordsOf } from '../sim/history';

/** The `format` of the header line of an eos-sim history file. */
export const HISTORY_FORMAT = 'eos-sim-history';
/** The version of the history file format this build writes and reads. */
export const HISTORY_FORMAT_VERSION = 1;

/** The first line of a history file: what the history is of (all but format and version are
 * optional for histories recorded outside eos-sim). */
export interface HistoryHeader {
  readonly format: typeof HISTORY_FORMAT;
  readonly version: typeof HISTORY_FORMAT_VERSION;
  readonly seed?: string;
  readonly scenario?: { readonly name: string; readonly file: string; readonly hash: string };
  readonly tool?: { readonly name: string; readonly version: string };
}

/**
 * The history file: the header, each operation on its own line, then `{"oracle": …}`. Ends with
 * a newline.
 * @example writeFileSync('out.jsonl', renderHistoryFile({ header, history, oracle }));
 */
export function renderHistoryFile(file: {
  readonly header: HistoryHeader;
  readonly history: History;
  readonly oracle: Oracle;
}): string {
  const lines = [JSON.stringify(file.header)];
  for (const op of file.history) lines.push(JSON.stringify(op));
  lines.push(JSON.stringify({ oracle: file.oracle }));
  return `${lines.join('\n')}\n`;
}

/** An EDN string literal. */
function ednString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Jepsen keys are integers: each `topic-partition` gets one, in sorted order. */
function keyTable(history: History): Map<string, number> {
  const names = new Set<string>();
  const add = (tp: { topic: string; partition: number }): void => {
    names.add(`${tp.topic}-${tp.partition}`);
  };
  for (const op of history) {
    if (op.f === 'txn') op.value.sends.forEach(add);
    else if (op.f === 'send') sentRecordsOf(op.value).forEach(add);
    else if (op.f === 'poll' || op.f === 'final-read') op.value.batches.forEach(add);
  }
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(sorted.map((name, index) => [name, index]));
}

function sendMop(send: SendMicroOp, keys: ReadonlyMap<string, number>, done: boolean): string {
  const key = keys.get(`${send.topic}-${send.partition}`) ?? -1;
  const value = done && send.offset !== undefined ? `[${send.offset} ${send.value}]` : send.value;
  return `[:send ${key} ${value}]`;
}

function pollMop(records: readonly DeliveredRecord[], keys: ReadonlyMap<string, number>): string {
  const byKey = new Map<number, string[]>();
  for (const record of records) {
    const key = keys.get(`${record.topic}-${record.partition}`) ?? -1;
    const pairs = byKey.get(key) ?? [];
    pairs.push(`[${record.offset} ${record.value}]`);
    byKey.set(key, pairs);
  }
  const entries = [...byKey].sort((a, b) => a[0] - b[0]);
  return `[:poll {${entries.map(([key, pairs]) => `${key} [${pairs.join(' ')}]`).join(', ')}}]`;
}

/** The Jepsen `:type`: an acknowledged abort did not take effect, so it is a `:fail`. */
function jepsenType(op: HistoryOp): string {
  if (op.f === 'txn' && op.type === 'ok' && !op.value.commit) return 'fail';
  return op.type;
}

/** The `:f` and `:value` of one operation, or undefined for operations Jepsen has no form of. */
function jepsenBody(
  op: HistoryOp,
  keys: ReadonlyMap<string, number>,
): { f: string; value: string } | undefined {
  const done = op.type === 'ok';
  switch (op.f) {
    case 'txn':
      return {
        f: 'txn',
        value: `[${op.value.sends.map((s) => sendMop(s, keys, done)).join(' ')}]`,
      };
    case 'send':
      return {
        f: 'send',
        value: `[${sentRecordsOf(op.value)
          .map((s) => sendMop(s, keys, done))
          .join(' ')}]`,
      };
    case 'poll':
    case 'final-read':
      return {
        f: 'poll',
        value: done ? `[${pollMop(deliveredRecordsOf(op.value), keys)}]` : '[[:poll]]',
      };
    case 'nemesis':
      return {
        f: op.value.phase === 'start' ? 'start' : 'stop',
        value: ednString(op.value.description),
      };
    case 'init':
      return undefined;
    default:
      return undefined;
  }
}

/**
 * The history as Jepsen's Kafka workload writes it: one EDN map per line with `:index`,
 * `:time` (nanoseconds), `:type`, `:process` (an integer per logical process, `:nemesis` for
 * faults), `:f` (`:send`, `:poll`, `:txn`) and micro-ops `[:send k v]` / `[:poll {k [[offset
 * v] ...]}]`. Keys are integers; a leading comment maps them to `topic-partition`. `init`
 * operations have no Jepsen form and are left out (indexes are renumbered).
 */
export function renderJepsenHistory(history: History): string {
  const keys = keyTable(history);
  const processes = new Map<string, number>();
  const lines = [
    ';; eos-sim history in the shape of jepsen.tests.kafka; keys:',
    ...[...keys].map(([name, key]) => `;;   ${key} = ${name.replace(/[\r\n]/g, ' ')}`),
  ];
  let index = 0;
  for (const op of history) {
    const body = jepsenBody(op, keys);
    if (body === undefined) continue;
    let process = ':nemesis';
    if (op.f !== 'nemesis') {
      const known = processes.get(op.process) ?? processes.size;
      processes.set(op.process, known);
      process = String(known);
    }
    const error = op.error === undefined ? '' : `, :error ${ednString(op.error)}`;
    lines.push(
      `{:index ${index}, :time ${op.timeUs * 1000}, :type :${jepsenType(op)}, ` +
        `:process ${process}, :f :${body.f}, :value ${body.value}${error}}`,
    );
    index += 1;
  }
  return `${lines.join('\n')}\n`;
}
