/**
 * Where the application's next record goes: a random partition the application names itself
 * (`partitioner: explicit`, a `ProducerRecord` with a partition, which bypasses the producer's
 * partitioner), or Java's default partitioner (`partitioner: default`): a keyed record to
 * `toPositive(murmur2(key)) % numPartitions`, a keyless one to the topic's sticky partition
 * (`BuiltInPartitioner`). With several topics the topic is drawn per record.
 */
import type { Rng } from '../kernel';
import { StickyPartitioner, partitionForKey, type TopicPartition } from '../actors';

/** The destination of one record, with its key when it has one. */
export interface RoutedRecord extends TopicPartition {
  readonly key?: string;
}

/** What a router needs of the workload spec. */
export interface RoutingSpec {
  readonly topics: readonly string[];
  readonly partitioner?: 'explicit' | 'default';
  readonly keys?: readonly string[];
}

/** Routes each record of one producer application. */
export class RecordRouter {
  private readonly sticky: StickyPartitioner;
  /** Draws topics and sticky partitions for the default partitioner, apart from `rng`. */
  private readonly partitionerRng: Rng;
  private records = 0;

  constructor(
    private readonly spec: RoutingSpec,
    /** The partitions of the spec's topics known now (they grow when partitions are added). */
    private readonly partitionsNow: () => readonly TopicPartition[],
    /** The application's stream: explicit partitions are drawn from it, as before keys. */
    private readonly rng: Rng,
  ) {
    this.partitionerRng = rng.fork('partitioner');
    this.sticky = new StickyPartitioner(this.partitionerRng.fork('sticky'));
  }

  /** The next record's destination. */
  next(): RoutedRecord {
    const keys = this.spec.keys ?? [];
    const partitioner = this.spec.partitioner ?? (keys.length > 0 ? 'default' : 'explicit');
    const partitions = this.partitionsNow();
    if (partitioner === 'explicit') return this.rng.pick(partitions);
    const topic =
      this.spec.topics.length === 1
        ? (this.spec.topics[0] as string)
        : this.partitionerRng.pick(this.spec.topics);
    const count = partitions.filter((tp) => tp.topic === topic).length;
    const key = keys.length === 0 ? undefined : keys[this.records % keys.length];
    this.records += 1;
    if (key === undefined) return { topic, partition: this.sticky.partitionFor(topic, count) };
    return { topic, partition: partitionForKey(key, count), key };
  }
}
