/**
 * Goal: pin one replica's part in replication without a network: the leader HW over the ISR
 * (Partition.maybeIncrementLeaderHW: 3.7+ min-ISR gate and the older rule, maximal ISR, caught-up
 * non-ISR followers), the follower HW (ReplicaFetcherThread.processPartitionData), caught-up
 * bookkeeping, ISR shrink and expansion (Replica.updateFetchStateOrThrow; Partition.maybeExpandIsr,
 * maybeShrinkIsr, makeFollower), diverging-epoch truncation (KIP-101;
 * AbstractFetcherThread.getOffsetTruncationState) and legacy truncate-to-HW. Method: a
 * `PartitionReplica` over a real `PartitionLog` and hand-made `PartitionState`s; follower fetches
 * and fetch answers are method calls at fixed virtual times; exact offsets are asserted. Times
 * start at 100 s, past `replica.lag.time.max.ms`, except in the test of the bug an early start
 * exposes.
 */
import { describe, expect, it } from 'vitest';
import {
  NO_PRODUCER_ID,
  type FetchPartitionResponse,
  type LogBatch,
  type PartitionState,
} from '../protocol';
import { PartitionLog } from './partition_log';
import { PartitionReplica, type ReplicationSettings } from './partition_replica';

const LAG_MS = 10_000;
const LAG_US = LAG_MS * 1000;
/** A start time past the lag window, so a last-caught-up time of 0 means "long ago". */
const T0 = 100_000_000;
const ALL = ['b1', 'b2', 'b3'] as const;

const DEFAULT_SETTINGS: ReplicationSettings = {
  minInsyncReplicas: 2,
  replicaLagTimeMaxMs: LAG_MS,
  strictMinIsrHighWatermark: true,
  leaderEpochTruncation: true,
};

const BASE_STATE = { topic: 't', partition: 0, leader: 'b1', leaderEpoch: 0, partitionEpoch: 0 };

/** b1 leading epoch 0 of replicas b1, b2, b3 with all in the ISR, unless overridden. */
const partitionState = (overrides: Partial<PartitionState> = {}): PartitionState => ({
  ...BASE_STATE,
  replicas: ALL,
  isr: ALL,
  elr: [],
  lastKnownElr: [],
  ...overrides,
});

/** Settings overrides and the time the replica takes its first role (default T0). */
type ReplicaOptions = { settings?: Partial<ReplicationSettings>; nowUs?: number };

/** A replica under test; each call happens at the time last set with `at`. */
class Replica {
  readonly replica: PartitionReplica;
  private nowUs: number;

  /** Broker `id`'s replica, taking the role `state` gives it at `nowUs` (default T0). */
  constructor(options: ReplicaOptions & { id: string; state: PartitionState }) {
    const log = new PartitionLog('t', 0, {
      skipProducerEpochCheck: false,
      verificationGuardBeforeEpochCheck: false,
      acceptAnyFirstSequenceOnEmptyLog: false,
      singleBatchDedupWindow: false,
    });
    const settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.replica = new PartitionReplica(options.id, log, options.state, settings);
    this.nowUs = options.nowUs ?? T0;
    this.replica.applyState(options.state, this.nowUs);
  }

  get log(): PartitionLog {
    return this.replica.log;
  }

  /** `[LEO, HW]`. */
  get offsets(): [number, number] {
    return [this.log.logEndOffset, this.log.highWatermark];
  }

  at(nowUs: number): this {
    this.nowUs = nowUs;
    return this;
  }

  /**
   * Appends `count` single-record batches as leader, then recomputes the HW
   * (Partition.maybeIncrementLeaderHW).
   */
  append(count: number): this {
    for (let index = 0; index < count; index++) {
      const values = [this.log.logEndOffset * 10];
      this.log.appendAsLeader({ ...PLAIN, isTransactional: false, values }, this.nowUs);
    }
    this.replica.maybeAdvanceHighWatermark(this.nowUs);
    return this;
  }

  /**
   * As leader, handles a fetch of `follower` at `offset` (Partition.fetchRecords); returns the HW.
   */
  fetch(follower: string, offset: number): number {
    this.replica.onFollowerFetch(follower, offset, this.log.logEndOffset, this.nowUs);
    this.replica.maybeAdvanceHighWatermark(this.nowUs);
    return this.log.highWatermark;
  }

  /** As follower, applies a fetch answer carrying single-record batches of `epochs`. */
  receive(answer: { from?: number; epochs?: readonly number[]; hw: number }): this {
    const from = answer.from ?? this.log.logEndOffset;
    const batches = (answer.epochs ?? []).map((epoch, index) => batchAt(from + index, epoch));
    const fetched: FetchPartitionResponse = { ...ANSWER, batches, highWatermark: answer.hw };
    this.replica.onFetchedPartition(fetched, this.nowUs);
    return this;
  }

  /**
   * As follower, applies an answer saying the log diverged (KIP-101;
   * AbstractFetcherThread.getOffsetTruncationState).
   */
  diverge(divergingEpoch: { epoch: number; endOffset: number }): this {
    const highWatermark = this.log.highWatermark;
    this.replica.onFetchedPartition({ ...ANSWER, highWatermark, divergingEpoch }, this.nowUs);
    return this;
  }
}

/** The producer fields of a batch written without idempotence. */
const PLAIN = { producerId: NO_PRODUCER_ID, producerEpoch: -1, baseSequence: -1 } as const;

/** A single-record batch at `offset` written under `epoch`, with value 10 × offset. */
function batchAt(offset: number, epoch: number): LogBatch {
  const where = { baseOffset: offset, lastOffset: offset, leaderEpoch: epoch };
  return { ...PLAIN, ...where, isTransactional: false, values: [offset * 10], appendUs: 0 };
}

/** A follower fetch answer without error, records beyond `batches` or transactions. */
const ANSWER = {
  topic: 't',
  partition: 0,
  error: 'NONE',
  lastStableOffset: 0,
  logStartOffset: 0,
  abortedTransactions: null,
  batches: [],
  divergingEpoch: null,
} as const;

/** b1 leading epoch 0 with ISR `isr`. */
function leader(options: ReplicaOptions & { isr?: readonly string[] }): Replica {
  const state = partitionState({ isr: [...(options.isr ?? ALL)] });
  return new Replica({ id: 'b1', state, ...options });
}

/** b2 following b1, its log holding one record per entry of `epochs`, with HW `hw`. */
function follower(log: { epochs: readonly number[]; hw: number }): Replica {
  const state = partitionState({ leaderEpoch: log.epochs[log.epochs.length - 1] ?? 0 });
  return new Replica({ id: 'b2', state }).receive({ from: 0, ...log });
}

/** The epoch cache as `epoch@startOffset`. */
const epochs = (replica: Replica): string[] =>
  replica.log.epochCache.all.map((entry) => `${entry.epoch}@${entry.startOffset}`);

/** Each truncation as `time toOffset reason [removed offsets]`. */
const truncated = (replica: Replica): string[] =>
  replica.replica.truncations.map(
    (t) => `${t.timeUs} ${t.toOffset} ${t.reason} [${t.removed.map((b) => b.baseOffset)}]`,
  );

describe('leader high watermark (Partition.maybeIncrementLeaderHW)', () => {
  it('is the lowest LEO over the ISR, moving as each follower fetch reports its LEO', () => {
    const b1 = leader({}).append(3);
    expect(b1.offsets).toEqual([3, 0]);
    const hws = [
      b1.at(T0 + 1000).fetch('b2', 0),
      b1.at(T0 + 2000).fetch('b2', 3),
      b1.at(T0 + 3000).fetch('b3', 2),
      b1.at(T0 + 4000).fetch('b3', 3),
    ];
    expect(hws).toEqual([0, 0, 2, 3]);
    expect(b1.log.highWatermarkChanges).toEqual([
      { timeUs: 0, offset: 0 },
      { timeUs: T0 + 3000, offset: 2 },
      { timeUs: T0 + 4000, offset: 3 },
    ]);
  });

  it('is gated by the committed ISR size under 3.7+ and not under the older rule', () => {
    const gated = leader({ isr: ['b1', 'b2'], settings: { minInsyncReplicas: 3 } }).append(3);
    expect(gated.at(T0 + 1000).fetch('b2', 3)).toBe(0);
    expect(gated.replica.maybeAdvanceHighWatermark(T0 + 2000)).toBe(false);
    const settings = { minInsyncReplicas: 3, strictMinIsrHighWatermark: false };
    const ungated = leader({ isr: ['b1', 'b2'], settings }).append(3);
    expect(ungated.at(T0 + 1000).fetch('b2', 3)).toBe(3);
    // An ISR of the leader alone: frozen with the gate, at the LEO without it.
    expect(leader({ isr: ['b1'] }).append(2).offsets).toEqual([2, 0]);
    expect(leader({ isr: ['b1'], settings }).append(2).offsets).toEqual([2, 2]);
  });

  it('uses min(min.insync.replicas, replication factor) as the effective min ISR', () => {
    const state = partitionState({ replicas: ['b1', 'b2'], isr: ['b1', 'b2'] });
    const b1 = new Replica({ id: 'b1', state, settings: { minInsyncReplicas: 3 } }).append(1);
    expect(b1.replica.effectiveMinIsr()).toBe(2);
    expect(b1.at(T0 + 1000).fetch('b2', 1)).toBe(1);
  });

  it('does not cap min.insync.replicas before 3.7 (Partition.appendRecordsToLeader)', () => {
    const state = partitionState({ replicas: ['b1', 'b2'], isr: ['b1', 'b2'] });
    const settings = { minInsyncReplicas: 3, strictMinIsrHighWatermark: false };
    const b1 = new Replica({ id: 'b1', state, settings });
    // Above the replication factor: no ISR can ever be large enough for an acks=all write.
    expect(b1.replica.effectiveMinIsr()).toBe(3);
  });

  it('a caught-up non-ISR follower holds the HW back until it falls out of the lag', () => {
    const b1 = leader({ isr: ['b1', 'b2'], settings: { minInsyncReplicas: 1 } }).append(2);
    expect(b1.at(T0 + 1000).fetch('b2', 2)).toBe(2);
    expect(b1.at(T0 + 2000).fetch('b3', 2)).toBe(2); // b3 at the LEO: caught up
    b1.at(T0 + 3000).append(2);
    expect(b1.at(T0 + 4000).fetch('b2', 4)).toBe(2); // held at b3's LEO
    expect(b1.replica.expansionCandidate('b3')).toBe(true);
    expect(b1.at(T0 + 2000 + LAG_US).fetch('b2', 4)).toBe(2);
    expect(b1.at(T0 + 2000 + LAG_US + 1).fetch('b2', 4)).toBe(4);
  });

  it('a fenced (ISR-ineligible) caught-up follower does not hold the HW back', () => {
    const b1 = leader({ isr: ['b1', 'b2'], settings: { minInsyncReplicas: 1 } });
    b1.replica.ineligibleBrokers = new Set(['b3']);
    b1.append(2)
      .at(T0 + 1000)
      .fetch('b3', 2);
    b1.at(T0 + 2000).append(2);
    expect(b1.at(T0 + 3000).fetch('b2', 4)).toBe(4);
  });

  it('holds at a replica leaving or joining in a pending change (maximal ISR, KIP-497)', () => {
    const shrinking = leader({}).append(2);
    shrinking.at(T0 + 1000).fetch('b2', 2);
    shrinking.replica.pendingIsr = ['b1', 'b2'];
    expect(shrinking.replica.maximalIsr()).toEqual(['b1', 'b2', 'b3']);
    expect(shrinking.at(T0 + 2000).fetch('b3', 1)).toBe(1);
    const growing = leader({ isr: ['b1', 'b2'] }).append(2);
    growing.replica.pendingIsr = ['b1', 'b2', 'b3'];
    expect(growing.at(T0 + 1000).fetch('b2', 2)).toBe(0); // b3 has not fetched yet
    expect(growing.at(T0 + 2000).fetch('b3', 1)).toBe(1);
  });

  it('the min-ISR gate counts the committed ISR, not a pending expansion', () => {
    const b1 = leader({ isr: ['b1', 'b2'], settings: { minInsyncReplicas: 3 } }).append(2);
    b1.replica.pendingIsr = ['b1', 'b2', 'b3'];
    b1.at(T0 + 1000).fetch('b2', 2);
    expect(b1.at(T0 + 2000).fetch('b3', 2)).toBe(0);
    b1.replica.isr = ['b1', 'b2', 'b3'];
    b1.replica.pendingIsr = null;
    expect(b1.replica.maybeAdvanceHighWatermark(T0 + 3000)).toBe(true);
    expect(b1.log.highWatermark).toBe(2);
  });

  it('never moves backwards', () => {
    const b1 = leader({ isr: ['b1', 'b2'] }).append(3);
    expect(b1.at(T0 + 1000).fetch('b2', 3)).toBe(3);
    b1.replica.isr = ['b1', 'b2', 'b3'];
    expect(b1.at(T0 + 2000).fetch('b3', 1)).toBe(3);
  });

  it('a never-fetched non-ISR follower does not hold back the HW early in the run', () => {
    // Kafka resets a non-ISR follower's lastCaughtUpTime to 0 on becoming leader so that it
    // does not hold the HW back; with virtual time starting at 0, "0" is not long ago.
    const settings = { minInsyncReplicas: 1 };
    const b1 = leader({ isr: ['b1', 'b2'], settings, nowUs: 1_000_000 }).append(1);
    expect(b1.at(1_001_000).fetch('b2', 1)).toBe(1);
  });
});

describe('follower high watermark (ReplicaFetcherThread.processPartitionData)', () => {
  it('takes min(leader HW, own LEO) from each response, following the leader down too', () => {
    const b2 = new Replica({ id: 'b2', state: partitionState() });
    expect(b2.replica.role).toBe('follower');
    expect(b2.receive({ epochs: [0, 0, 0], hw: 5 }).offsets).toEqual([3, 3]);
    expect(b2.at(T0 + 1000).receive({ hw: 1 }).offsets).toEqual([3, 1]);
    expect(b2.at(T0 + 2000).receive({ epochs: [0, 0], hw: 4 }).offsets).toEqual([5, 4]);
  });
});

describe('truncation from a diverging epoch (KIP-101, KIP-279)', () => {
  it('same epoch on both sides: truncates to min(own end, leader end, LEO)', () => {
    const b2 = follower({ epochs: [0, 0, 0, 1, 1, 1], hw: 5 });
    b2.at(T0 + 1000).diverge({ epoch: 1, endOffset: 4 });
    expect(b2.offsets).toEqual([4, 4]);
    expect(truncated(b2)).toEqual([`${T0 + 1000} 4 diverging-epoch [4,5]`]);
    expect(epochs(b2)).toEqual(['0@0', '1@3']);
  });

  it('an epoch the follower never had: truncates to the end of its largest lower epoch', () => {
    // The leader's cache is [0@0, 1@3, 3@5]; the follower's [0@0, 2@3] asks with epoch 2 and
    // is told (1, 5). Its own lookup of epoch 1 gives (0, 3): epochs differ, truncate to 3.
    const b2 = follower({ epochs: [0, 0, 0, 2, 2, 2], hw: 2 });
    b2.at(T0 + 1000).diverge({ epoch: 1, endOffset: 5 });
    expect(b2.log.logEndOffset).toBe(3);
    expect(truncated(b2)).toEqual([`${T0 + 1000} 3 diverging-epoch [3,4,5]`]);
    expect(b2.log.epochCache.latestEpoch()).toBe(0);
    // The next round asks with epoch 0 from offset 3; the leader's (0, 3) matches: no more.
    b2.at(T0 + 2000).diverge({ epoch: 0, endOffset: 3 });
    expect(b2.log.logEndOffset).toBe(3);
    expect(b2.replica.truncations).toHaveLength(1);
  });

  it('before KIP-279 (KAFKA-6361) the same exchange keeps the diverged epoch-2 records', () => {
    // The leader of the test above, answering as 1.1 did: epoch 2 (which it never had) ends
    // where its epoch 3 starts, 5. The follower truncates to min(5, LEO 6) and keeps 3 and 4.
    const state = partitionState({ leaderEpoch: 2 });
    const settings = { epochEndOffsetWithLeaderEpoch: false };
    const b2 = new Replica({ id: 'b2', state, settings });
    b2.receive({ from: 0, epochs: [0, 0, 0, 2, 2, 2], hw: 2 });
    b2.at(T0 + 1000).diverge({ epoch: 2, endOffset: 5 });
    expect(truncated(b2)).toEqual([`${T0 + 1000} 5 diverging-epoch [5]`]);
    expect(epochs(b2)).toEqual(['0@0', '2@3']);
    // The next round asks with epoch 2 from offset 5 and is told (2, 5) again: no truncation.
    b2.at(T0 + 2000).diverge({ epoch: 2, endOffset: 5 });
    expect(b2.replica.truncations).toHaveLength(1);
  });

  it('a leader epoch above every cached one: min(leader end, LEO); past the LEO: nothing', () => {
    const b2 = follower({ epochs: [0, 0, 0, 0], hw: 0 });
    b2.at(T0 + 1000).diverge({ epoch: 3, endOffset: 2 });
    expect(b2.log.logEndOffset).toBe(2);
    expect(truncated(b2)).toEqual([`${T0 + 1000} 2 diverging-epoch [2,3]`]);
    const ahead = follower({ epochs: [0, 0, 0, 1, 1], hw: 5 });
    ahead.at(T0 + 1000).diverge({ epoch: 1, endOffset: 7 });
    expect(ahead.log.logEndOffset).toBe(5);
    expect(ahead.replica.truncations).toEqual([]);
  });

  it('truncates below its own HW when the leader says so (unclean election loss)', () => {
    const b2 = follower({ epochs: [0, 0, 0, 0, 0, 0], hw: 6 });
    b2.at(T0 + 1000).diverge({ epoch: 0, endOffset: 2 });
    expect(b2.offsets).toEqual([2, 2]);
    expect(truncated(b2)).toEqual([`${T0 + 1000} 2 diverging-epoch [2,3,4,5]`]);
  });
});

describe('a fetched batch below the log end offset (UnexpectedAppendOffsetException)', () => {
  it('is refused whole: nothing appended, the HW not taken, the refusal returned', () => {
    const b2 = follower({ epochs: [0, 0, 0, 0, 0], hw: 2 });
    // The leader's log holds one batch 3..7 (its own records at 3 and 4): LEO 5 is inside it.
    const straddling = { ...batchAt(3, 1), lastOffset: 7, values: [30, 40, 50, 60, 70] };
    const next = batchAt(8, 1);
    const fetched = { ...ANSWER, batches: [straddling, next], highWatermark: 9 };
    const refused = b2.replica.onFetchedPartition(fetched, T0 + 1000);
    expect(refused).toEqual({ firstOffset: 3, lastOffset: 8, logEndOffset: 5 });
    expect(b2.offsets).toEqual([5, 2]);
    expect(b2.replica.truncations).toEqual([]);
  });

  it('a batch starting at the log end offset is appended (null: nothing refused)', () => {
    const b2 = follower({ epochs: [0, 0, 0], hw: 1 });
    const batch = { ...batchAt(3, 0), lastOffset: 5, values: [30, 40, 50] };
    const fetched = { ...ANSWER, batches: [batch], highWatermark: 6 };
    expect(b2.replica.onFetchedPartition(fetched, T0 + 1000)).toBeNull();
    expect(b2.offsets).toEqual([6, 6]);
  });
});

describe('becoming follower: leader-epoch mode versus legacy truncate-to-HW', () => {
  /** b1 led epoch 0 with LEO 4 and HW 2, then b2 takes over at epoch 1. */
  function deposedLeader(leaderEpochTruncation: boolean): Replica {
    const settings = { leaderEpochTruncation, minInsyncReplicas: 1 };
    const b1 = leader({ isr: ['b1', 'b2'], settings }).append(2);
    b1.at(T0 + 1000).fetch('b2', 2);
    expect(b1.at(T0 + 2000).append(2).offsets).toEqual([4, 2]);
    const next = partitionState({ leader: 'b2', leaderEpoch: 1, partitionEpoch: 1 });
    expect(b1.replica.applyState(next, T0 + 3000)).toBe('follower');
    return b1;
  }

  it('with KIP-101 keeps its log and lets the divergence protocol truncate later', () => {
    const b1 = deposedLeader(true);
    expect(b1.log.logEndOffset).toBe(4);
    expect(b1.replica.truncations).toEqual([]);
  });

  it('legacy mode truncates to its own HW at once', () => {
    const b1 = deposedLeader(false);
    expect(b1.log.logEndOffset).toBe(2);
    expect(truncated(b1)).toEqual([`${T0 + 3000} 2 high-watermark [2,3]`]);
  });
});

describe('caught-up bookkeeping and ISR shrink (Partition.maybeShrinkIsr)', () => {
  it('a follower stopping behind the LEO leaves the ISR after replica.lag.time.max.ms', () => {
    const b1 = leader({}).append(1);
    b1.at(T0 + 1000).fetch('b2', 1);
    b1.fetch('b3', 1);
    // Both at the LEO: caught up however long they are idle.
    expect(b1.replica.outOfSyncReplicas(T0 + 100 * LAG_US)).toEqual([]);
    b1.at(T0 + 2000).append(1);
    b1.at(T0 + 3000).fetch('b2', 2);
    // b3 was last caught up at T0 + 1 ms and never fetches again.
    expect(b1.replica.outOfSyncReplicas(T0 + 1000 + LAG_US)).toEqual([]);
    expect(b1.replica.outOfSyncReplicas(T0 + 1000 + LAG_US + 1)).toEqual(['b3']);
    b1.replica.pendingIsr = ['b1', 'b2'];
    expect(b1.replica.outOfSyncReplicas(T0 + 1000 + LAG_US + 1)).toEqual([]);
  });

  it('an ISR follower that never fetches after the election leaves one lag later', () => {
    const b1 = leader({}).append(1);
    b1.at(T0 + 1000).fetch('b2', 1);
    expect(b1.replica.outOfSyncReplicas(T0 + LAG_US)).toEqual([]);
    expect(b1.replica.outOfSyncReplicas(T0 + LAG_US + 1)).toEqual(['b3']);
  });

  it('under constant appends, caught up as of the previous fetch (Replica.isCaughtUp)', () => {
    const b1 = leader({}).append(1);
    b1.fetch('b2', 1); // at the LEO: caught up at T0
    b1.at(T0 + 1000).append(1);
    b1.at(T0 + 5_000_000).fetch('b2', 1); // behind, but at the LEO of the previous fetch
    b1.at(T0 + 5_001_000).append(1);
    b1.at(T0 + 9_000_000).fetch('b2', 2); // caught up as of T0 + 5 s
    expect(b1.replica.isCaughtUp('b2', T0 + 5_000_000 + LAG_US)).toBe(true);
    expect(b1.replica.isCaughtUp('b2', T0 + 5_000_000 + LAG_US + 1)).toBe(false);
  });

  it('a follower falling further behind does not refresh its caught-up time', () => {
    const b1 = leader({}).append(1);
    b1.fetch('b2', 1); // caught up at T0, leader LEO 1
    b1.at(T0 + 1000).append(3);
    b1.at(T0 + 2_000_000).fetch('b2', 2); // 2 >= 1: caught up as of T0; leader LEO now 4
    b1.at(T0 + 2_001_000).append(3);
    b1.at(T0 + 4_000_000).fetch('b2', 3); // 3 < 4: no refresh
    expect(b1.replica.isCaughtUp('b2', T0 + LAG_US)).toBe(true);
    expect(b1.replica.isCaughtUp('b2', T0 + LAG_US + 1)).toBe(false);
  });
});

describe('ISR expansion (Partition.maybeExpandIsr), becoming leader (Partition.makeLeader)', () => {
  it('a non-ISR follower qualifies once its LEO reaches the HW and the epoch start', () => {
    const b1 = leader({ isr: ['b1', 'b2'], settings: { minInsyncReplicas: 1 } }).append(3);
    b1.at(T0 + 1000).fetch('b2', 3);
    b1.at(T0 + 2000).fetch('b3', 2);
    expect(b1.replica.expansionCandidate('b3')).toBe(false); // 2 < HW 3
    b1.at(T0 + 3000).fetch('b3', 3);
    expect(b1.replica.expansionCandidate('b3')).toBe(true);
    expect(b1.replica.expansionCandidate('b2')).toBe(false); // already in the ISR
    b1.replica.pendingIsr = ['b1', 'b2', 'b3'];
    expect(b1.replica.expansionCandidate('b3')).toBe(false); // a change is in flight
    b1.replica.pendingIsr = null;
    b1.replica.ineligibleBrokers = new Set(['b3']);
    expect(b1.replica.expansionCandidate('b3')).toBe(false); // fenced (KIP-841)
  });

  it('a new leader keeps its HW; a follower below its epoch start does not qualify', () => {
    // b2 leads epoch 1 from LEO 5 with HW 3; b3 at 4 is above the HW but below the start.
    const b2 = follower({ epochs: [0, 0, 0, 0, 0], hw: 3 });
    b2.replica.applyState(partitionState({ leader: 'b2', leaderEpoch: 1, isr: ['b2'] }), T0);
    expect([b2.replica.role, b2.replica.leaderEpochStartOffset]).toEqual(['leader', 5]);
    expect(b2.offsets).toEqual([5, 3]);
    expect(epochs(b2)).toEqual(['0@0', '1@5']);
    b2.at(T0 + 2000).fetch('b3', 4);
    expect(b2.replica.expansionCandidate('b3')).toBe(false);
    b2.at(T0 + 3000).fetch('b3', 5);
    expect(b2.replica.expansionCandidate('b3')).toBe(true);
  });

  it('before 2.1 (KAFKA-7128) a follower at the HW joins even below the epoch start', () => {
    // The same new leader as above, with the pre-fix Partition.maybeExpandIsr: b3 at 4 lacks the
    // record at 4 that b2 holds (and the previous leader may have committed), yet qualifies.
    const settings = { isrExpansionNeedsLeaderEpochStart: false };
    const b2 = new Replica({ id: 'b2', state: partitionState({ leaderEpoch: 0 }), settings });
    b2.receive({ from: 0, epochs: [0, 0, 0, 0, 0], hw: 3 });
    b2.replica.applyState(partitionState({ leader: 'b2', leaderEpoch: 1, isr: ['b2'] }), T0);
    expect([b2.offsets, b2.replica.leaderEpochStartOffset]).toEqual([[5, 3], 5]);
    b2.at(T0 + 1000).fetch('b3', 2);
    expect(b2.replica.expansionCandidate('b3')).toBe(false); // below the HW: never
    b2.at(T0 + 2000).fetch('b3', 4);
    expect(b2.replica.expansionCandidate('b3')).toBe(true);
  });
});

describe('a follower whose leader comes back under a new epoch (KIP-320, KAFKA-7395)', () => {
  /** b3 follows b1 in epoch 1, has fetched 3 records, then learns b1 leads epoch 3. */
  function sameLeaderNewEpoch(fetchFencedByLeaderEpoch: boolean) {
    const state = partitionState({ leaderEpoch: 1 });
    const b3 = new Replica({ id: 'b3', state, settings: { fetchFencedByLeaderEpoch } });
    expect([b3.replica.role, b3.replica.truncationPending]).toEqual(['follower', true]);
    b3.receive({ from: 0, epochs: [1, 1, 1], hw: 2 });
    expect(b3.replica.truncationPending).toBe(false);
    const became = b3.at(T0 + 1000).replica.applyState(partitionState({ leaderEpoch: 3 }), T0);
    return { b3, became };
  }

  it('from 2.1 it becomes a follower again and goes through truncation', () => {
    const { b3, became } = sameLeaderNewEpoch(true);
    expect(became).toBe('follower');
    expect([b3.replica.truncationPending, b3.log.leaderEpoch]).toEqual([true, 3]);
  });

  it('before 2.1 it takes the epoch and goes on fetching, without truncation', () => {
    const { b3, became } = sameLeaderNewEpoch(false);
    // Partition.makeFollower returns false: "the new leader is the same as the old leader".
    expect(became).toBe('unchanged');
    expect([b3.replica.truncationPending, b3.log.leaderEpoch]).toEqual([false, 3]);
    expect(b3.log.logEndOffset).toBe(3);
  });
});
