/**
 * Small builders for hand-made histories and oracles, so each checker test states only what
 * matters to it. History builders return invoke/completion pairs that `historyOf` numbers in
 * order; oracle builders fill every field a test does not name with a consistent default (the
 * high watermark and last stable offset sit at the log end unless a test moves them).
 */
import type {
  DeliveredRecord,
  EpochGrant,
  FaultInterval,
  History,
  HistoryOp,
  OffsetChange,
  Oracle,
  OracleCoordinatorTransaction,
  OracleElection,
  OraclePartition,
  OracleRecord,
  OracleReplica,
  OracleTruncation,
  PollValue,
  SendMicroOp,
} from '../../sim/history';
import { deliveredBatchesOf } from '../../sim/history';

/** A history operation before `historyOf` numbers it. */
export type OpDraft = HistoryOp extends infer Op
  ? Op extends HistoryOp
    ? Omit<Op, 'index'>
    : never
  : never;

/** The topic every builder uses unless told otherwise. */
export const TOPIC = 't';

/** Numbers the drafts, in order, into a history. */
export function historyOf(...groups: ReadonlyArray<OpDraft | readonly OpDraft[]>): History {
  const drafts = groups.flatMap((group) => (Array.isArray(group) ? group : [group as OpDraft]));
  return drafts.map((draft, index) => ({ ...draft, index }) as HistoryOp);
}

/** A record as `send` and `txn` name it; `offset` only on completions. */
export function record(partition: number, value: number, offset?: number): SendMicroOp {
  return offset === undefined
    ? { topic: TOPIC, partition, value }
    : { topic: TOPIC, partition, value, offset };
}

/** A non-transactional `send`: invoke at `atUs`, completion `type` at `atUs + 10`. */
export function send(options: {
  readonly client: string;
  readonly partition: number;
  readonly value: number;
  readonly offset?: number;
  readonly atUs: number;
  readonly type?: 'ok' | 'fail' | 'info';
  readonly producerId?: number;
}): OpDraft[] {
  const { client, partition, value, atUs } = options;
  const base = { process: `${client}#0`, client, f: 'send' as const };
  const completion = options.type ?? 'ok';
  const sent = record(partition, value, completion === 'ok' ? options.offset : undefined);
  const identity = options.producerId === undefined ? {} : { producerId: options.producerId };
  return [
    { ...base, timeUs: atUs, type: 'invoke', value: { send: record(partition, value) } },
    { ...base, timeUs: atUs + 10, type: completion, value: { send: sent, ...identity } },
  ];
}

/** A `txn`: invoke at `atUs` with the sends' offsets stripped, completion at `atUs + 10`. */
export function txn(options: {
  readonly client: string;
  readonly transactionalId?: string;
  readonly commit: boolean;
  readonly sends: readonly SendMicroOp[];
  readonly atUs: number;
  readonly type?: 'ok' | 'fail' | 'info';
  readonly producerId?: number;
  readonly producerEpoch?: number;
}): OpDraft[] {
  const { client, commit, sends, atUs } = options;
  const transactionalId = options.transactionalId ?? `tx-${client}`;
  const base = { process: `${client}#0`, client, f: 'txn' as const };
  const invoked = sends.map((sent) => record(sent.partition, sent.value));
  const identity = {
    ...(options.producerId === undefined ? {} : { producerId: options.producerId }),
    ...(options.producerEpoch === undefined ? {} : { producerEpoch: options.producerEpoch }),
  };
  return [
    { ...base, timeUs: atUs, type: 'invoke', value: { transactionalId, commit, sends: invoked } },
    {
      ...base,
      timeUs: atUs + 10,
      type: options.type ?? 'ok',
      value: { transactionalId, commit, sends, ...identity },
    },
  ];
}

/** Isolation levels, spelled as Kafka spells them. */
export const READ_COMMITTED = 'read_committed';
export const READ_UNCOMMITTED = 'read_uncommitted';

/** What a consumer delivered: `[partition, offset, value]` per record, at `atUs`. */
export interface DeliveryOptions {
  readonly isolationLevel: typeof READ_COMMITTED | typeof READ_UNCOMMITTED;
  readonly records: ReadonlyArray<readonly [number, number, number]>;
  readonly atUs: number;
  readonly f?: 'poll' | 'final-read';
  /** The logical process; `${client}#0` unless told. */
  readonly process?: string;
  /** `[partition, highWatermark]`: the HW the last fetch of each listed partition reported. */
  readonly highWatermarks?: ReadonlyArray<readonly [number, number]>;
  /** Partitions the application sought or the group assigned anew before this poll. */
  readonly repositioned?: readonly number[];
}

/**
 * A `poll` by `client`: invoke 10us before `atUs`, `ok` completion at `atUs`. Positions list the
 * partitions of `highWatermarks`, each just past its last delivered offset (0 when none).
 */
export function poll(client: string, options: DeliveryOptions): OpDraft[] {
  const { isolationLevel, atUs } = options;
  const base = { process: options.process ?? `${client}#0`, client, f: options.f ?? 'poll' };
  const records: DeliveredRecord[] = options.records.map(([partition, offset, value]) => ({
    topic: TOPIC,
    partition,
    offset,
    value,
  }));
  const positions: PollValue['positions'] = (options.highWatermarks ?? []).map(
    ([partition, highWatermark]) => {
      const delivered = records.filter((delivery) => delivery.partition === partition);
      const position = (delivered[delivered.length - 1]?.offset ?? -1) + 1;
      return { topic: TOPIC, partition, position, highWatermark };
    },
  );
  return [
    {
      ...base,
      timeUs: atUs - 10,
      type: 'invoke',
      value: { isolationLevel, batches: [], positions: [] },
    },
    {
      ...base,
      timeUs: atUs,
      type: 'ok',
      value: {
        isolationLevel,
        batches: deliveredBatchesOf(records),
        positions,
        ...(options.repositioned === undefined
          ? {}
          : {
              repositioned: options.repositioned.map((partition) => ({ topic: TOPIC, partition })),
            }),
      },
    },
  ];
}

/** A `final-read` by `client`, shaped as {@link poll}. */
export function finalRead(client: string, options: DeliveryOptions): OpDraft[] {
  return poll(client, { ...options, f: 'final-read' });
}

/** A nemesis `info` operation. */
export function nemesis(options: {
  readonly fault: string;
  readonly phase: 'start' | 'end';
  readonly description: string;
  readonly atUs: number;
}): OpDraft {
  const { fault, phase, description, atUs } = options;
  return {
    timeUs: atUs,
    type: 'info',
    process: 'nemesis',
    client: 'nemesis',
    f: 'nemesis',
    value: { fault, phase, description },
  };
}

/** An oracle data record; non-transactional, producer -1 epoch 0, appended at `offset * 100`. */
export function data(options: {
  readonly offset: number;
  readonly value: number;
  readonly producerId?: number;
  readonly producerEpoch?: number;
  readonly isTransactional?: boolean;
  readonly appendUs?: number;
}): OracleRecord {
  return {
    offset: options.offset,
    value: options.value,
    producerId: options.producerId ?? -1,
    producerEpoch: options.producerEpoch ?? 0,
    sequence: -1,
    isTransactional: options.isTransactional ?? false,
    appendUs: options.appendUs ?? options.offset * 100,
  };
}

/** An oracle control marker, appended at `offset * 100` unless told otherwise. */
export function marker(options: {
  readonly offset: number;
  readonly control: 'COMMIT' | 'ABORT';
  readonly producerId: number;
  readonly producerEpoch?: number;
  readonly appendUs?: number;
}): OracleRecord {
  return {
    offset: options.offset,
    value: null,
    producerId: options.producerId,
    producerEpoch: options.producerEpoch ?? 0,
    sequence: -1,
    isTransactional: true,
    control: options.control,
    appendUs: options.appendUs ?? options.offset * 100,
  };
}

/** An oracle partition; log end, high watermark and LSO default to just past the last record. */
export function partitionOf(options: {
  readonly partition: number;
  readonly records: readonly OracleRecord[];
  readonly lastStableOffset?: number;
  readonly lastStableOffsetChanges?: readonly OffsetChange[];
  readonly highWatermark?: number;
  readonly replicas?: readonly OracleReplica[];
  readonly openTransactions?: OraclePartition['openTransactions'];
}): OraclePartition {
  const logEndOffset = (options.records[options.records.length - 1]?.offset ?? -1) + 1;
  const highWatermark = options.highWatermark ?? logEndOffset;
  const lastStableOffset = options.lastStableOffset ?? highWatermark;
  return {
    topic: TOPIC,
    partition: options.partition,
    leader: 'b1',
    logStartOffset: 0,
    logEndOffset,
    highWatermark,
    lastStableOffset,
    records: options.records,
    highWatermarkChanges: [{ timeUs: 0, offset: highWatermark }],
    lastStableOffsetChanges: options.lastStableOffsetChanges ?? [
      { timeUs: 0, offset: lastStableOffset },
    ],
    openTransactions: options.openTransactions ?? [],
    ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
  };
}

/** One replica's final log; in the ISR with its HW at its log end unless told otherwise. */
export function replica(options: {
  readonly broker: string;
  readonly records: readonly OracleRecord[];
  readonly highWatermark?: number;
  readonly inSyncReplica?: boolean;
}): OracleReplica {
  const logEndOffset = (options.records[options.records.length - 1]?.offset ?? -1) + 1;
  return {
    broker: options.broker,
    logEndOffset,
    highWatermark: options.highWatermark ?? logEndOffset,
    inSyncReplica: options.inSyncReplica ?? true,
    records: options.records,
  };
}

/** A leader election of partition `partition` of {@link TOPIC}. */
export function election(options: {
  readonly partition?: number;
  readonly timeUs: number;
  readonly leader: string | null;
  readonly leaderEpoch: number;
  readonly kind: OracleElection['kind'];
}): OracleElection {
  const { timeUs, leader, leaderEpoch, kind } = options;
  return { topic: TOPIC, partition: options.partition ?? 0, timeUs, leader, leaderEpoch, kind };
}

/** A truncation on `broker` of partition `partition` (0 unless told) down to `toOffset`. */
export function truncation(options: {
  readonly partition?: number;
  readonly timeUs: number;
  readonly broker: string;
  readonly toOffset: number;
  readonly reason: OracleTruncation['reason'];
  readonly removed: readonly OracleRecord[];
}): OracleTruncation {
  const { timeUs, broker, toOffset, reason, removed } = options;
  const partition = options.partition ?? 0;
  return { topic: TOPIC, partition, timeUs, broker, toOffset, reason, removed };
}

/** An oracle holding one partition, 0, with `records` and any `extra` partition settings. */
export function oracleOfPartition0(
  records: readonly OracleRecord[],
  extra: Omit<Partial<Parameters<typeof partitionOf>[0]>, 'records'> = {},
): Oracle {
  return oracleOf({ partitions: [partitionOf({ partition: 0, ...extra, records })] });
}

/** An oracle; every list the test does not name is empty, and optional lists are absent. */
export function oracleOf(options: {
  readonly partitions?: readonly OraclePartition[];
  readonly epochGrants?: readonly EpochGrant[];
  readonly faults?: readonly FaultInterval[];
  readonly invariantViolations?: Oracle['invariantViolations'];
  readonly elections?: readonly OracleElection[];
  readonly truncations?: readonly OracleTruncation[];
  readonly coordinatorTransactions?: readonly OracleCoordinatorTransaction[];
  readonly transactionMaxTimeoutMs?: number;
  readonly transactionAbortCleanupIntervalMs?: number;
  readonly endUs?: number;
  readonly groups?: Oracle['groups'];
}): Oracle {
  return {
    partitions: options.partitions ?? [],
    epochGrants: options.epochGrants ?? [],
    faults: options.faults ?? [],
    invariantViolations: options.invariantViolations ?? [],
    ...(options.elections === undefined ? {} : { elections: options.elections }),
    ...(options.truncations === undefined ? {} : { truncations: options.truncations }),
    ...(options.coordinatorTransactions === undefined
      ? {}
      : { coordinatorTransactions: options.coordinatorTransactions }),
    ...(options.transactionMaxTimeoutMs === undefined
      ? {}
      : { transactionMaxTimeoutMs: options.transactionMaxTimeoutMs }),
    ...(options.transactionAbortCleanupIntervalMs === undefined
      ? {}
      : { transactionAbortCleanupIntervalMs: options.transactionAbortCleanupIntervalMs }),
    ...(options.endUs === undefined ? {} : { endUs: options.endUs }),
    ...(options.groups === undefined ? {} : { groups: options.groups }),
  };
}
