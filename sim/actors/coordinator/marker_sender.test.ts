/**
 * Goal: pin the coordinator-epoch check on WriteTxnMarkers responses (Kafka's
 * TransactionMarkerRequestCompletionHandler) and the KAFKA-16352 switch. Method: drive one
 * MarkerSender with a recording context: send a job's markers under coordinator epoch 0, replace
 * the job after a reload under epoch 1, deliver the old request's late response (fenced by the
 * partition leader, which saw epoch 1 first), then the new request's response; assert whether
 * the reloaded transaction completes.
 */
import { describe, expect, it } from 'vitest';
import { nodeId, type ActorContext, type NodeId } from '../../kernel';
import type { KafkaMessage, WriteTxnMarkersRequest } from '../protocol';
import { MarkerSender, type MarkerJob } from './marker_sender';

const LEADER = nodeId('b3');
const PARTITION = { topic: 'orders', partition: 2 };

function context(sent: WriteTxnMarkersRequest[]): ActorContext<KafkaMessage> {
  let timers = 0;
  return {
    nodeId: nodeId('b2'),
    rng: undefined as never,
    nowUs: () => 0,
    send: (_target: NodeId, payload: KafkaMessage) => {
      if (payload.kind === 'WriteTxnMarkers') sent.push(payload);
    },
    setTimer: () => ++timers,
    cancelTimer: () => undefined,
    closeConnection: () => undefined,
    trace: () => undefined,
    observe: () => undefined,
  };
}

function job(coordinatorEpoch: number): MarkerJob {
  return {
    transactionalId: 'orders-tx',
    producerId: 5,
    producerEpoch: 0,
    coordinatorEpoch,
    committed: true,
    partitions: [PARTITION],
    transactionVersion: 0,
  };
}

/** Runs the reload race; returns the transactional ids the sender completed. */
function reloadRace(staleResponseRemovesCompletion: boolean): string[] {
  const completed: string[] = [];
  const sender = new MarkerSender(
    { leaderOf: () => LEADER },
    (transactionalId) => completed.push(transactionalId),
    { staleMarkerResponseRemovesCompletion: staleResponseRemovesCompletion },
  );
  const sent: WriteTxnMarkersRequest[] = [];
  const ctx = context(sent);
  sender.send(job(0), ctx);
  sender.send(job(1), ctx);
  const [old, reloaded] = sent;
  const respond = (
    request: WriteTxnMarkersRequest | undefined,
    error: 'NONE' | 'TRANSACTION_COORDINATOR_FENCED',
  ) =>
    sender.onResponse(
      {
        kind: 'WriteTxnMarkersResponse',
        correlationId: request?.correlationId ?? -1,
        producerId: 5,
        results: [{ ...PARTITION, error }],
      },
      ctx,
    );
  respond(old, 'TRANSACTION_COORDINATOR_FENCED');
  respond(reloaded, 'NONE');
  return completed;
}

describe('MarkerSender: responses under an older coordinator epoch', () => {
  it('since KAFKA-16352 (3.8) a stale response leaves the reloaded job alone', () => {
    expect(reloadRace(false)).toEqual(['orders-tx']);
  });

  it('before it (KAFKA-16352 on) the stale response removes the reloaded completion', () => {
    expect(reloadRace(true)).toEqual([]);
  });
});

/**
 * A job whose leader answers KAFKA_STORAGE_ERROR (its log directory failed) while leadership
 * moves from b3 to b1; returns the leaders markers went to and the completed ids.
 */
function storageErrorRun(storageErrorStopsMarkers: boolean) {
  const completed: string[] = [];
  let leader = LEADER;
  const sender = new MarkerSender(
    { leaderOf: () => leader },
    (transactionalId) => completed.push(transactionalId),
    { storageErrorStopsMarkers },
  );
  const sent: WriteTxnMarkersRequest[] = [];
  const targets: string[] = [];
  const ctx = {
    ...context(sent),
    send: (target: NodeId, payload: KafkaMessage) => {
      if (payload.kind !== 'WriteTxnMarkers') return;
      sent.push(payload);
      targets.push(target);
    },
  };
  const answer = (error: 'NONE' | 'KAFKA_STORAGE_ERROR') => {
    const request = sent[sent.length - 1];
    sender.onResponse(
      {
        kind: 'WriteTxnMarkersResponse',
        correlationId: request?.correlationId ?? -1,
        producerId: 5,
        results: [{ ...PARTITION, error }],
      },
      ctx,
    );
  };
  sender.send(job(0), ctx);
  answer('KAFKA_STORAGE_ERROR');
  leader = nodeId('b1');
  sender.onTimer({ type: 'marker-retry', transactionalId: 'orders-tx' }, ctx);
  if (sent.length > 1) answer('NONE');
  return { targets, completed };
}

describe('MarkerSender: KAFKA_STORAGE_ERROR from a failed log directory', () => {
  it('since KAFKA-9749 (2.5) the marker is retried at the new leader and completes', () => {
    expect(storageErrorRun(false)).toEqual({ targets: ['b3', 'b1'], completed: ['orders-tx'] });
  });

  it('before it (KAFKA-9749 on) the handler throws: no retry, never completed', () => {
    expect(storageErrorRun(true)).toEqual({ targets: ['b3'], completed: [] });
  });
});
