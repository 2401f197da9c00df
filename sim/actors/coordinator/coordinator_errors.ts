/**
 * The errors a transaction coordinator answers with when its own `__transaction_state` write
 * fails (TransactionStateManager.appendTransactionToLog).
 */
import type { KafkaErrorCode } from '../protocol';

/** What a failed `__transaction_state` append tells the client (appendTransactionToLog). */
export function coordinatorErrorFor(appendError: KafkaErrorCode): KafkaErrorCode {
  switch (appendError) {
    case 'NOT_ENOUGH_REPLICAS':
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
    case 'REQUEST_TIMED_OUT':
    case 'UNKNOWN_TOPIC_OR_PARTITION':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
    case 'NOT_COORDINATOR':
      return 'NOT_COORDINATOR';
    default:
      return 'UNKNOWN_SERVER_ERROR';
  }
}
