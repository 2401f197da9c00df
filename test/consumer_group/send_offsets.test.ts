/**
 * Goal: `sendOffsetsToTransaction` behaves as Java's TransactionManager (KIP-447;
 * GroupCoordinator.validateOffsetCommit, TransactionManager's response handlers;
 * TransactionManager.maybeFailWithError): AddOffsetsToTxn to the transaction coordinator (skipped
 * under transaction version 2), then FindCoordinator(group) and TxnOffsetCommit with the consumer's
 * generation and member id, all before EndTxn; a stale generation makes the transaction abortable
 * with a sticky ILLEGAL_GENERATION; fencing is fatal; coordinator errors are retried. Method: a
 * read-process-write client (consumer in group `g` plus producer `tx-P`) against the fake
 * coordinator, asserting the exact requests, their fields and order, callbacks and offsets.
 */
import { describe, expect, it } from 'vitest';
import type { KafkaErrorCode, OffsetToCommit } from '../../sim/actors';
import { GroupWorld, groupConfig, txnProducerConfig, type GroupClient } from './group_harness';

const OFFSETS: OffsetToCommit[] = [{ topic: 'in', partition: 0, offset: 6 }];

/** A pipeline instance: joins `g` at 0 and initialises its producer. */
function pipeline(world: GroupWorld, name: string, transactionVersion = 0): GroupClient {
  const client = world.client(name, {
    consumer: groupConfig(),
    producer: txnProducerConfig(`tx-${name}`),
    transactionVersion,
  });
  world.at(0, () => {
    client.subscribe(['in']);
    client.startPolling();
    client.producer?.initTransactions(() => undefined);
  });
  return client;
}

/** The producer's requests in order: the consumer's own group requests left out. */
function producerRequests(world: GroupWorld, source: string): string[] {
  return world.broker.arrivals
    .filter((a) => a.source === source)
    .flatMap(({ request, timeUs }) => {
      if (request.kind === 'FindCoordinator')
        return request.correlationId < 1_000_000
          ? [`FindCoordinator(${request.keyType})@${timeUs}`]
          : [];
      const producerKinds = ['InitProducerId', 'AddOffsetsToTxn', 'TxnOffsetCommit', 'EndTxn'];
      return producerKinds.includes(request.kind) ? [`${request.kind}@${timeUs}`] : [];
    });
}

/** One transaction at `atUs`: begin, sendOffsets, commit; returns the callbacks' results. */
function transaction(
  world: GroupWorld,
  client: GroupClient,
  atUs: number,
  group?: () => { groupId: string; generationId: number; memberId: string; groupInstanceId: null },
): KafkaErrorCode[] {
  const results: KafkaErrorCode[] = [];
  world.at(atUs, () => {
    const producer = client.producer;
    const consumer = client.consumer;
    if (producer === null || consumer === null) throw new Error('Not a pipeline client');
    results.push(producer.beginTransaction());
    const metadata = group?.() ?? consumer.groupMetadata();
    producer.sendOffsetsToTransaction(OFFSETS, metadata, (error) => results.push(error));
    producer.commitTransaction((error) => results.push(error));
  });
  return results;
}

describe('sendOffsetsToTransaction', () => {
  it('sends AddOffsetsToTxn, then TxnOffsetCommit with the generation, before EndTxn', () => {
    const world = new GroupWorld();
    const p = pipeline(world, 'P');
    const results = transaction(world, p, 100_000);
    world.runTo(200_000);
    expect(producerRequests(world, 'P')).toEqual([
      'FindCoordinator(transaction)@1000',
      'InitProducerId@3000',
      'AddOffsetsToTxn@101000',
      'FindCoordinator(group)@103000',
      'TxnOffsetCommit@105000',
      'EndTxn@107000',
    ]);
    expect(world.broker.requests('AddOffsetsToTxn')[0]).toMatchObject({
      transactionalId: 'tx-P',
      producerId: 7,
      producerEpoch: 0,
      groupId: 'g',
    });
    expect(world.broker.requests('TxnOffsetCommit')[0]).toMatchObject({
      transactionalId: 'tx-P',
      groupId: 'g',
      producerId: 7,
      producerEpoch: 0,
      generationId: 1,
      memberId: 'P-1',
      groupInstanceId: null,
      offsets: OFFSETS,
    });
    expect(world.broker.requests('EndTxn')[0]?.committed).toBe(true);
    expect(results).toEqual(['NONE', 'NONE', 'NONE']);
    expect(world.broker.committed.get('in-0')).toBe(6);
    expect(p.producer?.state).toBe('READY');
  });

  it('skips AddOffsetsToTxn under transaction version 2 and still ends with EndTxn', () => {
    const world = new GroupWorld();
    const p = pipeline(world, 'P', 2);
    const results = transaction(world, p, 100_000);
    world.runTo(200_000);
    expect(producerRequests(world, 'P')).toEqual([
      'FindCoordinator(transaction)@1000',
      'InitProducerId@3000',
      'FindCoordinator(group)@101000',
      'TxnOffsetCommit@103000',
      'EndTxn@105000',
    ]);
    expect(results).toEqual(['NONE', 'NONE', 'NONE']);
    expect(world.broker.committed.get('in-0')).toBe(6);
  });

  it('is abortable with a sticky ILLEGAL_GENERATION when the generation moved on', () => {
    const world = new GroupWorld();
    world.broker.committed.set('in-0', 2);
    const p = pipeline(world, 'P');
    let stale = p.consumer?.groupMetadata();
    world.at(100_000, () => (stale = p.consumer?.groupMetadata()));
    const b = world.client('B', { consumer: groupConfig() });
    world.at(200_000, () => {
      b.subscribe(['in']);
      b.startPolling();
    });
    world.runTo(3_100_000);
    expect(p.consumer?.groupMetadata().generationId).toBe(2);
    const results = transaction(world, p, 3_100_000, () => ({ ...stale!, groupInstanceId: null }));
    const after: KafkaErrorCode[] = [];
    world.at(3_200_000, () => {
      const producer = p.producer!;
      producer.sendOffsetsToTransaction(OFFSETS, p.consumer!.groupMetadata(), (e) => after.push(e));
      producer.abortTransaction((error) => after.push(error));
    });
    world.runTo(3_300_000);
    expect(world.broker.requests('TxnOffsetCommit')[0]).toMatchObject({ generationId: 1 });
    // beginTransaction, then sendOffsets and commit both fail with the abortable error.
    expect(results).toEqual(['NONE', 'ILLEGAL_GENERATION', 'ILLEGAL_GENERATION']);
    // Sticky until abortTransaction; the abort still ends the transaction with EndTxn
    // (TransactionManager.maybeFailWithError).
    expect(after).toEqual(['ILLEGAL_GENERATION', 'NONE']);
    expect(world.broker.requests('EndTxn').map((end) => end.committed)).toEqual([false]);
    expect(world.broker.committed.get('in-0')).toBe(2);
    expect(p.producer?.state).toBe('READY');
  });

  it('accepts the groupId-only form (generation -1) even in a non-empty group', () => {
    const world = new GroupWorld();
    const p = pipeline(world, 'P');
    const groupOnly = () => ({
      groupId: 'g',
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
    });
    const results = transaction(world, p, 100_000, groupOnly);
    world.runTo(200_000);
    expect(world.broker.requests('TxnOffsetCommit')[0]).toMatchObject({
      generationId: -1,
      memberId: '',
    });
    expect(results).toEqual(['NONE', 'NONE', 'NONE']);
    expect(world.broker.committed.get('in-0')).toBe(6);
  });

  it('finds the group coordinator again after NOT_COORDINATOR and retries', () => {
    const world = new GroupWorld();
    world.broker.scripted.set('TxnOffsetCommit', ['NOT_COORDINATOR']);
    const p = pipeline(world, 'P');
    const results = transaction(world, p, 100_000);
    world.runTo(400_000);
    expect(producerRequests(world, 'P').slice(2)).toEqual([
      'AddOffsetsToTxn@101000',
      'FindCoordinator(group)@103000',
      'TxnOffsetCommit@105000',
      'FindCoordinator(group)@207000',
      'TxnOffsetCommit@209000',
      'EndTxn@211000',
    ]);
    expect(results).toEqual(['NONE', 'NONE', 'NONE']);
  });

  it('retries CONCURRENT_TRANSACTIONS on AddOffsetsToTxn after retry.backoff.ms', () => {
    const world = new GroupWorld();
    world.broker.scripted.set('AddOffsetsToTxn', ['CONCURRENT_TRANSACTIONS']);
    const p = pipeline(world, 'P');
    const results = transaction(world, p, 100_000);
    world.runTo(400_000);
    expect(producerRequests(world, 'P').slice(2, 4)).toEqual([
      'AddOffsetsToTxn@101000',
      'AddOffsetsToTxn@203000',
    ]);
    expect(results).toEqual(['NONE', 'NONE', 'NONE']);
  });

  it('is fatal on PRODUCER_FENCED from TxnOffsetCommit', () => {
    const world = new GroupWorld();
    world.broker.scripted.set('TxnOffsetCommit', ['PRODUCER_FENCED']);
    const p = pipeline(world, 'P');
    const results = transaction(world, p, 100_000);
    const after: KafkaErrorCode[] = [];
    world.at(150_000, () => p.producer?.abortTransaction((error) => after.push(error)));
    world.runTo(200_000);
    expect(results).toEqual(['NONE', 'PRODUCER_FENCED', 'PRODUCER_FENCED']);
    expect(after).toEqual(['PRODUCER_FENCED']);
    expect(p.producer?.state).toBe('FATAL_ERROR');
    expect(world.broker.requests('EndTxn')).toEqual([]);
  });

  it('answers INVALID_TXN_STATE outside a transaction', () => {
    const world = new GroupWorld();
    const p = pipeline(world, 'P');
    const results: KafkaErrorCode[] = [];
    world.at(100_000, () =>
      p.producer?.sendOffsetsToTransaction(OFFSETS, p.consumer!.groupMetadata(), (error) =>
        results.push(error),
      ),
    );
    world.runTo(120_000);
    expect(results).toEqual(['INVALID_TXN_STATE']);
  });
});
