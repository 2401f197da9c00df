/**
 * Small read-only queries over a run's history and oracle, shared by the scenario suites: the
 * identity a client's `initTransactions()` obtained, the values a client sent, the records
 * consumers delivered, and a partition's log as compact text. They never build or change a
 * history; they only look things up so each test can state its expectation in Kafka's terms.
 */
import type {
  DeliveredRecord,
  History,
  HistoryOp,
  InitValue,
  OracleLog,
  OraclePartition,
  OracleRecord,
  PollValue,
} from '../../sim/history';
import { oracleBatchesOf, oracleRecordsOf } from '../../sim/history';
import { deliveredRecordsOf, sentRecordsOf } from '../../sim/history';

/** The `ok` completion of a client's `init`, with the producerId and producerEpoch granted. */
export function initGranted(
  history: History,
  client: string,
): { readonly producerId: number; readonly producerEpoch: number } | undefined {
  const op = history.find(
    (candidate) => candidate.client === client && candidate.f === 'init' && candidate.type === 'ok',
  );
  if (op === undefined || op.f !== 'init') return undefined;
  const value: InitValue = op.value;
  if (value.producerId === undefined || value.producerEpoch === undefined) return undefined;
  return { producerId: value.producerId, producerEpoch: value.producerEpoch };
}

/** Every value a client's `txn` or `send` invocations carried. */
export function valuesSentBy(history: History, client: string): Set<number> {
  const values = new Set<number>();
  for (const op of history) {
    if (op.client !== client || op.type !== 'invoke') continue;
    if (op.f === 'txn') for (const send of op.value.sends) values.add(send.value);
    if (op.f === 'send') for (const send of sentRecordsOf(op.value)) values.add(send.value);
  }
  return values;
}

/** Completed `poll` or `final-read` operations, optionally of one client or isolation level. */
export function readOps(
  history: History,
  filter: {
    readonly f: 'poll' | 'final-read';
    readonly client?: string;
    readonly isolationLevel?: PollValue['isolationLevel'];
  },
): Array<HistoryOp & { readonly value: PollValue }> {
  const found: Array<HistoryOp & { readonly value: PollValue }> = [];
  for (const op of history) {
    if (op.type !== 'ok' || (op.f !== 'poll' && op.f !== 'final-read')) continue;
    if (op.f !== filter.f) continue;
    if (filter.client !== undefined && op.client !== filter.client) continue;
    if (filter.isolationLevel !== undefined && op.value.isolationLevel !== filter.isolationLevel) {
      continue;
    }
    found.push(op);
  }
  return found;
}

/** The records those operations delivered, in delivery order. */
export function deliveredRecords(
  ops: ReadonlyArray<{ readonly value: PollValue }>,
): DeliveredRecord[] {
  return ops.flatMap((op) => deliveredRecordsOf(op.value));
}

/**
 * A partition's log as one token per offset: `offset:value` for data and `offset:COMMIT` or
 * `offset:ABORT` for markers, so a layout can be asserted with one `toEqual`.
 */
export function logLayout(partition: OraclePartition): string[] {
  return oracleRecords(partition).map((record: OracleRecord) =>
    record.control === undefined
      ? `${record.offset}:${String(record.value)}`
      : `${record.offset}:${record.control}`,
  );
}

/** Every record of an oracle log, one per offset (the oracle keeps batches). */
export function oracleRecords(log: OracleLog | undefined): OracleRecord[] {
  return log === undefined ? [] : oracleRecordsOf(oracleBatchesOf(log));
}
