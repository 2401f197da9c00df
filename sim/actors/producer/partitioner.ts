/**
 * The Java producer's default partitioning (KIP-794's `BuiltInPartitioner`, Kafka 3.3+): a
 * keyed record goes to `toPositive(murmur2(keyBytes)) % numPartitions`
 * (`BuiltInPartitioner.partitionForKey`, `Utils.murmur2`, `Utils.toPositive`), its key
 * serialized as `StringSerializer` does (UTF-8). A keyless record goes to the topic's sticky
 * partition, which switches once a batch's worth has been produced to it (KIP-480, KIP-794's
 * `updatePartitionInfo`), to a partition drawn uniformly (`nextPartition` without load stats:
 * `partitioner.adaptive.partitioning.enable`'s queue-size weighting is not modelled). The model
 * switches after `STICKY_PARTITION_RECORDS` records, not after `batch.size` bytes.
 */
import type { Rng } from '../../kernel';
import { STICKY_PARTITION_RECORDS } from './producer_config';

/** Kafka's `Utils.murmur2`: the 32-bit MurmurHash2 with seed 0x9747b28c, as a signed int. */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = (0x9747b28c ^ length) | 0;
  const byte = (index: number): number => data[index] ?? 0;
  const whole = length - (length % 4);
  for (let i = 0; i < whole; i += 4) {
    let k = byte(i) | (byte(i + 1) << 8) | (byte(i + 2) << 16) | (byte(i + 3) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const tail = length % 4;
  if (tail === 3) h ^= byte(whole + 2) << 16;
  if (tail >= 2) h ^= byte(whole + 1) << 8;
  if (tail >= 1) h = Math.imul(h ^ byte(whole), m);
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `Utils.toPositive`: clears the sign bit (not `Math.abs`, which fails at MIN_VALUE). */
export function toPositive(value: number): number {
  return value & 0x7fffffff;
}

/** `BuiltInPartitioner.partitionForKey` of a String key serialized as UTF-8. */
export function partitionForKey(key: string, numPartitions: number): number {
  return toPositive(murmur2(new TextEncoder().encode(key))) % numPartitions;
}

/** The sticky partition of each topic for keyless records (`BuiltInPartitioner`). */
export class StickyPartitioner {
  private readonly sticky = new Map<string, { partition: number; produced: number }>();

  /** `rng` draws each switch (Kafka: `ThreadLocalRandom`); give it a stream of its own. */
  constructor(private readonly rng: Rng) {}

  /** The partition of the next keyless record to `topic`; counts it (`updatePartitionInfo`). */
  partitionFor(topic: string, numPartitions: number): number {
    let current = this.sticky.get(topic);
    if (current === undefined) {
      current = { partition: this.rng.intInclusive(0, numPartitions - 1), produced: 0 };
      this.sticky.set(topic, current);
    }
    const partition = current.partition;
    current.produced += 1;
    if (current.produced >= STICKY_PARTITION_RECORDS) {
      this.sticky.set(topic, {
        partition: this.rng.intInclusive(0, numPartitions - 1),
        produced: 0,
      });
    }
    return partition;
  }
}
