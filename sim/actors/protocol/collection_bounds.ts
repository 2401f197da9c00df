/**
 * The Kafka model's bounds on its long-lived collections, listed once (style rule 32). Where
 * Kafka has a limit of its own the model keeps it where it belongs and says so here
 * (`max.incremental.fetch.session.cache.slots` evicts, `NUM_BATCHES_TO_RETAIN` trims,
 * `max.in.flight.requests.per.connection` is asserted by the producer); every other collection
 * gets a maximum derived from the scenario limits (sim/config/limits.ts: 100 brokers, 100
 * clients, 10000 partitions, 1000 internal partitions; the history bound of 2000000 operations)
 * with a wide margin, so that only a runaway loop reaches it. Reaching one ends the run with the
 * kernel's CollectionBoundExceededError naming the collection (`budget-exceeded`, exit 4); the
 * bounds never change a run that stays within them. docs/scenarios.md lists them.
 */
import type { CollectionBound } from '../../kernel';

/** The scenario limits the bounds derive from (a test pins them to sim/config/limits.ts). */
export const BOUND_BASIS = {
  brokers: 100,
  clients: 100,
  partitionsTotal: 10_000,
  internalTopicPartitions: 1_000,
  historyOpsMax: 2_000_000,
} as const;

function bound(name: string, collection: string, max: number): CollectionBound {
  return { name, collection, max };
}

/** Anything keyed by partition: at most every partition of the cluster. */
const PARTITIONS = BOUND_BASIS.partitionsTotal;
/** Anything keyed by broker. */
const BROKERS = BOUND_BASIS.brokers;
/**
 * Anything that grows with the clients' operations (producer ids, transactions, aborted
 * transactions, commits): each takes at least one history operation.
 */
const OPERATIONS = BOUND_BASIS.historyOpsMax;
/**
 * Requests one node has outstanding at once: far above 100 clients × 5 in flight, and every
 * request leaves by its answer or its `request.timeout.ms`.
 */
const REQUESTS = 100_000;
/** Leader epochs of one partition: each takes a controller election. */
const LEADER_EPOCHS = 1_000_000;

/** Every bound of the Kafka model, by collection. */
export const COLLECTION_BOUNDS = {
  // Broker: one partition's log (UnifiedLog, ProducerStateManager, TransactionIndex).
  logBatches: bound(
    'LOG_BATCHES_PER_PARTITION_MAX',
    'batches of one partition log',
    // At most one batch per delivered message and 2 per operation without faults; ten million
    // batches is gigabytes of heap.
    10_000_000,
  ),
  producerStates: bound(
    'PRODUCER_STATES_PER_PARTITION_MAX',
    'producer state entries of one partition',
    OPERATIONS,
  ),
  verifications: bound(
    'VERIFICATIONS_PER_PARTITION_MAX',
    'transaction verifications of one partition',
    OPERATIONS,
  ),
  ongoingTransactions: bound(
    'ONGOING_TRANSACTIONS_PER_PARTITION_MAX',
    'ongoing transactions of one partition',
    OPERATIONS,
  ),
  unreplicatedTransactions: bound(
    'UNREPLICATED_TRANSACTIONS_PER_PARTITION_MAX',
    'completed transactions above the high watermark of one partition',
    OPERATIONS,
  ),
  abortedTransactions: bound(
    'ABORTED_TRANSACTIONS_PER_PARTITION_MAX',
    'aborted transactions of one partition',
    OPERATIONS,
  ),
  leaderEpochs: bound(
    'LEADER_EPOCHS_PER_PARTITION_MAX',
    'leader-epoch cache entries',
    LEADER_EPOCHS,
  ),
  truncations: bound('TRUNCATIONS_PER_REPLICA_MAX', 'truncations of one replica', LEADER_EPOCHS),
  leaderTerms: bound('LEADER_TERMS_PER_REPLICA_MAX', 'leader terms of one replica', LEADER_EPOCHS),
  followers: bound('FOLLOWERS_PER_PARTITION_MAX', 'follower states of one leader', BROKERS),
  // Broker: replica manager, purgatory, fetcher, verifier.
  replicas: bound('REPLICAS_PER_BROKER_MAX', 'replicas of one broker', PARTITIONS),
  metadataCache: bound('METADATA_CACHE_MAX', 'partitions in a metadata cache', PARTITIONS),
  alterPartitionRequests: bound(
    'ALTER_PARTITION_REQUESTS_MAX',
    'AlterPartition requests in flight from one broker',
    PARTITIONS,
  ),
  fencedBrokers: bound('FENCED_BROKERS_MAX', 'fenced brokers', BROKERS),
  delayedProduces: bound('DELAYED_PRODUCES_MAX', 'produces waiting in one purgatory', REQUESTS),
  delayedFetches: bound('DELAYED_FETCHES_MAX', 'fetches waiting in one purgatory', REQUESTS),
  fetcherLeaders: bound(
    'FETCHER_LEADERS_MAX',
    'leaders one replica fetcher follows (in flight, backing off, sessions)',
    BROKERS,
  ),
  sessionPartitions: bound(
    'FETCH_SESSION_PARTITIONS_MAX',
    'partitions of one fetch session',
    PARTITIONS,
  ),
  pendingVerifications: bound(
    'PENDING_VERIFICATIONS_MAX',
    'verification requests in flight from one broker',
    REQUESTS,
  ),
  // Controller.
  controllerPartitions: bound(
    'CONTROLLER_PARTITIONS_MAX',
    'partitions of the controller',
    PARTITIONS,
  ),
  controllerBrokers: bound('CONTROLLER_BROKERS_MAX', 'brokers the controller tracks', BROKERS),
  elections: bound('ELECTIONS_MAX', 'elections the controller recorded', LEADER_EPOCHS),
  // Transaction coordinator.
  transactionalIds: bound(
    'TRANSACTIONAL_IDS_MAX',
    'transactional ids of one __transaction_state partition',
    OPERATIONS,
  ),
  coordinatorPartitions: bound(
    'COORDINATOR_PARTITIONS_MAX',
    'coordinator partitions one broker leads',
    BOUND_BASIS.internalTopicPartitions,
  ),
  markerJobs: bound(
    'MARKER_JOBS_MAX',
    'transactions one coordinator writes markers for',
    OPERATIONS,
  ),
  markerRequests: bound('MARKER_REQUESTS_MAX', 'WriteTxnMarkers requests in flight', REQUESTS),
  // Group coordinator.
  groups: bound('GROUPS_MAX', 'groups of one __consumer_offsets partition', OPERATIONS),
  groupMembers: bound('GROUP_MEMBERS_MAX', 'members of one group (joined or pending)', REQUESTS),
  committedOffsets: bound('COMMITTED_OFFSETS_MAX', 'committed offsets of one group', OPERATIONS),
  pendingOffsetCommits: bound(
    'PENDING_TRANSACTIONAL_OFFSETS_MAX',
    'producers with pending transactional offsets in one group',
    OPERATIONS,
  ),
  // Clients.
  clientPartitions: bound('CLIENT_PARTITIONS_MAX', 'partitions one client tracks', PARTITIONS),
  clientRequests: bound('CLIENT_REQUESTS_MAX', 'requests one client has in flight', REQUESTS),
  clientBrokers: bound('CLIENT_BROKERS_MAX', 'brokers one client tracks', BROKERS),
  generations: bound('GENERATIONS_MAX', 'generations one consumer joined', OPERATIONS),
  queuedOffsetCommits: bound(
    'QUEUED_TXN_OFFSET_COMMITS_MAX',
    'sendOffsetsToTransaction calls one producer queues',
    OPERATIONS,
  ),
} as const satisfies Record<string, CollectionBound>;
