/** The Kafka wire model shared by brokers and clients: messages, records and errors. */
export * from './errors';
export * from './message_kinds';
export * from './messages';
export * from './records';
export * from './transaction_log';
export * from './admin_messages';
export * from './group_log';
export * from './group_messages';
export * from './observations';
export * from './record_sizes';
export * from './collection_bounds';
export * from './produce_errors';
export * from './connections';
