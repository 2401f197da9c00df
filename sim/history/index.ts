/** History and oracle types, and the recorder the workload writes with. */
export type * from './history_types';
export type * from './oracle_types';
export { HistoryBoundExceededError, HistoryRecorder } from './recorder';
export {
  firstBatchEndingAtOrAbove,
  oracleBatchIndexAt,
  oracleBatchesOf,
  oracleRecordAt,
  oracleRecordOf,
  oracleRecordsOf,
} from './oracle_log';
export {
  deliveredBatchesOf,
  deliveredCount,
  deliveredRecordsOf,
  recordsOfBatches,
} from './delivered';
export { sentCount, sentRecordsOf } from './sent';
export type { HistoryOpDraft, InvokeSlot } from './recorder';
