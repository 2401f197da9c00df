/**
 * Kafka's purgatories for one broker: acks=all produces and coordinator markers wait until the
 * partition's high watermark passes their last offset (DelayedProduce,
 * Partition.checkEnoughReplicasReachOffset), and fetches that found fewer bytes than their minimum
 * wait up to their MaxWaitMs (DelayedFetch; the completion rule is in delayed_fetch.ts). Each
 * waiter completes once: on its condition, on timeout, or when the broker loses leadership. Like
 * Kafka's purgatory keys, a fetch is checked again whenever one of its partitions gets an append,
 * a new high watermark or new partition state (ReplicaManager.completeDelayedFetchRequests).
 */
import type { ActorContext } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';
import type { KafkaErrorCode, KafkaMessage } from '../protocol';

type Ctx = ActorContext<KafkaMessage>;

/** Timer payload of a delayed operation. */
export interface DelayedTimer {
  readonly owner: 'delayed';
  readonly id: number;
}

interface WaitingProduce {
  readonly partitionKey: string;
  /** Completes when the high watermark reaches this offset (last offset + 1). */
  readonly requiredOffset: number;
  readonly complete: (outcome: 'replicated' | KafkaErrorCode) => void;
  readonly timerId: number;
}

interface WaitingFetch {
  /** The keys of its partitions when it was parked. */
  readonly partitionKeys: ReadonlySet<string>;
  /** DelayedFetch.tryComplete. */
  readonly canComplete: () => boolean;
  readonly complete: () => void;
  readonly timerId: number;
}

/** The waiting produces and fetches of one broker. */
export class DelayedOperations {
  private produces = new BoundedMap<number, WaitingProduce>(COLLECTION_BOUNDS.delayedProduces);
  private fetches = new BoundedMap<number, WaitingFetch>(COLLECTION_BOUNDS.delayedFetches);
  private nextId = 1;

  /** Forgets everything (crash): their requests are never answered. */
  clear(): void {
    this.produces = new BoundedMap(COLLECTION_BOUNDS.delayedProduces);
    this.fetches = new BoundedMap(COLLECTION_BOUNDS.delayedFetches);
  }

  /** Parks a produce until the HW of `partitionKey` reaches `requiredOffset`. */
  waitForReplication(
    waiter: Omit<WaitingProduce, 'timerId'> & { timeoutUs: number },
    ctx: Ctx,
  ): void {
    const id = this.nextId++;
    const timerId = ctx.setTimer(waiter.timeoutUs, { owner: 'delayed', id } satisfies DelayedTimer);
    this.produces.set(id, { ...waiter, timerId });
  }

  /** Parks a fetch until `canComplete` holds after a change to its partitions, or the wait ends. */
  waitForData(waiter: Omit<WaitingFetch, 'timerId'> & { waitUs: number }, ctx: Ctx): void {
    const id = this.nextId++;
    const timerId = ctx.setTimer(waiter.waitUs, { owner: 'delayed', id } satisfies DelayedTimer);
    this.fetches.set(id, {
      partitionKeys: waiter.partitionKeys,
      canComplete: waiter.canComplete,
      complete: waiter.complete,
      timerId,
    });
  }

  /** The HW of a partition moved: complete the produces it satisfies, and the fetches. */
  onHighWatermark(partitionKey: string, highWatermark: number, ctx: Ctx): void {
    this.checkFetches(partitionKey, ctx);
    // Runs after every HW move: find the due waiters first, and copy nothing when none is due.
    const due = dueIds(this.produces, (waiter) => {
      return waiter.partitionKey === partitionKey && highWatermark >= waiter.requiredOffset;
    });
    for (const id of due) {
      const waiter = this.produces.get(id);
      if (waiter === undefined) continue;
      this.produces.delete(id);
      ctx.cancelTimer(waiter.timerId);
      waiter.complete('replicated');
    }
  }

  /** Leadership of a partition was lost: its waiting produces fail, its fetches are answered. */
  onLeadershipLost(partitionKey: string, ctx: Ctx): void {
    this.checkFetches(partitionKey, ctx);
    for (const [id, waiter] of [...this.produces]) {
      if (waiter.partitionKey !== partitionKey) continue;
      this.produces.delete(id);
      ctx.cancelTimer(waiter.timerId);
      waiter.complete('NOT_LEADER_OR_FOLLOWER');
    }
  }

  /** A partition got an append: complete the fetches waiting on it that can now complete. */
  onAppend(partitionKey: string, ctx: Ctx): void {
    this.checkFetches(partitionKey, ctx);
  }

  /** Something changed on a partition: complete the fetches watching it that can complete. */
  checkFetches(partitionKey: string, ctx: Ctx): void {
    if (this.fetches.size === 0) return;
    const due = dueIds(this.fetches, (waiter) => {
      return waiter.partitionKeys.has(partitionKey) && waiter.canComplete();
    });
    for (const id of due) {
      const waiter = this.fetches.get(id);
      if (waiter === undefined) continue;
      this.fetches.delete(id);
      ctx.cancelTimer(waiter.timerId);
      waiter.complete();
    }
  }

  /** Time ran out: produces fail with REQUEST_TIMED_OUT; fetches answer with what is there. */
  onTimer(timer: DelayedTimer): void {
    const produce = this.produces.get(timer.id);
    if (produce !== undefined) {
      this.produces.delete(timer.id);
      produce.complete('REQUEST_TIMED_OUT');
      return;
    }
    const fetch = this.fetches.get(timer.id);
    if (fetch !== undefined) {
      this.fetches.delete(timer.id);
      fetch.complete();
    }
  }
}

const NONE_DUE: readonly number[] = Object.freeze([]);

/** The ids of the waiters `isDue` accepts, in the order they were parked. */
function dueIds<W>(
  waiters: ReadonlyMap<number, W>,
  isDue: (waiter: W) => boolean,
): readonly number[] {
  let due: number[] | undefined;
  for (const [id, waiter] of waiters) {
    if (isDue(waiter)) (due ??= []).push(id);
  }
  return due ?? NONE_DUE;
}
