/**
 * The Admin client calls of KIP-664 that `kafka-transactions.sh` is built on (TransactionsCommand):
 * describe-producers, list, describe, find-hanging and abort. Requests fan out to the partition
 * leaders or to every broker (a broker's coordinator answers only for the ids it serves); a request
 * unanswered within `request.timeout.ms` counts as no answer. The abort is a WriteTxnMarkers(ABORT)
 * sent straight to the partition leader with the producer's current epoch and coordinator epoch,
 * validated there like any marker (TransactionMarkerChannelManager.addTxnMarkersToSend).
 */
import type { ActorContext, NodeId } from '../../kernel';
import { BoundedMap } from '../../kernel';
import { ADMIN_CONNECTION, COLLECTION_BOUNDS } from '../protocol';
import type {
  CreatePartitionsRequest,
  CreateTopicsRequest,
  DescribeProducersResponse,
  KafkaErrorCode,
  KafkaMessage,
  KafkaRequest,
  ProducerStateView,
  TopicPartition,
  TopicResult,
  TransactionDescription,
} from '../protocol';
import { partitionKey } from '../protocol';

type Ctx = ActorContext<KafkaMessage>;

/** The admin client's timer. */
export interface AdminTimer {
  readonly owner: 'admin';
  readonly correlationId: number;
  /** A topic admin call's next attempt, after `retry.backoff.ms`. */
  readonly retry?: () => void;
}

/** The admin client's `default.api.timeout.ms`: how long a call is retried. */
const DEFAULT_API_TIMEOUT_MS = 60_000;
/** The admin client's `retry.backoff.ms`. */
const ADMIN_RETRY_BACKOFF_MS = 100;

/** A hanging transaction as `find-hanging` reports it. */
export interface HangingTransaction extends TopicPartition {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly startOffset: number;
  /** Why the coordinator does not account for it. */
  readonly reason: string;
}

/**
 * What `find-hanging` found. `failure` is why the command failed, in TransactionsCommand's words
 * ("Failed to describe producers for 1 partitions: …"): Kafka's command exits there, so nothing
 * is reported and nothing aborted. `recent` are the open transactions it passed over because
 * their last write is not older than --max-transaction-timeout.
 */
export interface FindHangingResult {
  readonly hanging: HangingTransaction[];
  readonly failure: string | null;
  readonly recent: string[];
}

/** Where the admin client finds brokers. */
export interface AdminMetadata {
  readonly brokers: readonly NodeId[];
  leaderOf(tp: TopicPartition): NodeId | null;
}

type PartitionProducers = { error: KafkaErrorCode; producers: readonly ProducerStateView[] };

/** One admin client. */
export class KafkaAdmin {
  private pending = new BoundedMap<
    number,
    { broker: NodeId; timerId: number; done: (response: KafkaMessage | null) => void }
  >(COLLECTION_BOUNDS.clientRequests);
  private correlationIds = 1;

  constructor(
    private readonly metadata: AdminMetadata,
    private readonly ctx: Ctx,
    private readonly requestTimeoutMs: number,
  ) {}

  /** Routes a response; false when it is not one of this client's. */
  onResponse(response: KafkaMessage & { correlationId: number }): boolean {
    const request = this.pending.get(response.correlationId);
    if (request === undefined) return false;
    this.pending.delete(response.correlationId);
    this.ctx.cancelTimer(request.timerId);
    request.done(response);
    return true;
  }

  onTimer(timer: AdminTimer): void {
    if (timer.retry !== undefined) return timer.retry();
    const broker = this.pending.get(timer.correlationId)?.broker;
    // request.timeout.ms: the client disconnects, so a partition's held bytes of it are lost.
    if (broker !== undefined) this.ctx.closeConnection(broker, ADMIN_CONNECTION);
    this.fail(timer.correlationId);
  }

  /** The connection to `peer` was reset: its requests get no answer. */
  onConnectionReset(peer: NodeId): void {
    for (const [correlationId, request] of [...this.pending]) {
      if (request.broker !== peer) continue;
      this.ctx.cancelTimer(request.timerId);
      this.fail(correlationId);
    }
  }

  /** `describe-producers`: each partition's producers, from its leader. */
  describeProducers(
    partitions: readonly TopicPartition[],
    done: (results: Map<string, PartitionProducers>) => void,
  ): void {
    const results = new Map<string, PartitionProducers>();
    const byLeader = new Map<NodeId, TopicPartition[]>();
    for (const tp of partitions) {
      const leader = this.metadata.leaderOf(tp);
      if (leader === null)
        results.set(partitionKey(tp), { error: 'LEADER_NOT_AVAILABLE', producers: [] });
      else byLeader.set(leader, [...(byLeader.get(leader) ?? []), tp]);
    }
    this.fanOut(
      [...byLeader].map(([leader, tps]) => ({
        broker: leader,
        message: { kind: 'DescribeProducers', correlationId: 0, partitions: tps },
      })),
      (responses) => {
        for (const response of responses) {
          if (response?.kind !== 'DescribeProducersResponse') continue;
          for (const partition of (response as DescribeProducersResponse).partitions) {
            results.set(partitionKey(partition), partition);
          }
        }
        for (const tp of partitions) {
          if (!results.has(partitionKey(tp))) {
            results.set(partitionKey(tp), { error: 'REQUEST_TIMED_OUT', producers: [] });
          }
        }
        done(results);
      },
    );
  }

  /** `list --producer-id-filter`: producerId → transactional.ids, from every coordinator. */
  listTransactions(
    producerIds: readonly number[],
    done: (ids: Map<number, string[]>, unanswered: NodeId[]) => void,
  ): void {
    const brokers = this.metadata.brokers;
    this.fanOut(
      brokers.map((broker) => ({
        broker,
        message: { kind: 'ListTransactions', correlationId: 0, producerIdFilters: producerIds },
      })),
      (responses) => {
        const ids = new Map<number, string[]>();
        const unanswered = brokers.filter((_, index) => responses[index] === null);
        for (const response of responses) {
          if (response?.kind !== 'ListTransactionsResponse') continue;
          for (const txn of response.transactions) {
            ids.set(txn.producerId, [...(ids.get(txn.producerId) ?? []), txn.transactionalId]);
          }
        }
        done(ids, unanswered);
      },
    );
  }

  /** `describe`: each id as the coordinator that serves it describes it. */
  describeTransactions(
    transactionalIds: readonly string[],
    done: (descriptions: Map<string, TransactionDescription>) => void,
  ): void {
    this.fanOut(
      this.metadata.brokers.map((broker) => ({
        broker,
        message: { kind: 'DescribeTransactions', correlationId: 0, transactionalIds },
      })),
      (responses) => {
        const found = new Map<string, TransactionDescription>();
        for (const response of responses) {
          if (response?.kind !== 'DescribeTransactionsResponse') continue;
          for (const description of response.transactions) {
            const known = found.get(description.transactionalId);
            if (known === undefined || (known.error !== 'NONE' && description.error === 'NONE')) {
              found.set(description.transactionalId, description);
            }
          }
        }
        done(found);
      },
    );
  }

  /**
   * `find-hanging` (KIP-664; TransactionsCommand): producers with an open transaction whose last
   * write is older than `maxTransactionTimeoutMs`, and whose coordinator does not have that
   * partition in the transaction of their producerId (no transactional.id, id unknown, or partition
   * not in it).
   */
  findHanging(
    partitions: readonly TopicPartition[],
    maxTransactionTimeoutMs: number,
    done: (result: FindHangingResult) => void,
  ): void {
    const nowUs = this.ctx.nowUs();
    const failed = (failure: string) => done({ hanging: [], failure, recent: [] });
    this.describeProducers(partitions, (byPartition) => {
      // DescribeProducersResult.all() fails when one partition does (FindHangingTransactions).
      const errors = [...byPartition].filter(([, result]) => result.error !== 'NONE');
      if (errors.length > 0) {
        const causes = errors.map(([key, { error }]) => `${key} ${this.errorText(error)}`);
        return failed(
          `Failed to describe producers for ${partitions.length} partitions: ${causes.join(', ')}`,
        );
      }
      const open = partitions.flatMap((tp) =>
        (byPartition.get(partitionKey(tp))?.producers ?? [])
          .filter((producer) => producer.currentTxnStartOffset >= 0)
          .map((producer) => ({ tp, producer, idleMs: (nowUs - producer.lastTimestampUs) / 1000 })),
      );
      const candidates = open.filter(({ idleMs }) => idleMs >= maxTransactionTimeoutMs);
      const recent = open
        .filter(({ idleMs }) => idleMs < maxTransactionTimeoutMs)
        .map(
          ({ tp, producer, idleMs }) =>
            `producerId ${producer.producerId} at ${partitionKey(tp)} from offset ` +
            `${producer.currentTxnStartOffset} last wrote ${Math.floor(idleMs)} ms ago, not over ` +
            `--max-transaction-timeout ${maxTransactionTimeoutMs} ms`,
        );
      if (candidates.length === 0) return done({ hanging: [], failure: null, recent });
      const producerIds = [...new Set(candidates.map(({ producer }) => producer.producerId))];
      this.listTransactions(producerIds, (idsByProducer, unanswered) => {
        // ListTransactionsResult.all() fails when one broker does not answer.
        if (unanswered.length > 0) {
          return failed(
            `Failed to list transactions for ${producerIds.length} producers: no ` +
              `ListTransactionsResponse from ${unanswered.join(', ')} (` +
              `${this.errorText('REQUEST_TIMED_OUT')})`,
          );
        }
        const transactionalIds = [...new Set([...idsByProducer.values()].flat())];
        this.describeTransactions(transactionalIds, (descriptions) => {
          const hanging: HangingTransaction[] = [];
          for (const { tp, producer } of candidates) {
            const reason = hangingReason(tp, producer, idsByProducer, descriptions);
            if (reason === null) continue;
            hanging.push({
              ...tp,
              producerId: producer.producerId,
              producerEpoch: producer.producerEpoch,
              coordinatorEpoch: producer.coordinatorEpoch,
              startOffset: producer.currentTxnStartOffset,
              reason,
            });
          }
          done({ hanging, failure: null, recent });
        });
      });
    });
  }

  /** An error code as the tool prints it; no answer names the timeout that gave up on it. */
  errorText(error: KafkaErrorCode): string {
    if (error !== 'REQUEST_TIMED_OUT') return error;
    return (
      `REQUEST_TIMED_OUT: no answer within request.timeout.ms=${this.requestTimeoutMs}, or ` +
      'the connection closed first'
    );
  }

  /** `abort`: an ABORT marker for the producer's open transaction, sent to the leader. */
  abortTransaction(
    target: TopicPartition & {
      producerId: number;
      producerEpoch: number;
      coordinatorEpoch: number;
    },
    done: (error: KafkaErrorCode) => void,
  ): void {
    const leader = this.metadata.leaderOf(target);
    if (leader === null) return done('LEADER_NOT_AVAILABLE');
    this.request(
      leader,
      {
        kind: 'WriteTxnMarkers',
        correlationId: 0,
        producerId: target.producerId,
        producerEpoch: target.producerEpoch,
        coordinatorEpoch: target.coordinatorEpoch,
        committed: false,
        partitions: [{ topic: target.topic, partition: target.partition }],
        transactionVersion: 0,
      },
      (response) =>
        done(
          response?.kind === 'WriteTxnMarkersResponse'
            ? (response.results[0]?.error ?? 'UNKNOWN_SERVER_ERROR')
            : 'REQUEST_TIMED_OUT',
        ),
    );
  }

  /**
   * `createTopics` and `createPartitions` (`kafka-topics.sh --create`, `--alter --partitions`):
   * one request to a random broker, which forwards it to the controller (KIP-590). A request left
   * unanswered is sent again, to a broker drawn anew, `retry.backoff.ms` later until
   * `default.api.timeout.ms` after the call began (KafkaAdminClient's Call retries); then every
   * topic gets REQUEST_TIMED_OUT. A retry after a lost answer can meet its own first attempt's
   * work (TOPIC_ALREADY_EXISTS), as in Kafka.
   */
  createTopics(
    topics: CreateTopicsRequest['topics'],
    done: (results: readonly TopicResult[]) => void,
  ): void {
    const deadlineUs = this.ctx.nowUs() + DEFAULT_API_TIMEOUT_MS * 1000;
    this.topicAdmin({ kind: 'CreateTopics', correlationId: 0, topics }, deadlineUs, done);
  }

  /** `createPartitions`: each topic to `count` partitions in all; retried as createTopics is. */
  createPartitions(
    topics: CreatePartitionsRequest['topics'],
    done: (results: readonly TopicResult[]) => void,
  ): void {
    const deadlineUs = this.ctx.nowUs() + DEFAULT_API_TIMEOUT_MS * 1000;
    this.topicAdmin({ kind: 'CreatePartitions', correlationId: 0, topics }, deadlineUs, done);
  }

  private topicAdmin(
    message: CreateTopicsRequest | CreatePartitionsRequest,
    deadlineUs: number,
    done: (results: readonly TopicResult[]) => void,
  ): void {
    const brokers = this.metadata.brokers;
    const broker = brokers[this.ctx.rng.intInclusive(0, brokers.length - 1)] as NodeId;
    this.request(broker, message, (response) => {
      if (
        response?.kind === 'CreateTopicsResponse' ||
        response?.kind === 'CreatePartitionsResponse'
      )
        return done(response.topics);
      const retryUs = this.ctx.nowUs() + ADMIN_RETRY_BACKOFF_MS * 1000;
      if (retryUs < deadlineUs) {
        return void this.ctx.setTimer(ADMIN_RETRY_BACKOFF_MS * 1000, {
          owner: 'admin',
          correlationId: -1,
          retry: () => this.topicAdmin(message, deadlineUs, done),
        } satisfies AdminTimer);
      }
      const timedOut = 'REQUEST_TIMED_OUT' as const;
      done(message.topics.map(({ name }) => ({ name, error: timedOut, errorMessage: null })));
    });
  }

  /** Sends every request and calls `done` once all answered or timed out, in request order. */
  private fanOut(
    requests: ReadonlyArray<{ broker: NodeId; message: KafkaRequest }>,
    done: (responses: Array<KafkaMessage | null>) => void,
  ): void {
    const responses: Array<KafkaMessage | null> = requests.map(() => null);
    let outstanding = requests.length;
    if (outstanding === 0) return done(responses);
    for (const [index, { broker, message }] of requests.entries()) {
      this.request(broker, message, (response) => {
        responses[index] = response;
        outstanding -= 1;
        if (outstanding === 0) done(responses);
      });
    }
  }

  private request(
    broker: NodeId,
    message: KafkaRequest,
    done: (response: KafkaMessage | null) => void,
  ): void {
    const correlationId = this.correlationIds++;
    const timerId = this.ctx.setTimer(this.requestTimeoutMs * 1000, {
      owner: 'admin',
      correlationId,
    } satisfies AdminTimer);
    this.pending.set(correlationId, { broker, timerId, done });
    this.ctx.send(broker, { ...message, correlationId });
  }

  private fail(correlationId: number): void {
    const request = this.pending.get(correlationId);
    if (request === undefined) return;
    this.pending.delete(correlationId);
    request.done(null);
  }
}

/** Why a candidate is hanging, or null when its coordinator accounts for it. */
function hangingReason(
  tp: TopicPartition,
  producer: ProducerStateView,
  idsByProducer: ReadonlyMap<number, readonly string[]>,
  descriptions: ReadonlyMap<string, TransactionDescription>,
): string | null {
  const ids = idsByProducer.get(producer.producerId) ?? [];
  if (ids.length === 0) return `no transactional.id has producerId ${producer.producerId}`;
  for (const id of ids) {
    const description = descriptions.get(id);
    if (description === undefined || description.error !== 'NONE') continue;
    const inTransaction = description.partitions.some(
      (partition) => partitionKey(partition) === partitionKey(tp),
    );
    if (inTransaction && description.producerId === producer.producerId) return null;
    return `${id} is ${description.state ?? 'unknown'} without ${partitionKey(tp)}`;
  }
  return `transactional.id ${ids.join(', ')} not found at its coordinator`;
}
