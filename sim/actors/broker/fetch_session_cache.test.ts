/**
 * Goal: pin the leader's incremental fetch sessions to KIP-227 (Kafka's FetchSession and
 * FetchManager.newContext): a full fetch opens a session caching every partition; an
 * incremental fetch must name a known session at its current epoch (else
 * FETCH_SESSION_ID_NOT_FOUND or INVALID_FETCH_SESSION_EPOCH), updates the partitions it lists
 * and drops the forgotten ones; an answer carries every partition of a full fetch but only the
 * partitions with records, an error, a diverging epoch or a high watermark or log start offset
 * not yet sent (CachedPartition.maybeUpdateResponseData); a crash forgets every session.
 *
 * Method: drive a FetchSessionCache with hand-built requests and answers and compare the
 * resolved contexts and the selected partitions exactly.
 */
import { describe, expect, it } from 'vitest';
import type { FetchPartition, FetchPartitionResponse, FetchRequest } from '../protocol';
import { FetchSessionCache, type FetchSession } from './fetch_session_cache';

const params = (partition: number, fetchOffset: number): FetchPartition => ({
  topic: 'orders',
  partition,
  fetchOffset,
  currentLeaderEpoch: 0,
  lastFetchedEpoch: 0,
});

const fetch = (
  session: { id: number; epoch: number },
  partitions: readonly FetchPartition[],
  forgotten: readonly number[] = [],
): FetchRequest => ({
  kind: 'Fetch',
  correlationId: 1,
  replicaId: 'b2',
  isolationLevel: 'read_uncommitted',
  maxWaitMs: 500,
  minBytes: 1,
  maxBytes: 10_485_760,
  sessionId: session.id,
  sessionEpoch: session.epoch,
  forgottenPartitions: forgotten.map((partition) => ({ topic: 'orders', partition })),
  partitions,
});

const answer = (
  partition: number,
  fields: Partial<FetchPartitionResponse> = {},
): FetchPartitionResponse => ({
  topic: 'orders',
  partition,
  error: 'NONE',
  highWatermark: 10,
  lastStableOffset: 10,
  logStartOffset: 0,
  abortedTransactions: null,
  batches: [],
  divergingEpoch: null,
  ...fields,
});

/** Opens a session with partitions 0..2 and answers its full fetch. */
function openedSession(cache: FetchSessionCache): FetchSession {
  const context = cache.open(
    fetch({ id: 0, epoch: 0 }, [params(0, 10), params(1, 10), params(2, 10)]),
  );
  if ('error' in context) throw new Error(context.error);
  cache.select(context, [answer(0), answer(1), answer(2)]);
  return context.session;
}

describe('KIP-227 fetch sessions on the leader', () => {
  it('a full fetch opens a session at epoch 1 and answers every partition', () => {
    const cache = new FetchSessionCache();
    const context = cache.open(fetch({ id: 0, epoch: 0 }, [params(0, 10), params(1, 10)]));
    if ('error' in context) throw new Error(context.error);
    expect(context.full).toBe(true);
    expect(context.session.epoch).toBe(1);
    expect([...context.session.partitions.keys()]).toEqual(['orders-0', 'orders-1']);
    expect(cache.select(context, [answer(0), answer(1)]).map((p) => p.partition)).toEqual([0, 1]);
  });

  it('an incremental fetch answers only what changed, and nothing when idle', () => {
    const cache = new FetchSessionCache();
    const session = openedSession(cache);
    const idle = cache.open(fetch({ id: session.id, epoch: 1 }, []));
    if ('error' in idle) throw new Error(idle.error);
    expect(idle.full).toBe(false);
    expect(cache.select(idle, [answer(0), answer(1), answer(2)])).toEqual([]);
    const next = cache.open(fetch({ id: session.id, epoch: 2 }, [params(1, 12)]));
    if ('error' in next) throw new Error(next.error);
    expect(next.session.partitions.get('orders-1')?.params.fetchOffset).toBe(12);
    const selected = cache.select(next, [
      answer(0, { highWatermark: 12 }),
      answer(1, { batches: [], logStartOffset: 3 }),
      answer(2, { error: 'NOT_LEADER_OR_FOLLOWER', highWatermark: -1 }),
    ]);
    expect(selected.map((p) => p.partition)).toEqual([0, 1, 2]);
    // The error resets the cached high watermark, so the next answer includes the partition.
    expect(next.session.partitions.get('orders-2')?.highWatermark).toBe(-1);
  });

  it('null answers stand for partitions the reader found unchanged', () => {
    const cache = new FetchSessionCache();
    const session = openedSession(cache);
    const context = cache.open(fetch({ id: session.id, epoch: 1 }, []));
    if ('error' in context) throw new Error(context.error);
    expect(cache.select(context, [null, answer(1, { highWatermark: 11 }), null])).toEqual([
      answer(1, { highWatermark: 11 }),
    ]);
  });

  it('drops forgotten partitions', () => {
    const cache = new FetchSessionCache();
    const session = openedSession(cache);
    cache.open(fetch({ id: session.id, epoch: 1 }, [], [1]));
    expect([...session.partitions.keys()]).toEqual(['orders-0', 'orders-2']);
  });

  it('refuses an unknown session and an epoch out of order', () => {
    const cache = new FetchSessionCache();
    const session = openedSession(cache);
    expect(cache.open(fetch({ id: session.id + 1, epoch: 1 }, []))).toEqual({
      error: 'FETCH_SESSION_ID_NOT_FOUND',
    });
    expect(cache.open(fetch({ id: session.id, epoch: 2 }, []))).toEqual({
      error: 'INVALID_FETCH_SESSION_EPOCH',
    });
    // A refused request leaves the session as it was: epoch 1 is still the next one.
    expect('error' in cache.open(fetch({ id: session.id, epoch: 1 }, []))).toBe(false);
  });

  it('a full fetch closes the session it names; a crash forgets them all', () => {
    const cache = new FetchSessionCache();
    const first = openedSession(cache);
    const reopened = cache.open(fetch({ id: first.id, epoch: 0 }, [params(0, 10)]));
    if ('error' in reopened) throw new Error(reopened.error);
    expect(reopened.session.id).not.toBe(first.id);
    expect(cache.open(fetch({ id: first.id, epoch: 1 }, []))).toEqual({
      error: 'FETCH_SESSION_ID_NOT_FOUND',
    });
    cache.clear();
    expect(cache.open(fetch({ id: reopened.session.id, epoch: 1 }, []))).toEqual({
      error: 'FETCH_SESSION_ID_NOT_FOUND',
    });
  });
});
