/**
 * Goal: the client side works against the real brokers' group coordinator (issue 5 end to end;
 * KIP-447; ConsumerCoordinator, ClassicGroup, GroupMetadata.prepareTxnOffsetCommit): two
 * read-process-write instances join one generation through `__consumer_offsets` and split `in` by
 * the RangeAssignor; offsets sent in a transaction stay invisible to a requireStable `committed()`
 * until the COMMIT marker lands; after a rebalance the old generation's TxnOffsetCommit is fenced
 * with ILLEGAL_GENERATION, the transaction aborts, and the committed offset is unchanged; a member
 * paused past `session.timeout.ms` is removed, and on resume finds the coordinator again, learns
 * UNKNOWN_MEMBER_ID, reports its partitions lost and rejoins as a new member. Method: a
 * three-broker cluster in the kernel with a fixed 1 ms delay; exact generations, member ids,
 * assignments and callback results, and the order of the commit and the committed() answer.
 */
import { describe, expect, it } from 'vitest';
import type { KafkaErrorCode } from '../../sim/actors';
import { groupConfig, txnProducerConfig, type GroupClient } from './group_harness';
import { nodeId } from '../../sim/kernel';
import { RealGroupWorld } from './real_cluster';

const IN0 = { topic: 'in', partition: 0 };

function pipeline(world: RealGroupWorld, name: string, atUs: number): GroupClient {
  const client = world.client(name, {
    consumer: groupConfig(),
    producer: txnProducerConfig(`tx-${name}`),
  });
  world.at(atUs, () => {
    client.subscribe(['in']);
    client.startPolling();
    client.producer?.initTransactions(() => undefined);
  });
  return client;
}

describe('consumer groups against the real group coordinator', () => {
  it('joins, commits offsets in a transaction, and fences a stale generation', () => {
    const world = new RealGroupWorld();
    const p1 = pipeline(world, 'P1', 100_000);
    const p2 = pipeline(world, 'P2', 100_000);
    world.runTo(7_000_000);

    // One generation: the initial rebalance delay (3 s, extended once for the second member).
    const group = world.group('g');
    expect(group?.state).toBe('Stable');
    expect(group?.generationId).toBe(1);
    const members = group?.members.map((member) => member.memberId) ?? [];
    expect(p1.consumer?.groupMetadata()).toMatchObject({ generationId: 1, memberId: members[0] });
    expect(p2.consumer?.groupMetadata()).toMatchObject({ generationId: 1, memberId: members[1] });
    expect(p1.listenerCalls).toEqual(['assigned@6110000:in-0']);
    expect(p2.listenerCalls).toEqual(['assigned@6110000:in-1']);

    // A transaction with P1's input offset; P2 asks for the committed offset meanwhile.
    const results: string[] = [];
    world.at(7_000_000, () => {
      const producer = p1.producer!;
      results.push(`begin ${producer.beginTransaction()}`);
      const metadata = p1.consumer!.groupMetadata();
      producer.sendOffsetsToTransaction([{ ...IN0, offset: 3 }], metadata, (error) =>
        results.push(`sendOffsets ${error}`),
      );
    });
    world.at(7_010_000, () =>
      p2.consumer!.committed([IN0], (error, offsets) =>
        results.push(`committed ${error} in-0=${offsets.get('in-0')}@${world.sim.nowUs}`),
      ),
    );
    world.at(7_500_000, () =>
      p1.producer!.commitTransaction((error) => results.push(`commit ${error}@${world.sim.nowUs}`)),
    );
    world.runTo(8_000_000);
    // requireStable: the answer waits for the COMMIT marker on __consumer_offsets.
    expect(results).toEqual([
      'begin NONE',
      'sendOffsets NONE',
      'commit NONE@7504000',
      'committed NONE in-0=3@7522000',
    ]);

    // A third member joins: generation 2. P1's generation-1 metadata is now fenced.
    const stale = p1.consumer!.groupMetadata();
    pipeline(world, 'P3', 8_000_000);
    world.runTo(14_000_000);
    expect(world.group('g')?.generationId).toBe(2);
    const fenced: KafkaErrorCode[] = [];
    world.at(14_000_000, () => {
      const producer = p1.producer!;
      fenced.push(producer.beginTransaction());
      producer.sendOffsetsToTransaction([{ ...IN0, offset: 9 }], stale, (e) => fenced.push(e));
      producer.commitTransaction((error) => {
        fenced.push(error);
        producer.abortTransaction((abortError) => fenced.push(abortError));
      });
    });
    world.runTo(15_000_000);
    expect(fenced).toEqual(['NONE', 'ILLEGAL_GENERATION', 'ILLEGAL_GENERATION', 'NONE']);
    expect(p1.producer?.state).toBe('READY');
    expect(world.group('g')?.committed).toEqual([{ ...IN0, offset: 3 }]);
    expect(world.group('g')?.pendingProducers).toEqual([]);
  });

  it('removes a member paused past session.timeout.ms, which rejoins as new on resume', () => {
    const world = new RealGroupWorld();
    const config = groupConfig({ sessionTimeoutMs: 10_000 });
    const members = ['A', 'B'].map((name) => {
      const client = world.client(name, { consumer: config });
      world.at(100_000, () => {
        client.subscribe(['in']);
        client.startPolling();
      });
      return client;
    });
    const [a, b] = members as [GroupClient, GroupClient];
    world.at(7_000_000, () => world.sim.pause(nodeId('A')));
    world.at(30_000_000, () => world.sim.resume(nodeId('A')));
    world.runTo(45_000_000);
    // B takes both partitions in generation 2 once A's session expired; A, back at 30 s, finds
    // its generation gone (lost, not revoked) and joins generation 3 with a new member id.
    expect(b.listenerCalls).toEqual([
      'assigned@6110000:in-1',
      // Times follow B's polls, which since long polls end at poll(timeout) or with records.
      'revoked@18110000:in-1',
      'assigned@18116000:in-0,in-1',
      'revoked@33190000:in-0,in-1',
      'assigned@33196000:in-1',
    ]);
    expect(a.listenerCalls).toEqual([
      'assigned@6110000:in-0',
      'lost@30230000:in-0',
      'assigned@33196000:in-0',
    ]);
    expect(a.consumer?.group?.generations).toEqual([1, 3]);
    expect(b.consumer?.group?.generations).toEqual([1, 2, 3]);
    expect(a.consumer?.groupMetadata().memberId).toBe('A-b1.0.3');
    expect(world.group('g')?.generationId).toBe(3);
  });
});
