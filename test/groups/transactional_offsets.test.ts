/**
 * Goal: pin transactional offset commits to exact values (KIP-447;
 * KafkaApis.handleAddOffsetsToTxnRequest; KafkaProducer.sendOffsetsToTransaction;
 * GroupCoordinator.validateOffsetCommit; GroupMetadata.prepareTxnOffsetCommit): AddOffsetsToTxn
 * adds the group's `__consumer_offsets` partition to the transaction; TxnOffsetCommit is validated
 * with GroupCoordinator.validateOffsetCommit's table (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID,
 * FENCED_INSTANCE_ID, the old API accepted); the offsets stay pending (OffsetFetch with
 * requireStable answers UNSTABLE_OFFSET_COMMIT) until the COMMIT marker lands, an ABORT leaves the
 * committed offsets unchanged, a committed offset appended after the pending one wins, and a fenced
 * epoch is refused. Method: real brokers and a raw transactional producer (transaction version 0);
 * the WriteTxnMarkers to the group coordinator are held on the network where a test needs the
 * moment between EndTxn and the marker.
 */
import { describe, expect, it } from 'vitest';
import { GroupCluster, IN0, IN1 } from './harness';
import { TestMember, TestProducer, fetchOffsets } from './members';

const GROUP = 'g';

/** A Stable group of one member at generation 1, and a producer inside a transaction. */
function setUp(transactionalId = 'tx'): {
  cluster: GroupCluster;
  member: TestMember;
  producer: TestProducer;
  coordinator: string;
} {
  const cluster = new GroupCluster();
  const member = new TestMember(cluster, 'c1', GROUP);
  expect(member.join().generationId).toBe(1);
  expect(member.sync(new Map([[member.memberId, [IN0, IN1]]]))).toBe('NONE');
  const producer = new TestProducer(cluster, 'c3', transactionalId);
  expect(producer.initProducerId()).toBe('NONE');
  expect(producer.addOffsetsToTxn(GROUP)).toBe('NONE');
  return { cluster, member, producer, coordinator: member.coordinator() };
}

function stableFetch(cluster: GroupCluster, stable: boolean): string[] {
  return fetchOffsets(cluster, { client: 'c2', groupId: GROUP, partitions: [IN0, IN1], stable });
}

describe('AddOffsetsToTxn (KafkaApis.handleAddOffsetsToTxnRequest)', () => {
  it('adds __consumer_offsets-<partitionFor(group)> to the transaction', () => {
    const { cluster, producer } = setUp();
    const txnCoordinator = cluster.brokers.get(producer.coordinator());
    const metadata = txnCoordinator?.coordinator.metadataOf('tx');
    expect(metadata?.state).toBe('Ongoing');
    expect([...(metadata?.topicPartitions.values() ?? [])]).toEqual([
      cluster.metadata.consumerOffsetsPartition(GROUP),
    ]);
    // A stale epoch is fenced as for AddPartitionsToTxn.
    producer.producerEpoch -= 1;
    expect(producer.addOffsetsToTxn(GROUP)).toBe('PRODUCER_FENCED');
  });
});

describe('TxnOffsetCommit validation (GroupCoordinator.validateOffsetCommit)', () => {
  it('rejects a stale generation, an unknown member, a fenced epoch; accepts the old API', () => {
    const { cluster, member, producer, coordinator } = setUp();
    const offsets = [{ ...IN0, offset: 5 }];
    const commit = (generationId: number, memberId: string): string[] =>
      producer
        .txnOffsetCommit(
          { groupId: GROUP, offsets, member: { generationId, memberId, instanceId: null } },
          coordinator,
        )
        .map((result) => result.error);
    expect(commit(0, member.memberId)).toEqual(['ILLEGAL_GENERATION']);
    expect(commit(1, 'nobody')).toEqual(['UNKNOWN_MEMBER_ID']);
    expect(commit(1, member.memberId)).toEqual(['NONE']);
    // Generation -1 and no member id: accepted although the group has a member (transactional).
    const old = producer.txnOffsetCommit({ groupId: GROUP, offsets }, coordinator);
    expect(old.map((result) => result.error)).toEqual(['NONE']);
    // The same without a transaction is refused in a non-empty group.
    const plain = cluster.call(
      'c2',
      coordinator,
      {
        kind: 'OffsetCommit',
        groupId: GROUP,
        generationId: -1,
        memberId: '',
        groupInstanceId: null,
        offsets,
      },
      { answer: 'OffsetCommitResponse' },
    );
    expect(plain.results.map((result) => result.error)).toEqual(['UNKNOWN_MEMBER_ID']);
    // A new instance fences the transaction (abort with epoch 1, then epoch 2 granted): the
    // zombie's batch is epoch-checked like any partition's (ProducerAppendInfo.checkSequence).
    const successor = new TestProducer(cluster, 'c2', 'tx');
    expect(successor.initProducerId()).toBe('CONCURRENT_TRANSACTIONS');
    cluster.advance(2_000_000);
    expect(successor.initProducerId()).toBe('NONE');
    expect([successor.producerId, successor.producerEpoch]).toEqual([producer.producerId, 2]);
    expect(commit(1, member.memberId)).toEqual(['INVALID_PRODUCER_EPOCH']);
    // The fence's ABORT marker discarded the pending offsets.
    expect(stableFetch(cluster, true)).toEqual(['NONE:-1', 'NONE:-1']);
  });

  it('answers FENCED_INSTANCE_ID to the member id a static member replaced', () => {
    const cluster = new GroupCluster();
    const old = new TestMember(cluster, 'c1', GROUP, { instanceId: 'i1' });
    old.join();
    expect(old.sync(new Map([[old.memberId, [IN0, IN1]]]))).toBe('NONE');
    const replacement = new TestMember(cluster, 'c2', GROUP, { instanceId: 'i1' });
    expect(replacement.join().error).toBe('NONE');
    const producer = new TestProducer(cluster, 'c3', 'tx');
    producer.initProducerId();
    expect(producer.addOffsetsToTxn(GROUP)).toBe('NONE');
    const results = producer.txnOffsetCommit(
      {
        groupId: GROUP,
        offsets: [{ ...IN0, offset: 3 }],
        member: { generationId: 1, memberId: old.memberId, instanceId: 'i1' },
      },
      old.coordinator(),
    );
    expect(results.map((result) => result.error)).toEqual(['FENCED_INSTANCE_ID']);
  });
});

describe('pending transactional offsets (GroupMetadata.prepareTxnOffsetCommit)', () => {
  it('answer UNSTABLE_OFFSET_COMMIT until the COMMIT marker lands, then the new offset', () => {
    // tx1's transaction coordinator (b2) is not the group's coordinator (b1).
    const { cluster, member, producer, coordinator } = setUp('tx1');
    const txnCoordinator = producer.coordinator();
    expect([txnCoordinator, coordinator]).toEqual(['b2', 'b1']);
    const results = producer.txnOffsetCommit(
      {
        groupId: GROUP,
        offsets: [{ ...IN0, offset: 7 }],
        member: { generationId: 1, memberId: member.memberId, instanceId: null },
      },
      coordinator,
    );
    expect(results.map((result) => result.error)).toEqual(['NONE']);
    expect(stableFetch(cluster, true)).toEqual(['UNSTABLE_OFFSET_COMMIT:-1', 'NONE:-1']);
    expect(stableFetch(cluster, false)).toEqual(['NONE:-1', 'NONE:-1']);
    // Hold the markers: EndTxn succeeds once PrepareCommit is durable, the offsets stay pending.
    const held = cluster.hold({ from: txnCoordinator, to: coordinator, kind: 'WriteTxnMarkers' });
    expect(producer.endTxn(true)).toBe('NONE');
    cluster.advance(1_000_000);
    expect(stableFetch(cluster, true)).toEqual(['UNSTABLE_OFFSET_COMMIT:-1', 'NONE:-1']);
    expect(stableFetch(cluster, false)).toEqual(['NONE:-1', 'NONE:-1']);
    cluster.heal(held);
    cluster.advance(5_000_000);
    expect(stableFetch(cluster, true)).toEqual(['NONE:7', 'NONE:-1']);
    expect(cluster.group(GROUP)?.committed).toEqual([{ ...IN0, offset: 7 }]);
  });

  it('leave the committed offsets unchanged after an ABORT marker', () => {
    const { cluster, member, producer, coordinator } = setUp();
    const metadata = { generationId: 1, memberId: member.memberId, instanceId: null };
    producer.txnOffsetCommit(
      { groupId: GROUP, offsets: [{ ...IN0, offset: 5 }], member: metadata },
      coordinator,
    );
    expect(producer.endTxn(true)).toBe('NONE');
    cluster.advance(5_000_000);
    expect(stableFetch(cluster, true)).toEqual(['NONE:5', 'NONE:-1']);
    expect(producer.addOffsetsToTxn(GROUP)).toBe('NONE');
    const offsets = [
      { ...IN0, offset: 9 },
      { ...IN1, offset: 4 },
    ];
    producer.txnOffsetCommit({ groupId: GROUP, offsets, member: metadata }, coordinator);
    expect(stableFetch(cluster, true)).toEqual([
      'UNSTABLE_OFFSET_COMMIT:-1',
      'UNSTABLE_OFFSET_COMMIT:-1',
    ]);
    expect(producer.endTxn(false)).toBe('NONE');
    cluster.advance(5_000_000);
    expect(stableFetch(cluster, true)).toEqual(['NONE:5', 'NONE:-1']);
    expect(cluster.group(GROUP)?.pendingProducers).toEqual([]);
  });

  it('keep a committed offset appended after the pending one when the COMMIT lands', () => {
    const { cluster, member, producer, coordinator } = setUp();
    const metadata = { generationId: 1, memberId: member.memberId, instanceId: null };
    producer.txnOffsetCommit(
      { groupId: GROUP, offsets: [{ ...IN0, offset: 7 }], member: metadata },
      coordinator,
    );
    const plain = cluster.call(
      'c1',
      coordinator,
      {
        kind: 'OffsetCommit',
        groupId: GROUP,
        generationId: 1,
        memberId: member.memberId,
        groupInstanceId: null,
        offsets: [{ ...IN0, offset: 11 }],
      },
      { answer: 'OffsetCommitResponse' },
    );
    expect(plain.results.map((result) => result.error)).toEqual(['NONE']);
    expect(stableFetch(cluster, false)).toEqual(['NONE:11', 'NONE:-1']);
    expect(producer.endTxn(true)).toBe('NONE');
    cluster.advance(5_000_000);
    expect(stableFetch(cluster, true)).toEqual(['NONE:11', 'NONE:-1']);
  });
});

describe('TxnOffsetCommit under transaction version 2 (KIP-890 part 2)', () => {
  it('adds __consumer_offsets to the transaction itself: no AddOffsetsToTxn is sent', () => {
    const cluster = new GroupCluster({ transactionVersion: 2 });
    const member = new TestMember(cluster, 'c1', GROUP);
    member.join();
    expect(member.sync(new Map([[member.memberId, [IN0, IN1]]]))).toBe('NONE');
    const producer = new TestProducer(cluster, 'c3', 'tx1', 2);
    expect(producer.initProducerId()).toBe('NONE');
    const coordinator = member.coordinator();
    const metadata = { generationId: 1, memberId: member.memberId, instanceId: null };
    const offsets = [{ ...IN0, offset: 8 }];
    const results = producer.txnOffsetCommit(
      { groupId: GROUP, offsets, member: metadata },
      coordinator,
    );
    expect(results.map((result) => result.error)).toEqual(['NONE']);
    const transaction = cluster.brokers.get(producer.coordinator())?.coordinator.metadataOf('tx1');
    expect(transaction?.state).toBe('Ongoing');
    expect([...(transaction?.topicPartitions.values() ?? [])]).toEqual([
      cluster.metadata.consumerOffsetsPartition(GROUP),
    ]);
    expect(producer.endTxn(true)).toBe('NONE');
    expect(producer.producerEpoch).toBe(1);
    cluster.advance(3_000_000);
    expect(stableFetch(cluster, true)).toEqual(['NONE:8', 'NONE:-1']);
  });

  it('is TRANSACTION_ABORTABLE from a version 0 client that skipped AddOffsetsToTxn', () => {
    const { cluster, member } = setUp();
    const producer = new TestProducer(cluster, 'c2', 'tx2');
    expect(producer.initProducerId()).toBe('NONE');
    const metadata = { generationId: 1, memberId: member.memberId, instanceId: null };
    const offsets = [{ ...IN0, offset: 8 }];
    const results = producer.txnOffsetCommit(
      { groupId: GROUP, offsets, member: metadata },
      member.coordinator(),
    );
    expect(results.map((result) => result.error)).toEqual(['TRANSACTION_ABORTABLE']);
    expect(stableFetch(cluster, true)).toEqual(['NONE:-1', 'NONE:-1']);
  });
});
