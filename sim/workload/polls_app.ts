/**
 * A consumer application: it assigns every partition of its topics and polls every
 * `poll.interval.ms`; each poll is one `poll` operation listing the delivered records and the
 * positions after it. The final reader uses the same consumer to read every partition from
 * offset 0 up to its end offset (`final-read` operations), after the faults healed.
 */
import type { ActorContext } from '../kernel';
import type { ConsumerRecord, KafkaConsumer, KafkaMessage, TopicPartition } from '../actors';
import { partitionKey } from '../actors';
import type { PollValue } from '../history';
import { deliveredBatchesOf } from '../history';
import type { HistoryWriter } from './history_writer';
import type { AppTimer } from './transactions_app';
import type { PollsSpec, WorkloadControl } from './workload_types';

/**
 * Builds a poll operation's value from delivered records and the consumer's positions, with the
 * partitions the application or the group repositioned since the previous poll, if any.
 */
export function pollValue(
  consumer: KafkaConsumer,
  records: readonly ConsumerRecord[],
  repositioned: readonly TopicPartition[] = [],
): PollValue {
  const value = {
    isolationLevel: consumer.config.isolationLevel,
    // One run per fetched batch (consecutive offsets of one partition), not one entry per record.
    batches: deliveredBatchesOf(records),
    // Every poll records every position: plain literals, not spreads, keep it cheap.
    positions: consumer.assignment().map((tp) => {
      const highWatermark = consumer.lastHighWatermark(tp);
      const { topic, partition } = tp;
      const position = consumer.position(tp) ?? -1;
      return highWatermark === undefined
        ? { topic, partition, position }
        : { topic, partition, position, highWatermark };
    }),
  };
  if (repositioned.length === 0) return value;
  const partitions = repositioned.map(({ topic, partition }) => ({ topic, partition }));
  return { ...value, repositioned: partitions };
}

/** A consumer application polling on a fixed interval. */
export class PollsApp {
  /** Set by the liveness check after heal: keep polling to catch up. */
  private probing = false;
  constructor(
    private readonly spec: PollsSpec,
    private readonly consumer: KafkaConsumer,
    private readonly deps: {
      readonly writer: HistoryWriter;
      readonly control: WorkloadControl;
      readonly partitions: readonly TopicPartition[];
      readonly ctx: ActorContext<KafkaMessage>;
    },
  ) {}

  get busy(): boolean {
    return this.consumer.polling;
  }

  start(): void {
    this.consumer.assign(this.deps.partitions);
    this.pollOnce();
  }

  onTimer(timer: AppTimer): void {
    if (timer.type === 'poll') this.pollOnce();
  }

  /** Polls again after the workload stopped, so the liveness check can see it catch up. */
  probe(): boolean {
    this.probing = true;
    if (!this.consumer.polling) this.pollOnce();
    return true;
  }

  /** Ends the probe: no further polls. */
  endProbe(): void {
    this.probing = false;
  }

  /** The consumer's position on `tp`, if it has one. */
  position(tp: TopicPartition): number | undefined {
    return this.consumer.position(tp);
  }

  private pollOnce(): void {
    if (this.deps.control.stopping && !this.probing) return;
    const op = this.deps.writer.invoke('poll', pollValue(this.consumer, []));
    this.consumer.poll((records) => {
      this.deps.writer.complete(op, 'ok', pollValue(this.consumer, records));
      this.deps.ctx.setTimer(this.spec.pollIntervalMs * 1000, {
        owner: 'app',
        type: 'poll',
      } satisfies AppTimer);
    });
  }
}

/** Reads every partition from 0 to its end offset, recording `final-read` operations. */
export class FinalReader {
  private targets = new Map<string, number>();
  /** True once every partition was read up to the end offset taken at the start. */
  done = false;

  constructor(
    private readonly consumer: KafkaConsumer,
    private readonly writer: HistoryWriter,
    private readonly partitions: readonly TopicPartition[],
    /** Calls `begin` again later: a partition without a leader answers at once. */
    private readonly retryLater: () => void,
  ) {}

  /** Starts the final read. */
  begin(): void {
    this.consumer.assign(this.partitions);
    for (const tp of this.partitions) this.consumer.seek(tp, 0);
    this.consumer.endOffsets(this.partitions, (offsets) => {
      // A ListOffsets request timed out, or a partition has no leader yet: ask again later
      // (answering at once from the same state would recurse forever).
      if (offsets.size < this.partitions.length) return this.retryLater();
      this.targets = offsets;
      this.readMore();
    });
  }

  private readMore(): void {
    const behind = this.partitions.some(
      (tp) => (this.consumer.position(tp) ?? 0) < (this.targets.get(partitionKey(tp)) ?? 0),
    );
    if (!behind) {
      this.done = true;
      return;
    }
    const op = this.writer.invoke('final-read', pollValue(this.consumer, []));
    this.consumer.poll((records) => {
      this.writer.complete(op, 'ok', pollValue(this.consumer, records));
      this.readMore();
    });
  }
}
