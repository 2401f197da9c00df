/**
 * `eos-violation`: a read-process-write pipeline (Kafka's ExactlyOnceMessageProcessor) must
 * turn every committed input record into exactly one committed output record. The pipeline's
 * transactions name, for each output record, the input record it came from (`SendMicroOp.source`)
 * and the consumer group that committed the input offsets (`TxnValue.consumed.group`). Committed
 * records are what the read_committed final read delivered, so the check also runs on a history
 * recorded from a real cluster.
 *
 * Per group and committed input record:
 * - `duplicated`: two or more committed outputs came from it (a zombie, a missing fence, a stale
 *   offset fetch). Each copy names the instance that wrote it: client, transactional.id,
 *   producerId and epoch, and the group generation and member id it committed under.
 * - `missing`: no committed output came from it although the group's committed offset is past
 *   it: the pipeline skipped it (no rewind after an abort, offsets committed outside the
 *   transaction). The committed offset is the group coordinator's at the end of the run (oracle
 *   `groups`), else the highest offset a committed transaction of the group sent. An input at or
 *   above the committed offset is not yet processed: a liveness matter, not this anomaly. The
 *   anomaly names the first committed transaction whose offsets went past the input.
 */
import type { CommittedInputOffset, DeliveredRecord, HistoryOp, TxnValue } from '../history';
import type { Anomaly, PipelineWriter } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionKey, topicPartitionName } from './topic_partition';
import { deliveredRecordsOf } from '../history';

/** A pipeline transaction as the checker needs it. */
type PipelineTxn = Extract<HistoryOp, { readonly f: 'txn' }> & {
  readonly value: TxnValue & { readonly consumed: NonNullable<TxnValue['consumed']> };
};

/** One committed output and where it came from. */
interface CommittedOutput {
  readonly source: DeliveredRecord;
  readonly writer: PipelineWriter;
}

/**
 * Reports inputs of a pipeline with no committed output (below the committed offset) or with
 * several, one anomaly per input record; `topic`/`partition`/`offset`/`value` locate the input.
 * @example checkEosViolation(new CheckContext(history, oracle))[0]?.classification // 'missing'
 */
export function checkEosViolation(context: CheckContext): Anomaly[] {
  const txns = pipelineTxns(context.history);
  if (txns.length === 0) return [];
  const committed = committedRecords(context.history);
  const outputsByInput = committedOutputs(txns, committed);
  const anomalies: Anomaly[] = [];
  for (const groupId of [...new Set(txns.map((txn) => txn.value.consumed.group.groupId))].sort()) {
    const groupTxns = txns.filter((txn) => txn.value.consumed.group.groupId === groupId);
    const committedOffsets = groupCommittedOffsets(context, groupId, groupTxns);
    for (const input of committedInputs(groupTxns, committed)) {
      const outputs = outputsByInput.get(inputKey(groupId, input)) ?? [];
      if (outputs.length > 1) anomalies.push(duplicatedAnomaly(context, groupId, input, outputs));
      const committedOffset = committedOffsets.get(topicPartitionKey(input.topic, input.partition));
      if (outputs.length === 0 && committedOffset !== undefined && input.offset < committedOffset) {
        anomalies.push(missingAnomaly(context, { groupId, input, committedOffset, groupTxns }));
      }
    }
  }
  return anomalies;
}

function pipelineTxns(history: readonly HistoryOp[]): PipelineTxn[] {
  return history.filter(
    (op): op is PipelineTxn => op.f === 'txn' && op.value.consumed !== undefined,
  );
}

/** Every record the read_committed final read delivered, keyed by value. */
function committedRecords(history: readonly HistoryOp[]): Map<number, DeliveredRecord> {
  const records = new Map<number, DeliveredRecord>();
  for (const op of history) {
    if (op.f !== 'final-read' || op.type !== 'ok') continue;
    if (op.value.isolationLevel !== 'read_committed') continue;
    for (const record of deliveredRecordsOf(op.value)) records.set(record.value, record);
  }
  return records;
}

/**
 * Committed outputs per (group, input record), in output offset order. A value's last operation
 * wins: the completion carries the producer identity the invoke does not have yet.
 */
function committedOutputs(
  txns: readonly PipelineTxn[],
  committed: ReadonlyMap<number, DeliveredRecord>,
): Map<string, CommittedOutput[]> {
  const latest = new Map<number, { txn: PipelineTxn; source: DeliveredRecord }>();
  for (const txn of txns) {
    for (const send of txn.value.sends) {
      if (send.source !== undefined && committed.has(send.value)) {
        latest.set(send.value, { txn, source: send.source });
      }
    }
  }
  const byInput = new Map<string, CommittedOutput[]>();
  for (const [value, { txn, source }] of latest) {
    const key = inputKey(txn.value.consumed.group.groupId, source);
    const outputs = byInput.get(key) ?? [];
    outputs.push({ source, writer: writerOf(txn, committed.get(value) as DeliveredRecord) });
    byInput.set(key, outputs);
  }
  for (const outputs of byInput.values()) outputs.sort(compareOutputs);
  return byInput;
}

function writerOf(txn: PipelineTxn, output: DeliveredRecord): PipelineWriter {
  const { group } = txn.value.consumed;
  return {
    topic: output.topic,
    partition: output.partition,
    offset: output.offset,
    value: output.value,
    client: txn.client,
    process: txn.process,
    transactionalId: txn.value.transactionalId,
    producerId: txn.value.producerId ?? -1,
    producerEpoch: txn.value.producerEpoch ?? -1,
    generationId: group.generationId,
    memberId: group.memberId,
  };
}

/** The committed records of every input partition the group's transactions read from. */
function committedInputs(
  groupTxns: readonly PipelineTxn[],
  committed: ReadonlyMap<number, DeliveredRecord>,
): DeliveredRecord[] {
  const topics = new Set<string>();
  for (const txn of groupTxns) {
    for (const offset of txn.value.consumed.offsets) topics.add(offset.topic);
    for (const send of txn.value.sends) if (send.source) topics.add(send.source.topic);
  }
  return [...committed.values()]
    .filter((record) => topics.has(record.topic))
    .sort((a, b) =>
      a.topic === b.topic
        ? a.partition - b.partition || a.offset - b.offset
        : a.topic < b.topic
          ? -1
          : 1,
    );
}

/** The group's committed offset per input partition: the coordinator's, else the history's. */
function groupCommittedOffsets(
  context: CheckContext,
  groupId: string,
  groupTxns: readonly PipelineTxn[],
): Map<string, number> {
  const offsets = new Map<string, number>();
  const group = context.oracle.groups?.find((candidate) => candidate.groupId === groupId);
  if (group !== undefined) {
    for (const { topic, partition, offset } of group.committedOffsets) {
      offsets.set(topicPartitionKey(topic, partition), offset);
    }
    return offsets;
  }
  for (const txn of groupTxns) {
    if (txn.type !== 'ok' || !txn.value.commit) continue;
    for (const { topic, partition, offset } of txn.value.consumed.offsets) {
      const key = topicPartitionKey(topic, partition);
      offsets.set(key, Math.max(offsets.get(key) ?? -1, offset));
    }
  }
  return offsets;
}

function duplicatedAnomaly(
  context: CheckContext,
  groupId: string,
  input: DeliveredRecord,
  outputs: readonly CommittedOutput[],
): Anomaly {
  const writers = outputs.map((output) => output.writer);
  const copies = writers.map(describeWriter).join('; ');
  const second = context.history[indexOfProcessTxn(context, writers[1])];
  const timeUs = second?.timeUs;
  return {
    kind: 'eos-violation',
    classification: 'duplicated',
    message:
      `input ${describeInput(input)} of group ${groupId} has ${outputs.length} committed ` +
      `outputs: ${copies}`,
    topic: input.topic,
    partition: input.partition,
    offset: input.offset,
    value: input.value,
    writers,
    ...(timeUs === undefined ? {} : { timeUs }),
    activeFaults: timeUs === undefined ? [] : context.activeFaultsAt(timeUs),
  };
}

function missingAnomaly(
  context: CheckContext,
  facts: {
    readonly groupId: string;
    readonly input: DeliveredRecord;
    readonly committedOffset: number;
    readonly groupTxns: readonly PipelineTxn[];
  },
): Anomaly {
  const { groupId, input, committedOffset } = facts;
  const skipper = facts.groupTxns.find(
    (txn) => txn.type === 'ok' && txn.value.commit && passes(txn.value.consumed.offsets, input),
  );
  const by =
    skipper === undefined
      ? ''
      : `; the first committed offsets past it came from ${skipper.client} ` +
        `(transactional.id ${skipper.value.transactionalId}, generation ` +
        `${skipper.value.consumed.group.generationId}, member ` +
        `${skipper.value.consumed.group.memberId || '(none)'}, committed by ` +
        `${skipper.value.consumed.commit})`;
  return {
    kind: 'eos-violation',
    classification: 'missing',
    message:
      `input ${describeInput(input)} of group ${groupId} has no committed output, yet the ` +
      `group's committed offset is ${committedOffset}${by}`,
    topic: input.topic,
    partition: input.partition,
    offset: input.offset,
    value: input.value,
    ...(skipper === undefined
      ? {}
      : { client: skipper.client, transactionalId: skipper.value.transactionalId }),
    ...(skipper === undefined ? {} : { timeUs: skipper.timeUs }),
    activeFaults: skipper === undefined ? [] : context.activeFaultsAt(skipper.timeUs),
  };
}

function passes(offsets: readonly CommittedInputOffset[], input: DeliveredRecord): boolean {
  return offsets.some(
    (committed) =>
      committed.topic === input.topic &&
      committed.partition === input.partition &&
      committed.offset > input.offset,
  );
}

/** The history index of the completion of the transaction that wrote `writer`'s output. */
function indexOfProcessTxn(context: CheckContext, writer: PipelineWriter | undefined): number {
  if (writer === undefined) return -1;
  const sent = context.sentValues.get(writer.value);
  return sent?.opIndex ?? -1;
}

function describeInput(input: DeliveredRecord): string {
  const where = topicPartitionName(input.topic, input.partition);
  return `${where} offset ${input.offset} (value ${input.value})`;
}

function describeWriter(writer: PipelineWriter): string {
  return (
    `${topicPartitionName(writer.topic, writer.partition)} offset ${writer.offset} by ` +
    `${writer.client} (transactional.id ${writer.transactionalId}, producerId ` +
    `${writer.producerId} epoch ${writer.producerEpoch}, generation ${writer.generationId}, ` +
    `member ${writer.memberId || '(none)'})`
  );
}

function inputKey(groupId: string, input: DeliveredRecord): string {
  return `${groupId}\u0000${input.topic}\u0000${input.partition}\u0000${input.offset}`;
}

function compareOutputs(a: CommittedOutput, b: CommittedOutput): number {
  const x = a.writer;
  const y = b.writer;
  if (x.topic !== y.topic) return x.topic < y.topic ? -1 : 1;
  return x.partition - y.partition || x.offset - y.offset;
}
