/**
 * A bounded log of the Kafka messages delivered during a run, fed by the kernel's
 * `deliveryObserver`. It keeps only the fields a report needs to explain an anomaly (kind,
 * source, target, virtual times, producerId, producerEpoch, transactional.id, partitions, the
 * error, whether an EndTxn or marker commits), never the records themselves. A response carries
 * no producerId on the wire, so it inherits the identity of the request it answers (matched by
 * `correlationId` and the reversed link). Broker and group heartbeats, metadata requests and
 * connection resets are not logged: they explain no exactly-once anomaly and would crowd out
 * what does. Group and offset messages carry the group id, member id and generation.
 *
 * The log keeps the first `entriesMax` deliveries and counts the rest (style rule 32): the
 * start of a story (InitProducerId, the first produce) matters as much as its end.
 */
import type { DeliveryObservation } from '../kernel';
import type { KafkaMessage, TopicPartition } from '../actors';

/** One delivered message, reduced to what explains an anomaly. */
export interface MessageLogEntry {
  /** Virtual time the target received it, in microseconds. */
  readonly timeUs: number;
  /** Virtual time the source sent it, in microseconds. */
  readonly sentUs: number;
  /** Kafka's API name, e.g. `Produce`, `EndTxnResponse`. */
  readonly kind: string;
  readonly source: string;
  readonly target: string;
  readonly transactionalId?: string;
  readonly producerId?: number;
  readonly producerEpoch?: number;
  /** The first record's sequence number of a produced batch. */
  readonly baseSequence?: number;
  /** Records in a produced batch. */
  readonly recordCount?: number;
  /** Partitions the message is about, as `topic-partition`, sorted. */
  readonly partitions: readonly string[];
  /** The first error other than NONE a response carries, or `NONE`. */
  readonly error?: string;
  /** EndTxn and WriteTxnMarkers: commit (true) or abort (false). */
  readonly committed?: boolean;
  /** ProduceResponse: the offset of the batch's first record. */
  readonly baseOffset?: number;
  /** FetchResponse: producerIds of the data batches it carried (consumer fetches only). */
  readonly batchProducerIds?: readonly number[];
  /** Fetch: the fetching broker (a follower), absent for consumers. */
  readonly replicaId?: string;
  /** Group and offset APIs: the group.id. */
  readonly groupId?: string;
  /** Group and offset APIs: the member id sent or (JoinGroupResponse) assigned. */
  readonly memberId?: string;
  /** Group and offset APIs: the generation sent or (JoinGroupResponse) joined. */
  readonly generationId?: number;
}

/** Deliveries kept unless the caller says otherwise. */
export const MESSAGE_LOG_ENTRIES_MAX_DEFAULT = 200_000;

const SKIPPED_KINDS = new Set([
  'BrokerHeartbeat',
  'BrokerHeartbeatResponse',
  'Metadata',
  'MetadataResponse',
  'ConnectionReset',
  'FindCoordinator',
  'FindCoordinatorResponse',
  'Heartbeat',
  'HeartbeatResponse',
]);

type Fields = Omit<MessageLogEntry, 'timeUs' | 'sentUs' | 'kind' | 'source' | 'target'>;

function keysOf(partitions: readonly TopicPartition[]): string[] {
  const keys = new Set(partitions.map((tp) => `${tp.topic}-${tp.partition}`));
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function firstError(results: ReadonlyArray<{ readonly error: string }>): string {
  return results.find((result) => result.error !== 'NONE')?.error ?? 'NONE';
}

/** The logged fields of a request, or of a response before it inherits its request's. */
function fieldsOf(message: KafkaMessage): Fields {
  if (isGroupMessage(message)) return groupFields(message);
  switch (message.kind) {
    case 'Produce':
      return {
        partitions: keysOf([message]),
        ...(message.transactionalId === null ? {} : { transactionalId: message.transactionalId }),
        producerId: message.batch.producerId,
        producerEpoch: message.batch.producerEpoch,
        baseSequence: message.batch.baseSequence,
        recordCount: message.batch.values.length,
      };
    case 'ProduceResponse':
      return {
        partitions: keysOf([message]),
        error: message.error,
        baseOffset: message.baseOffset,
      };
    case 'InitProducerId':
    case 'AddPartitionsToTxn':
    case 'EndTxn':
      return {
        ...(message.transactionalId === null ? {} : { transactionalId: message.transactionalId }),
        producerId: message.producerId,
        producerEpoch: message.producerEpoch,
        partitions: message.kind === 'AddPartitionsToTxn' ? keysOf(message.partitions) : [],
        ...(message.kind === 'EndTxn' ? { committed: message.committed } : {}),
      };
    case 'InitProducerIdResponse':
      return {
        partitions: [],
        error: message.error,
        producerId: message.producerId,
        producerEpoch: message.producerEpoch,
      };
    case 'AddPartitionsToTxnResponse':
    case 'WriteTxnMarkersResponse':
      return { partitions: keysOf(message.results), error: firstError(message.results) };
    case 'EndTxnResponse':
    case 'AlterPartitionResponse':
      return { partitions: [], error: message.error };
    case 'WriteTxnMarkers':
      return {
        partitions: keysOf(message.partitions),
        producerId: message.producerId,
        producerEpoch: message.producerEpoch,
        committed: message.committed,
      };
    case 'Fetch':
      return {
        partitions: keysOf(message.partitions),
        ...(message.replicaId === null ? {} : { replicaId: message.replicaId }),
      };
    case 'FetchResponse':
      return fetchResponseFields(message);
    default:
      return { partitions: 'partitions' in message ? keysOf(message.partitions) : [] };
  }
}

/**
 * The group and offset messages whose fields the log keeps (KIP-447; ClassicGroup;
 * KafkaProducer.sendOffsetsToTransaction; GroupCoordinator.validateOffsetCommit;
 * GroupMetadata.prepareTxnOffsetCommit).
 */
const GROUP_KINDS = new Set([
  'JoinGroup',
  'SyncGroup',
  'OffsetCommit',
  'TxnOffsetCommit',
  'AddOffsetsToTxn',
  'LeaveGroup',
  'JoinGroupResponse',
  'SyncGroupResponse',
  'OffsetFetchResponse',
  'OffsetCommitResponse',
  'TxnOffsetCommitResponse',
  'AddOffsetsToTxnResponse',
  'LeaveGroupResponse',
] as const);

type GroupMessage = Extract<
  KafkaMessage,
  { kind: typeof GROUP_KINDS extends Set<infer K> ? K : never }
>;

function isGroupMessage(message: KafkaMessage): message is GroupMessage {
  return (GROUP_KINDS as ReadonlySet<string>).has(message.kind);
}

/** The logged fields of a group or offset request: group, member, generation, transaction. */
function groupFields(message: GroupMessage): Fields {
  switch (message.kind) {
    case 'JoinGroup':
    case 'SyncGroup':
      return { partitions: [], ...memberOf(message) };
    case 'OffsetCommit':
      return { partitions: keysOf(message.offsets), ...memberOf(message) };
    case 'TxnOffsetCommit':
      return {
        partitions: keysOf(message.offsets),
        ...memberOf(message),
        transactionalId: message.transactionalId,
        producerId: message.producerId,
        producerEpoch: message.producerEpoch,
      };
    case 'AddOffsetsToTxn':
      return {
        partitions: [],
        transactionalId: message.transactionalId,
        producerId: message.producerId,
        producerEpoch: message.producerEpoch,
        groupId: message.groupId,
      };
    case 'LeaveGroup':
      return { partitions: [], groupId: message.groupId };
    default:
      return groupResponseFields(message);
  }
}

function memberOf(message: {
  groupId: string;
  memberId: string;
  generationId?: number;
}): Pick<Fields, 'groupId' | 'memberId' | 'generationId'> {
  const { groupId, memberId, generationId } = message;
  return { groupId, memberId, ...(generationId === undefined ? {} : { generationId }) };
}

/** The logged fields of a group or offset response: the error, and what it assigns. */
function groupResponseFields(
  message: Extract<GroupMessage, { kind: `${string}Response` }>,
): Fields {
  switch (message.kind) {
    case 'JoinGroupResponse':
      return {
        partitions: [],
        error: message.error,
        memberId: message.memberId,
        generationId: message.generationId,
      };
    case 'SyncGroupResponse':
      return { partitions: keysOf(message.assignment), error: message.error };
    case 'OffsetFetchResponse':
      return {
        partitions: keysOf(message.partitions),
        error: message.error === 'NONE' ? firstError(message.partitions) : message.error,
      };
    case 'OffsetCommitResponse':
    case 'TxnOffsetCommitResponse':
      return { partitions: keysOf(message.results), error: firstError(message.results) };
    case 'AddOffsetsToTxnResponse':
    case 'LeaveGroupResponse':
      return { partitions: [], error: message.error };
  }
}

function fetchResponseFields(message: KafkaMessage & { kind: 'FetchResponse' }): Fields {
  const withData = message.partitions.filter((partition) => partition.batches.length > 0);
  const producerIds = new Set<number>();
  for (const partition of withData) {
    for (const batch of partition.batches) {
      if (batch.control === undefined) producerIds.add(batch.producerId);
    }
  }
  return {
    partitions: keysOf(withData),
    error: firstError(message.partitions),
    batchProducerIds: [...producerIds].sort((a, b) => a - b),
  };
}

/** Collects the deliveries of one run; attach {@link observe} to the kernel's observer. */
export class MessageLog {
  private readonly logged: MessageLogEntry[] = [];
  /** Open requests by `source>target#correlationId`, to lend their identity to the response. */
  private readonly requests = new Map<string, MessageLogEntry>();
  private droppedCount = 0;

  constructor(private readonly entriesMax: number = MESSAGE_LOG_ENTRIES_MAX_DEFAULT) {}

  /** The entries kept, in delivery order. */
  get entries(): readonly MessageLogEntry[] {
    return this.logged;
  }

  /** Deliveries not kept because the log was full. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Records one delivery (bound to the instance, so it can be handed to the kernel as is). */
  readonly observe = (delivery: DeliveryObservation): void => {
    const message = delivery.envelope.payload as KafkaMessage;
    if (SKIPPED_KINDS.has(message.kind)) return;
    const { source, target, sentUs } = delivery.envelope;
    const fields = fieldsOf(message);
    const correlationId = 'correlationId' in message ? message.correlationId : undefined;
    const isResponse = message.kind.endsWith('Response');
    let inherited: Partial<MessageLogEntry> = {};
    if (correlationId !== undefined && isResponse) {
      const key = `${target}>${source}#${correlationId}`;
      const request = this.requests.get(key);
      this.requests.delete(key);
      if (request !== undefined) inherited = identityOf(request);
    }
    const entry: MessageLogEntry = {
      timeUs: delivery.timeUs,
      sentUs,
      kind: message.kind,
      source,
      target,
      ...inherited,
      ...definedOnly(fields),
      partitions: fields.partitions.length > 0 ? fields.partitions : (inherited.partitions ?? []),
    };
    if (correlationId !== undefined && !isResponse && this.requests.size < this.entriesMax) {
      this.requests.set(`${source}>${target}#${correlationId}`, entry);
    }
    if (this.logged.length < this.entriesMax) this.logged.push(entry);
    else this.droppedCount += 1;
  };
}

function identityOf(request: MessageLogEntry): Partial<MessageLogEntry> {
  return {
    ...(request.transactionalId === undefined ? {} : { transactionalId: request.transactionalId }),
    ...(request.producerId === undefined ? {} : { producerId: request.producerId }),
    ...(request.producerEpoch === undefined ? {} : { producerEpoch: request.producerEpoch }),
    ...(request.committed === undefined ? {} : { committed: request.committed }),
    ...(request.replicaId === undefined ? {} : { replicaId: request.replicaId }),
    ...(request.groupId === undefined ? {} : { groupId: request.groupId }),
    ...(request.memberId === undefined ? {} : { memberId: request.memberId }),
    ...(request.generationId === undefined ? {} : { generationId: request.generationId }),
    partitions: request.partitions,
  };
}

function definedOnly(fields: Fields): Partial<Fields> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<Fields>;
}
