/**
 * Picks the messages that matter for one anomaly from the run's message log and lays them out
 * as a {@link SequenceDiagram}: the producers, the transaction coordinator, the partition leader
 * and the consumers involved, with the faults and epoch grants of the window as notes.
 *
 * A message is relevant when it carries the anomaly's producerId or one of the
 * transactional.ids that producerId was granted under, and touches the anomaly's partition (or
 * no partition: InitProducerId, EndTxn); a consumer's FetchResponse is relevant when it carried
 * that producer's records from that partition. Only messages within a window around the anomaly
 * count. When more than {@link SEQUENCE_STEPS_MAX} steps remain, epoch changes, errors and the
 * anomaly's own Produce win, then the messages nearest the anomaly in time.
 */
import type { Anomaly } from '../checker';
import type { FaultInterval, Oracle } from '../history';
import { oracleBatchesOf, oracleRecordAt } from '../history';
import type { MessageLogEntry } from './message_log';
import type { SequenceDiagram, SequenceStep } from './report_types';

/** Steps (arrows and notes) per diagram. */
export const SEQUENCE_STEPS_MAX = 40;
/**
 * Messages kept per kind of exchange (same kind, source, target, partitions, epoch and error):
 * the nearest to the anomaly. A poll loop or a produce burst says what it says in three arrows.
 */
export const SIMILAR_MESSAGES_MAX = 3;
/** The window starts this long before the anomaly, microseconds. */
export const WINDOW_BEFORE_US = 30_000_000;
/** The window ends this long after the anomaly, microseconds. */
export const WINDOW_AFTER_US = 5_000_000;

/** What one anomaly is about. */
interface Focus {
  readonly timeUs: number;
  readonly producerId: number | undefined;
  readonly transactionalIds: ReadonlySet<string>;
  /** `topic-partition`, or undefined when the anomaly names none. */
  readonly partition: string | undefined;
  /** The client and brokers the anomaly names (a consumer, a truncating replica). */
  readonly nodes: ReadonlySet<string>;
}

function focusOf(anomaly: Anomaly, oracle: Oracle, endUs: number): Focus {
  const producerId = anomaly.producerId;
  const transactionalIds = new Set(
    oracle.epochGrants
      .filter((grant) => grant.producerId === producerId)
      .map((grant) => grant.transactionalId),
  );
  const partition =
    anomaly.topic === undefined || anomaly.partition === undefined
      ? undefined
      : `${anomaly.topic}-${anomaly.partition}`;
  const nodes = new Set([
    ...(anomaly.brokers ?? []),
    ...(anomaly.client === undefined ? [] : [anomaly.client]),
  ]);
  return { timeUs: anomaly.timeUs ?? endUs, producerId, transactionalIds, partition, nodes };
}

/** When the oracle's final log got the record at the anomaly's offset, if it holds one. */
function appendTimeOf(anomaly: Anomaly, oracle: Oracle): number | undefined {
  if (anomaly.offset === undefined) return undefined;
  const partition = oracle.partitions.find(
    (candidate) => candidate.topic === anomaly.topic && candidate.partition === anomaly.partition,
  );
  if (partition === undefined) return undefined;
  return oracleRecordAt(oracleBatchesOf(partition), anomaly.offset)?.appendUs;
}

function touchesPartition(entry: MessageLogEntry, focus: Focus): boolean {
  return focus.partition === undefined || entry.partitions.includes(focus.partition);
}

/** A message between nodes the anomaly names, about its partition (replication, fetches). */
function involvesNamedNodes(entry: MessageLogEntry, focus: Focus): boolean {
  const named = focus.nodes.has(entry.source) || focus.nodes.has(entry.target);
  return named && focus.partition !== undefined && entry.partitions.includes(focus.partition);
}

function isRelevant(entry: MessageLogEntry, focus: Focus): boolean {
  if (involvesNamedNodes(entry, focus)) return true;
  if (entry.kind === 'Fetch' || entry.replicaId !== undefined) return false;
  if (entry.kind === 'FetchResponse') {
    const carried =
      focus.producerId !== undefined && entry.batchProducerIds?.includes(focus.producerId);
    return carried === true && touchesPartition(entry, focus);
  }
  const ours =
    (entry.producerId !== undefined && entry.producerId === focus.producerId) ||
    (entry.transactionalId !== undefined && focus.transactionalIds.has(entry.transactionalId));
  if (!ours) return false;
  return entry.partitions.length === 0 || touchesPartition(entry, focus);
}

/**
 * 0 for what must be shown (epoch changes, errors, the anomaly's producerEpoch's own messages),
 * 1 for transaction outcomes (EndTxn, markers) and consumer fetches, 2 for the rest.
 */
function priorityOf(entry: MessageLogEntry, anomaly: Anomaly): number {
  if (entry.kind.startsWith('InitProducerId')) return 0;
  if (entry.error !== undefined && entry.error !== 'NONE') return 0;
  if (anomaly.producerEpoch !== undefined && entry.producerEpoch === anomaly.producerEpoch) {
    return 0;
  }
  if (entry.kind.startsWith('EndTxn') || entry.kind.startsWith('WriteTxnMarkers')) return 1;
  return entry.kind === 'FetchResponse' ? 1 : 2;
}

function similarityKey(entry: MessageLogEntry): string {
  const { kind, source, target, partitions, producerEpoch, error } = entry;
  return [kind, source, target, partitions.join(','), producerEpoch ?? '', error ?? ''].join('|');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function seconds(timeUs: number): string {
  return `${(timeUs / 1_000_000).toFixed(3)} s`;
}

/** The arrow text of a logged message, in Kafka's terms. */
function messageText(entry: MessageLogEntry): string {
  const identity =
    entry.producerId === undefined
      ? ''
      : ` producerId ${entry.producerId} epoch ${entry.producerEpoch ?? '?'}`;
  const partitions = entry.partitions.length === 0 ? '' : ` ${entry.partitions.join(', ')}`;
  const outcome = entry.committed === undefined ? '' : entry.committed ? ' COMMIT' : ' ABORT';
  const error = entry.error === undefined ? '' : ` ${entry.error}`;
  switch (entry.kind) {
    case 'Produce':
      return (
        `Produce${partitions}${identity} seq ${entry.baseSequence ?? '?'} ` +
        `(${plural(entry.recordCount ?? 0, 'record')})`
      );
    case 'ProduceResponse':
      return entry.baseOffset !== undefined && entry.baseOffset >= 0
        ? `ProduceResponse${error} at offset ${entry.baseOffset}`
        : `ProduceResponse${error}`;
    case 'InitProducerId':
      return `InitProducerId ${entry.transactionalId ?? '(idempotent)'}`;
    case 'InitProducerIdResponse':
      return `InitProducerIdResponse${error}${identity}`;
    case 'FetchResponse':
      return entry.batchProducerIds === undefined || entry.batchProducerIds.length === 0
        ? `FetchResponse${partitions}${error}`
        : `FetchResponse${partitions} with records of producerId ` +
            entry.batchProducerIds.join(', ');
    default:
      return entry.kind.endsWith('Response')
        ? `${entry.kind}${error}`
        : `${entry.kind}${outcome}${partitions}${identity}`;
  }
}

function stepOf(entry: MessageLogEntry): SequenceStep {
  const failed = entry.error !== undefined && entry.error !== 'NONE';
  return {
    type: 'message',
    timeUs: entry.timeUs,
    source: entry.source,
    target: entry.target,
    text: `${seconds(entry.timeUs)}: ${messageText(entry)}`,
    style: failed ? 'error' : entry.kind.endsWith('Response') ? 'response' : 'request',
  };
}

/** Options of {@link anomalySequence}. */
export interface SequenceSources {
  readonly anomaly: Anomaly;
  readonly messages: readonly MessageLogEntry[];
  readonly oracle: Oracle;
  readonly faults: readonly FaultInterval[];
  /** The run's last virtual time, for anomalies without a time. */
  readonly endUs: number;
}

/** The sequence diagram of one anomaly. */
export function anomalySequence(sources: SequenceSources): SequenceDiagram {
  const { anomaly, messages, oracle } = sources;
  const focus = focusOf(anomaly, oracle, sources.endUs);
  const fromUs = Math.max(0, focus.timeUs - WINDOW_BEFORE_US);
  // A record appended after the anomaly's time (a held Produce opening a hanging transaction)
  // is part of its story: the window reaches past its append.
  const appendUs = appendTimeOf(anomaly, oracle) ?? focus.timeUs;
  const toUs = Math.max(focus.timeUs, appendUs) + WINDOW_AFTER_US;
  const relevant = messages.filter(
    (entry) => entry.timeUs >= fromUs && entry.timeUs <= toUs && isRelevant(entry, focus),
  );
  const notes = windowNotes({ sources, focus, fromUs, toUs, relevant });
  const room = Math.max(0, SEQUENCE_STEPS_MAX - notes.length);
  const similar = new Map<string, number>();
  const chosen = relevant
    .map((entry, position) => ({ entry, position, priority: priorityOf(entry, anomaly) }))
    .sort(
      (a, b) =>
        a.priority - b.priority ||
        Math.abs(a.entry.timeUs - focus.timeUs) - Math.abs(b.entry.timeUs - focus.timeUs) ||
        a.position - b.position,
    )
    .filter(({ entry }) => {
      if (entry.kind.startsWith('InitProducerId')) return true;
      const key = similarityKey(entry);
      const count = similar.get(key) ?? 0;
      similar.set(key, count + 1);
      return count < SIMILAR_MESSAGES_MAX;
    })
    .slice(0, room)
    .sort((a, b) => a.position - b.position)
    .map(({ entry }) => stepOf(entry));
  const steps = mergeSteps(chosen, notes);
  return {
    participants: participantsOf(steps, relevant),
    steps,
    omitted: relevant.length - chosen.length,
    fromUs,
    toUs,
  };
}

/**
 * Messages and notes in time order. At one instant, fault and epoch notes come before the
 * messages and the anomaly's own note (the last note) after them, next to the message it names.
 */
function mergeSteps(messages: SequenceStep[], notes: SequenceStep[]): SequenceStep[] {
  const last = notes.length - 1;
  const keyed = [
    ...notes.map((step, i) => ({ step, key: i === last ? 2 : 0, position: i })),
    ...messages.map((step, i) => ({ step, key: 1, position: i })),
  ];
  return keyed
    .sort((a, b) => a.step.timeUs - b.step.timeUs || a.key - b.key || a.position - b.position)
    .map(({ step }) => step);
}

/** Faults, epoch grants and the anomaly itself, as notes over the nodes they concern. */
function windowNotes(options: {
  sources: SequenceSources;
  focus: Focus;
  fromUs: number;
  toUs: number;
  relevant: readonly MessageLogEntry[];
}): SequenceStep[] {
  const { sources, focus, fromUs, toUs, relevant } = options;
  const nodes = [...new Set(relevant.flatMap((entry) => [entry.source, entry.target]))];
  const known = new Set(nodes);
  for (const entry of sources.messages) known.add(entry.source).add(entry.target);
  const inWindow = (timeUs: number): boolean => timeUs >= fromUs && timeUs <= toUs;
  const over = (text: string, fallback: string | undefined): string[] => {
    const named = [...known].filter((node) =>
      new RegExp(`(^|[^\\w-])${escapeRegExp(node)}($|[^\\w-])`).test(text),
    );
    if (named.length > 0) return named.slice(0, 2);
    return fallback === undefined ? nodes.slice(0, 1) : [fallback];
  };
  const notes: SequenceStep[] = [];
  for (const fault of sources.faults) {
    for (const [timeUs, phase] of [
      [fault.startUs, 'starts'],
      [fault.endUs, 'ends'],
    ] as const) {
      if (timeUs === undefined || !inWindow(timeUs)) continue;
      const text = `${seconds(timeUs)}: fault ${phase}: ${fault.description}`;
      notes.push({ type: 'note', timeUs, over: over(fault.description, undefined), text });
    }
  }
  notes.push(...replicationNotes({ sources, focus, inWindow, over }));
  const coordinator = relevant.find((entry) => entry.kind === 'InitProducerId')?.target;
  for (const grant of sources.oracle.epochGrants) {
    if (!focus.transactionalIds.has(grant.transactionalId) || !inWindow(grant.timeUs)) continue;
    const text =
      `${seconds(grant.timeUs)}: coordinator grants producerId ${grant.producerId} ` +
      `epoch ${grant.producerEpoch} (${grant.reason}), lower epochs are fenced`;
    notes.push({ type: 'note', timeUs: grant.timeUs, over: over('', coordinator), text });
  }
  const { anomaly } = sources;
  const where = focus.partition === undefined ? '' : ` at ${focus.partition}`;
  const offset = anomaly.offset === undefined ? '' : ` offset ${anomaly.offset}`;
  const leader =
    relevant.find((entry) => entry.kind === 'Produce')?.target ??
    anomaly.client ??
    anomaly.brokers?.[0] ??
    nodes[0];
  notes.push({
    type: 'note',
    timeUs: focus.timeUs,
    over: over('', leader),
    text: `${seconds(focus.timeUs)}: ${anomaly.kind}${where}${offset}`,
  });
  return notes.filter((note) => note.type !== 'note' || note.over.length > 0);
}

/** Elections and truncations of the anomaly's partition, as notes. */
function replicationNotes(options: {
  sources: SequenceSources;
  focus: Focus;
  inWindow: (timeUs: number) => boolean;
  over: (text: string, fallback: string | undefined) => string[];
}): SequenceStep[] {
  const { sources, focus, inWindow, over } = options;
  const ours = (event: { timeUs: number; topic: string; partition: number }): boolean =>
    inWindow(event.timeUs) && `${event.topic}-${event.partition}` === focus.partition;
  const notes: SequenceStep[] = [];
  for (const election of (sources.oracle.elections ?? []).filter(ours)) {
    const who = election.leader ?? 'no leader (offline)';
    const text =
      `${seconds(election.timeUs)}: ${election.kind} election: ${who} leads ` +
      `${focus.partition ?? ''} at leaderEpoch ${election.leaderEpoch}`;
    notes.push({
      type: 'note',
      timeUs: election.timeUs,
      over: over(who, election.leader ?? undefined),
      text,
    });
  }
  for (const truncation of (sources.oracle.truncations ?? []).filter(ours)) {
    const text =
      `${seconds(truncation.timeUs)}: ${truncation.broker} truncates ${focus.partition ?? ''} ` +
      `to offset ${truncation.toOffset} (${truncation.reason}), removing ` +
      `${plural(truncation.removed.length, 'record')}`;
    notes.push({
      type: 'note',
      timeUs: truncation.timeUs,
      over: over('', truncation.broker),
      text,
    });
  }
  return notes;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Participants in role order (producers, coordinator, leaders, consumers, the rest). */
function participantsOf(
  steps: readonly SequenceStep[],
  relevant: readonly MessageLogEntry[],
): Array<{ id: string; label: string }> {
  const roles = new Map<string, { rank: number; names: string[] }>();
  const assign = (id: string, rank: number, name: string): void => {
    const known = roles.get(id) ?? { rank, names: [] };
    if (!known.names.includes(name)) known.names.push(name);
    roles.set(id, { rank: Math.min(rank, known.rank), names: known.names });
  };
  for (const entry of relevant) {
    if (entry.kind === 'InitProducerId' || entry.kind === 'EndTxn') {
      const id = entry.transactionalId === undefined ? '' : ` ${entry.transactionalId}`;
      assign(entry.source, 0, `producer${id}`);
      assign(entry.target, 1, 'coordinator');
    } else if (entry.kind === 'Produce') {
      assign(entry.source, 0, 'producer');
      assign(entry.target, 2, `leader of ${entry.partitions.join(', ')}`);
    } else if (entry.kind === 'FetchResponse') {
      assign(entry.target, 3, 'consumer');
    }
  }
  const order: string[] = [];
  for (const step of steps) {
    const ids = step.type === 'message' ? [step.source, step.target] : step.over;
    for (const id of ids) if (!order.includes(id)) order.push(id);
  }
  return order
    .map((id, position) => ({ id, position, role: roles.get(id) ?? { rank: 4, names: [] } }))
    .sort((a, b) => a.role.rank - b.role.rank || a.position - b.position)
    .map(({ id, role }) => {
      // "producer" alone adds nothing once "producer orders-tx" is known.
      const names = role.names.filter((name) => name !== 'producer' || role.names.length === 1);
      return { id, label: names.length === 0 ? id : `${id} (${names.join(', ')})` };
    });
}
