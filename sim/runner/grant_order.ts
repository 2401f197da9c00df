/**
 * The producer identities granted to each transactional.id, in the order Kafka decided them.
 *
 * Kafka decides a producerEpoch when the `__transaction_state` record carrying it is replicated
 * under the coordinator epoch it was written in (TransactionStateManager.appendTransactionToLog
 * completes the transition only then, and only if the cached coordinator epoch is unchanged). The
 * coordinator learns of it, and answers the producer, later: a coordinator paused after its
 * followers copied the record answers on resume, possibly after the next coordinator loaded that
 * record (loadTransactionsForTxnTopicPartition) and granted newer epochs. That late answer is
 * not a new grant. So grants are ordered by their record's place in the partition, (coordinator
 * epoch, offset) — the order of the log, as KIP-101 orders log positions by (leader epoch, offset)
 * — and each must grow from the grant placed just before it and stay below the one placed just
 * after it. A coordinator that writes an old epoch in a new record, wherever it answers from,
 * places it after the newer grants and is caught.
 */

/** One grant and where its record sits in the id's `__transaction_state` partition. */
export interface PlacedGrant {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly stateLogOffset: number;
}

/** Why a grant does not fit the identities granted before and after it. */
export interface GrantMisfit {
  readonly reason: string;
  /**
   * The later of the two records sits at or below the earlier one's offset under a newer
   * coordinator epoch: the log it was appended to no longer held the earlier record, so
   * `__transaction_state` lost a record its coordinator had answered (a committed record is
   * gone only after a power loss of unflushed replicas or an unclean election).
   */
  readonly earlierRecordTruncated: boolean;
  /**
   * The offset of the record placed before the new grant, when the new grant is the later of the
   * two (it follows that record and does not fit after it); null when it is placed before one.
   */
  readonly precedingOffset: number | null;
}

/**
 * One transactional.id's grants sorted by place, with two indexes so that placing a grant does
 * not scan them all (an id can run through all 32,767 epochs): the records already placed, and
 * the earliest-placed grant of each producerId.
 */
interface IdGrants {
  readonly sorted: PlacedGrant[];
  readonly records: Set<string>;
  readonly earliestOf: Map<number, PlacedGrant>;
}

/** The grants of every transactional.id, each list sorted by place. */
export class GrantOrder {
  private readonly byId = new Map<string, IdGrants>();
  /** producerId → the transactional.id it was first granted to. */
  private readonly owners = new Map<number, string>();

  /** Places `grant` among the id's grants; says why it does not fit, if it does not. */
  add(transactionalId: string, grant: PlacedGrant): GrantMisfit | null {
    const id = this.grantsOf(transactionalId);
    // The same record answered again (a coordinator that loaded it answers under its own
    // coordinator epoch): one decision, not a second grant.
    const record = recordKey(grant);
    if (id.records.has(record)) return null;
    const index = insertionIndex(id.sorted, grant);
    const before = id.sorted[index - 1];
    const after = id.sorted[index];
    let misfit: GrantMisfit | null = null;
    if (before !== undefined && !this.follows(transactionalId, id, grant, before, grant)) {
      misfit = {
        reason: `after ${describe(before)}${reusedNote(before, grant)}${lostNote(before, grant)}`,
        earlierRecordTruncated: truncatedBetween(before, grant),
        precedingOffset: before.stateLogOffset,
      };
    } else if (after !== undefined && !this.follows(transactionalId, id, grant, grant, after)) {
      misfit = {
        reason:
          `placed before ${describe(after)}${reusedNote(grant, after)}` + lostNote(grant, after),
        earlierRecordTruncated: truncatedBetween(grant, after),
        precedingOffset: null,
      };
    }
    id.sorted.splice(index, 0, grant);
    id.records.add(record);
    const earliest = id.earliestOf.get(grant.producerId);
    if (earliest === undefined || comparePlaces(grant, earliest) < 0) {
      id.earliestOf.set(grant.producerId, grant);
    }
    if (!this.owners.has(grant.producerId)) this.owners.set(grant.producerId, transactionalId);
    return misfit;
  }

  private grantsOf(transactionalId: string): IdGrants {
    const known = this.byId.get(transactionalId);
    if (known !== undefined) return known;
    const created: IdGrants = { sorted: [], records: new Set(), earliestOf: new Map() };
    this.byId.set(transactionalId, created);
    return created;
  }

  /**
   * True when `next` may follow `last`: the same producerId with a larger epoch, or a producerId
   * neither granted to another transactional.id nor to this one at or before the place of
   * `placed`, the grant being placed (ProducerIdManager hands each id of its blocks out once,
   * the controller each block once, KIP-730; a lower id is fine, another broker's block).
   */
  private follows(
    transactionalId: string,
    id: IdGrants,
    placed: PlacedGrant,
    last: PlacedGrant,
    next: PlacedGrant,
  ): boolean {
    if (next.producerId === last.producerId) return next.producerEpoch > last.producerEpoch;
    const owner = this.owners.get(next.producerId);
    if (owner !== undefined && owner !== transactionalId) return false;
    // The grants before the insertion point are exactly those placed at or before `placed`.
    const earliest = id.earliestOf.get(next.producerId);
    return earliest === undefined || comparePlaces(earliest, placed) > 0;
  }
}

/** A record's identity: the same producer identity at the same offset is one decision. */
function recordKey(grant: PlacedGrant): string {
  return `${grant.producerId}:${grant.producerEpoch}:${grant.stateLogOffset}`;
}

/** Where `grant` goes in `grants` (sorted by place): after every grant at or before its place. */
function insertionIndex(grants: readonly PlacedGrant[], grant: PlacedGrant): number {
  let low = 0;
  let high = grants.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comparePlaces(grants[middle] as PlacedGrant, grant) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Orders two records of one partition: by coordinator epoch, then offset. */
function comparePlaces(a: PlacedGrant, b: PlacedGrant): number {
  return a.coordinatorEpoch - b.coordinatorEpoch || a.stateLogOffset - b.stateLogOffset;
}

/** True when `later`'s log no longer held `earlier`'s record (see GrantMisfit). */
function truncatedBetween(earlier: PlacedGrant, later: PlacedGrant): boolean {
  return (
    later.coordinatorEpoch > earlier.coordinatorEpoch &&
    later.stateLogOffset <= earlier.stateLogOffset
  );
}

function lostNote(earlier: PlacedGrant, later: PlacedGrant): string {
  return truncatedBetween(earlier, later)
    ? `; the record at offset ${earlier.stateLogOffset} is no longer in the log the newer ` +
        `coordinator appended offset ${later.stateLogOffset} to (__transaction_state lost it)`
    : '';
}

function reusedNote(last: PlacedGrant, next: PlacedGrant): string {
  return last.producerId === next.producerId
    ? ''
    : `, and producerId ${next.producerId} was granted before`;
}

function describe(grant: PlacedGrant): string {
  return (
    `producerId ${grant.producerId} epoch ${grant.producerEpoch} ` +
    `(record at offset ${grant.stateLogOffset}, coordinator epoch ${grant.coordinatorEpoch})`
  );
}
