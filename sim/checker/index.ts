/**
 * The offline history checker: given a client history and the simulator's oracle, it reports
 * Kafka exactly-once anomalies in Kafka's own terms. It imports only the history and oracle
 * types, so a history recorded from a real cluster can be checked the same way.
 */
export { ANOMALY_KINDS } from './anomaly_types';
export type { Anomaly, AnomalyKind, CheckResult } from './anomaly_types';
export { CHECKERS, EXAMPLES_MAX_DEFAULT, checkHistory } from './check_history';
export type { CheckHistoryOptions, NamedChecker } from './check_history';
export { CheckContext } from './check_context';
export { CheckerInputError } from './input_error';
export { checkAbortedRead } from './aborted_read';
export { checkDuplicate } from './duplicate';
export { checkInvariant } from './invariant';
export { checkLostWrite } from './lost_write';
export type { LostWriteClassification } from './lost_write';
export { checkUncommittedRead } from './uncommitted_read';
export type { UncommittedReadClassification } from './uncommitted_read';
export { checkZombieWrite } from './zombie_write';
