/**
 * Goal: the message log keeps what explains an anomaly and nothing more: a response inherits
 * its request's producerId, epoch and transactional.id (matched by correlationId on the reversed
 * link), heartbeats (broker and group) and metadata are not logged, group messages carry their
 * group, member and generation, and the bound keeps the first entries and counts the rest.
 * Method: feed hand-built deliveries to `observe`.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryObservation, Message } from '../kernel';
import { nodeId } from '../kernel';
import { MessageLog } from './message_log';

function delivery(options: {
  timeUs: number;
  source: string;
  target: string;
  payload: Message;
}): DeliveryObservation {
  return {
    timeUs: options.timeUs,
    envelope: {
      source: nodeId(options.source),
      target: nodeId(options.target),
      payload: options.payload,
      sentUs: options.timeUs - 1,
    },
  };
}

const endTxn = {
  kind: 'EndTxn',
  correlationId: 7,
  transactionalId: 'tx',
  producerId: 3,
  producerEpoch: 2,
  committed: true,
};

describe('MessageLog', () => {
  it('lends the request identity to its response', () => {
    const log = new MessageLog();
    log.observe(delivery({ timeUs: 10, source: 'A', target: 'b1', payload: endTxn }));
    const response = { kind: 'EndTxnResponse', correlationId: 7, error: 'PRODUCER_FENCED' };
    log.observe(delivery({ timeUs: 20, source: 'b1', target: 'A', payload: response }));
    expect(log.entries[1]).toEqual({
      timeUs: 20,
      sentUs: 19,
      kind: 'EndTxnResponse',
      source: 'b1',
      target: 'A',
      transactionalId: 'tx',
      producerId: 3,
      producerEpoch: 2,
      committed: true,
      partitions: [],
      error: 'PRODUCER_FENCED',
    });
  });

  it('does not match a response from another peer', () => {
    const log = new MessageLog();
    log.observe(delivery({ timeUs: 10, source: 'A', target: 'b1', payload: endTxn }));
    const response = { kind: 'EndTxnResponse', correlationId: 7, error: 'NONE' };
    log.observe(delivery({ timeUs: 20, source: 'b2', target: 'A', payload: response }));
    expect(log.entries[1]?.producerId).toBeUndefined();
  });

  it('skips heartbeats and metadata, and keeps the first entries when full', () => {
    const log = new MessageLog(2);
    log.observe(
      delivery({ timeUs: 1, source: 'b1', target: 'c', payload: { kind: 'BrokerHeartbeat' } }),
    );
    log.observe(delivery({ timeUs: 2, source: 'A', target: 'b1', payload: { kind: 'Metadata' } }));
    for (const timeUs of [3, 4, 5]) {
      log.observe(
        delivery({
          timeUs,
          source: 'A',
          target: 'b1',
          payload: { ...endTxn, correlationId: timeUs } as Message,
        }),
      );
    }
    expect(log.entries.map((entry) => entry.timeUs)).toEqual([3, 4]);
    expect(log.dropped).toBe(1);
  });

  it('skips group heartbeats and logs a TxnOffsetCommit with its group and transaction', () => {
    const log = new MessageLog();
    const heartbeat = {
      kind: 'Heartbeat',
      correlationId: 1,
      groupId: 'g',
      generationId: 2,
      memberId: 'm',
      groupInstanceId: null,
    };
    log.observe(delivery({ timeUs: 1, source: 'C', target: 'b1', payload: heartbeat }));
    const commit = {
      kind: 'TxnOffsetCommit',
      correlationId: 2,
      transactionalId: 'tx',
      groupId: 'g',
      producerId: 3,
      producerEpoch: 1,
      generationId: 2,
      memberId: 'm',
      groupInstanceId: null,
      offsets: [{ topic: 'in', partition: 0, offset: 7 }],
    };
    log.observe(delivery({ timeUs: 2, source: 'P', target: 'b1', payload: commit }));
    const results = [{ topic: 'in', partition: 0, error: 'ILLEGAL_GENERATION' }];
    const response = { kind: 'TxnOffsetCommitResponse', correlationId: 2, results };
    log.observe(delivery({ timeUs: 3, source: 'b1', target: 'P', payload: response }));
    expect(log.entries.map((entry) => entry.kind)).toEqual([
      'TxnOffsetCommit',
      'TxnOffsetCommitResponse',
    ]);
    expect(log.entries[1]).toEqual({
      timeUs: 3,
      sentUs: 2,
      kind: 'TxnOffsetCommitResponse',
      source: 'b1',
      target: 'P',
      transactionalId: 'tx',
      producerId: 3,
      producerEpoch: 1,
      groupId: 'g',
      memberId: 'm',
      generationId: 2,
      partitions: ['in-0'],
      error: 'ILLEGAL_GENERATION',
    });
  });
});
