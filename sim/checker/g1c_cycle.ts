/**
 * `g1c`: circular information flow among committed transactions, Adya's G1c as Elle's Kafka
 * analysis reads it (Jepsen, "Redpanda 21.10.1"). The nodes are the writers of committed records:
 * transactions (`txn`) and single sends (`send`). Two kinds of dependency connect them:
 *
 * - write-write (ww): in a partition's final log, the committed data record of one writer is
 *   followed by the next committed data record of another (the log orders their writes);
 * - write-read (wr): a read-process-write transaction processed a record (its output's
 *   `source`, the records it read) that another writer wrote.
 *
 * A cycle of ww and wr edges with at least one wr edge is G1c: a transaction observed the effect
 * of one that, by the log, came after it. A cycle of ww edges alone is G0, which Kafka allows: a
 * transaction isolates nothing from concurrent writers, whose records interleave in a partition
 * in any order while their commits land in another (KIP-98 promises atomic visibility to
 * read_committed consumers, not write isolation), so G0 is not reported. Only committed records
 * count (their transaction's COMMIT marker, or none needed, in the final log), and a reader only
 * through the outputs it committed. Each strongly connected component of the graph that holds a
 * wr edge is reported once, with one cycle through that edge.
 */
import type { HistoryOp, SendMicroOp } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionName } from './topic_partition';
import { sentRecordsOf } from '../history';

/** A writer of committed records: one `txn` or `send` completion. */
interface Writer {
  readonly op: Extract<HistoryOp, { readonly f: 'txn' | 'send' }>;
  readonly sends: readonly SendMicroOp[];
}

/** A dependency from writer `from` to writer `to`. */
interface Edge {
  readonly from: number;
  readonly to: number;
  readonly type: 'ww' | 'wr';
  /** What makes it: the partition and the two values (ww), or the value read (wr). */
  readonly topic: string;
  readonly partition: number;
  readonly values: readonly number[];
}

/**
 * Reports each strongly connected component of the ww/wr graph that holds a wr edge.
 * @example checkG1cCycle(new CheckContext(history, oracle))[0]?.message
 */
export function checkG1cCycle(context: CheckContext): Anomaly[] {
  const writers = writersOf(context.history);
  if (!writers.some((writer) => writer.sends.some((send) => send.source !== undefined))) return [];
  const writerOfValue = new Map<number, number>();
  writers.forEach((writer, index) => {
    for (const send of writer.sends) writerOfValue.set(send.value, index);
  });
  const committed = committedValues(context);
  const edges = [
    ...writeWriteEdges(context, writerOfValue),
    ...writeReadEdges(writers, writerOfValue, committed),
  ];
  const component = stronglyConnected(writers.length, edges);
  const anomalies: Anomaly[] = [];
  const reported = new Set<number>();
  for (const edge of edges) {
    const id = component[edge.from];
    if (edge.type !== 'wr' || id === undefined || id !== component[edge.to] || reported.has(id)) {
      continue;
    }
    reported.add(id);
    const cycle = [edge, ...pathWithin(edge.to, edge.from, edges, component)];
    anomalies.push(g1cAnomaly(context, writers, cycle));
  }
  return anomalies;
}

/** Every `txn` and `send` completion, with the records it sent. */
function writersOf(history: readonly HistoryOp[]): Writer[] {
  const writers: Writer[] = [];
  for (const op of history) {
    if (op.type === 'invoke') continue;
    if (op.f === 'txn') writers.push({ op, sends: op.value.sends });
    else if (op.f === 'send') writers.push({ op, sends: sentRecordsOf(op.value) });
  }
  return writers;
}

/** The values of every committed data record of the final logs. */
function committedValues(context: CheckContext): Set<number> {
  const values = new Set<number>();
  for (const index of context.partitionIndexes.values()) {
    index.batches.forEach((batch, position) => {
      if (index.outcomeOfBatch(position)?.status !== 'committed') return;
      for (const value of batch.values) values.add(value);
    });
  }
  return values;
}

/** ww: consecutive committed data records of two writers, per partition. */
function writeWriteEdges(
  context: CheckContext,
  writerOfValue: ReadonlyMap<number, number>,
): Edge[] {
  const edges: Edge[] = [];
  for (const index of context.partitionIndexes.values()) {
    const { topic, partition } = index.partition;
    let last: { writer: number; value: number } | null = null;
    const committed = index.batches.filter(
      (_, position) => index.outcomeOfBatch(position)?.status === 'committed',
    );
    for (const value of committed.flatMap((batch) => batch.values)) {
      const writer = writerOfValue.get(value);
      if (writer === undefined) continue;
      if (last !== null && last.writer !== writer) {
        edges.push({
          from: last.writer,
          to: writer,
          type: 'ww',
          topic,
          partition,
          values: [last.value, value],
        });
      }
      last = { writer, value };
    }
  }
  return edges;
}

/** wr: a committed output's source was written by another writer, committed too. */
function writeReadEdges(
  writers: readonly Writer[],
  writerOfValue: ReadonlyMap<number, number>,
  committed: ReadonlySet<number>,
): Edge[] {
  const edges: Edge[] = [];
  writers.forEach((writer, reader) => {
    const seen = new Set<number>();
    for (const send of writer.sends) {
      const source = send.source;
      if (source === undefined || !committed.has(send.value) || !committed.has(source.value))
        continue;
      const from = writerOfValue.get(source.value);
      if (from === undefined || from === reader || seen.has(from)) continue;
      seen.add(from);
      const { topic, partition } = source;
      edges.push({ from, to: reader, type: 'wr', topic, partition, values: [source.value] });
    }
  });
  return edges;
}

/** Tarjan's strongly connected components, iteratively: the component id of every node. */
function stronglyConnected(nodes: number, edges: readonly Edge[]): number[] {
  const out: number[][] = Array.from({ length: nodes }, () => []);
  for (const edge of edges) out[edge.from]?.push(edge.to);
  const index = new Array<number>(nodes).fill(-1);
  const low = new Array<number>(nodes).fill(0);
  const component = new Array<number>(nodes).fill(-1);
  const stack: number[] = [];
  const onStack = new Array<boolean>(nodes).fill(false);
  let counter = 0;
  let components = 0;
  for (let root = 0; root < nodes; root += 1) {
    if (index[root] !== -1) continue;
    const work: Array<{ node: number; next: number }> = [{ node: root, next: 0 }];
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = true;
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: number; next: number };
      const successors = out[frame.node] as number[];
      if (frame.next < successors.length) {
        const successor = successors[frame.next++] as number;
        if (index[successor] === -1) {
          index[successor] = low[successor] = counter++;
          stack.push(successor);
          onStack[successor] = true;
          work.push({ node: successor, next: 0 });
        } else if (onStack[successor] === true) {
          low[frame.node] = Math.min(low[frame.node] as number, index[successor] as number);
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) {
        low[parent.node] = Math.min(low[parent.node] as number, low[frame.node] as number);
      }
      if (low[frame.node] !== index[frame.node]) continue;
      for (;;) {
        const member = stack.pop() as number;
        onStack[member] = false;
        component[member] = components;
        if (member === frame.node) break;
      }
      components += 1;
    }
  }
  return component;
}

/** The edges of a shortest path from `start` to `goal` inside their component (breadth first). */
function pathWithin(
  start: number,
  goal: number,
  edges: readonly Edge[],
  component: readonly number[],
): Edge[] {
  const id = component[start];
  const inside = edges.filter((edge) => component[edge.from] === id && component[edge.to] === id);
  const via = new Map<number, Edge>();
  const queue = [start];
  const visited = new Set([start]);
  while (queue.length > 0 && !visited.has(goal)) {
    const node = queue.shift() as number;
    for (const edge of inside) {
      if (edge.from !== node || visited.has(edge.to)) continue;
      visited.add(edge.to);
      via.set(edge.to, edge);
      queue.push(edge.to);
    }
  }
  const path: Edge[] = [];
  for (let node = goal; node !== start;) {
    const edge = via.get(node) as Edge;
    path.unshift(edge);
    node = edge.from;
  }
  return path;
}

function g1cAnomaly(
  context: CheckContext,
  writers: readonly Writer[],
  cycle: readonly Edge[],
): Anomaly {
  const name = (node: number): string => {
    const op = (writers[node] as Writer).op;
    return `${op.f} of ${op.client} (${op.process}, ${op.timeUs}us)`;
  };
  const steps = cycle.map((edge) => {
    const place = topicPartitionName(edge.topic, edge.partition);
    const why =
      edge.type === 'wr'
        ? `read value ${edge.values[0]} of ${place}`
        : `wrote ${place} after it (value ${edge.values[0]}, then ${edge.values[1]})`;
    return `${name(edge.to)} ${why}`;
  });
  const first = cycle[0] as Edge;
  const reader = (writers[first.to] as Writer).op;
  const message =
    `Circular information flow among committed transactions: starting at ${name(first.from)}, ` +
    `${steps.join('; ')}; so the cycle closes (ww and wr dependencies, G1c)`;
  return {
    kind: 'g1c',
    message,
    topic: first.topic,
    partition: first.partition,
    value: first.values[0] as number,
    values: cycle.flatMap((edge) => edge.values),
    client: reader.client,
    process: reader.process,
    timeUs: reader.timeUs,
    activeFaults: context.activeFaultsAt(reader.timeUs),
  };
}
