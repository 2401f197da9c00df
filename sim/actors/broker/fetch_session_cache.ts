/**
 * The leader's side of incremental fetch sessions for follower fetches (KIP-227; Kafka's
 * FetchSession, FetchSessionCache and FetchManager.newContext). A follower's full fetch
 * (session epoch 0) lists every partition it fetches from this leader and opens a session that
 * caches each partition's fetch parameters and the high watermark and log start offset last
 * sent. Later, incremental fetches list only the partitions whose parameters changed (and the
 * ones to forget); the leader still reads every partition of the session, and answers only those
 * with records, an error, a diverging epoch, or a high watermark or log start offset the follower
 * has not been sent. An unknown session id answers FETCH_SESSION_ID_NOT_FOUND and an epoch out
 * of order INVALID_FETCH_SESSION_EPOCH, after which the follower starts over with a full fetch.
 *
 * Sessions live in memory: a broker crash loses them all. Consumers fetch without a session.
 */
import type {
  FetchPartition,
  FetchPartitionResponse,
  FetchRequest,
  KafkaErrorCode,
} from '../protocol';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import { partitionKey } from '../protocol';

/** `max.incremental.fetch.session.cache.slots`: sessions one broker keeps. @default 1000 */
export const FETCH_SESSION_CACHE_SLOTS = 1000;

/** One partition of a session (Kafka's CachedPartition). */
export interface CachedPartition {
  /** `topic-partition`, computed once. */
  readonly key: string;
  /** The fetch parameters last received for it. */
  params: FetchPartition;
  /** The high watermark last sent; -1 after an error so the next answer includes it. */
  highWatermark: number;
  /** The log start offset last sent. */
  logStartOffset: number;
}

/** A follower's fetch session on this leader. */
export interface FetchSession {
  readonly id: number;
  /** The epoch the next incremental request must carry. */
  epoch: number;
  /** The session's partitions, in the order they were added. */
  readonly partitions: Map<string, CachedPartition>;
}

/** What a follower's request resolves to: a session to read, or a session error. */
export type FetchContext =
  { readonly session: FetchSession; readonly full: boolean } | { readonly error: KafkaErrorCode };

/** The fetch sessions of one broker, least recently used first. */
export class FetchSessionCache {
  private sessions = new Map<number, FetchSession>();
  private nextId = 1;

  /** Crash: sessions are in memory only. */
  clear(): void {
    this.sessions = new Map();
  }

  /**
   * Resolves a follower fetch. A full request (epoch 0) closes the session it names and opens
   * a new one; an incremental request must name a known session at its current epoch, and
   * updates its partitions and epoch. The id of a new session is a per-broker counter (Kafka
   * draws a random one; any id unique on this broker will do).
   * @example cache.open({ ...request, sessionId: 0, sessionEpoch: 0 }) // { session, full: true }
   */
  open(request: FetchRequest): FetchContext {
    const sessionId = request.sessionId ?? 0;
    if ((request.sessionEpoch ?? 0) === 0) {
      this.sessions.delete(sessionId);
      const session: FetchSession = {
        id: this.nextId++,
        epoch: 1,
        partitions: new BoundedMap(COLLECTION_BOUNDS.sessionPartitions),
      };
      for (const params of request.partitions) this.cache(session, params);
      this.remember(session);
      return { session, full: true };
    }
    const session = this.sessions.get(sessionId);
    if (session === undefined) return { error: 'FETCH_SESSION_ID_NOT_FOUND' };
    if (session.epoch !== request.sessionEpoch) return { error: 'INVALID_FETCH_SESSION_EPOCH' };
    session.epoch += 1;
    for (const params of request.partitions) this.cache(session, params);
    for (const forgotten of request.forgottenPartitions ?? []) {
      session.partitions.delete(partitionKey(forgotten));
    }
    this.remember(session);
    return { session, full: false };
  }

  /**
   * The partitions of a session's answer: all of them for a full fetch, else those the follower
   * must hear about (Kafka's CachedPartition.maybeUpdateResponseData). Updates what the session
   * last sent. `answers[i]` answers the session's i-th partition; null stands for a partition
   * the reader already found unchanged.
   */
  select(
    context: { readonly session: FetchSession; readonly full: boolean },
    answers: ReadonlyArray<FetchPartitionResponse | null>,
  ): FetchPartitionResponse[] {
    const selected: FetchPartitionResponse[] = [];
    let index = 0;
    for (const cached of context.session.partitions.values()) {
      const answer = answers[index++];
      if (answer === undefined || answer === null) continue;
      let mustRespond = context.full || answer.batches.length > 0 || answer.divergingEpoch !== null;
      if (cached.highWatermark !== answer.highWatermark) {
        mustRespond = true;
        cached.highWatermark = answer.highWatermark;
      }
      if (cached.logStartOffset !== answer.logStartOffset) {
        mustRespond = true;
        cached.logStartOffset = answer.logStartOffset;
      }
      if (answer.error !== 'NONE') {
        mustRespond = true;
        cached.highWatermark = -1;
      }
      if (mustRespond) selected.push(answer);
    }
    return selected;
  }

  private cache(session: FetchSession, params: FetchPartition): void {
    const key = partitionKey(params);
    const cached = session.partitions.get(key);
    if (cached !== undefined) cached.params = params;
    else session.partitions.set(key, { key, params, highWatermark: -1, logStartOffset: -1 });
  }

  /** Marks a session used now, evicting the least recently used past the slot count. */
  private remember(session: FetchSession): void {
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
    if (this.sessions.size <= FETCH_SESSION_CACHE_SLOTS) return;
    const oldest = this.sessions.keys().next();
    if (oldest.done !== true) this.sessions.delete(oldest.value);
  }
}
