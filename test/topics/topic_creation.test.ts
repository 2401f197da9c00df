/**
 * Goal: topics and partitions created during a run go through the controller with Kafka's
 * errors, and clients pick them up: a producer blocked on metadata sends once its topic exists,
 * or fails after `max.block.ms`; keyed records follow murmur2 over the partition count of the
 * moment. Method: the controller's creation rules on hand-built clusters, then one seed of
 * scenarios/topic-creation.yaml with its exact values.
 */
import { describe, expect, it } from 'vitest';
import { createPartitions, createTopic } from '../../sim/actors/controller/topic_creation';
import { runScenario } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';

const cluster = (fenced: readonly string[] = []) => ({
  brokers: ['b1', 'b2', 'b3'],
  isFenced: (broker: string) => fenced.includes(broker),
  partitionCounts: new Map([['orders', 1]]),
});

describe('ReplicationControlManager.createTopics and createPartitions', () => {
  it('answers Kafka errors with their messages, in Kafka order', () => {
    const create = (name: string, numPartitions: number, replicationFactor: number) =>
      createTopic({ name, numPartitions, replicationFactor }, cluster()).result;
    expect(create('orders', 0, 0)).toEqual({
      name: 'orders',
      error: 'TOPIC_ALREADY_EXISTS',
      errorMessage: "Topic 'orders' already exists.",
    });
    expect(create('t', 0, 0).error).toBe('INVALID_REPLICATION_FACTOR');
    expect(create('t', 0, 3).error).toBe('INVALID_PARTITIONS');
    expect(create('t', 1, 4).errorMessage).toBe(
      'Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot ' +
        'be reached because only 3 broker(s) are registered.',
    );
    const allFenced = createTopic(
      { name: 't', numPartitions: 1, replicationFactor: 1 },
      cluster(['b1', 'b2', 'b3']),
    );
    expect(allFenced.result.errorMessage).toContain('All brokers are currently fenced.');
    const grow = (count: number) =>
      createPartitions({ name: 'orders', count }, cluster(), () => 3).result;
    expect(grow(1).errorMessage).toBe('Topic already has 1 partition(s).');
    expect(grow(0).errorMessage).toBe(
      'The topic orders currently has 1 partition(s); 0 would not be an increase.',
    );
    const unknown = createPartitions({ name: 'nope', count: 2 }, cluster(), () => 3);
    expect(unknown.result.error).toBe('UNKNOWN_TOPIC_OR_PARTITION');
  });

  it('places replicas from (topic index + partition) mod N, unfenced first, first leads', () => {
    const { states } = createTopic(
      { name: 'p', numPartitions: 2, replicationFactor: 2 },
      cluster(),
    );
    expect(states.map((state) => [state.replicas, state.leader])).toEqual([
      [['b2', 'b3'], 'b2'],
      [['b3', 'b1'], 'b3'],
    ]);
    const fenced = createTopic(
      { name: 'p', numPartitions: 1, replicationFactor: 3 },
      cluster(['b2']),
    ).states[0];
    expect(fenced).toMatchObject({ replicas: ['b3', 'b1', 'b2'], isr: ['b3', 'b1'], leader: 'b3' });
    const added = createPartitions({ name: 'orders', count: 3 }, cluster(), () => 3).states;
    expect(added.map((state) => [state.partition, state.leader])).toEqual([
      [1, 'b2'],
      [2, 'b3'],
    ]);
  });
});

describe('scenarios/topic-creation.yaml, seed 1', () => {
  const { history, report } = runScenario(loadScenario('scenarios/topic-creation.yaml'), {
    seed: '1',
  });
  const operator = history
    .filter((op) => op.client === 'nemesis' && (op.value as { phase?: string }).phase === 'end')
    .map((op) => (op.value as { description: string }).description.replace(/^[^:]*: /, ''));

  it('passes, with every operator outcome as Kafka answers it', () => {
    expect(report.outcome).toBe('pass');
    expect(operator).toEqual([
      'payments NONE',
      "orders TOPIC_ALREADY_EXISTS: Topic 'orders' already exists.",
      'empty INVALID_PARTITIONS: Number of partitions was set to an invalid non-positive value.',
      'wide INVALID_REPLICATION_FACTOR: Unable to replicate the partition 4 time(s): The target ' +
        'replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
      'payments INVALID_PARTITIONS: The topic payments currently has 2 partition(s); 1 would ' +
        'not be an increase.',
      'payments NONE',
      'refunds NONE',
    ]);
  });

  it('routes keys by murmur2 over the partition count known at each send', () => {
    const acked = history.filter((op) => op.f === 'send' && op.type === 'ok');
    const where = (key: string, before: boolean) =>
      new Set(
        acked
          .map((op) => op.value as { send: { key?: string; partition: number } })
          .filter((value, index) => value.send.key === key && acked[index]!.timeUs < 6e6 === before)
          .map((value) => value.send.partition),
      );
    expect(where('foobar', true)).toEqual(new Set([0]));
    expect(where('abc', true)).toEqual(new Set([1]));
    expect(where('a-little-bit-longer-string', true)).toEqual(new Set([1]));
    // payments-2 exists from 6 s: abc moves to 0 and the long key to 2 (murmur2 % 3).
    expect(where('foobar', false)).toEqual(new Set([0]));
    expect(where('abc', false)).toContain(0);
    expect(where('a-little-bit-longer-string', false)).toContain(2);
    expect(
      Math.min(...acked.filter((op) => op.client === 'P').map((op) => op.timeUs)),
    ).toBeGreaterThan(2e6);
  });

  it('fails a send blocked max.block.ms on a missing topic, then sends once it exists', () => {
    const q = history.filter((op) => op.client === 'Q' && op.f === 'send' && op.type !== 'invoke');
    const failed = q.filter((op) => op.type === 'fail');
    expect(
      failed.map((op) => [
        op.timeUs,
        op.error,
        (op.value as { send: { partition: number } }).send.partition,
      ]),
    ).toEqual([
      [3_000_000, 'REQUEST_TIMED_OUT', -1],
      [6_000_000, 'REQUEST_TIMED_OUT', -1],
    ]);
    const firstOk = q.find((op) => op.type === 'ok');
    expect(firstOk?.timeUs).toBeGreaterThan(8_000_000);
  });
});
