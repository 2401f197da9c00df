/**
 * The client connections of the model, named by the message kinds each carries (for
 * `ctx.closeConnection`). Kafka gives each client component its own NetworkClient and so its own
 * TCP connection to a broker: the producer's, the consumer's fetch client and its separate
 * group-coordinator connection, the replica fetcher's, the transaction marker channel's, the
 * AddPartitionsToTxn manager's, the admin client's. When a request times out, the component
 * closes that connection (NetworkClient.handleTimedOutRequests → processTimeoutDisconnection),
 * and whatever a network partition still holds of it is lost instead of arriving after the heal.
 * The Java producer sends its Produce and coordinator requests on one connection per broker;
 * the model closes only the kinds of the component that timed out, and the other finds out at
 * its own timeout.
 */
import type { Connection } from '../../kernel';
import type { KafkaMessageKind } from './message_kinds';

/** A request kind: one whose response kind is its name plus `Response`. */
type RequestKind = {
  [K in KafkaMessageKind]: `${K}Response` extends KafkaMessageKind ? K : never;
}[KafkaMessageKind];

/** The connection a client opens for `requests`: they go out, their responses come back. */
export function connectionOf(...requests: RequestKind[]): Connection {
  return { sends: requests, receives: requests.map((request) => `${request}Response`) };
}

/** The producer's Produce requests to a broker. */
export const PRODUCE_CONNECTION = connectionOf('Produce');

/** The producer's coordinator requests (one in flight at a time). */
export const PRODUCER_COORDINATOR_CONNECTION = connectionOf(
  'FindCoordinator',
  'InitProducerId',
  'AddPartitionsToTxn',
  'AddOffsetsToTxn',
  'EndTxn',
  'TxnOffsetCommit',
);

/** A client's metadata requests (the producer's and the consumer's metadata refresh). */
export const METADATA_CONNECTION = connectionOf('Metadata');

/** The consumer's fetch client: fetches and offset lookups to partition leaders. */
export const CONSUMER_FETCH_CONNECTION = connectionOf('Fetch', 'ListOffsets');

/** The consumer's connection to its group coordinator (a separate node id in Java's client). */
export const GROUP_COORDINATOR_CONNECTION = connectionOf(
  'FindCoordinator',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
  'OffsetCommit',
  'OffsetFetch',
);

/** A follower's replica fetcher to its leader (`replica.socket.timeout.ms`). */
export const REPLICA_FETCH_CONNECTION = connectionOf('Fetch');

/** The transaction coordinator's marker channel to a partition leader. */
export const MARKER_CONNECTION = connectionOf('WriteTxnMarkers');

/** The admin client's requests (Admin API calls and the operator's marker writes). */
export const ADMIN_CONNECTION = connectionOf(
  'DescribeProducers',
  'ListTransactions',
  'DescribeTransactions',
  'WriteTxnMarkers',
  'CreateTopics',
  'CreatePartitions',
);

/** The partition leader's AddPartitionsToTxn manager to a transaction coordinator (KIP-890). */
export const VERIFICATION_CONNECTION = connectionOf('AddPartitionsToTxn');
