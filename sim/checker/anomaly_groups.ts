/**
 * Anomalies counted per (kind, classification, partitions involved) before the report's example
 * cap: what a verdict needs to judge every anomaly, not only the examples a report keeps. The
 * guarantee model permits some anomalies only on the partitions a fault could have affected
 * (a power loss only where a replica lost its unflushed tail), so a count per kind is not
 * enough.
 */
import type { Anomaly, AnomalyKind } from './anomaly_types';
import { KEY_SEPARATOR, topicPartitionKey } from './topic_partition';

/** A partition an anomaly involves. */
export interface InvolvedPartition {
  readonly topic: string;
  readonly partition: number;
}

/** How many anomalies of one kind had one classification and involved the same partitions. */
export interface AnomalyGroup {
  readonly kind: AnomalyKind;
  readonly classification?: string;
  /** Empty when the anomaly names no partition (it cannot be placed). */
  readonly partitions: readonly InvolvedPartition[];
  readonly count: number;
}

/**
 * The partitions an anomaly involves: where it is located, every partition of a torn
 * transaction's records, and every output partition of a pipeline input's writers; sorted by
 * topic then partition, each once.
 * @example involvedPartitions({ kind: 'lost-write', topic: 't', partition: 0, ... }) // [t-0]
 */
export function involvedPartitions(anomaly: Anomaly): InvolvedPartition[] {
  const found = new Map<string, InvolvedPartition>();
  const add = (topic: string | undefined, partition: number | undefined) => {
    if (topic === undefined || partition === undefined) return;
    found.set(topicPartitionKey(topic, partition), { topic, partition });
  };
  add(anomaly.topic, anomaly.partition);
  for (const record of anomaly.transactionRecords ?? []) add(record.topic, record.partition);
  for (const writer of anomaly.writers ?? []) add(writer.topic, writer.partition);
  return [...found.values()].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  );
}

/**
 * Anomalies per (kind, classification, involved partitions), sorted by kind, then
 * classification, then partitions, so the result is the same for the same anomalies.
 * @example groupAnomalies(found).filter((group) => group.kind === 'lost-write')
 */
export function groupAnomalies(found: readonly Anomaly[]): AnomalyGroup[] {
  const groups = new Map<string, { group: Omit<AnomalyGroup, 'count'>; count: number }>();
  for (const anomaly of found) {
    const partitions = involvedPartitions(anomaly);
    const key = [
      anomaly.kind,
      anomaly.classification ?? '',
      ...partitions.map(({ topic, partition }) => topicPartitionKey(topic, partition)),
    ].join(KEY_SEPARATOR + KEY_SEPARATOR);
    const known = groups.get(key);
    if (known !== undefined) {
      known.count += 1;
      continue;
    }
    const { kind, classification } = anomaly;
    groups.set(key, {
      group: { kind, ...(classification === undefined ? {} : { classification }), partitions },
      count: 1,
    });
  }
  return [...groups.keys()].sort().flatMap((key) => {
    const entry = groups.get(key);
    return entry === undefined ? [] : [{ ...entry.group, count: entry.count }];
  });
}
