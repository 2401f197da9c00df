/**
 * The Kafka model: brokers with their partition logs and transaction coordinators, and the
 * producer and consumer clients. It imports only the kernel.
 */
export * from './protocol';
export { Broker, type BrokerOptions } from './broker/broker';
export { ClusterMetadata, type ConsumerOffsetsLogSpec } from './broker/cluster_metadata';
export {
  DEFAULT_GROUP_COORDINATOR_SETTINGS,
  GROUP_LOG_LOAD_US,
  GroupCoordinator,
  type GroupCoordinatorSettings,
  type GroupSummary,
} from './group/group_coordinator';
export { NEW_MEMBER_JOIN_TIMEOUT_MS, type GroupTimer } from './group/group_membership';
export { VALID_PREVIOUS_GROUP_STATES, type GroupState } from './group/group_metadata';
export { PartitionLog, type OffsetChange, type PartitionBugs } from './broker/partition_log';
export { DIRTY_EXPIRE_US } from './broker/log_flush';
export { NUM_BATCHES_TO_RETAIN } from './broker/producer_state';
export {
  TRANSACTION_LOG_LOAD_US,
  TransactionCoordinator,
  type CoordinatorSettings,
  type CoordinatorTimer,
} from './coordinator/transaction_coordinator';
export {
  VALID_PREVIOUS_STATES,
  transactionStatePartitionFor,
  type TransactionMetadata,
  type TransactionState,
} from './coordinator/transaction_metadata';
export { KafkaProducer, type ProducerMetadata } from './producer/kafka_producer';
export { StickyPartitioner, partitionForKey } from './producer/partitioner';
export { ClientMetadata, type MetadataTimer } from './client/client_metadata';
export {
  Controller,
  CONTROLLER_ID,
  type ControllerSettings,
  type ElectionRecord,
} from './controller/controller';
export {
  PartitionReplica,
  type ReplicationSettings,
  type TruncationRecord,
} from './broker/partition_replica';
export type { TopicSpec } from './broker/cluster_metadata';
export type { SendError, SendResult } from './producer/producer_batch';
export type { ClientTransactionState, ProducerConfig } from './producer/producer_config';
export { MAX_BLOCK_MS_DEFAULT } from './producer/producer_config';
export { RecordSender, type SenderTimer } from './producer/record_sender';
export type { ClientFlavour, ClientRules } from './producer/client_rules';
export {
  KafkaConsumer,
  type ConsumerMetadata,
  type ConsumerTimer,
} from './consumer/kafka_consumer';
export type { ConsumerConfig, ConsumerGroupMetadata } from './consumer/consumer_config';
export { resolveConsumerConfig } from './consumer/consumer_config';
export {
  ConsumerCoordinator,
  joinGroupTimeoutMs,
  type MemberState,
  type RebalanceListener,
} from './consumer/consumer_coordinator';
export { rangeAssign, RANGE_ASSIGNOR_NAME, type AssignorMember } from './consumer/range_assignor';
export { filterFetchedBatches, type ConsumerRecord } from './consumer/fetch_filter';
export {
  KafkaAdmin,
  type AdminTimer,
  type FindHangingResult,
  type HangingTransaction,
} from './admin/kafka_admin';
export { withProperties } from './options';
