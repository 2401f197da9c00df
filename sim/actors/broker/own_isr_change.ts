/**
 * Before KAFKA-13091's fix (Kafka 2.7 to 3.0, the AlterIsr path of ZooKeeper mode): which
 * partition changes reached a leader's Partition and so moved its high watermark. The leader's own
 * ISR change came back only as the AlterIsr answer, and Partition.handleAlterIsrResponse did not
 * call maybeIncrementLeaderHW; the controller's UpdateMetadata repeating the change did not touch
 * the Partition at all. A change the controller made itself (a broker that failed or came back)
 * came as a LeaderAndIsr and went through Partition.makeLeader, which does.
 */
import type { PartitionState } from '../protocol';
import type { PartitionReplica, ReplicationSettings } from './partition_replica';

/**
 * With the bug on (`highWatermarkAfterAlterPartition: false`), whether `state` is only
 * `replica`'s own ISR change coming back: the AlterPartition answer, or metadata at the same
 * leader epoch whose ISR is the one proposed or already applied. Always false with the fix.
 * @example isOwnIsrChange({ highWatermarkAfterAlterPartition: false }, leader, state, true) // true
 */
export function isOwnIsrChange(
  settings: Pick<ReplicationSettings, 'highWatermarkAfterAlterPartition'>,
  replica: PartitionReplica,
  state: PartitionState,
  fromAlterPartition: boolean,
): boolean {
  if (replica.role !== 'leader' || state.leaderEpoch !== replica.state.leaderEpoch) return false;
  const sameIsr = (isr: readonly string[] | null): boolean =>
    isr !== null && sameMembers(isr, state.isr);
  const own = fromAlterPartition || sameIsr(replica.pendingIsr) || sameIsr(replica.isr);
  // The switch is asked only where the releases part ways.
  return own && settings.highWatermarkAfterAlterPartition === false;
}

/** Whether two broker lists hold the same brokers. */
export function sameMembers(a: readonly string[], b: Iterable<string>): boolean {
  const other = [...b];
  return a.length === other.length && a.every((id) => other.includes(id));
}
