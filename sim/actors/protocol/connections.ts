/**
 * The client connections of the model, named by the message kinds each carries (for
 * `ctx.closeConnection`). Kafka gives each client component its own NetworkClient and so its own
 * TCP connection to a broker: the producer's, the consumer's fetch client and its separate
 * group-coordinator connection, the replica fetcher's, the transaction marker channel's, the
 * AddPartitionsToTxn manager's, the admin client's. When a request times out, the component
 * closes that connection (NetworkClient.handleTimedOutRequests → processTimeoutDisconnection),
 * and whatever is still on its way on it, either way, is lost instead of arriving later.
 * The Java producer sends its Produce and coordinator requests on one connection per broker;
 * the model closes only the kinds of the component that timed out, and the other finds out at
 * its own timeout.
 *
 * {@link kafkaLaneMap} gives the kernel each kind's connection, so that each keeps FIFO order
 * of its own (`sim/kernel/lanes.ts`).
 */
import type { Connection, LaneMap, LaneOfKind } from '../../kernel';
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

/**
 * A broker's heartbeat channel to the controller (BrokerLifecycleManager's
 * NodeToControllerChannelManager). The controller's metadata changes (PartitionChange) come back
 * on it: the model pushes on this connection what a KRaft broker fetches from the quorum.
 */
export const CONTROLLER_HEARTBEAT_CONNECTION: Connection = {
  sends: ['BrokerHeartbeat'],
  receives: ['BrokerHeartbeatResponse', 'PartitionChange'],
};

/** Every client connection of the model, by name (the names only tell lanes apart). */
const CONNECTIONS: Readonly<Record<string, Connection>> = {
  produce: PRODUCE_CONNECTION,
  'producer-coordinator': PRODUCER_COORDINATOR_CONNECTION,
  metadata: METADATA_CONNECTION,
  'consumer-fetch': CONSUMER_FETCH_CONNECTION,
  'group-coordinator': GROUP_COORDINATOR_CONNECTION,
  'replica-fetch': REPLICA_FETCH_CONNECTION,
  marker: MARKER_CONNECTION,
  admin: ADMIN_CONNECTION,
  verification: VERIFICATION_CONNECTION,
  'controller-heartbeat': CONTROLLER_HEARTBEAT_CONNECTION,
};

/**
 * Each request kind's lane, and its response's. A kind only one connection carries travels on
 * that connection's lane. A kind several carry gets a lane of its own, which a close of any of
 * them closes: the kernel knows a message by its kind, and one node may run two of those
 * connections (a pipeline's producer and consumer both send FindCoordinator), so sharing the
 * first one's lane would let a close of one connection cut the other. Fetch, WriteTxnMarkers
 * and AddPartitionsToTxn are shared by connections of different nodes (consumer and follower,
 * coordinator and admin, producer and partition leader), where the kind's lane is still one
 * per client. Kinds no connection names (AlterPartition, the admin forwarding to the
 * controller) share the link's default lane.
 */
const LANES: ReadonlyMap<string, LaneOfKind> = (() => {
  const carriers = new Map<string, string[]>();
  for (const [name, { sends }] of Object.entries(CONNECTIONS)) {
    for (const kind of sends) carriers.set(kind, [...(carriers.get(kind) ?? []), name]);
  }
  const lanes = new Map<string, LaneOfKind>();
  for (const [kind, names] of carriers) {
    const connection = names.length === 1 ? (names[0] as string) : kind;
    lanes.set(kind, { connection, fromClient: true });
    lanes.set(`${kind}Response`, { connection, fromClient: false });
  }
  // What a server sends unasked (the controller's PartitionChange) travels on its connection.
  for (const [name, { receives }] of Object.entries(CONNECTIONS)) {
    for (const kind of receives) {
      if (!lanes.has(kind)) lanes.set(kind, { connection: name, fromClient: false });
    }
  }
  return lanes;
})();

/** The connection each Kafka message kind travels on, for the kernel's FIFO lanes. */
export const kafkaLaneMap: LaneMap = (kind) => LANES.get(kind);
