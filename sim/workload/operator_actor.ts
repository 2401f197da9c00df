/**
 * The operator: a node running `kafka-transactions.sh` (KIP-664) and `kafka-topics.sh` when the
 * scenario says, through an admin client. Each action is recorded in the history as a nemesis
 * info operation
 * (`fault: 'operator'`): its start when issued, and its outcome (what describe-producers and
 * find-hanging found, what abort did) when the admin calls complete.
 */
import type { Actor, ActorContext, ConnectionReset, Envelope } from '../kernel';
import {
  ClientMetadata,
  KafkaAdmin,
  partitionKey,
  type AdminTimer,
  type FindHangingResult,
  type HangingTransaction,
  type KafkaMessage,
  type MetadataTimer,
  type TopicPartition,
  type TopicResult,
} from '../actors';
import type { ClientDeps } from './client_actor';

type Ctx = ActorContext<KafkaMessage>;

/** The node name of the operator. */
export const OPERATOR_NODE = 'operator';
/** The admin client's `request.timeout.ms`. */
const ADMIN_REQUEST_TIMEOUT_MS = 30_000;

/** One `kafka-transactions.sh` command (the scenario's `kind: operator` fault). */
export interface OperatorAction {
  readonly action:
    'describe-producers' | 'find-hanging' | 'abort' | 'create-topics' | 'create-partitions';
  readonly topic: string;
  /** null: every partition of the topic. */
  readonly partition: number | null;
  /** abort only; null: abort every transaction find-hanging reports. */
  readonly startOffset: number | null;
  readonly maxTransactionTimeoutMs: number;
  /** create-topics and create-partitions: `--partitions`. */
  readonly partitions: number | null;
  /** create-topics: `--replication-factor`. */
  readonly replicationFactor: number | null;
}

/** The operator's node. */
export class OperatorActor implements Actor<KafkaMessage> {
  private ctx: Ctx | null = null;
  private metadata: ClientMetadata | null = null;
  private admin: KafkaAdmin | null = null;
  /** Actions waiting for fresh metadata. */
  private waiting: OperatorAction[] = [];

  constructor(private readonly deps: ClientDeps) {}

  onStart(ctx: Ctx): void {
    this.ctx = ctx;
    const cluster = this.deps.metadata;
    const timing = { requestTimeoutMs: ADMIN_REQUEST_TIMEOUT_MS, retryBackoffMs: 100 };
    const metadata = new ClientMetadata(cluster.brokers, cluster.initialStates(), ctx, timing);
    metadata.onUpdate = () => this.runWaiting();
    this.metadata = metadata;
    this.admin = new KafkaAdmin(metadata, ctx, ADMIN_REQUEST_TIMEOUT_MS);
  }

  onCrash(): void {
    this.ctx = null;
    this.metadata = null;
    this.admin = null;
    this.waiting = [];
  }

  onMessage(envelope: Envelope<KafkaMessage>): void {
    const message = envelope.payload as KafkaMessage | ConnectionReset;
    if (message.kind === 'ConnectionReset') {
      this.metadata?.onConnectionReset(message.peer);
      this.admin?.onConnectionReset(message.peer);
    } else if (message.kind === 'MetadataResponse') this.metadata?.onResponse(message);
    else if ('correlationId' in message) this.admin?.onResponse(message);
  }

  onTimer(payload: unknown): void {
    const timer = payload as { owner: string };
    if (timer.owner === 'metadata') this.metadata?.onTimer(payload as MetadataTimer);
    else if (timer.owner === 'admin') this.admin?.onTimer(payload as AdminTimer);
  }

  /** Runs `action` once fresh metadata arrived (called by the runner in a kernel event). */
  run(action: OperatorAction): void {
    if (this.metadata === null) return this.record(`${command(action)}: operator is down`);
    this.waiting.push(action);
    this.metadata.requestRefresh();
  }

  private runWaiting(): void {
    const actions = this.waiting;
    this.waiting = [];
    for (const action of actions) this.execute(action);
  }

  private execute(action: OperatorAction): void {
    const admin = this.admin;
    if (admin === null) return;
    const partitions = this.partitionsOf(action);
    const name = command(action);
    switch (action.action) {
      case 'describe-producers':
        return admin.describeProducers(partitions, (results) => {
          const lines = [...results].map(([key, result]) =>
            result.error !== 'NONE'
              ? `${key}: ${admin.errorText(result.error)}`
              : `${key}: ` +
                (result.producers
                  .map(
                    (p) =>
                      `producerId ${p.producerId} epoch ${p.producerEpoch}` +
                      ` coordinatorEpoch ${p.coordinatorEpoch}` +
                      ` currentTransactionStartOffset ${p.currentTxnStartOffset}`,
                  )
                  .join('; ') || 'no producers'),
          );
          this.record(`${name}: ${lines.join(' | ')}`);
        });
      case 'find-hanging':
        return admin.findHanging(partitions, action.maxTransactionTimeoutMs, (result) =>
          this.record(`${name}: ${describeHanging(result)}`),
        );
      case 'abort':
        return this.abort(action, partitions, admin);
      case 'create-topics':
      case 'create-partitions':
        return this.topicAction(action, admin);
    }
  }

  /** `kafka-topics.sh --create` or `--alter --partitions`: each topic's error and message. */
  private topicAction(action: OperatorAction, admin: KafkaAdmin): void {
    const name = command(action);
    const report = (results: readonly TopicResult[]): void =>
      this.record(
        `${name}: ` +
          results
            .map((result) => `${result.name} ${result.error}`)
            .concat(results.flatMap((result) => result.errorMessage ?? []))
            .join(': '),
      );
    const topic = action.topic;
    const partitions = action.partitions ?? 0;
    if (action.action === 'create-partitions') {
      return admin.createPartitions([{ name: topic, count: partitions }], report);
    }
    const replicationFactor = action.replicationFactor ?? 0;
    admin.createTopics([{ name: topic, numPartitions: partitions, replicationFactor }], report);
  }

  /**
   * abort: the transaction at start.offset, or every one find-hanging reports. Each outcome says
   * why the transaction did or did not end: the find-hanging or DescribeProducers that failed,
   * nothing open there, or the WriteTxnMarkers(ABORT) answer with its error.
   */
  private abort(
    action: OperatorAction,
    partitions: readonly TopicPartition[],
    admin: KafkaAdmin,
  ): void {
    const name = command(action);
    const abortAll = (targets: HangingTransaction[], nothing: string): void => {
      if (targets.length === 0) return this.record(`${name}: nothing to abort: ${nothing}`);
      for (const target of targets) {
        admin.abortTransaction(target, (error) =>
          this.record(
            `${name}: WriteTxnMarkers(ABORT) for producerId ${target.producerId} epoch ` +
              `${target.producerEpoch} at ${partitionKey(target)} from offset ` +
              `${target.startOffset}: ${admin.errorText(error)}`,
          ),
        );
      }
    };
    if (action.startOffset === null) {
      return admin.findHanging(partitions, action.maxTransactionTimeoutMs, (result) =>
        abortAll(result.hanging, `find-hanging: ${describeHanging(result)}`),
      );
    }
    const startOffset = action.startOffset;
    admin.describeProducers(partitions, (results) => {
      const errors = [...results].filter(([, result]) => result.error !== 'NONE');
      const targets = partitions.flatMap((tp) =>
        (results.get(partitionKey(tp))?.producers ?? [])
          .filter((producer) => producer.currentTxnStartOffset === startOffset)
          .map((producer) => ({
            ...tp,
            producerId: producer.producerId,
            producerEpoch: producer.producerEpoch,
            coordinatorEpoch: producer.coordinatorEpoch,
            startOffset,
            reason: 'named by start.offset',
          })),
      );
      const nothing =
        errors.length > 0
          ? 'DescribeProducers ' +
            errors.map(([key, { error }]) => `${key} ${admin.errorText(error)}`).join(', ')
          : `no producer has an open transaction from offset ${startOffset}`;
      abortAll(targets, nothing);
    });
  }

  private partitionsOf(action: OperatorAction): readonly TopicPartition[] {
    if (action.partition !== null) return [{ topic: action.topic, partition: action.partition }];
    return this.metadata?.partitionsOf(action.topic) ?? [];
  }

  private record(description: string): void {
    this.deps.recorder.append({
      timeUs: this.deps.clock(),
      type: 'info',
      process: 'nemesis',
      client: 'nemesis',
      f: 'nemesis',
      value: { fault: 'operator', phase: 'end', description },
    });
  }
}

/** The command line an action stands for. */
function command(action: OperatorAction): string {
  if (action.action === 'create-topics') {
    return (
      `kafka-topics --create --topic ${action.topic} --partitions ${action.partitions} ` +
      `--replication-factor ${action.replicationFactor}`
    );
  }
  if (action.action === 'create-partitions') {
    return `kafka-topics --alter --topic ${action.topic} --partitions ${action.partitions}`;
  }
  const where =
    action.partition === null
      ? `--topic ${action.topic}`
      : `--topic ${action.topic} --partition ${action.partition}`;
  const from = action.startOffset === null ? '' : ` --start-offset ${action.startOffset}`;
  return `kafka-transactions ${action.action} ${where}${from}`;
}

function describeHanging(result: FindHangingResult): string {
  if (result.failure !== null) return result.failure;
  const recent = result.recent.length === 0 ? '' : ` (passed over: ${result.recent.join('; ')})`;
  if (result.hanging.length === 0) return `no hanging transactions${recent}`;
  return (
    result.hanging
      .map(
        (txn) =>
          `hanging: ${partitionKey(txn)} producerId ${txn.producerId} epoch ${txn.producerEpoch}` +
          ` from offset ${txn.startOffset} (${txn.reason})`,
      )
      .join(' | ') + recent
  );
}
