import { describe, expect, it } from 'vitest';
import { Rng } from '../../kernel';
import { StickyPartitioner, murmur2, partitionForKey, toPositive } from './partitioner';
import { STICKY_PARTITION_RECORDS } from './producer_config';

/** Kafka's own vectors (UtilsTest.testMurmur2). */
const KAFKA_MURMUR2: ReadonlyArray<readonly [string, number]> = [
  ['21', -973932308],
  ['foobar', -790332482],
  ['a-little-bit-long-string', -985981536],
  ['a-little-bit-longer-string', -1486304829],
  ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
  ['abc', 479470107],
];

describe('murmur2 and partitionForKey (Utils.murmur2, BuiltInPartitioner.partitionForKey)', () => {
  it('gives Kafka’s murmur2 values', () => {
    for (const [key, hash] of KAFKA_MURMUR2) {
      expect(murmur2(new TextEncoder().encode(key)), key).toBe(hash);
    }
  });

  it('clears the sign bit rather than taking the absolute value', () => {
    expect(toPositive(-973932308)).toBe(1173551340);
    expect(toPositive(-2147483648)).toBe(0);
    expect(toPositive(479470107)).toBe(479470107);
  });

  it('puts a key on toPositive(murmur2(key)) % numPartitions', () => {
    // toPositive(-790332482) = 1357151166; 1357151166 % 12 = 6.
    expect(partitionForKey('foobar', 12)).toBe(6);
    expect(partitionForKey('foobar', 3)).toBe(0);
    // 661178819 % 6 = 5; % 3 = 2.
    expect(partitionForKey('a-little-bit-longer-string', 6)).toBe(5);
    expect(partitionForKey('a-little-bit-longer-string', 3)).toBe(2);
    // 479470107 % 6 = 3.
    expect(partitionForKey('abc', 6)).toBe(3);
  });

  it('hashes the UTF-8 bytes of a key (StringSerializer)', () => {
    const bytes = new TextEncoder().encode('é');
    expect([...bytes]).toEqual([0xc3, 0xa9]);
    expect(partitionForKey('é', 1000)).toBe(toPositive(murmur2(bytes)) % 1000);
  });
});

describe('StickyPartitioner (KIP-480, KIP-794)', () => {
  it('keeps one partition per topic for a batch’s worth of keyless records, then redraws', () => {
    const sticky = new StickyPartitioner(new Rng('sticky-test'));
    const first = Array.from({ length: STICKY_PARTITION_RECORDS }, () =>
      sticky.partitionFor('t', 5),
    );
    expect(new Set(first).size).toBe(1);
    const partitions = Array.from({ length: STICKY_PARTITION_RECORDS * 40 }, () =>
      sticky.partitionFor('t', 5),
    );
    for (let i = 0; i < partitions.length; i += STICKY_PARTITION_RECORDS) {
      expect(new Set(partitions.slice(i, i + STICKY_PARTITION_RECORDS)).size).toBe(1);
    }
    expect(new Set(partitions).size).toBe(5);
  });
});
