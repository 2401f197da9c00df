/**
 * Goal: a keyed record lands on the partition Java's default partitioner picks
 * (toPositive(murmur2(key)) % numPartitions), and keyless records through it are sticky.
 * Method: run the bundled keyed-records scenario and read the acknowledged sends of its history.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import type { SendMicroOp } from '../../sim/history';
import { sentRecordsOf } from '../../sim/history';

const { history, report } = runScenario(loadScenario('scenarios/keyed-records.yaml'), {
  seed: '1',
});

const acknowledged = (client: string): SendMicroOp[] =>
  history.flatMap((op) => {
    if (op.client !== client || op.type !== 'ok') return [];
    if (op.f === 'send') return sentRecordsOf(op.value);
    if (op.f === 'txn') return [...op.value.sends];
    return [];
  });

describe('keyed records (BuiltInPartitioner.partitionForKey)', () => {
  it('puts each key on the partition Kafka’s murmur2 gives, every time', () => {
    expect(report.outcome).toBe('pass');
    const byKey = new Map<string, Set<number>>();
    for (const send of acknowledged('P')) {
      const key = send.key as string;
      byKey.set(key, (byKey.get(key) ?? new Set()).add(send.partition));
    }
    // Kafka's murmur2: foobar -790332482, abc 479470107, a-little-bit-longer-string -1486304829.
    expect(Object.fromEntries([...byKey].map(([key, set]) => [key, [...set]]))).toEqual({
      foobar: [0],
      abc: [3],
      'a-little-bit-longer-string': [5],
    });
    expect(acknowledged('P').length).toBe(301);
  });

  it('sends keyless records to a sticky partition, a batch’s worth at a time', () => {
    const partitions = acknowledged('T').map((send) => send.partition);
    expect(acknowledged('T').every((send) => send.key === undefined)).toBe(true);
    let runs = 1;
    for (let i = 1; i < partitions.length; i++) if (partitions[i] !== partitions[i - 1]) runs += 1;
    // 160 records in batches of 16: at most 10 sticky runs, so far fewer than random picks.
    expect(runs).toBeLessThanOrEqual(10);
    expect(new Set(partitions).size).toBeGreaterThan(1);
  });
});
