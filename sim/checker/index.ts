/**
 * The offline history checker: given a client history and the simulator's oracle, it reports
 * Kafka exactly-once anomalies in Kafka's own terms. It imports only the history and oracle
 * types, so a history recorded from a real cluster can be checked the same way.
 */
export { ANOMALY_KINDS } from './anomaly_types';
export type { Anomaly, AnomalyKind, CheckResult, TransactionRecordFate } from './anomaly_types';
export { groupAnomalies, involvedPartitions } from './anomaly_groups';
export type { AnomalyGroup, InvolvedPartition } from './anomaly_groups';
export { CHECKERS, EXAMPLES_MAX_DEFAULT, checkHistory } from './check_history';
export type { CheckHistoryOptions, NamedChecker } from './check_history';
export { CheckContext } from './check_context';
export { CheckerInputError } from './input_error';
export { checkAbortedRead } from './aborted_read';
export { checkDuplicate } from './duplicate';
export {
  TRANSACTION_MAX_TIMEOUT_MS_DEFAULT,
  checkHangingTransaction,
  pinnedSinceUs,
} from './hanging_transaction';
export { checkInconsistentOffsets } from './inconsistent_offsets';
export type { InconsistentOffsetsClassification } from './inconsistent_offsets';
export { checkInvariant } from './invariant';
export { FIRST_OUT_OF_ORDER } from './fatal_idempotent_error';
export { checkLostWrite } from './lost_write';
export type { LostWriteClassification } from './lost_write';
export { checkNonmonotonicPoll } from './nonmonotonic_poll';
export type { NonmonotonicPollClassification } from './nonmonotonic_poll';
export { checkPollSkip } from './poll_skip';
export type { PollSkipClassification } from './poll_skip';
export { checkReadAboveHw } from './read_above_hw';
export type { ReadAboveHwClassification } from './read_above_hw';
export type { TruncationClassification } from './truncation_cause';
export { checkTornTransaction } from './torn_transaction';
export { checkUncommittedRead } from './uncommitted_read';
export type { UncommittedReadClassification } from './uncommitted_read';
export { checkVanishedRead } from './vanished_read';
export type { VanishedReadClassification } from './vanished_read';
export { checkZombieWrite } from './zombie_write';
