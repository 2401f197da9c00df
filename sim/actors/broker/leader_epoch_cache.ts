/**
 * A replica's leader-epoch cache: for each leader epoch, the first offset written under it (Kafka's
 * LeaderEpochFileCache). Entries increase strictly in both epoch and start offset
 * (UnifiedLog.append; LeaderEpochFileCache.assign); `endOffsetFor` answers where a given epoch
 * ended, which is how a follower finds the point where its log diverged from the leader's (KIP-101,
 * KIP-279).
 */
import { pushWithin } from '../../kernel';
import { COLLECTION_BOUNDS } from '../protocol';

/** One cache entry. */
export interface EpochEntry {
  readonly epoch: number;
  readonly startOffset: number;
}

/** The leader-epoch cache of one replica. */
export class LeaderEpochCache {
  private entries: EpochEntry[] = [];
  /**
   * KIP-279 (Kafka 2.0, KAFKA-6361): `endOffsetFor` names the largest cached epoch at or below
   * the requested one. False is the older answer, which kept the requested epoch even when this
   * log never had it, so a follower could not tell that its own epoch had diverged. A function:
   * it is asked only where the two answers differ (it stands for a bug switch).
   */
  answersLargestEpochAtOrBelow: () => boolean = () => true;

  /** The entries, oldest first. */
  get all(): readonly EpochEntry[] {
    return this.entries;
  }

  /** The latest epoch, or -1 when empty. */
  latestEpoch(): number {
    return this.entries[this.entries.length - 1]?.epoch ?? -1;
  }

  /**
   * UnifiedLog.append; LeaderEpochFileCache.assign: records that `epoch` starts at `startOffset`,
   * first dropping every entry whose epoch is >= `epoch` or whose start offset is >= `startOffset`,
   * unless the latest entry already covers it.
   */
  assign(epoch: number, startOffset: number): void {
    const latest = this.entries[this.entries.length - 1];
    if (latest !== undefined && latest.epoch === epoch && latest.startOffset <= startOffset) return;
    this.entries = this.entries.filter(
      (entry) => entry.epoch < epoch && entry.startOffset < startOffset,
    );
    pushWithin(COLLECTION_BOUNDS.leaderEpochs, this.entries, { epoch, startOffset });
  }

  /**
   * LeaderEpochFileCache.endOffsetFor: the epoch and end offset for `epoch`: the latest epoch ends
   * at `logEndOffset`; an older one ends where the next larger cached epoch starts, paired with
   * the largest cached epoch at or below `epoch` (KIP-279). Before KIP-279 the answer kept `epoch`
   * itself, and an epoch below the first cached one had no end offset. Undefined when nothing is
   * known.
   */
  endOffsetFor(epoch: number, logEndOffset: number): EpochEntry | undefined {
    if (epoch < 0 || this.entries.length === 0) return undefined;
    if (epoch === this.latestEpoch()) return { epoch, startOffset: logEndOffset };
    const higher = this.entries.find((entry) => entry.epoch > epoch);
    if (higher === undefined) return undefined;
    let lower: EpochEntry | undefined;
    for (const entry of this.entries) if (entry.epoch <= epoch) lower = entry;
    // A cached epoch gets the same answer from both rules.
    if (lower?.epoch === epoch) return { epoch, startOffset: higher.startOffset };
    if (!this.answersLargestEpochAtOrBelow()) {
      const first = this.entries[0] as EpochEntry;
      return epoch < first.epoch ? undefined : { epoch, startOffset: higher.startOffset };
    }
    return { epoch: lower?.epoch ?? epoch, startOffset: higher.startOffset };
  }

  /** Drops entries that start at or after `endOffset` (after a truncation). */
  truncateFromEnd(endOffset: number): void {
    this.entries = this.entries.filter((entry) => entry.startOffset < endOffset);
  }
}
