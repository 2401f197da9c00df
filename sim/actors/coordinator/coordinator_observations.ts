/**
 * The observations a transaction coordinator reports (see `protocol/observations.ts`): its view
 * of a transactional.id as plain data, a state transition, an epoch grant.
 */
import type {
  ProducerEpochGranted,
  TransactionStateTransition,
  TransactionView,
} from '../protocol';
import type { TransactionMetadata, TransactionState } from './transaction_metadata';

/** The coordinator's view of one transactional.id, copied out of its live metadata. */
export function viewOf(metadata: Readonly<TransactionMetadata>): TransactionView {
  const partitions = [...metadata.topicPartitions.values()].map(({ topic, partition }) => ({
    topic,
    partition,
  }));
  return {
    transactionalId: metadata.transactionalId,
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    state: metadata.state,
    partitions,
    txnStartUs: metadata.txnStartUs,
    txnTimeoutMs: metadata.txnTimeoutMs,
  };
}

/** `metadata` moved from `from` to `to` at `coordinator` (`TransactionMetadata.transitionTo`). */
export function transitionObservation(
  coordinator: string,
  stateLogPartition: number,
  change: {
    readonly from: TransactionState;
    readonly to: TransactionState;
    readonly metadata: Readonly<TransactionMetadata>;
    readonly coordinatorEpoch: number;
  },
): TransactionStateTransition {
  return {
    kind: 'TransactionStateTransition',
    coordinator,
    stateLogPartition,
    coordinatorEpoch: change.coordinatorEpoch,
    from: change.from,
    to: change.to,
    view: viewOf(change.metadata),
  };
}

/** Where a `__transaction_state` record was written: coordinator epoch and offset. */
export type StateLogPlace = Pick<
  ProducerEpochGranted,
  'coordinatorEpoch' | 'stateLogOffset' | 'stateLogPartition'
>;

/**
 * `coordinator` granted the metadata's current producerEpoch, for `reason`, by the durable
 * record at `place`.
 */
export function grantObservation(
  coordinator: string,
  metadata: Readonly<TransactionMetadata>,
  reason: ProducerEpochGranted['reason'],
  place: StateLogPlace,
): ProducerEpochGranted {
  return {
    kind: 'ProducerEpochGranted',
    coordinator,
    transactionalId: metadata.transactionalId,
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    reason,
    coordinatorEpoch: place.coordinatorEpoch,
    stateLogOffset: place.stateLogOffset,
    stateLogPartition: place.stateLogPartition,
  };
}
