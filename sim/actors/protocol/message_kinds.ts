/**
 * The Kafka request and response kinds the model exchanges, by Kafka's API names. Scenario
 * files name them to aim a network fault at one message type (`ProduceResponse`), so the list is
 * public and validated by the scenario loader.
 */
export const KAFKA_MESSAGE_KINDS = [
  'Produce',
  'ProduceResponse',
  'Fetch',
  'FetchResponse',
  'ListOffsets',
  'ListOffsetsResponse',
  'FindCoordinator',
  'FindCoordinatorResponse',
  'InitProducerId',
  'InitProducerIdResponse',
  'AddPartitionsToTxn',
  'AddPartitionsToTxnResponse',
  'EndTxn',
  'EndTxnResponse',
  'WriteTxnMarkers',
  'WriteTxnMarkersResponse',
  'Metadata',
  'MetadataResponse',
  'BrokerHeartbeat',
  'BrokerHeartbeatResponse',
  'AlterPartition',
  'AlterPartitionResponse',
  'PartitionChange',
  'DescribeProducers',
  'DescribeProducersResponse',
  'ListTransactions',
  'ListTransactionsResponse',
  'DescribeTransactions',
  'DescribeTransactionsResponse',
] as const;

/** One of {@link KAFKA_MESSAGE_KINDS}. */
export type KafkaMessageKind = (typeof KAFKA_MESSAGE_KINDS)[number];
