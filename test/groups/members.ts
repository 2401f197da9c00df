/**
 * Scripted group members and a scripted transactional producer over {@link GroupCluster}: each
 * step is one raw request answered by the real brokers. A member remembers the member id and
 * generation its coordinator gave it, as the consumer's ConsumerCoordinator does.
 */
import type {
  JoinGroupResponse,
  KafkaErrorCode,
  OffsetCommitResults,
  TopicPartition,
} from '../../sim/actors';
import { DELAY_US, INPUT, type GroupCluster, type Outgoing } from './harness';

/** The member's settings; every field has a default. */
export interface MemberOptions {
  /** `group.instance.id`. @default null */
  readonly instanceId?: string | null;
  /** @default 10000 */
  readonly sessionTimeoutMs?: number;
  /** @default 30000 */
  readonly rebalanceTimeoutMs?: number;
}

/** One consumer-group member driven step by step. */
export class TestMember {
  memberId = '';
  generationId = -1;
  assignment: readonly TopicPartition[] = [];

  constructor(
    private readonly cluster: GroupCluster,
    readonly client: string,
    readonly groupId: string,
    private readonly options: MemberOptions = {},
  ) {}

  get instanceId(): string | null {
    return this.options.instanceId ?? null;
  }

  coordinator(): string {
    return this.cluster.findCoordinator(this.client, this.groupId, 'group');
  }

  joinRequest(): Outgoing {
    return {
      kind: 'JoinGroup',
      groupId: this.groupId,
      sessionTimeoutMs: this.options.sessionTimeoutMs ?? 10_000,
      rebalanceTimeoutMs: this.options.rebalanceTimeoutMs ?? 30_000,
      memberId: this.memberId,
      groupInstanceId: this.instanceId,
      protocols: [{ name: 'range', subscription: { topics: [INPUT], ownedPartitions: [] } }],
    };
  }

  /**
   * Sends JoinGroup now (after MEMBER_ID_REQUIRED, again with the id) without waiting for the
   * join phase to complete; the function reads the answer, applying it to the member.
   */
  startJoin(): () => JoinGroupResponse | null {
    const target = this.coordinator();
    if (this.memberId === '' && this.instanceId === null) {
      const first = this.cluster.call(this.client, target, this.joinRequest(), {
        answer: 'JoinGroupResponse',
      });
      if (first.error !== 'MEMBER_ID_REQUIRED') throw new Error(`JoinGroup: ${first.error}`);
      this.memberId = first.memberId;
    }
    const pending = this.cluster.send(this.client, target, this.joinRequest());
    this.cluster.advance(DELAY_US);
    return () => {
      const answer = pending();
      if (answer === null || answer.kind !== 'JoinGroupResponse') return null;
      if (answer.error === 'NONE') {
        this.memberId = answer.memberId;
        this.generationId = answer.generationId;
      }
      return answer;
    };
  }

  /** JoinGroup, waiting up to `waitUsMax` for the join phase to complete. */
  join(waitUsMax = 40_000_000): JoinGroupResponse {
    const pending = this.startJoin();
    this.cluster.runFor(waitUsMax, () => pending() !== null);
    const answer = pending();
    if (answer === null) throw new Error('JoinGroup was not answered');
    return answer;
  }

  /**
   * SyncGroup sent now; the leader sends `assignments` (member id → partitions). The function
   * reads the error once answered (null before), applying the assignment to the member.
   */
  startSync(
    assignments: ReadonlyMap<string, readonly TopicPartition[]> = new Map(),
  ): () => KafkaErrorCode | null {
    const pending = this.cluster.send(this.client, this.coordinator(), {
      kind: 'SyncGroup',
      groupId: this.groupId,
      generationId: this.generationId,
      memberId: this.memberId,
      groupInstanceId: this.instanceId,
      assignments: [...assignments].map(([memberId, partitions]) => ({ memberId, partitions })),
    });
    this.cluster.advance(DELAY_US);
    return () => {
      const answer = pending();
      if (answer === null || answer.kind !== 'SyncGroupResponse') return null;
      if (answer.error === 'NONE') this.assignment = answer.assignment;
      return answer.error;
    };
  }

  /** SyncGroup, waiting up to 5 s for the answer. */
  sync(assignments: ReadonlyMap<string, readonly TopicPartition[]> = new Map()): KafkaErrorCode {
    const pending = this.startSync(assignments);
    this.cluster.runFor(5_000_000, () => pending() !== null);
    const error = pending();
    if (error === null) throw new Error('SyncGroup was not answered');
    return error;
  }

  heartbeat(): KafkaErrorCode {
    return this.cluster.call(
      this.client,
      this.coordinator(),
      {
        kind: 'Heartbeat',
        groupId: this.groupId,
        generationId: this.generationId,
        memberId: this.memberId,
        groupInstanceId: this.instanceId,
      },
      { answer: 'HeartbeatResponse' },
    ).error;
  }

  /** `count` heartbeats, one every `intervalUs`; returns their errors in order. */
  heartbeats(count: number, intervalUs = 3_000_000): KafkaErrorCode[] {
    const errors: KafkaErrorCode[] = [];
    for (let index = 0; index < count; index++) {
      this.cluster.advance(intervalUs);
      errors.push(this.heartbeat());
    }
    return errors;
  }
}

/**
 * A transactional producer speaking the raw transaction protocol: transaction version 0 sends
 * AddOffsetsToTxn before TxnOffsetCommit; version 2 (KIP-890 part 2) sends TxnOffsetCommit v5
 * alone and takes the bumped epoch from EndTxn.
 */
export class TestProducer {
  producerId = -1;
  producerEpoch = -1;

  constructor(
    private readonly cluster: GroupCluster,
    readonly client: string,
    readonly transactionalId: string,
    readonly transactionVersion = 0,
  ) {}

  coordinator(): string {
    return this.cluster.findCoordinator(this.client, this.transactionalId, 'transaction');
  }

  initProducerId(): KafkaErrorCode {
    const answer = this.cluster.call(
      this.client,
      this.coordinator(),
      {
        kind: 'InitProducerId',
        transactionalId: this.transactionalId,
        transactionTimeoutMs: 60_000,
        producerId: -1,
        producerEpoch: -1,
      },
      { answer: 'InitProducerIdResponse' },
    );
    this.producerId = answer.producerId;
    this.producerEpoch = answer.producerEpoch;
    return answer.error;
  }

  addOffsetsToTxn(groupId: string): KafkaErrorCode {
    return this.cluster.call(
      this.client,
      this.coordinator(),
      {
        kind: 'AddOffsetsToTxn',
        transactionalId: this.transactionalId,
        producerId: this.producerId,
        producerEpoch: this.producerEpoch,
        groupId,
      },
      { answer: 'AddOffsetsToTxnResponse' },
    ).error;
  }

  /** TxnOffsetCommit with the member's group metadata (or none: the old groupId-only API). */
  txnOffsetCommit(
    commit: {
      groupId: string;
      offsets: ReadonlyArray<TopicPartition & { offset: number }>;
      member?: { generationId: number; memberId: string; instanceId: string | null };
    },
    target: string,
  ): OffsetCommitResults {
    return this.cluster.call(
      this.client,
      target,
      {
        kind: 'TxnOffsetCommit',
        transactionalId: this.transactionalId,
        groupId: commit.groupId,
        producerId: this.producerId,
        producerEpoch: this.producerEpoch,
        generationId: commit.member?.generationId ?? -1,
        memberId: commit.member?.memberId ?? '',
        groupInstanceId: commit.member?.instanceId ?? null,
        offsets: commit.offsets,
        transactionVersion: this.transactionVersion,
      },
      { answer: 'TxnOffsetCommitResponse' },
    ).results;
  }

  endTxn(committed: boolean): KafkaErrorCode {
    const answer = this.cluster.call(
      this.client,
      this.coordinator(),
      {
        kind: 'EndTxn',
        transactionalId: this.transactionalId,
        producerId: this.producerId,
        producerEpoch: this.producerEpoch,
        committed,
        transactionVersion: this.transactionVersion,
      },
      { answer: 'EndTxnResponse' },
    );
    if (answer.error === 'NONE' && this.transactionVersion >= 2) {
      this.producerId = answer.producerId;
      this.producerEpoch = answer.producerEpoch;
    }
    return answer.error;
  }
}

/** OffsetFetch of `partitions`: `error:offset` per partition, or the group-level error. */
export function fetchOffsets(
  cluster: GroupCluster,
  request: { client: string; groupId: string; partitions: TopicPartition[]; stable: boolean },
): string[] {
  const target = cluster.findCoordinator(request.client, request.groupId, 'group');
  const answer = cluster.call(
    request.client,
    target,
    {
      kind: 'OffsetFetch',
      groupId: request.groupId,
      partitions: request.partitions,
      requireStable: request.stable,
    },
    { answer: 'OffsetFetchResponse' },
  );
  if (answer.error !== 'NONE') return [answer.error];
  return answer.partitions.map((partition) => `${partition.error}:${partition.offset}`);
}
