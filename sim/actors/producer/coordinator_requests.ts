/**
 * The producer's coordinator requests, built from a snapshot of its transaction state (Java's
 * TransactionManager request builders; KIP-447; TransactionManager.nextRequest;
 * KafkaProducer.sendOffsetsToTransaction). FindCoordinator looks up the transaction coordinator
 * (keyType transaction) or, for TxnOffsetCommit, the group coordinator (keyType group); the others
 * carry the producer's identity.
 */
import type { KafkaRequest, OffsetToCommit, TopicPartition } from '../protocol';
import type { TxnGroupMetadata } from './txn_offsets';

/** Every request the producer's coordinator path sends, by the producer's own names. */
export type CoordinatorRequestKind =
  | 'FindCoordinator'
  | 'FindGroupCoordinator'
  | 'InitProducerId'
  | 'AddPartitionsToTxn'
  | 'AddOffsetsToTxn'
  | 'TxnOffsetCommit'
  | 'EndTxn';

/** What the requests are built from. */
export interface RequestInputs {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly transactionTimeoutMs: number;
  /** KIP-360: InitProducerId carries the current identity to bump its epoch. */
  readonly epochBumpRequired: boolean;
  readonly pendingAdds: readonly TopicPartition[];
  /** EndTxn: commit (true) or abort. */
  readonly committed: boolean;
  /** Transaction version 2 (EndTxn v5). */
  readonly version2: boolean;
  /** The head of the offsets queue, for AddOffsetsToTxn, TxnOffsetCommit and its lookup. */
  readonly offsets: {
    readonly group: TxnGroupMetadata;
    readonly offsets: readonly OffsetToCommit[];
  } | null;
}

/** The request of `kind`; its correlation id is set when it is sent. */
export function buildCoordinatorRequest(
  kind: CoordinatorRequestKind,
  inputs: RequestInputs,
): KafkaRequest {
  const { transactionalId, producerId, producerEpoch } = inputs;
  const identity = { correlationId: 0, transactionalId, producerId, producerEpoch };
  const group = inputs.offsets?.group ?? null;
  switch (kind) {
    case 'FindCoordinator':
      return { kind, correlationId: 0, key: transactionalId, keyType: 'transaction' };
    case 'FindGroupCoordinator':
      return {
        kind: 'FindCoordinator',
        correlationId: 0,
        key: group?.groupId ?? '',
        keyType: 'group',
      };
    case 'InitProducerId':
      return {
        kind,
        correlationId: 0,
        transactionalId,
        transactionTimeoutMs: inputs.transactionTimeoutMs,
        producerId: inputs.epochBumpRequired ? producerId : -1,
        producerEpoch: inputs.epochBumpRequired ? producerEpoch : -1,
      };
    case 'AddPartitionsToTxn':
      return { kind, ...identity, partitions: inputs.pendingAdds, verifyOnly: false };
    case 'AddOffsetsToTxn':
      return { kind, ...identity, groupId: group?.groupId ?? '' };
    case 'TxnOffsetCommit':
      return {
        kind,
        ...identity,
        groupId: group?.groupId ?? '',
        generationId: group?.generationId ?? -1,
        memberId: group?.memberId ?? '',
        groupInstanceId: group?.groupInstanceId ?? null,
        offsets: inputs.offsets?.offsets ?? [],
        transactionVersion: inputs.version2 ? 2 : 0,
      };
    case 'EndTxn':
      return {
        kind,
        ...identity,
        committed: inputs.committed,
        transactionVersion: inputs.version2 ? 2 : 0,
      };
  }
}
