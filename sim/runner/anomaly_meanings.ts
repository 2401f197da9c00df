/**
 * What each anomaly kind means in Kafka's terms and which guarantee it breaks: the sentence a
 * report puts above the specific explanation the checker wrote. Sources: the checker catalogue
 * in DESIGN.md and Jepsen's Kafka workload (`jepsen.tests.kafka`) for the kinds it shares.
 */
import type { AnomalyKind } from '../checker';

const MEANINGS: Readonly<Partial<Record<string, string>>> = {
  duplicate:
    'One value sent once appears at two offsets: a retried Produce was appended twice, which ' +
    'idempotence (producerId and sequence numbers per partition) exists to prevent.',
  'epoch-bump-duplicate':
    'One value sent once by an idempotent, non-transactional producer was written under two ' +
    'epochs of its producerId: after an OUT_OF_ORDER_SEQUENCE_NUMBER or a batch failure the ' +
    "client bumped its epoch (KIP-360) and rewrote the partition's in-flight batches, one of " +
    'them already appended, from sequence 0. The broker deduplicates only within one epoch, so ' +
    'Kafka itself writes this copy; only transactions rule it out.',
  'lost-write':
    'A write the producer saw acknowledged (or a committed transaction) is missing from the ' +
    'final log: a truncation or an unclean election removed it, or it was never appended.',
  'zombie-write':
    'A producer instance fenced by a newer producerEpoch of its transactional.id still got a ' +
    'record into the log where read_committed consumers see it: the partition leader did not ' +
    'reject the stale producerEpoch (INVALID_PRODUCER_EPOCH), so fencing failed.',
  'aborted-read':
    'A read_committed consumer delivered a record of an aborted transaction: the aborted ' +
    'transaction index or the ABORT marker was not applied.',
  'uncommitted-read':
    'A read_committed consumer delivered a record above the last stable offset, before its ' +
    "transaction's outcome was decided.",
  'vanished-read':
    'A consumer delivered a record that the final log does not hold: the record was read and ' +
    'later truncated away.',
  'read-above-hw':
    'A consumer delivered a record above the high watermark: data not yet replicated to the ' +
    'in-sync replicas, which a leader change can still remove.',
  'inconsistent-offsets':
    'Two reads disagree on what one offset of a partition holds: replicas diverged.',
  'nonmonotonic-poll': "One consumer's successive polls of a partition went backwards in offset.",
  'poll-skip': 'A consumer skipped offsets that hold visible records between two polls.',
  invariant:
    'A simulator invariant broke during the run (for example log start offset ≤ last stable ' +
    'offset ≤ high watermark ≤ log end offset, or one leader per leader epoch).',
  'torn-transaction':
    'A committed transaction is only partly visible: some of its records were aborted, lost or ' +
    'never written while the rest became visible, so it was not atomic.',
  'fatal-txn-error':
    'A producer that followed the transactional protocol was told a fatal error ' +
    '(INVALID_TXN_STATE) and had to close: the protocol refused a legal sequence of calls.',
  'eos-violation':
    'A read-process-write pipeline did not turn one committed input record into exactly one ' +
    'committed output: an input was processed twice (a zombie or a stale offset fetch was not ' +
    'fenced) or skipped (offsets committed past output that was aborted or never written).',
  g1c:
    'Committed transactions formed a cycle of write-write and write-read dependencies (G1c, ' +
    'circular information flow): one processed a record written by another that, by the ' +
    'order of the logs, came after it, as happens when uncommitted data is read.',
  'hanging-transaction':
    'A partition holds an open transaction that no coordinator will complete, so the last ' +
    'stable offset stays pinned at its first offset and read_committed consumers stall.',
};

/** The meaning of `kind`, or a plain fallback for a kind this table does not know yet. */
export function anomalyMeaning(kind: AnomalyKind | string): string {
  return MEANINGS[kind] ?? `The checker reported ${kind}; see the explanation below.`;
}
